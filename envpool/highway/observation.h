// highway-env's KinematicObservation (envs/common/observation.py) with its
// defaults: features presence, x, y, vx, vy; normalised and clipped; the
// others relative to the observer; vehicles behind left out; sorted by
// distance along the observer's lane; obstacles included.
#ifndef ENVPOOL_HIGHWAY_OBSERVATION_H_
#define ENVPOOL_HIGHWAY_OBSERVATION_H_

#include <algorithm>
#include <cmath>
#include <vector>

#include "envpool/highway/road.h"

namespace envpool::highway {

// AbstractEnv.PERCEPTION_DISTANCE.
inline constexpr double kPerceptionDistance = 5.0 * Vehicle::kMaxSpeed;

// features_range: the half-widths of x, y, vx and vy, mapped to [-1, 1].
struct KinematicsRange {
  double x = kPerceptionDistance;
  // +-4 m times the lanes of the observer's road at the episode's first
  // observation by default (highway-env fixes features_range then).
  double y = 16.0;
  double vx = 2 * Vehicle::kMaxSpeed;
  double vy = 2 * Vehicle::kMaxSpeed;
};

// Road.close_objects_to: the bodies (vehicles, then obstacles when
// `with_obstacles`) other than the observer within the perception distance
// and not more than two lengths behind, by a stable sort on the distance
// along the observer's lane.
inline std::vector<int> CloseBodies(const Road& road, int observer,
                                    bool with_obstacles) {
  const Vehicle& ego = road.vehicles[observer];
  struct Close {
    double distance;
    int body;
  };
  std::vector<Close> close;
  const int bodies = with_obstacles ? road.NumBodies()
                                    : static_cast<int>(road.vehicles.size());
  for (int j = 0; j < bodies; ++j) {
    const Vehicle& v = road.Body(j);
    if (j == observer) {
      continue;
    }
    const double dx = v.position.x - ego.position.x;
    const double dy = v.position.y - ego.position.y;
    if (!(Norm2(dx, dy) < kPerceptionDistance)) {
      continue;
    }
    const double along = road.LaneDistance(ego, v);
    if (!(-2 * Vehicle::kLength < along)) {
      continue;
    }
    close.push_back({std::abs(along), j});
  }
  std::stable_sort(
      close.begin(), close.end(),
      [](const Close& a, const Close& b) { return a.distance < b.distance; });
  std::vector<int> order;
  order.reserve(close.size());
  for (const Close& c : close) {
    order.push_back(c.body);
  }
  return order;
}

// `absolute`: the others' x, y, vx, vy as they are, not relative to the
// observer.
inline void WriteKinematics(const Road& road, int observer, int observed,
                            const KinematicsRange& range, bool absolute,
                            float* obs) {
  std::fill(obs, obs + observed * 5, 0.0F);
  auto write_row = [&](int row, double x, double y, double vx, double vy) {
    const double values[4] = {Lmap(x, -range.x, range.x, -1, 1),
                              Lmap(y, -range.y, range.y, -1, 1),
                              Lmap(vx, -range.vx, range.vx, -1, 1),
                              Lmap(vy, -range.vy, range.vy, -1, 1)};
    obs[row * 5] = 1.0F;
    for (int k = 0; k < 4; ++k) {
      obs[row * 5 + 1 + k] = static_cast<float>(Clip(values[k], -1, 1));
    }
  };
  const Vehicle& ego = road.vehicles[observer];
  const Vec2 ego_velocity = ego.Velocity();
  write_row(0, ego.position.x, ego.position.y, ego_velocity.x, ego_velocity.y);
  if (observed == 1) {
    return;
  }
  const std::vector<int> close =
      CloseBodies(road, observer, /*with_obstacles=*/true);
  const int rows = std::min(static_cast<int>(close.size()), observed - 1);
  for (int r = 0; r < rows; ++r) {
    const Vehicle& v = road.Body(close[r]);
    const Vec2 velocity = v.Velocity();
    if (absolute) {
      write_row(r + 1, v.position.x, v.position.y, velocity.x, velocity.y);
    } else {
      write_row(r + 1, v.position.x - ego.position.x,
                v.position.y - ego.position.y, velocity.x - ego_velocity.x,
                velocity.y - ego_velocity.y);
    }
  }
}

}  // namespace envpool::highway

#endif  // ENVPOOL_HIGHWAY_OBSERVATION_H_
