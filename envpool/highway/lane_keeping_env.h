// lane-keeping-v0 of highway-env 1.12.1 (envs/lane_keeping_env.py): a
// BicycleVehicle steered by a continuous action (steering only) along a
// straight lane that joins a sine lane (amplitude 5 m, period 100 m), both
// 10 m wide. The reward is 1 - (lateral offset / width)² on the lane the
// env follows (the straight one until the vehicle leaves it, then the sine
// one); nothing terminates, the pool's 200 steps truncate. The observation
// is highway-env's AttributesObservation of the env's `state`,
// `derivative` (both with uniform noise from np_random) and
// `reference_state`, each (4, 1) float64.
#ifndef ENVPOOL_HIGHWAY_LANE_KEEPING_ENV_H_
#define ENVPOOL_HIGHWAY_LANE_KEEPING_ENV_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/highway/road.h"
#include "envpool/highway/scene.h"

namespace envpool::highway {

class LaneKeepingEnv : public SceneEnv {
 public:
  struct Fields {
    Field<double> state;
    Field<double> derivative;
    Field<double> reference_state;
    Field<float> action;
    Field<float> speed;
    Field<bool> crashed;
  };

  static Options DefaultOptions() {
    return Options{
        {"max_episode_steps", int64_t{200}},
        // EnvPool 1.2.7's; highway-env's LaneKeepingEnv reads no duration.
        {"duration", int64_t{20}},
        {"simulation_frequency", int64_t{10}},
        {"policy_frequency", int64_t{10}},
        {"state_noise", 0.05},
        {"derivative_noise", 0.05},
        {"screen_width", int64_t{600}},
        {"screen_height", int64_t{250}},
    };
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;  // SceneEnv::SaveState, LoadState
    CheckFrequencies(options);
    for (const char* noise : {"state_noise", "derivative_noise"}) {
      const double value = options.Get<double>(noise);
      if (!(value >= 0 && std::isfinite(value))) {
        throw std::invalid_argument(std::string("option '") + noise +
                                    "' must be finite and >= 0, got " +
                                    std::to_string(value));
      }
    }
    constexpr double kInf = std::numeric_limits<double>::infinity();
    fields->state =
        spec->state.Add<double>("obs:state", {4, 1}, {-kInf}, {kInf});
    fields->derivative =
        spec->state.Add<double>("obs:derivative", {4, 1}, {-kInf}, {kInf});
    fields->reference_state =
        spec->state.Add<double>("obs:reference_state", {4, 1}, {-kInf}, {kInf});
    fields->speed = spec->state.Add<float>("info:speed", {});
    fields->crashed = spec->state.Add<bool>("info:crashed", {});
    // ContinuousAction with lateral control only: [steering] in [-1, 1].
    ArraySpec action;
    action.name = "action";
    action.dtype = DType::kFloat32;
    action.shape = {1};
    action.low = {-1.0};
    action.high = {1.0};
    fields->action = spec->action.Add<float>(action);
    DeclareViewer(options, spec, kViewer);
  }

  // LaneKeepingEnv's viewer: 600x250 at 7 pixels a metre, the ego at 40%
  // of the width.
  static constexpr ViewerConfig kViewer{600, 250, 7.0, 0.4, 0.5};

  LaneKeepingEnv(const Options& options, const Fields& fields)
      : SceneEnv(options),
        fields_(fields),
        state_noise_(options.Get<double>("state_noise")),
        derivative_noise_(options.Get<double>("derivative_noise")) {
    viewer_ = ReadViewer(options, kViewer);
  }

  void Reset() override {
    // AbstractEnv.reset calls define_spaces before and after the scene is
    // made; both observe (AttributesObservation.space), drawing the noise
    // of `state` and `derivative` (a vehicle of the last episode, or of
    // gymnasium.make's own reset, is always there) for nothing.
    for (int k = 0; k < 2; ++k) {
      DrawNoise(state_noise_);
      DrawNoise(derivative_noise_);
    }
    time_ = 0.0;
    NewRoad(false);
    RoadNetwork& net = road_.network;
    net.AddLane("a", "b",
                Lane::Sine({0, 0}, {500, 0}, 5, 2 * M_PI / 100, 0,
                           /*forbidden=*/false, kLaneWidth));
    net.AddLane("c", "d", Lane({50, 50}, {115, 15}, kLaneWidth));
    net.AddLane("d", "a",
                Lane({115, 15}, {115 + 20, 15 + 20 * (15.0 - 50) / (115 - 50)},
                     kLaneWidth)
                    .set_line_types(LineType::kNone, LineType::kStriped));
    following_ = {net.NodeIndex("c"), net.NodeIndex("d"), 0};
    next_lane_ = {net.NodeIndex("a"), net.NodeIndex("b"), 0};
    has_next_lane_ = true;
    const Lane& start = net.GetLane(following_);
    Vehicle ego = road_.MakeVehicle(
        VehicleKind::kBicycle, start.Position(50, -4), start.HeadingAt(0), 8.3);
    ego.target_speed = 0.0;
    ego.player = 0;
    road_.vehicles.push_back(ego);
    ClearStepResult();
    Observe();
  }

  void Step(const ActionView& action) override {
    Vehicle& ego = road_.vehicles[0];
    const RoadNetwork& net = road_.network;
    if (has_next_lane_ && !net.GetLane(following_).OnLane(ego.position)) {
      following_ = next_lane_;
      has_next_lane_ = false;
    }
    // ContinuousAction.get_action (lateral only) in float32, as numpy
    // computes it for a float32 action.
    const float steer = std::clamp(action.Get(fields_.action)[0], -1.0F, 1.0F);
    constexpr double kSteering = M_PI / 3;
    ego.steering =
        static_cast<float>(-kSteering) +
        (steer - -1.0F) * static_cast<float>(kSteering - -kSteering) / 2.0F;
    ego.acceleration = 0.0;
    // LaneKeepingEnv.step observes after the action and before the
    // simulation.
    Observe();
    AdvanceClock();
    const int64_t frames = simulation_frequency_ / policy_frequency_;
    const double dt = 1.0 / static_cast<double>(simulation_frequency_);
    for (int64_t frame = 0; frame < frames; ++frame) {
      road_.Step(dt);
    }
    const double lateral = net.GetLane(following_)
                               .LocalCoordinates(road_.vehicles[0].position)
                               .second;
    const double ratio = lateral / kLaneWidth;
    reward_ = 1 - ratio * ratio;
    terminated_ = false;
    truncated_ = false;
  }

  void Write(const Output& out) override {
    WriteInfos(out, fields_.speed, fields_.crashed);
    std::copy(state_.begin(), state_.end(), out.Get(fields_.state));
    std::copy(derivative_.begin(), derivative_.end(),
              out.Get(fields_.derivative));
    std::copy(reference_.begin(), reference_.end(),
              out.Get(fields_.reference_state));
  }

 private:
  static constexpr double kLaneWidth = 10;

  void WriteInfos(const Output& out, Field<float> speed,
                  Field<bool> crashed) const {
    const Vehicle& ego = road_.vehicles[0];
    *out.Get(speed) = static_cast<float>(ego.speed);
    *out.Get(crashed) = ego.crashed;
  }

  // np_random.uniform(-noise, noise, size=(4, 1)).
  std::array<double, 4> DrawNoise(double noise) {
    std::array<double, 4> draws;
    for (double& d : draws) {
      d = np_random_.Uniform(-noise, noise);
    }
    return draws;
  }

  // LaneKeepingEnv.state, .derivative (each with its noise, in this order)
  // and .reference_state: (y, heading, lateral speed, yaw rate) of the
  // state and of its derivative; (y - lateral offset, the lane's heading,
  // 0, 0) on the lane the env follows.
  void Observe() {
    const Vehicle& ego = road_.vehicles[0];
    const std::array<double, 6> state = {ego.position.x,    ego.position.y,
                                         ego.heading,       ego.speed,
                                         ego.lateral_speed, ego.yaw_rate};
    const std::array<double, 4> state_noise = DrawNoise(state_noise_);
    const std::array<double, 6> derivative =
        Road::BicycleDerivative(ego, state);
    const std::array<double, 4> derivative_noise = DrawNoise(derivative_noise_);
    constexpr int kRows[4] = {1, 2, 4, 5};
    for (int k = 0; k < 4; ++k) {
      state_[k] = state[kRows[k]] + state_noise[k];
      derivative_[k] = derivative[kRows[k]] + derivative_noise[k];
    }
    const Lane& lane = road_.network.GetLane(following_);
    const auto [longitudinal, lateral] = lane.LocalCoordinates(ego.position);
    reference_ = {ego.position.y - lateral, lane.HeadingAt(longitudinal), 0.0,
                  0.0};
  }

  void SaveScene(StateWriter* w) const override {
    w->Put(following_, next_lane_, has_next_lane_, state_, derivative_,
           reference_);
  }
  void LoadScene(StateReader* r) override {
    r->Get(&following_, &next_lane_, &has_next_lane_, &state_, &derivative_,
           &reference_);
  }
  void CheckScene() const override {
    if (!IsLaneOf(road_.network, following_, false) ||
        (has_next_lane_ && !IsLaneOf(road_.network, next_lane_, false))) {
      throw SnapshotError(
          "highway: the state follows a lane this road does "
          "not have");
    }
  }

  Fields fields_;
  double state_noise_;
  double derivative_noise_;
  // The lane the env follows (LaneKeepingEnv.lane) and the one after it.
  LaneIndex following_;
  LaneIndex next_lane_;
  bool has_next_lane_ = false;
  std::array<double, 4> state_ = {};
  std::array<double, 4> derivative_ = {};
  std::array<double, 4> reference_ = {};
};

}  // namespace envpool::highway

#endif  // ENVPOOL_HIGHWAY_LANE_KEEPING_ENV_H_
