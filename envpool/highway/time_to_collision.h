// highway-env's TimeToCollisionObservation (envs/common/observation.py and
// compute_ttc_grid in envs/common/finite_mdp.py): for each of the
// observer's target speeds, each lane of its road and each time step of the
// horizon, the cost (1 head-on, 0.5 by the bumpers) of a collision predicted
// at constant speeds with a vehicle on a connected road; then the 3 x 3
// window around the observer's speed index and lane (lanes beyond the road
// are ones, speeds beyond repeat the first and last).
#ifndef ENVPOOL_HIGHWAY_TIME_TO_COLLISION_H_
#define ENVPOOL_HIGHWAY_TIME_TO_COLLISION_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "envpool/highway/road.h"

namespace envpool::highway {

// RoadNetwork.is_connected_road: is lane 2 on, or leading to, lane 1's road
// or a road after it (along `route` from `first`, else any) within `depth`?
inline bool IsConnectedRoad(const RoadNetwork& net, const LaneIndex& l1,
                            const LaneIndex& l2,
                            const std::vector<LaneIndex>& route, size_t first,
                            int depth) {
  if (l2.SameRoad(l1) || l2.to == l1.from) {
    return true;
  }
  if (depth > 0) {
    if (first < route.size() && route[first].SameRoad(l1)) {
      return IsConnectedRoad(net, l1, l2, route, first + 1, depth);
    }
    if (first < route.size() && route[first].from == l1.to) {
      return IsConnectedRoad(net, route[first], l2, route, first + 1,
                             depth - 1);
    }
    for (const auto& road : net.roads()) {
      if (road.from == l1.to && IsConnectedRoad(net, {l1.to, road.to, l1.id},
                                                l2, route, first, depth - 1)) {
        return true;
      }
    }
  }
  return false;
}

// The (3, 3, horizon * policy_frequency) observation of vehicle `observer`.
inline void WriteTimeToCollision(const Road& road, int observer,
                                 int64_t policy_frequency, int horizon,
                                 float* obs) {
  const Vehicle& ego = road.vehicles[observer];
  const RoadNetwork& net = road.network;
  const int lanes = net.NumLanes(ego.lane_index.from, ego.lane_index.to);
  const double time_quantization = 1 / static_cast<double>(policy_frequency);
  const int time_cells = static_cast<int>(horizon / time_quantization);
  const int speeds = static_cast<int>(ego.target_speeds.size());
  std::vector<double> grid(speeds * lanes * time_cells, 0.0);
  auto cell = [&](int s, int l, int t) -> double& {
    return grid[(s * lanes + l) * time_cells + t];
  };
  const Vec2 ego_direction = ego.Direction();
  for (int speed_index = 0; speed_index < speeds; ++speed_index) {
    const double ego_speed = ego.target_speeds[speed_index];
    for (int j = 0; j < static_cast<int>(road.vehicles.size()); ++j) {
      const Vehicle& other = road.vehicles[j];
      if (j == observer || ego_speed == other.speed) {
        continue;
      }
      const double margin = other.length / 2 + ego.length / 2;
      const double points[3][2] = {{0, 1}, {-margin, 0.5}, {margin, 0.5}};
      for (const auto& [m, cost] : points) {
        const double distance = road.LaneDistance(ego, other) + m;
        const Vec2 od = other.Direction();
        const double other_projected_speed =
            other.speed * Dot2(od.x, od.y, ego_direction.x, ego_direction.y);
        const double time_to_collision =
            distance / NotZero(ego_speed - other_projected_speed);
        if (time_to_collision < 0) {
          continue;
        }
        if (!IsConnectedRoad(net, ego.lane_index, other.lane_index, ego.route,
                             0, 3)) {
          continue;
        }
        int lane_low = 0;
        int lane_high = lanes;
        if (net.NumLanes(other.lane_index.from, other.lane_index.to) == lanes) {
          lane_low = other.lane_index.id;
          lane_high = lane_low + 1;
        }
        const double t = time_to_collision / time_quantization;
        for (const int time :
             {static_cast<int>(t), static_cast<int>(std::ceil(t))}) {
          if (0 <= time && time < time_cells) {
            for (int l = lane_low; l < lane_high; ++l) {
              cell(speed_index, l, time) =
                  std::max(cell(speed_index, l, time), cost);
            }
          }
        }
      }
    }
  }
  for (int r = 0; r < 3; ++r) {
    const int s = std::clamp(ego.speed_index - 1 + r, 0, speeds - 1);
    for (int c = 0; c < 3; ++c) {
      const int l = ego.lane_index.id - 1 + c;
      for (int t = 0; t < time_cells; ++t) {
        obs[(r * 3 + c) * time_cells + t] =
            l < 0 || l >= lanes ? 1.0F : static_cast<float>(cell(s, l, t));
      }
    }
  }
}

}  // namespace envpool::highway

#endif  // ENVPOOL_HIGHWAY_TIME_TO_COLLISION_H_
