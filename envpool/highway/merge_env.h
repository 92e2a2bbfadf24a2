// merge-v0 and merge-v1 of highway-env 1.12.1 (envs/merge_env.py): a
// two-lane highway that an access ramp (a straight lane, then a sine lane)
// joins through a third, short lane ending at an obstacle. The ego (an
// MDPVehicle, DiscreteMetaAction) starts on the left lane among three IDM
// vehicles and a merging one; it is rewarded for speed and the right lane,
// penalised for lane changes and for slowing the merging traffic, and the
// episode ends at a crash or past x = 370 m.
#ifndef ENVPOOL_HIGHWAY_MERGE_ENV_H_
#define ENVPOOL_HIGHWAY_MERGE_ENV_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/highway/observation.h"
#include "envpool/highway/road.h"

namespace envpool::highway {

class MergeEnv : public Env {
 public:
  struct Fields {
    Field<float> obs;
    Field<int64_t> action;
    Field<float> speed;
    Field<bool> crashed;
  };

  static Options DefaultOptions() {
    return Options{
        {"max_episode_steps", int64_t{200}},
        // highway-env's MergeEnv has no time limit of its own: kept for
        // EnvPool's option surface, it has no effect.
        {"duration", int64_t{200}},
        {"simulation_frequency", int64_t{15}},
        {"policy_frequency", int64_t{1}},
        {"neighbour_vehicles_connected_lanes", false},
        {"screen_width", int64_t{600}},
        {"screen_height", int64_t{150}},
    };
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    const int64_t simulation_frequency =
        options.Get<int64_t>("simulation_frequency");
    const int64_t policy_frequency = options.Get<int64_t>("policy_frequency");
    if (policy_frequency < 1 || simulation_frequency < policy_frequency) {
      throw std::invalid_argument(
          "options 'policy_frequency' (>= 1) and 'simulation_frequency' (>= "
          "policy_frequency) got " +
          std::to_string(policy_frequency) + " and " +
          std::to_string(simulation_frequency));
    }
    constexpr double kInf = std::numeric_limits<double>::infinity();
    fields->obs = spec->state.Add<float>("obs", {5, 5}, {-kInf}, {kInf});
    fields->speed = spec->state.Add<float>("info:speed", {});
    fields->crashed = spec->state.Add<bool>("info:crashed", {});
    fields->action = spec->action.AddDiscrete<int64_t>("action", 5);
  }

  MergeEnv(const Options& options, const Fields& fields)
      : fields_(fields),
        simulation_frequency_(options.Get<int64_t>("simulation_frequency")),
        policy_frequency_(options.Get<int64_t>("policy_frequency")),
        connected_lanes_(
            options.Get<bool>("neighbour_vehicles_connected_lanes")) {}

  void Reset() override {
    road_ = Road();
    road_.network = MakeNetwork();
    road_.np_random = &np_random_;
    road_.neighbour_vehicles_connected_lanes = connected_lanes_;
    const StraightLane& lbc = road_.network.GetLane({kB, kC, 2});
    road_.objects.push_back(road_.MakeObstacle(lbc.Position(kEnds[2], 0)));
    const StraightLane& ab1 = road_.network.GetLane({kA, kB, 1});
    road_.vehicles.push_back(road_.MakeVehicle(
        VehicleKind::kMdp, ab1.Position(30.0, 0.0), 0.0, 30.0));
    const double starts[3][2] = {{90.0, 29.0}, {70.0, 31.0}, {5.0, 31.5}};
    for (const auto& [position, speed] : starts) {
      const int id = static_cast<int>(np_random_.Integers<int64_t>(0, 2));
      const StraightLane& lane = road_.network.GetLane({kA, kB, id});
      const Vec2 p =
          lane.Position(position + np_random_.Uniform(-5.0, 5.0), 0.0);
      const double v = speed + np_random_.Uniform(-1.0, 1.0);
      road_.vehicles.push_back(road_.MakeVehicle(VehicleKind::kIdm, p, 0.0, v));
    }
    Vehicle merging = road_.MakeVehicle(
        VehicleKind::kIdm,
        road_.network.GetLane({kJ, kK, 0}).Position(110.0, 0.0), 0.0, 20.0);
    merging.target_speed = 30.0;
    road_.vehicles.push_back(merging);
    const Vehicle& ego = road_.vehicles[0];
    y_range_ = StraightLane::kDefaultWidth *
               road_.network.NumLanes(ego.lane_index.from, ego.lane_index.to);
    reward_ = 0.0;
    terminated_ = false;
    truncated_ = false;
  }

  void Step(const ActionView& action) override {
    static constexpr MetaAction kActions[5] = {
        MetaAction::kLaneLeft, MetaAction::kIdle, MetaAction::kLaneRight,
        MetaAction::kFaster, MetaAction::kSlower};
    const int64_t a = action.Scalar(fields_.action);
    const int64_t frames = simulation_frequency_ / policy_frequency_;
    const double dt = 1.0 / static_cast<double>(simulation_frequency_);
    for (int64_t frame = 0; frame < frames; ++frame) {
      if (frame == 0) {
        road_.ActControlled(0, kActions[a]);
      }
      road_.Act();
      road_.Step(dt);
    }
    const Vehicle& ego = road_.vehicles[0];
    reward_ = Reward(ego, a == 0 || a == 2);
    terminated_ = ego.crashed || ego.position.x > 370;
    truncated_ = false;
  }

  void Write(const Output& out) override {
    const Vehicle& ego = road_.vehicles[0];
    *out.Get(fields_.speed) = static_cast<float>(ego.speed);
    *out.Get(fields_.crashed) = ego.crashed;
    WriteKinematics(road_, 0, 5, {kPerceptionDistance, y_range_},
                    /*absolute=*/false, out.Get(fields_.obs));
  }

  // Test hook: x, y, heading and speed of every vehicle, in road order.
  std::vector<double> GetState() const override {
    std::vector<double> state;
    for (const Vehicle& v : road_.vehicles) {
      state.insert(state.end(),
                   {v.position.x, v.position.y, v.heading, v.speed});
    }
    return state;
  }

 private:
  // Nodes, in the order highway-env's network first sees them.
  static constexpr int kA = 0;
  static constexpr int kB = 1;
  static constexpr int kC = 2;
  static constexpr int kD = 3;
  static constexpr int kJ = 4;
  static constexpr int kK = 5;
  // Before, converging, merge, after [m].
  static constexpr double kEnds[4] = {150, 80, 80, 150};
  // MergeEnv's default reward config.
  static constexpr double kCollisionReward = -1;
  static constexpr double kRightLaneReward = 0.1;
  static constexpr double kHighSpeedReward = 0.2;
  static constexpr double kMergingSpeedReward = -0.5;
  static constexpr double kLaneChangeReward = -0.05;

  // MergeEnv._make_road.
  static RoadNetwork MakeNetwork() {
    RoadNetwork net;
    const double y[2] = {0, StraightLane::kDefaultWidth};
    for (double yi : y) {
      net.AddLane("a", "b", StraightLane({0, yi}, {kEnds[0] + kEnds[1], yi}));
      net.AddLane("b", "c",
                  StraightLane({kEnds[0] + kEnds[1], yi},
                               {kEnds[0] + kEnds[1] + kEnds[2], yi}));
      net.AddLane(
          "c", "d",
          StraightLane({kEnds[0] + kEnds[1] + kEnds[2], yi},
                       {kEnds[0] + kEnds[1] + kEnds[2] + kEnds[3], yi}));
    }
    constexpr double kAmplitude = 3.25;
    const double y_ramp = 6.5 + 4 + 4;
    StraightLane ljk({0, y_ramp}, {kEnds[0], y_ramp},
                     StraightLane::kDefaultWidth,
                     StraightLane::kDefaultSpeedLimit, /*forbidden=*/true);
    StraightLane lkb = StraightLane::Sine(
        ljk.Position(kEnds[0], -kAmplitude),
        ljk.Position(kEnds[0] + kEnds[1], -kAmplitude), kAmplitude,
        2 * M_PI / (2 * kEnds[1]), M_PI / 2, /*forbidden=*/true);
    const Vec2 merge_start = lkb.Position(kEnds[1], 0);
    StraightLane lbc(merge_start, {merge_start.x + kEnds[2], merge_start.y + 0},
                     StraightLane::kDefaultWidth,
                     StraightLane::kDefaultSpeedLimit, /*forbidden=*/true);
    net.AddLane("j", "k", ljk);
    net.AddLane("k", "b", lkb);
    net.AddLane("b", "c", lbc);
    return net;
  }

  // MergeEnv._reward: the weighted terms, summed in highway-env's order,
  // then mapped from [collision + merging, high speed + right lane] to
  // [0, 1] (not clipped).
  double Reward(const Vehicle& ego, bool lane_change) const {
    double merging = 0.0;
    for (const Vehicle& v : road_.vehicles) {
      if (v.lane_index == LaneIndex{kB, kC, 2}) {
        merging += (v.target_speed - v.speed) / v.target_speed;
      }
    }
    double reward = kCollisionReward * (ego.crashed ? 1.0 : 0.0);
    reward += kRightLaneReward * (ego.lane_index.id / 1.0);
    reward += kHighSpeedReward * Lmap(ego.speed, 20, 30, 0, 1);
    reward += kLaneChangeReward * (lane_change ? 1.0 : 0.0);
    reward += kMergingSpeedReward * merging;
    return Lmap(reward, kCollisionReward + kMergingSpeedReward,
                kHighSpeedReward + kRightLaneReward, 0, 1);
  }

  Fields fields_;
  int64_t simulation_frequency_;
  int64_t policy_frequency_;
  bool connected_lanes_;
  Road road_;
  double y_range_ = 8.0;
};

}  // namespace envpool::highway

#endif  // ENVPOOL_HIGHWAY_MERGE_ENV_H_
