// two-way-v0 of highway-env 1.12.1 (envs/two_way_env.py): an 800 m road
// with two lanes one way and one lane the other way. The ego (an
// MDPVehicle, DiscreteMetaAction) follows three IDM vehicles on its right
// lane and meets two oncoming ones; it is rewarded for speed and the left
// lane (overtaking), and observes highway-env's TimeToCollision grid.
// highway-env registers it with a TimeLimit of 15 steps, the pool's
// max_episode_steps here.
#ifndef ENVPOOL_HIGHWAY_TWO_WAY_ENV_H_
#define ENVPOOL_HIGHWAY_TWO_WAY_ENV_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/highway/road.h"

namespace envpool::highway {

class TwoWayEnv : public Env {
 public:
  struct Fields {
    Field<float> obs;
    Field<int64_t> action;
    Field<float> speed;
    Field<bool> crashed;
  };

  // TimeToCollisionObservation's horizon [s].
  static constexpr int kHorizon = 5;

  static Options DefaultOptions() {
    return Options{
        {"max_episode_steps", int64_t{15}},
        // highway-env's TwoWayEnv has no time limit of its own (the
        // registered TimeLimit is max_episode_steps): no effect.
        {"duration", int64_t{15}},
        {"simulation_frequency", int64_t{15}},
        {"policy_frequency", int64_t{1}},
        {"screen_width", int64_t{600}},
        {"screen_height", int64_t{150}},
    };
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    const int64_t policy = options.Get<int64_t>("policy_frequency");
    const int64_t simulation = options.Get<int64_t>("simulation_frequency");
    if (policy < 1 || simulation < policy) {
      throw std::invalid_argument(
          "options 'policy_frequency' (>= 1) and 'simulation_frequency' (>= "
          "policy_frequency) got " +
          std::to_string(policy) + " and " + std::to_string(simulation));
    }
    const int time_cells = static_cast<int>(kHorizon * policy);
    fields->obs =
        spec->state.Add<float>("obs", {3, 3, time_cells}, {0.0}, {1.0});
    fields->speed = spec->state.Add<float>("info:speed", {});
    fields->crashed = spec->state.Add<bool>("info:crashed", {});
    fields->action = spec->action.AddDiscrete<int64_t>("action", 5);
  }

  TwoWayEnv(const Options& options, const Fields& fields)
      : fields_(fields),
        simulation_frequency_(options.Get<int64_t>("simulation_frequency")),
        policy_frequency_(options.Get<int64_t>("policy_frequency")) {}

  void Reset() override {
    road_ = Road();
    road_.network = MakeNetwork();
    road_.np_random = &np_random_;
    const LaneIndex ab1 = {kA, kB, 1};
    const LaneIndex ba0 = {kB, kA, 0};
    const StraightLane& right = road_.network.GetLane(ab1);
    road_.vehicles.push_back(road_.MakeVehicle(
        VehicleKind::kMdp, right.Position(30.0, 0.0), 0.0, 30.0));
    for (int i = 0; i < 3; ++i) {
      const double s = 70.0 + 40.0 * i;
      const double position = s + 10.0 * np_random_.StandardNormal();
      const double speed = 24.0 + 2.0 * np_random_.StandardNormal();
      Vehicle v =
          road_.MakeVehicle(VehicleKind::kIdm, right.Position(position, 0.00),
                            right.HeadingAt(s), speed);
      v.enable_lane_change = false;
      road_.vehicles.push_back(v);
    }
    const StraightLane& oncoming = road_.network.GetLane(ba0);
    for (int i = 0; i < 2; ++i) {
      const double s = 200.0 + 100.0 * i;
      const double position = s + 10.0 * np_random_.StandardNormal();
      const double speed = 20.0 + 5.0 * np_random_.StandardNormal();
      Vehicle v =
          road_.MakeVehicle(VehicleKind::kIdm, oncoming.Position(position, 0),
                            oncoming.HeadingAt(s), speed);
      v.enable_lane_change = false;
      v.target_lane_index = ba0;
      road_.vehicles.push_back(v);
    }
    reward_ = 0.0;
    terminated_ = false;
    truncated_ = false;
  }

  void Step(const ActionView& action) override {
    static constexpr MetaAction kActions[5] = {
        MetaAction::kLaneLeft, MetaAction::kIdle, MetaAction::kLaneRight,
        MetaAction::kFaster, MetaAction::kSlower};
    const MetaAction meta = kActions[action.Scalar(fields_.action)];
    const int64_t frames = simulation_frequency_ / policy_frequency_;
    const double dt = 1.0 / static_cast<double>(simulation_frequency_);
    for (int64_t frame = 0; frame < frames; ++frame) {
      if (frame == 0) {
        road_.ActControlled(0, meta);
      }
      road_.Act();
      road_.Step(dt);
    }
    const Vehicle& ego = road_.vehicles[0];
    // _reward: high speed 0.8 x speed index / 2 + left lane 0.2 x
    // (lanes - 1 - target lane) / (lanes - 1); not normalised.
    const int lanes =
        road_.network.NumLanes(ego.lane_index.from, ego.lane_index.to);
    double reward = 0.8 * (ego.speed_index / 2.0);
    reward += 0.2 * (static_cast<double>(lanes - 1 - ego.target_lane_index.id) /
                     (lanes - 1));
    reward_ = reward;
    terminated_ = ego.crashed;
    truncated_ = false;
  }

  void Write(const Output& out) override {
    const Vehicle& ego = road_.vehicles[0];
    *out.Get(fields_.speed) = static_cast<float>(ego.speed);
    *out.Get(fields_.crashed) = ego.crashed;
    WriteTimeToCollision(out.Get(fields_.obs));
  }

  std::vector<double> GetState() const override {
    std::vector<double> state;
    for (const Vehicle& v : road_.vehicles) {
      state.insert(state.end(),
                   {v.position.x, v.position.y, v.heading, v.speed});
    }
    return state;
  }

 private:
  static constexpr int kA = 0;
  static constexpr int kB = 1;

  // TwoWayEnv._make_road.
  static RoadNetwork MakeNetwork() {
    constexpr double kLength = 800;
    RoadNetwork net;
    net.AddLane("a", "b", StraightLane({0, 0}, {kLength, 0}));
    net.AddLane("a", "b",
                StraightLane({0, StraightLane::kDefaultWidth},
                             {kLength, StraightLane::kDefaultWidth}));
    net.AddLane("b", "a", StraightLane({kLength, 0}, {0, 0}));
    return net;
  }

  // RoadNetwork.is_connected_road (no route: every road after the first
  // one's end, to `depth`).
  bool IsConnectedRoad(const LaneIndex& l1, const LaneIndex& l2,
                       int depth) const {
    if (l2.SameRoad(l1) || l2.to == l1.from) {
      return true;
    }
    if (depth > 0) {
      for (const auto& road : road_.network.roads()) {
        if (road.from == l1.to &&
            IsConnectedRoad({l1.to, road.to, l1.id}, l2, depth - 1)) {
          return true;
        }
      }
    }
    return false;
  }

  // TimeToCollisionObservation: compute_ttc_grid (speed x lane x time, the
  // cost of a predicted collision at constant speeds), then the 3 x 3
  // window around the ego's speed index and lane, padded with ones.
  void WriteTimeToCollision(float* obs) const {
    const Vehicle& ego = road_.vehicles[0];
    const RoadNetwork& net = road_.network;
    const int lanes = net.NumLanes(ego.lane_index.from, ego.lane_index.to);
    const double time_quantization = 1 / static_cast<double>(policy_frequency_);
    const int time_cells = static_cast<int>(kHorizon / time_quantization);
    const int speeds = static_cast<int>(ego.target_speeds.size());
    std::vector<double> grid(speeds * lanes * time_cells, 0.0);
    auto cell = [&](int s, int l, int t) -> double& {
      return grid[(s * lanes + l) * time_cells + t];
    };
    const Vec2 ego_direction = ego.Direction();
    for (int speed_index = 0; speed_index < speeds; ++speed_index) {
      const double ego_speed = ego.target_speeds[speed_index];
      for (size_t j = 1; j < road_.vehicles.size(); ++j) {
        const Vehicle& other = road_.vehicles[j];
        if (ego_speed == other.speed) {
          continue;
        }
        const double margin = other.length / 2 + ego.length / 2;
        const double points[3][2] = {{0, 1}, {-margin, 0.5}, {margin, 0.5}};
        for (const auto& [m, cost] : points) {
          const double distance = road_.LaneDistance(ego, other) + m;
          const Vec2 od = other.Direction();
          const double other_projected_speed =
              other.speed * Dot2(od.x, od.y, ego_direction.x, ego_direction.y);
          const double time_to_collision =
              distance / NotZero(ego_speed - other_projected_speed);
          if (time_to_collision < 0) {
            continue;
          }
          if (!IsConnectedRoad(ego.lane_index, other.lane_index, 3)) {
            continue;
          }
          int lane_low = 0;
          int lane_high = lanes;
          if (net.NumLanes(other.lane_index.from, other.lane_index.to) ==
              lanes) {
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
    // The window: lanes ego.lane - 1 .. + 1 and speed indices ego.speed -
    // 1 .. + 1; lanes beyond the road are ones, speeds beyond repeat the
    // first and last rows.
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

  Fields fields_;
  int64_t simulation_frequency_;
  int64_t policy_frequency_;
  Road road_;
};

}  // namespace envpool::highway

#endif  // ENVPOOL_HIGHWAY_TWO_WAY_ENV_H_
