// parking-v0, parking-ActionRepeat-v0 and parking-parked-v0 of highway-env
// 1.12.1 (envs/parking_env.py): a goal-conditioned continuous control task.
// The ego (a plain kinematic Vehicle at the origin, heading drawn, at rest)
// drives with a ContinuousAction [throttle, steering] to a goal spot (a
// Landmark in the middle of one of 28 parking spots, 14 above and 14 below
// the aisle), among `vehicles_count` parked cars, inside four walls. The
// observation is highway-env's KinematicsGoal: the ego's (x, y, vx, vy,
// cos_h, sin_h) scaled by (100, 100, 5, 5, 1, 1) as `observation` and
// `achieved_goal`, the goal's as `desired_goal`, float64. The reward is
// compute_reward: -(|achieved - desired| . weights)^0.5, plus
// collision_reward at a crash; success is a goal reward above
// -success_goal_reward; terminated at a crash or a success.
#ifndef ENVPOOL_HIGHWAY_PARKING_ENV_H_
#define ENVPOOL_HIGHWAY_PARKING_ENV_H_

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

class ParkingEnv : public SceneEnv {
 public:
  static constexpr int kFeatures = 6;

  struct Fields {
    Field<double> observation;
    Field<double> achieved_goal;
    Field<double> desired_goal;
    Field<float> action;
    Field<float> speed;
    Field<bool> crashed;
    Field<bool> is_success;
  };

  static Options DefaultOptions() {
    return Options{
        {"max_episode_steps", int64_t{500}},
        {"duration", int64_t{100}},
        {"simulation_frequency", int64_t{15}},
        {"policy_frequency", int64_t{5}},
        {"vehicles_count", int64_t{0}},
        {"add_walls", true},
        {"collision_reward", -5.0},
        {"success_goal_reward", 0.12},
        {"screen_width", int64_t{600}},
        {"screen_height", int64_t{300}},
    };
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;  // SceneEnv::SaveState, LoadState
    CheckFrequencies(options);
    if (options.Get<int64_t>("duration") < 1) {
      throw std::invalid_argument(
          "option 'duration' must be at least 1, got " +
          std::to_string(options.Get<int64_t>("duration")));
    }
    const int64_t vehicles = options.Get<int64_t>("vehicles_count");
    if (vehicles < 0) {
      throw std::invalid_argument(
          "option 'vehicles_count' (parked cars, the spots left by the ego "
          "and its goal take at most 26) must be >= 0, got " +
          std::to_string(vehicles));
    }
    const double success = options.Get<double>("success_goal_reward");
    if (!std::isfinite(success) ||
        !std::isfinite(options.Get<double>("collision_reward"))) {
      throw std::invalid_argument(
          "options 'success_goal_reward' and 'collision_reward' must be "
          "finite");
    }
    constexpr double kInf = std::numeric_limits<double>::infinity();
    fields->observation = spec->state.Add<double>("obs:observation",
                                                  {kFeatures}, {-kInf}, {kInf});
    fields->achieved_goal = spec->state.Add<double>(
        "obs:achieved_goal", {kFeatures}, {-kInf}, {kInf});
    fields->desired_goal = spec->state.Add<double>(
        "obs:desired_goal", {kFeatures}, {-kInf}, {kInf});
    fields->speed = spec->state.Add<float>("info:speed", {});
    fields->crashed = spec->state.Add<bool>("info:crashed", {});
    fields->is_success = spec->state.Add<bool>("info:is_success", {});
    // ContinuousAction: [throttle, steering] in [-1, 1].
    ArraySpec action;
    action.name = "action";
    action.dtype = DType::kFloat32;
    action.shape = {2};
    action.low = {-1.0};
    action.high = {1.0};
    fields->action = spec->action.Add<float>(action);
    DeclareViewer(options, spec, kViewer);
  }

  // ParkingEnv's viewer: 600x300 at 7 pixels a metre, the ego in the
  // middle.
  static constexpr ViewerConfig kViewer{600, 300, 7.0, 0.5, 0.5};

  ParkingEnv(const Options& options, const Fields& fields)
      : SceneEnv(options),
        fields_(fields),
        duration_(static_cast<double>(options.Get<int64_t>("duration"))),
        vehicles_count_(options.Get<int64_t>("vehicles_count")),
        add_walls_(options.Get<bool>("add_walls")),
        collision_reward_(options.Get<double>("collision_reward")),
        success_goal_reward_(options.Get<double>("success_goal_reward")) {
    viewer_ = ReadViewer(options, kViewer);
  }

  void Reset() override {
    time_ = 0.0;
    goal_hit_ = false;
    NewRoad(false);
    MakeRoad();
    MakeVehicles();
    ClearStepResult();
    Observe();
  }

  void Step(const ActionView& action) override {
    AdvanceClock();
    const int64_t frames = simulation_frequency_ / policy_frequency_;
    const double dt = 1.0 / static_cast<double>(simulation_frequency_);
    Act(action.Get(fields_.action), &road_.vehicles[0]);
    for (int64_t frame = 0; frame < frames; ++frame) {
      // Road.act: nothing here acts on its own (plain Vehicles keep their
      // action).
      road_.Step(dt);
      // The goal Landmark turns green once a vehicle touches it.
      const Vehicle goal = Goal();
      for (const Vehicle& v : road_.vehicles) {
        goal_hit_ = goal_hit_ || Road::Intersecting(v, goal, dt);
      }
    }
    Observe();
    const Vehicle& ego = road_.vehicles[0];
    reward_ = goal_reward_ + collision_reward_ * (ego.crashed ? 1.0 : 0.0);
    terminated_ = ego.crashed || is_success_;
    truncated_ = time_ >= duration_;
  }

  void Write(const Output& out) override {
    const Vehicle& ego = road_.vehicles[0];
    *out.Get(fields_.speed) = static_cast<float>(ego.speed);
    *out.Get(fields_.crashed) = ego.crashed;
    *out.Get(fields_.is_success) = is_success_;
    std::copy(achieved_.begin(), achieved_.end(), out.Get(fields_.observation));
    std::copy(achieved_.begin(), achieved_.end(),
              out.Get(fields_.achieved_goal));
    std::copy(desired_.begin(), desired_.end(), out.Get(fields_.desired_goal));
  }

  // ParkingEnv.compute_reward with its default reward_weights (1, 0.3, 0,
  // 0, 0.02, 0.02) and p = 0.5: np.dot of the 6-vectors.
  static double ComputeReward(const std::array<double, kFeatures>& achieved,
                              const std::array<double, kFeatures>& desired) {
    static constexpr std::array<double, kFeatures> kWeights = {1.0, 0.3,  0.0,
                                                               0.0, 0.02, 0.02};
    std::array<double, kFeatures> distance;
    for (int k = 0; k < kFeatures; ++k) {
      distance[k] = std::abs(achieved[k] - desired[k]);
    }
    const double dot = Dot(distance.data(), kWeights.data(), kFeatures);
    return -numpy_kernels::Power(dot, 0.5);
  }

 private:
  static constexpr int kSpots = 14;

  // ParkingEnv._create_road: 14 spots (4 m wide, 8 m long) above the aisle
  // (road a -> b, pointing up from y = 10) and 14 below (b -> c, pointing
  // down from y = -10).
  void MakeRoad() {
    constexpr double kWidth = 4.0;
    constexpr double kYOffset = 10;
    constexpr double kLength = 8;
    RoadNetwork& net = road_.network;
    for (int k = 0; k < kSpots; ++k) {
      const double x = (k + 1 - kSpots / 2) * kWidth - kWidth / 2;
      net.AddLane(
          "a", "b",
          Lane({x, kYOffset}, {x, kYOffset + kLength}, kWidth)
              .set_line_types(LineType::kContinuous, LineType::kContinuous));
      net.AddLane(
          "b", "c",
          Lane({x, -kYOffset}, {x, -kYOffset - kLength}, kWidth)
              .set_line_types(LineType::kContinuous, LineType::kContinuous));
    }
  }

  // ParkingEnv._create_vehicles: the ego (its spot is taken), the goal in
  // a free spot, the parked cars in others, then the walls.
  void MakeVehicles() {
    const RoadNetwork& net = road_.network;
    std::vector<LaneIndex> empty_spots;
    for (const char* from_to : {"ab", "bc"}) {
      const int from = net.NodeIndex(std::string(1, from_to[0]));
      const int to = net.NodeIndex(std::string(1, from_to[1]));
      for (int id = 0; id < kSpots; ++id) {
        empty_spots.push_back({from, to, id});
      }
    }
    auto take = [&](const LaneIndex& index) {
      auto it = std::find(empty_spots.begin(), empty_spots.end(), index);
      if (it != empty_spots.end()) {
        empty_spots.erase(it);
      }
    };
    const double heading = 2.0 * M_PI * np_random_.Random();
    Vehicle ego =
        road_.MakeVehicle(VehicleKind::kKinematic, {0.0, 0.0}, heading, 0.0);
    ego.player = 0;
    road_.vehicles.push_back(ego);
    take(ego.lane_index);

    const LaneIndex goal_index = empty_spots[static_cast<size_t>(
        np_random_.Choice(static_cast<int64_t>(empty_spots.size())))];
    const Lane& goal_lane = net.GetLane(goal_index);
    goal_position_ = goal_lane.Position(goal_lane.length() / 2, 0);
    goal_heading_ = goal_lane.HeadingAt(0);
    take(goal_index);

    for (int64_t k = 0; k < vehicles_count_ && !empty_spots.empty(); ++k) {
      const LaneIndex index = empty_spots[static_cast<size_t>(
          np_random_.Choice(static_cast<int64_t>(empty_spots.size())))];
      road_.vehicles.push_back(
          road_.MakeOnLane(VehicleKind::kKinematic, index, 4.0, 0.0));
      take(index);
    }

    // The goal Landmark is not solid: touching it changes nothing but its
    // colour, so it is not among the road's objects here.
    if (add_walls_) {
      constexpr double kWallsWidth = 70;
      constexpr double kWallsHeight = 42;
      for (double y : {-kWallsHeight / 2, kWallsHeight / 2}) {
        AddWall({0, y}, 0.0, kWallsWidth);
      }
      for (double x : {-kWallsWidth / 2, kWallsWidth / 2}) {
        AddWall({x, 0}, M_PI / 2, kWallsHeight);
      }
    }
  }

  // An Obstacle `length` m long and 1 m wide.
  void AddWall(Vec2 position, double heading, double length) {
    Vehicle wall = road_.MakeObstacle(position);
    wall.heading = heading;
    wall.length = length;
    wall.width = 1;
    road_.objects.push_back(wall);
  }

  // ContinuousAction.get_action and act: the action clipped to [-1, 1]
  // and mapped to an acceleration in [-5, 5] m/s² and a steering angle in
  // ContinuousAction's default [-pi/4, pi/4] (parking's config
  // `steering_range` does not reach it), in float32 as numpy computes it
  // for a float32 action.
  static void Act(const float* action, Vehicle* ego) {
    const float throttle = std::clamp(action[0], -1.0F, 1.0F);
    const float steer = std::clamp(action[1], -1.0F, 1.0F);
    constexpr double kSteering = M_PI / 4;
    ego->acceleration = -5.0F + (throttle - -1.0F) * 10.0F / 2.0F;
    ego->steering =
        static_cast<float>(-kSteering) +
        (steer - -1.0F) * static_cast<float>(kSteering - -kSteering) / 2.0F;
  }

  // KinematicsGoalObservation: (x, y, vx, vy, cos_h, sin_h) / scales, of
  // the ego and of its goal (at rest); the goal reward and success.
  void Observe() {
    static constexpr std::array<double, kFeatures> kScales = {100, 100, 5,
                                                              5,   1,   1};
    const Vehicle& ego = road_.vehicles[0];
    const Vec2 direction = ego.Direction();
    const std::array<double, kFeatures> ego_values = {
        ego.position.x,          ego.position.y, ego.speed * direction.x,
        ego.speed * direction.y, direction.x,    direction.y};
    const std::array<double, kFeatures> goal_values = {
        goal_position_.x,
        goal_position_.y,
        0.0,
        0.0,
        numpy_kernels::Cos(goal_heading_),
        numpy_kernels::Sin(goal_heading_)};
    for (int k = 0; k < kFeatures; ++k) {
      achieved_[k] = ego_values[k] / kScales[k];
      desired_[k] = goal_values[k] / kScales[k];
    }
    goal_reward_ = ComputeReward(achieved_, desired_);
    is_success_ = goal_reward_ > -success_goal_reward_;
  }

  void SaveScene(StateWriter* w) const override {
    w->Put(goal_position_, goal_heading_, achieved_, desired_, goal_reward_,
           is_success_, goal_hit_);
  }
  void LoadScene(StateReader* r) override {
    r->Get(&goal_position_, &goal_heading_, &achieved_, &desired_,
           &goal_reward_, &is_success_, &goal_hit_);
  }

  // The goal as highway-env's Landmark: 2 m x 2 m at rest, along its spot.
  Vehicle Goal() const {
    Vehicle goal;
    goal.kind = VehicleKind::kObstacle;
    goal.length = 2.0;
    goal.width = 2.0;
    goal.position = goal_position_;
    goal.heading = goal_heading_;
    goal.speed = 0.0;
    return goal;
  }
  // The goal first (highway-env appends it to the road's objects before
  // the walls), then the walls; the ego in its own green.
  void DrawObjects(WorldFrame* frame) const override {
    frame->DrawObject(Goal(), /*landmark=*/true, goal_hit_);
    SceneEnv::DrawObjects(frame);
  }
  bool EgoColored(int i) const override { return i == 0; }

  Fields fields_;
  double duration_;
  int64_t vehicles_count_;
  bool add_walls_;
  double collision_reward_;
  double success_goal_reward_;
  Vec2 goal_position_;
  bool goal_hit_ = false;
  double goal_heading_ = 0.0;
  std::array<double, kFeatures> achieved_ = {};
  std::array<double, kFeatures> desired_ = {};
  double goal_reward_ = 0.0;
  bool is_success_ = false;
};

}  // namespace envpool::highway

#endif  // ENVPOOL_HIGHWAY_PARKING_ENV_H_
