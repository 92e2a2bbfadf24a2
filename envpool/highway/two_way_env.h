// two-way-v0 of highway-env 1.12.1 (envs/two_way_env.py): an 800 m road
// with two lanes one way and one lane the other way. The ego (an
// MDPVehicle, DiscreteMetaAction) follows three IDM vehicles on its right
// lane and meets two oncoming ones; it is rewarded for speed and the left
// lane (overtaking), and observes highway-env's TimeToCollision grid.
// highway-env registers it with a TimeLimit of 15 steps, the pool's
// max_episode_steps here.
#ifndef ENVPOOL_HIGHWAY_TWO_WAY_ENV_H_
#define ENVPOOL_HIGHWAY_TWO_WAY_ENV_H_

#include <cmath>
#include <cstdint>

#include "envpool/core/env.h"
#include "envpool/highway/road.h"
#include "envpool/highway/scene.h"
#include "envpool/highway/time_to_collision.h"

namespace envpool::highway {

class TwoWayEnv : public SceneEnv {
 public:
  using Fields = SceneFields;

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
    spec->snapshots = true;  // SceneEnv::SaveState, LoadState
    CheckFrequencies(options);
    const int time_cells =
        static_cast<int>(kHorizon * options.Get<int64_t>("policy_frequency"));
    fields->obs =
        spec->state.Add<float>("obs", {3, 3, time_cells}, {0.0}, {1.0});
    DeclareInfosAndAction(spec, fields);
    DeclareViewer(options, spec, ViewerConfig{});
  }

  TwoWayEnv(const Options& options, const Fields& fields)
      : SceneEnv(options), fields_(fields) {
    viewer_ = ReadViewer(options, ViewerConfig{});
  }

  void Reset() override {
    NewRoad(/*connected_lanes=*/false);
    road_.network = MakeNetwork();
    const LaneIndex ab1 = {kA, kB, 1};
    const LaneIndex ba0 = {kB, kA, 0};
    const Lane& right = road_.network.GetLane(ab1);
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
    const Lane& oncoming = road_.network.GetLane(ba0);
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
    ClearStepResult();
  }

  void Step(const ActionView& action) override {
    Simulate(0, ToMetaAction(action.Scalar(fields_.action)));
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
    WriteInfos(out, fields_, 0);
    WriteTimeToCollision(road_, 0, policy_frequency_, kHorizon,
                         out.Get(fields_.obs));
  }

 private:
  static constexpr int kA = 0;
  static constexpr int kB = 1;

  // TwoWayEnv._make_road.
  static RoadNetwork MakeNetwork() {
    constexpr double kLength = 800;
    RoadNetwork net;
    net.AddLane(
        "a", "b",
        Lane({0, 0}, {kLength, 0})
            .set_line_types(LineType::kContinuousLine, LineType::kStriped));
    net.AddLane(
        "a", "b",
        Lane({0, Lane::kDefaultWidth}, {kLength, Lane::kDefaultWidth})
            .set_line_types(LineType::kNone, LineType::kContinuousLine));
    net.AddLane("b", "a",
                Lane({kLength, 0}, {0, 0})
                    .set_line_types(LineType::kNone, LineType::kNone));
    return net;
  }

  Fields fields_;
};

}  // namespace envpool::highway

#endif  // ENVPOOL_HIGHWAY_TWO_WAY_ENV_H_
