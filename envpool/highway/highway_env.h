// highway-v0 and highway-fast-v0 of highway-env 1.12.1 (envs/highway_env.py):
// the ego vehicle (an MDPVehicle taking DiscreteMetaAction) drives on a
// straight road of `lanes_count` lanes among `vehicles_count` IDM/MOBIL
// vehicles, observes the Kinematics of the closest ones, and is rewarded for
// speed and the right-most lanes and punished for collisions.
#ifndef ENVPOOL_HIGHWAY_HIGHWAY_ENV_H_
#define ENVPOOL_HIGHWAY_HIGHWAY_ENV_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/highway/observation.h"
#include "envpool/highway/road.h"
#include "envpool/highway/scene.h"

namespace envpool::highway {

class HighwayEnv : public SceneEnv {
 public:
  using Fields = SceneFields;

  // EnvPool 1.2.7's option names and highway-v0's defaults; highway-fast-v0
  // overrides some of them in registration.py.
  static Options DefaultOptions() {
    return Options{
        {"max_episode_steps", int64_t{40}},
        {"lanes_count", int64_t{4}},
        {"vehicles_count", int64_t{50}},
        {"controlled_vehicles", int64_t{1}},
        {"initial_lane_id", int64_t{-1}},
        {"duration", int64_t{40}},
        {"ego_spacing", 2.0},
        {"vehicles_density", 1.0},
        {"collision_reward", -1.0},
        {"right_lane_reward", 0.1},
        {"high_speed_reward", 0.4},
        {"lane_change_reward", 0.0},
        {"reward_speed_low", 20.0},
        {"reward_speed_high", 30.0},
        {"normalize_reward", true},
        {"offroad_terminal", false},
        {"other_vehicles_check_collisions", true},
        {"observation_vehicles_count", int64_t{5}},
        {"simulation_frequency", int64_t{15}},
        {"policy_frequency", int64_t{1}},
        // The reference's viewer: the frame's size, scale and the ego's
        // place on it.
        {"screen_width", int64_t{600}},
        {"screen_height", int64_t{150}},
        {"centering_position_x", 0.3},
        {"centering_position_y", 0.5},
        {"scaling", 5.5},
    };
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;  // SceneEnv::SaveState, LoadState
    auto positive = [&](const char* name) {
      const int64_t v = options.Get<int64_t>(name);
      if (v < 1) {
        throw std::invalid_argument(std::string("option '") + name +
                                    "' must be at least 1, got " +
                                    std::to_string(v));
      }
      return v;
    };
    const int64_t lanes = positive("lanes_count");
    positive("controlled_vehicles");
    positive("duration");
    const int64_t observed = positive("observation_vehicles_count");
    const int64_t simulation_frequency = positive("simulation_frequency");
    const int64_t policy_frequency = positive("policy_frequency");
    if (simulation_frequency < policy_frequency) {
      throw std::invalid_argument(
          "option 'simulation_frequency' must be at least "
          "'policy_frequency' (" +
          std::to_string(policy_frequency) + "), got " +
          std::to_string(simulation_frequency));
    }
    if (options.Get<int64_t>("vehicles_count") < 0) {
      throw std::invalid_argument(
          "option 'vehicles_count' must be at least 0, got " +
          std::to_string(options.Get<int64_t>("vehicles_count")));
    }
    const int64_t initial_lane = options.Get<int64_t>("initial_lane_id");
    if (initial_lane < -1 || initial_lane >= lanes) {
      throw std::invalid_argument(
          "option 'initial_lane_id' must be -1 (a random lane) or a lane in "
          "[0, lanes_count) = [0, " +
          std::to_string(lanes) + "), got " + std::to_string(initial_lane));
    }
    if (!(options.Get<double>("ego_spacing") > 0)) {
      throw std::invalid_argument("option 'ego_spacing' must be > 0");
    }
    if (!(options.Get<double>("vehicles_density") > 0)) {
      throw std::invalid_argument("option 'vehicles_density' must be > 0");
    }
    if (!(options.Get<double>("reward_speed_low") <
          options.Get<double>("reward_speed_high"))) {
      throw std::invalid_argument(
          "options 'reward_speed_low' < 'reward_speed_high' required");
    }
    if (options.Get<bool>("normalize_reward") &&
        !(options.Get<double>("collision_reward") <
              options.Get<double>("high_speed_reward") +
                  options.Get<double>("right_lane_reward") ||
          options.Get<double>("collision_reward") >
              options.Get<double>("high_speed_reward") +
                  options.Get<double>("right_lane_reward"))) {
      throw std::invalid_argument(
          "with 'normalize_reward', 'collision_reward' must differ from "
          "'high_speed_reward' + 'right_lane_reward'");
    }
    constexpr double kInf = std::numeric_limits<double>::infinity();
    fields->obs = spec->state.Add<float>("obs", {static_cast<int>(observed), 5},
                                         {-kInf}, {kInf});
    DeclareInfosAndAction(spec, fields);
    DeclareViewer(options, spec, ViewerConfig{});
  }

  HighwayEnv(const Options& options, const Fields& fields)
      : SceneEnv(options),
        fields_(fields),
        lanes_count_(static_cast<int>(options.Get<int64_t>("lanes_count"))),
        vehicles_count_(
            static_cast<int>(options.Get<int64_t>("vehicles_count"))),
        controlled_vehicles_(
            static_cast<int>(options.Get<int64_t>("controlled_vehicles"))),
        initial_lane_id_(
            static_cast<int>(options.Get<int64_t>("initial_lane_id"))),
        duration_(static_cast<double>(options.Get<int64_t>("duration"))),
        ego_spacing_(options.Get<double>("ego_spacing")),
        vehicles_density_(options.Get<double>("vehicles_density")),
        collision_reward_(options.Get<double>("collision_reward")),
        right_lane_reward_(options.Get<double>("right_lane_reward")),
        high_speed_reward_(options.Get<double>("high_speed_reward")),
        reward_speed_low_(options.Get<double>("reward_speed_low")),
        reward_speed_high_(options.Get<double>("reward_speed_high")),
        normalize_reward_(options.Get<bool>("normalize_reward")),
        offroad_terminal_(options.Get<bool>("offroad_terminal")),
        other_vehicles_check_collisions_(
            options.Get<bool>("other_vehicles_check_collisions")),
        observed_(static_cast<int>(
            options.Get<int64_t>("observation_vehicles_count"))) {
    viewer_ = ReadViewer(options, ViewerConfig{});
  }

  void Reset() override {
    time_ = 0.0;
    NewRoad(/*connected_lanes=*/false);
    road_.network = RoadNetwork::StraightRoad(lanes_count_, 30.0);
    // _create_vehicles: near_split of the traffic over the controlled
    // vehicles, each followed by its share.
    const int quotient = vehicles_count_ / controlled_vehicles_;
    const int remainder = vehicles_count_ % controlled_vehicles_;
    controlled_.clear();
    for (int c = 0; c < controlled_vehicles_; ++c) {
      const int others = quotient + (c < remainder ? 1 : 0);
      controlled_.push_back(static_cast<int>(road_.vehicles.size()));
      road_.vehicles.push_back(road_.CreateRandom(
          VehicleKind::kMdp, 25.0, initial_lane_id_, ego_spacing_));
      for (int k = 0; k < others; ++k) {
        Vehicle v = road_.CreateRandom(VehicleKind::kIdm, -1.0, -1,
                                       1 / vehicles_density_);
        // randomize_behavior
        v.delta = np_random_.Uniform(3.5, 4.5);
        // highway-fast-v0 lets only the controlled vehicles check collisions.
        v.check_collisions = other_vehicles_check_collisions_;
        road_.vehicles.push_back(v);
      }
    }
    // The observation's y range is fixed by the ego's road at reset (its
    // first observe()).
    y_range_ = RoadWidthOf(controlled_[0]);
    ClearStepResult();
  }

  void Step(const ActionView& action) override {
    AdvanceClock();
    Simulate(controlled_[0], ToMetaAction(action.Scalar(fields_.action)));
    const Vehicle& ego = road_.vehicles[controlled_[0]];
    const bool on_road = road_.LaneOf(ego).OnLane(ego.position);
    reward_ = Reward(ego, on_road);
    terminated_ = ego.crashed || (offroad_terminal_ && !on_road);
    truncated_ = time_ >= duration_;
  }

  void Write(const Output& out) override {
    WriteInfos(out, fields_, controlled_[0]);
    WriteKinematics(road_, controlled_[0], observed_,
                    {kPerceptionDistance, y_range_},
                    /*absolute=*/false, out.Get(fields_.obs));
  }

 private:
  // HighwayEnv._reward.
  double Reward(const Vehicle& ego, bool on_road) const {
    const int side_lanes =
        road_.network.NumLanes(ego.lane_index.from, ego.lane_index.to);
    const double lane = ego.target_lane_index.id;
    const double forward_speed = ego.speed * ego.Direction().x;
    const double scaled_speed =
        Lmap(forward_speed, reward_speed_low_, reward_speed_high_, 0, 1);
    double reward = collision_reward_ * (ego.crashed ? 1.0 : 0.0);
    reward += right_lane_reward_ * (lane / std::max(side_lanes - 1, 1));
    reward += high_speed_reward_ * Clip(scaled_speed, 0, 1);
    reward += 0.0;  // on_road_reward has no weight in the config
    if (normalize_reward_) {
      reward = Lmap(reward, collision_reward_,
                    high_speed_reward_ + right_lane_reward_, 0, 1);
    }
    return reward * (on_road ? 1.0 : 0.0);
  }

  int ViewerEgo() const override { return controlled_[0]; }

  void SaveScene(StateWriter* w) const override {
    w->Put(controlled_, y_range_);
  }
  void LoadScene(StateReader* r) override {
    GetSized(r, &controlled_, "controlled vehicles");
    r->Get(&y_range_);
  }
  void CheckScene() const override {
    for (int i : controlled_) {
      if (i < 0 || i >= static_cast<int>(road_.vehicles.size())) {
        throw SnapshotError(
            "highway: a controlled vehicle of the state is "
            "not on its road");
      }
    }
  }

  Fields fields_;
  int lanes_count_;
  int vehicles_count_;
  int controlled_vehicles_;
  int initial_lane_id_;
  double duration_;
  double ego_spacing_;
  double vehicles_density_;
  double collision_reward_;
  double right_lane_reward_;
  double high_speed_reward_;
  double reward_speed_low_;
  double reward_speed_high_;
  bool normalize_reward_;
  bool offroad_terminal_;
  bool other_vehicles_check_collisions_;
  int observed_;

  std::vector<int> controlled_;
  double y_range_ = 16.0;
};

}  // namespace envpool::highway

#endif  // ENVPOOL_HIGHWAY_HIGHWAY_ENV_H_
