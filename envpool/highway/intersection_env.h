// intersection-v0/-v2 and intersection-multi-agent-v0/-v1/-v2 of highway-env
// 1.12.1 (envs/intersection_env.py): a four-way crossing of two-way roads on
// a RegulatedRoad (the horizontal road has the right of way; IDM vehicles in
// a predicted conflict with a vehicle of higher priority stop). The
// controlled vehicles (MDPVehicles with target speeds 0, 4.5, 9 m/s and the
// longitudinal actions SLOWER, IDLE, FASTER) start south (and west for the
// second) on a route to the west exit; traffic spawns at random entries
// after every step. IntersectionEnv writes IDMVehicle's class constants at
// reset (DISTANCE_WANTED 7, COMFORT_ACC_MAX 6, COMFORT_ACC_MIN -3): its
// traffic drives with them.
#ifndef ENVPOOL_HIGHWAY_INTERSECTION_ENV_H_
#define ENVPOOL_HIGHWAY_INTERSECTION_ENV_H_

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

// SceneFields, and the continuous action of intersection-v1.
struct IntersectionFields : SceneFields {
  Field<float> continuous_action;
};

class IntersectionEnv : public SceneEnv {
 public:
  using Fields = IntersectionFields;

  static Options DefaultOptions() {
    return Options{
        {"max_episode_steps", int64_t{13}},
        {"duration", int64_t{13}},
        {"simulation_frequency", int64_t{15}},
        {"policy_frequency", int64_t{1}},
        {"neighbour_vehicles_connected_lanes", false},
        {"spawn_probability", 0.6},
        {"initial_vehicle_count", int64_t{10}},
        {"collision_reward", -5.0},
        {"high_speed_reward", 1.0},
        {"arrived_reward", 1.0},
        {"reward_speed_low", 7.0},
        {"reward_speed_high", 9.0},
        {"normalize_reward", false},
        {"offroad_terminal", false},
        {"screen_width", int64_t{600}},
        {"screen_height", int64_t{600}},
    };
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;  // SceneEnv::SaveState, LoadState
    DeclareIntersection(options, spec, fields, /*players=*/1,
                        /*continuous=*/false);
  }

  IntersectionEnv(const Options& options, const Fields& fields)
      : IntersectionEnv(options, fields, 1, true, false) {}

  void Reset() override {
    time_ = 0.0;
    NewRoad(connected_lanes_);
    road_.regulated = true;
    road_.regulation_steps = 0;
    // What IntersectionEnv._make_vehicles writes into IDMVehicle's class.
    road_.distance_wanted = 7;
    road_.comfort_acc_max = 6;
    road_.comfort_acc_min = -3;
    road_.network = MakeNetwork();
    FindNodeKinds();
    MakeVehicles();
    ClearStepResult();
    std::fill(agent_rewards_.begin(), agent_rewards_.end(), 0.0);
    Observe();
  }

  void Step(const ActionView& action) override {
    AdvanceClock();
    const int64_t frames = simulation_frequency_ / policy_frequency_;
    const double dt = 1.0 / static_cast<double>(simulation_frequency_);
    for (int64_t frame = 0; frame < frames; ++frame) {
      if (frame == 0 && continuous_) {
        ActContinuous(action.Get(fields_.continuous_action),
                      &road_.vehicles[controlled_[0]]);
      } else if (frame == 0) {
        for (int p = 0; p < players_; ++p) {
          road_.ActControlled(controlled_[p],
                              ToMetaAction(action.Scalar(fields_.action, p)));
        }
      }
      road_.Act();
      road_.Step(dt);
    }
    Observe();
    double mean = 0.0;
    bool any_crashed = false;
    bool all_arrived = true;
    bool all_terminal = true;
    for (int p = 0; p < players_; ++p) {
      const Vehicle& v = road_.vehicles[controlled_[p]];
      agent_rewards_[p] = AgentReward(v);
      mean += agent_rewards_[p];
      const bool arrived = HasArrived(v, 25);
      any_crashed = any_crashed || v.crashed;
      all_arrived = all_arrived && arrived;
      all_terminal = all_terminal && (v.crashed || arrived);
    }
    reward_ = mean / players_;
    if (terminate_on_any_crash_) {
      const Vehicle& ego = road_.vehicles[controlled_[0]];
      terminated_ =
          any_crashed || all_arrived ||
          (offroad_terminal_ && !road_.LaneOf(ego).OnLane(ego.position));
    } else {
      terminated_ = all_terminal;
    }
    truncated_ = time_ >= duration_;
    // IntersectionEnv.step, after the observation and the reward: the
    // traffic that leaves goes, new traffic may come.
    ClearVehicles();
    SpawnVehicle(0, 1.0, 1.0, spawn_probability_, false);
  }

  void Write(const Output& out) override {
    WriteInfos(out, fields_, controlled_[0]);
    const int size = observed_ * features_;
    for (int p = 0; p < players_; ++p) {
      std::copy(obs_.begin() + p * size, obs_.begin() + (p + 1) * size,
                out.Get(fields_.obs, p));
    }
  }

 protected:
  IntersectionEnv(const Options& options, const Fields& fields, int players,
                  bool terminate_on_any_crash, bool continuous)
      : SceneEnv(options),
        fields_(fields),
        players_(players),
        continuous_(continuous),
        observed_(continuous ? kObservedContinuous : kObserved),
        features_(continuous ? kFeaturesContinuous : kFeatures),
        terminate_on_any_crash_(terminate_on_any_crash),
        duration_(static_cast<double>(options.Get<int64_t>("duration"))),
        connected_lanes_(
            options.Get<bool>("neighbour_vehicles_connected_lanes")),
        spawn_probability_(options.Get<double>("spawn_probability")),
        initial_vehicle_count_(
            static_cast<int>(options.Get<int64_t>("initial_vehicle_count"))),
        collision_reward_(options.Get<double>("collision_reward")),
        high_speed_reward_(options.Get<double>("high_speed_reward")),
        arrived_reward_(options.Get<double>("arrived_reward")),
        reward_speed_low_(options.Get<double>("reward_speed_low")),
        reward_speed_high_(options.Get<double>("reward_speed_high")),
        normalize_reward_(options.Get<bool>("normalize_reward")),
        offroad_terminal_(options.Get<bool>("offroad_terminal")),
        controlled_(players, 0),
        agent_rewards_(players, 0.0),
        obs_(static_cast<size_t>(players) * observed_ * features_, 0.0F) {
    viewer_ = ReadViewer(options, kViewer);
  }

  // Kinematics' rows and features: (presence, x, y, vx, vy, cos_h, sin_h)
  // for the discrete ids, (presence, x, y, vx, vy, long_off, lat_off,
  // ang_off) for ContinuousIntersectionEnv.
  static constexpr int kObserved = 15;
  static constexpr int kFeatures = 7;
  static constexpr int kObservedContinuous = 5;
  static constexpr int kFeaturesContinuous = 8;

  // The options' checks, the observation (per player when `players` > 1),
  // the infos and IntersectionEnv's Discrete(3) action (per player).
  static void DeclareIntersection(const Options& options, EnvSpec* spec,
                                  Fields* fields, int players,
                                  bool continuous) {
    CheckFrequencies(options);
    if (options.Get<int64_t>("simulation_frequency") < 2) {
      throw std::invalid_argument(
          "option 'simulation_frequency' must be at least 2 for the "
          "intersection (its road enforces priorities twice a second), got " +
          std::to_string(options.Get<int64_t>("simulation_frequency")));
    }
    if (options.Get<int64_t>("duration") < 1) {
      throw std::invalid_argument("option 'duration' must be at least 1");
    }
    const double spawn = options.Get<double>("spawn_probability");
    if (!(spawn >= 0 && spawn <= 1)) {
      throw std::invalid_argument(
          "option 'spawn_probability' must be in [0, 1], got " +
          std::to_string(spawn));
    }
    if (options.Get<int64_t>("initial_vehicle_count") < 1) {
      throw std::invalid_argument(
          "option 'initial_vehicle_count' must be at least 1");
    }
    if (!(options.Get<double>("reward_speed_low") <
          options.Get<double>("reward_speed_high"))) {
      throw std::invalid_argument(
          "options 'reward_speed_low' < 'reward_speed_high' required");
    }
    if (options.Get<bool>("normalize_reward") &&
        !(options.Get<double>("collision_reward") <
          options.Get<double>("arrived_reward"))) {
      throw std::invalid_argument(
          "option 'normalize_reward' maps [collision_reward, arrived_reward] "
          "to [0, 1]: 'collision_reward' < 'arrived_reward' required");
    }
    constexpr double kInf = std::numeric_limits<double>::infinity();
    spec->max_num_players = players;
    ArraySpec obs;
    obs.name = "obs";
    obs.dtype = DType::kFloat32;
    obs.shape = {continuous ? kObservedContinuous : kObserved,
                 continuous ? kFeaturesContinuous : kFeatures};
    obs.low = {-kInf};
    obs.high = {kInf};
    obs.per_player = players > 1;
    fields->obs = spec->state.Add<float>(obs);
    fields->speed = spec->state.Add<float>("info:speed", {});
    fields->crashed = spec->state.Add<bool>("info:crashed", {});
    if (continuous) {
      // ContinuousAction: [throttle, steering] in [-1, 1].
      ArraySpec action;
      action.name = "action";
      action.dtype = DType::kFloat32;
      action.shape = {2};
      action.low = {-1.0};
      action.high = {1.0};
      fields->continuous_action = spec->action.Add<float>(action);
    } else {
      fields->action = spec->action.AddDiscrete<int64_t>(
          "action", 3, /*per_player=*/players > 1);
    }
    DeclareViewer(options, spec, kViewer);
  }

  // IntersectionEnv's viewer: 600x600 at 5.5 x 1.3 pixels a metre, the ego
  // at 60% of the height.
  static constexpr ViewerConfig kViewer{600, 600, 5.5 * 1.3, 0.5, 0.6};
  int ViewerEgo() const override { return controlled_[0]; }

  // ContinuousAction.get_action and act for the ego (a BicycleVehicle):
  // the action clipped to [-1, 1] and mapped to an acceleration in [-5, 5]
  // m/s² and a steering angle in [-pi/3, pi/3], in float32 as numpy does
  // for a float32 action (Python's numbers take its type).
  static void ActContinuous(const float* action, Vehicle* ego) {
    const float throttle = std::clamp(action[0], -1.0F, 1.0F);
    const float steer = std::clamp(action[1], -1.0F, 1.0F);
    constexpr double kSteering = M_PI / 3;
    const float acceleration = -5.0F + (throttle - -1.0F) * 10.0F / 2.0F;
    const float steering =
        static_cast<float>(-kSteering) +
        (steer - -1.0F) * static_cast<float>(kSteering - -kSteering) / 2.0F;
    ego->acceleration = acceleration;
    ego->steering = steering;
  }

  // ACTIONS_LONGI: 0 SLOWER, 1 IDLE, 2 FASTER.
  static MetaAction ToMetaAction(int64_t action) {
    static constexpr MetaAction kActions[3] = {
        MetaAction::kSlower, MetaAction::kIdle, MetaAction::kFaster};
    return kActions[action];
  }

  static double Radians(double degrees) { return degrees * (M_PI / 180.0); }

  // IntersectionEnv._make_road: per corner (south, west, north, east), the
  // incoming lane, the right turn, the left turn, the straight crossing and
  // the exit of the corner to the right, at 10 m/s; priorities 3 on the
  // horizontal road (2 turning left), 1 on the vertical (0 turning left).
  static RoadNetwork MakeNetwork() {
    constexpr double kWidth = Lane::kDefaultWidth;
    constexpr double kRightTurnRadius = kWidth + 5;
    constexpr double kLeftTurnRadius = kRightTurnRadius + kWidth;
    constexpr double kOuterDistance = kRightTurnRadius + kWidth / 2;
    constexpr double kAccessLength = 50 + 50;
    constexpr double kSpeedLimit = 10.0;
    RoadNetwork net;
    auto name = [](const char* prefix, int corner) {
      return prefix + std::to_string(corner);
    };
    for (int corner = 0; corner < 4; ++corner) {
      const double angle = Radians(90 * corner);
      const int priority = corner % 2 == 1 ? 3 : 1;
      const double c = numpy_kernels::Cos(angle);
      const double s = numpy_kernels::Sin(angle);
      auto rotate = [&](double x, double y) {
        return Vec2{GemvRow(c, -s, x, y), GemvRow(s, c, x, y)};
      };
      constexpr LineType kNo = LineType::kNone;
      constexpr LineType kLine = LineType::kContinuous;
      constexpr LineType kStripes = LineType::kStriped;
      auto add = [&](const std::string& from, const std::string& to, Lane lane,
                     int lane_priority, LineType left, LineType right) {
        lane.set_speed_limit(kSpeedLimit);
        lane.set_priority(lane_priority);
        lane.set_line_types(left, right);
        net.AddLane(from, to, std::move(lane));
      };
      const int right = (corner + 3) % 4;
      const int left = (corner + 1) % 4;
      const int ahead = (corner + 2) % 4;
      add(name("o", corner), name("ir", corner),
          Lane(rotate(kWidth / 2, kAccessLength + kOuterDistance),
               rotate(kWidth / 2, kOuterDistance)),
          priority, kStripes, kLine);
      add(name("ir", corner), name("il", right),
          Lane::Circular(rotate(kOuterDistance, kOuterDistance),
                         kRightTurnRadius, angle + Radians(180),
                         angle + Radians(270), /*clockwise=*/true,
                         /*forbidden=*/false),
          priority, kNo, kLine);
      add(name("ir", corner), name("il", left),
          Lane::Circular(rotate(-kLeftTurnRadius + kWidth / 2,
                                kLeftTurnRadius - kWidth / 2),
                         kLeftTurnRadius, angle + Radians(0),
                         angle + Radians(-90), /*clockwise=*/false,
                         /*forbidden=*/false),
          priority - 1, kNo, kNo);
      add(name("ir", corner), name("il", ahead),
          Lane(rotate(kWidth / 2, kOuterDistance),
               rotate(kWidth / 2, -kOuterDistance)),
          priority, kStripes, kNo);
      add(name("il", right), name("o", right),
          Lane(rotate(kOuterDistance, kWidth / 2),
               rotate(kAccessLength + kOuterDistance, kWidth / 2)),
          priority, kNo, kLine);
    }
    return net;
  }

  // Which nodes are inner-left ("il") and outer ("o") ones, for the tests
  // of leaving and arriving.
  void FindNodeKinds() {
    const int n = road_.network.NumNodes();
    inner_left_.assign(n, false);
    outer_.assign(n, false);
    for (int i = 0; i < n; ++i) {
      const std::string& node = road_.network.NodeName(i);
      inner_left_[i] = node.find("il") != std::string::npos;
      outer_[i] = node.find('o') != std::string::npos;
    }
  }

  // On an exit lane, at least `distance` along it.
  bool OnExitBeyond(const Vehicle& v, double distance) const {
    return inner_left_[v.lane_index.from] && outer_[v.lane_index.to] &&
           road_.LaneOf(v).LocalCoordinates(v.position).first >= distance;
  }
  // IntersectionEnv.has_arrived.
  bool HasArrived(const Vehicle& v, double exit_distance) const {
    return OnExitBeyond(v, exit_distance);
  }

  // IntersectionEnv._make_vehicles.
  void MakeVehicles() {
    const int n = initial_vehicle_count_;
    const double step = 80.0 / static_cast<double>(n - 1);
    for (int t = 0; t + 1 < n; ++t) {
      SpawnVehicle(t * step, 1.0, 1.0, 0.6, false);
    }
    const double dt = 1.0 / static_cast<double>(simulation_frequency_);
    for (int k = 0; k < 3; ++k) {
      for (int64_t frame = 0; frame < simulation_frequency_; ++frame) {
        road_.Act();
        road_.Step(dt);
      }
    }
    // The challenger.
    SpawnVehicle(60, 0.1, 0.0, 1.0, true);
    // The controlled vehicles, on the route to o1.
    const RoadNetwork& net = road_.network;
    const int destination = net.NodeIndex("o1");
    for (int p = 0; p < players_; ++p) {
      const std::string corner = std::to_string(p % 4);
      const LaneIndex lane_index = {net.NodeIndex("o" + corner),
                                    net.NodeIndex("ir" + corner), 0};
      const Lane& lane = net.GetLane(lane_index);
      const double longitudinal = 60.0 + 5.0 * np_random_.Normal(1.0, 1.0);
      Vehicle ego = road_.MakeVehicle(
          continuous_ ? VehicleKind::kBicycle : VehicleKind::kMdp,
          lane.Position(longitudinal, 0), lane.HeadingAt(60.0),
          lane.speed_limit());
      if (continuous_) {
        // A BicycleVehicle has no route, no target speed (the IDM reads 0
        // for it) and starts with a zero action.
        ego.target_speed = 0.0;
      } else {
        ego.target_speeds = {0.0, 4.5, 9.0};
        road_.PlanRouteTo(&ego, destination);
        ego.speed_index =
            Road::SpeedToIndex(lane.speed_limit(), ego.target_speeds);
        ego.target_speed = ego.target_speeds[ego.speed_index];
      }
      ego.player = p;
      road_.vehicles.push_back(ego);
      // Prevent early collisions: the traffic within 20 m goes.
      const Vec2 at = ego.position;
      auto& vehicles = road_.vehicles;
      vehicles.erase(std::remove_if(vehicles.begin(), vehicles.end(),
                                    [&](const Vehicle& v) {
                                      return v.player < 0 &&
                                             Norm2(v.position.x - at.x,
                                                   v.position.y - at.y) < 20;
                                    }),
                     vehicles.end());
    }
    FindControlled();
  }

  // IntersectionEnv._spawn_vehicle: with probability `spawn_probability`,
  // an IDM vehicle on a random entry (to a random other exit, or straight
  // on), unless it would be within 15 m of another.
  void SpawnVehicle(double longitudinal, double position_deviation,
                    double speed_deviation, double spawn_probability,
                    bool go_straight) {
    if (np_random_.Random() > spawn_probability) {
      return;
    }
    std::vector<int64_t> route = np_random_.Choice(4, 2, /*replace=*/false);
    if (go_straight) {
      route[1] = (route[0] + 2) % 4;
    }
    const RoadNetwork& net = road_.network;
    const std::string entry = std::to_string(route[0]);
    const double s =
        longitudinal + 5.0 + np_random_.Normal(0.0, 1.0) * position_deviation;
    const double speed = 8.0 + np_random_.Normal(0.0, 1.0) * speed_deviation;
    Vehicle vehicle = road_.MakeOnLane(
        VehicleKind::kIdm,
        {net.NodeIndex("o" + entry), net.NodeIndex("ir" + entry), 0}, s, speed);
    for (const Vehicle& v : road_.vehicles) {
      if (Norm2(v.position.x - vehicle.position.x,
                v.position.y - vehicle.position.y) < 15) {
        return;
      }
    }
    road_.PlanRouteTo(&vehicle, net.NodeIndex("o" + std::to_string(route[1])));
    vehicle.delta = np_random_.Uniform(3.5, 4.5);
    road_.vehicles.push_back(vehicle);
  }

  // IntersectionEnv._clear_vehicles: the traffic 4 lengths before the end
  // of an exit goes.
  void ClearVehicles() {
    auto& vehicles = road_.vehicles;
    vehicles.erase(std::remove_if(vehicles.begin(), vehicles.end(),
                                  [&](const Vehicle& v) {
                                    return v.player < 0 &&
                                           OnExitBeyond(
                                               v, road_.LaneOf(v).length() -
                                                      4 * Vehicle::kLength);
                                  }),
                   vehicles.end());
    FindControlled();
  }

  void FindControlled() {
    for (int i = 0; i < static_cast<int>(road_.vehicles.size()); ++i) {
      const int p = road_.vehicles[i].player;
      if (p >= 0) {
        controlled_[p] = i;
      }
    }
  }

  // IntersectionEnv._agent_reward.
  double AgentReward(const Vehicle& v) const {
    const double speed =
        Clip(Lmap(v.speed, reward_speed_low_, reward_speed_high_, 0, 1), 0, 1);
    const bool arrived = HasArrived(v, 25);
    double reward = collision_reward_ * (v.crashed ? 1.0 : 0.0) +
                    high_speed_reward_ * speed +
                    arrived_reward_ * (arrived ? 1.0 : 0.0);
    if (arrived) {
      reward = arrived_reward_;
    }
    reward *= road_.LaneOf(v).OnLane(v.position) ? 1.0 : 0.0;
    if (normalize_reward_) {
      reward = Lmap(reward, collision_reward_, arrived_reward_, 0, 1);
    }
    return reward;
  }

  // Each player's Kinematics observation in absolute coordinates: x, y
  // mapped from +-100 m, vx, vy from +-20 m/s (clipped), the rest as they
  // are; the observer, then the closest vehicles ahead.
  void Observe() {
    std::fill(obs_.begin(), obs_.end(), 0.0F);
    const int size = observed_ * features_;
    for (int p = 0; p < players_; ++p) {
      float* obs = obs_.data() + p * size;
      auto write_row = [&](int row, const Vehicle& v) {
        const Vec2 velocity = v.Velocity();
        double values[kFeaturesContinuous] = {
            1.0, Clip(Lmap(v.position.x, -100, 100, -1, 1), -1, 1),
            Clip(Lmap(v.position.y, -100, 100, -1, 1), -1, 1),
            Clip(Lmap(velocity.x, -20, 20, -1, 1), -1, 1),
            Clip(Lmap(velocity.y, -20, 20, -1, 1), -1, 1)};
        if (continuous_) {
          // Vehicle.lane_offset on its lane.
          const Lane& lane = road_.LaneOf(v);
          const auto [s, r] = lane.LocalCoordinates(v.position);
          values[5] = s;
          values[6] = r;
          values[7] = WrapToPi(v.heading - lane.HeadingAt(s));
        } else {
          const Vec2 direction = v.Direction();
          values[5] = direction.x;
          values[6] = direction.y;
        }
        for (int k = 0; k < features_; ++k) {
          obs[row * features_ + k] = static_cast<float>(values[k]);
        }
      };
      const int observer = controlled_[p];
      write_row(0, road_.vehicles[observer]);
      const std::vector<int> close =
          CloseBodies(road_, observer, /*with_obstacles=*/true);
      const int rows = std::min(static_cast<int>(close.size()), observed_ - 1);
      for (int r = 0; r < rows; ++r) {
        write_row(r + 1, road_.Body(close[r]));
      }
    }
  }

  void SaveScene(StateWriter* w) const override {
    w->Put(controlled_, agent_rewards_, obs_);
  }
  void LoadScene(StateReader* r) override {
    GetSized(r, &controlled_, "controlled vehicles");
    GetSized(r, &agent_rewards_, "rewards");
    GetSized(r, &obs_, "observations");
  }
  void CheckScene() const override {
    for (const Vehicle& v : road_.vehicles) {
      if (v.player >= players_) {
        throw SnapshotError("highway: a vehicle of the state has player " +
                            std::to_string(v.player) + " of " +
                            std::to_string(players_));
      }
    }
    for (int i : controlled_) {
      if (i < 0 || i >= static_cast<int>(road_.vehicles.size())) {
        throw SnapshotError(
            "highway: a controlled vehicle of the state is "
            "not on its road");
      }
    }
  }

  Fields fields_;
  int players_;
  bool continuous_;
  int observed_;
  int features_;
  bool terminate_on_any_crash_;
  double duration_;
  bool connected_lanes_;
  double spawn_probability_;
  int initial_vehicle_count_;
  double collision_reward_;
  double high_speed_reward_;
  double arrived_reward_;
  double reward_speed_low_;
  double reward_speed_high_;
  bool normalize_reward_;
  bool offroad_terminal_;
  // The controlled vehicles' indices in road_.vehicles, by player.
  std::vector<int> controlled_;
  std::vector<double> agent_rewards_;
  // The observation at the end of the last step, before the traffic
  // changed (what highway-env returns).
  std::vector<float> obs_;
  std::vector<bool> inner_left_;
  std::vector<bool> outer_;
};

// intersection-multi-agent-v0/-v1/-v2 (MultiAgentIntersectionEnv): two
// controlled vehicles, one observation row, reward and action per player.
// `terminate_on_any_crash` (v0): the episode ends as highway-env's
// terminated says (a crash or all arrived); else (v1, v2: its
// MultiAgentWrapper) when every agent has crashed or arrived.
class IntersectionMultiAgentEnv : public IntersectionEnv {
 public:
  static constexpr int kPlayers = 2;

  static Options DefaultOptions() {
    Options options = IntersectionEnv::DefaultOptions();
    options.Define("terminate_on_any_crash", true);
    return options;
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;  // SceneEnv::SaveState, LoadState
    DeclareIntersection(options, spec, fields, kPlayers, /*continuous=*/false);
  }

  IntersectionMultiAgentEnv(const Options& options, const Fields& fields)
      : IntersectionEnv(options, fields, kPlayers,
                        options.Get<bool>("terminate_on_any_crash"),
                        /*continuous=*/false) {}

  int NumPlayers() const override { return kPlayers; }

  void WriteReward(const Output& out) const override {
    for (int p = 0; p < kPlayers; ++p) {
      out.SetReward(agent_rewards_[p], p);
    }
  }
};

// intersection-v1 (ContinuousIntersectionEnv): the ego is a BicycleVehicle
// (the dynamical bicycle model, no route) driven by a ContinuousAction
// [throttle, steering]; the observation has 5 rows of presence, x, y, vx,
// vy and the lane offsets (longitudinal, lateral, angle).
class IntersectionContinuousEnv : public IntersectionEnv {
 public:
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;  // SceneEnv::SaveState, LoadState
    DeclareIntersection(options, spec, fields, /*players=*/1,
                        /*continuous=*/true);
  }

  IntersectionContinuousEnv(const Options& options, const Fields& fields)
      : IntersectionEnv(options, fields, 1, true, /*continuous=*/true) {}
};

}  // namespace envpool::highway

#endif  // ENVPOOL_HIGHWAY_INTERSECTION_ENV_H_
