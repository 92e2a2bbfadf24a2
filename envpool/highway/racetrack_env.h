// racetrack-v0/-v1, racetrack-large-v0/-v1 and racetrack-oval-v0/-v1 of
// highway-env 1.12.1 (envs/racetrack_env.py): a closed circuit of straight
// and circular lanes (5 m wide, 10 m/s) that the ego (a plain kinematic
// Vehicle at the lanes' 10 m/s, never accelerating) follows with a
// lateral-only ContinuousAction (the steering), among IDM traffic. The
// observation is highway-env's OccupancyGrid: a (2, 12, 12) grid of 3 m
// cells around the ego, aligned with its heading, with the vehicles'
// presence and the lanes' waypoints (on_road). The reward favours the lane
// centre and small actions, mapped from [collision_reward, 1] to [0, 1],
// and is 0 off the road; terminated at a crash or off the road.
#ifndef ENVPOOL_HIGHWAY_RACETRACK_ENV_H_
#define ENVPOOL_HIGHWAY_RACETRACK_ENV_H_

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

class RacetrackEnv : public SceneEnv {
 public:
  enum class Track { kRacetrack, kLarge, kOval };
  static constexpr int kLayers = 2;
  static constexpr int kCells = 12;

  struct Fields {
    Field<float> obs;
    Field<float> action;
    Field<float> speed;
    Field<bool> crashed;
  };

  // The options of every track; the large track adds `speed_limit`, the
  // oval its shape.
  static Options DefaultOptions() {
    return Options{
        // highway-env's time runs out at step 1501 (300 s in steps of 0.2 s
        // reach 300 only then, by rounding); see docs/highway.md.
        {"max_episode_steps", int64_t{1501}},
        {"duration", int64_t{300}},
        {"simulation_frequency", int64_t{15}},
        {"policy_frequency", int64_t{5}},
        {"neighbour_vehicles_connected_lanes", false},
        {"other_vehicles", int64_t{1}},
        {"collision_reward", -1.0},
        {"lane_centering_cost", 4.0},
        {"lane_centering_reward", 1.0},
        {"action_reward", -0.3},
        {"terminate_off_road", true},
        {"screen_width", int64_t{600}},
        {"screen_height", int64_t{600}},
    };
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;  // SceneEnv::SaveState, LoadState
    CheckFrequencies(options);
    if (options.Get<int64_t>("duration") < 1) {
      throw std::invalid_argument("option 'duration' must be at least 1");
    }
    if (options.Get<int64_t>("other_vehicles") < 0) {
      throw std::invalid_argument("option 'other_vehicles' must be >= 0");
    }
    if (options.Has("length") && (options.Get<int64_t>("length") < 1 ||
                                  options.Get<int64_t>("no_lanes") < 2)) {
      throw std::invalid_argument(
          "options 'length' (>= 1) and 'no_lanes' (>= 2) of the oval: "
          "highway-env draws a 0 from an unseeded generator, which no seed "
          "reproduces; give the value");
    }
    if (!(options.Get<double>("collision_reward") < 1)) {
      throw std::invalid_argument(
          "option 'collision_reward' must be < 1 (the reward maps "
          "[collision_reward, 1] to [0, 1])");
    }
    if (options.Has("speed_limit") &&
        !(options.Get<double>("speed_limit") > 0)) {
      throw std::invalid_argument("option 'speed_limit' must be > 0");
    }
    constexpr double kInf = std::numeric_limits<double>::infinity();
    fields->obs = spec->state.Add<float>("obs", {kLayers, kCells, kCells},
                                         {-kInf}, {kInf});
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

  // RacetrackEnv's viewer: 600x600, the ego in the middle.
  static constexpr ViewerConfig kViewer{600, 600, 5.5, 0.5, 0.5};

  RacetrackEnv(const Options& options, const Fields& fields)
      : RacetrackEnv(options, fields, Track::kRacetrack) {}

  void Reset() override {
    time_ = 0.0;
    NewRoad(connected_lanes_);
    switch (track_) {
      case Track::kRacetrack:
        MakeRacetrack();
        break;
      case Track::kLarge:
        MakeLarge();
        break;
      case Track::kOval:
        MakeOval();
        break;
    }
    SetTrackLines();
    MakeVehicles();
    ClearStepResult();
    Observe();
  }

  void Step(const ActionView& action) override {
    AdvanceClock();
    const float raw = action.Get(fields_.action)[0];
    // ContinuousAction.get_action (lateral only): the steering in
    // [-pi/4, pi/4] in float32, no acceleration.
    const float steer = std::clamp(raw, -1.0F, 1.0F);
    constexpr double kSteering = M_PI / 4;
    Vehicle& ego = road_.vehicles[0];
    ego.steering =
        static_cast<float>(-kSteering) +
        (steer - -1.0F) * static_cast<float>(kSteering - -kSteering) / 2.0F;
    ego.acceleration = 0.0;
    const int64_t frames = simulation_frequency_ / policy_frequency_;
    const double dt = 1.0 / static_cast<double>(simulation_frequency_);
    for (int64_t frame = 0; frame < frames; ++frame) {
      road_.Act();
      road_.Step(dt);
    }
    Observe();
    const Vehicle& v = road_.vehicles[0];
    const Lane& lane = road_.LaneOf(v);
    const double lateral = lane.LocalCoordinates(v.position).second;
    const bool on_road = lane.OnLane(v.position);
    // np.linalg.norm of the float32 action (unclipped), in float32, times
    // the weight (a Python float, so float32 too).
    const float norm = std::sqrt(raw * raw);
    const float action_term = static_cast<float>(action_reward_) * norm;
    double reward = 0;
    reward += lane_centering_reward_ *
              (1 / (1 + lane_centering_cost_ * (lateral * lateral)));
    reward += static_cast<double>(action_term);
    reward += collision_reward_ * (v.crashed ? 1.0 : 0.0);
    reward = Lmap(reward, collision_reward_, 1, 0, 1);
    reward_ = reward * (on_road ? 1.0 : 0.0);
    terminated_ = v.crashed || (terminate_off_road_ && !on_road);
    truncated_ = time_ >= duration_;
  }

  void Write(const Output& out) override {
    const Vehicle& ego = road_.vehicles[0];
    *out.Get(fields_.speed) = static_cast<float>(ego.speed);
    *out.Get(fields_.crashed) = ego.crashed;
    std::copy(grid_.begin(), grid_.end(), out.Get(fields_.obs));
  }

 protected:
  RacetrackEnv(const Options& options, const Fields& fields, Track track)
      : SceneEnv(options),
        fields_(fields),
        track_(track),
        duration_(static_cast<double>(options.Get<int64_t>("duration"))),
        connected_lanes_(
            options.Get<bool>("neighbour_vehicles_connected_lanes")),
        other_vehicles_(options.Get<int64_t>("other_vehicles")),
        collision_reward_(options.Get<double>("collision_reward")),
        lane_centering_cost_(options.Get<double>("lane_centering_cost")),
        lane_centering_reward_(options.Get<double>("lane_centering_reward")),
        action_reward_(options.Get<double>("action_reward")),
        terminate_off_road_(options.Get<bool>("terminate_off_road")) {
    viewer_ = ReadViewer(options, kViewer);
    if (track == Track::kLarge) {
      speed_limit_ = options.Get<double>("speed_limit");
    }
    if (track == Track::kOval) {
      length_ = options.Get<int64_t>("length");
      no_lanes_ = options.Get<int64_t>("no_lanes");
      block_lane_ = options.Get<bool>("block_lane");
      force_decision_ = options.Get<bool>("force_decision");
    }
  }

 private:
  static double Deg(double degrees) { return degrees * (M_PI / 180.0); }

  void Straight(const char* from, const char* to, Vec2 start, Vec2 end,
                double speed_limit) {
    road_.network.AddLane(from, to, Lane(start, end, kWidth, speed_limit));
  }
  void Arc(const char* from, const char* to, Vec2 center, double radius,
           double start_degrees, double end_degrees, bool clockwise,
           double speed_limit) {
    road_.network.AddLane(
        from, to,
        Lane::Circular(center, radius, Deg(start_degrees), Deg(end_degrees),
                       clockwise, /*forbidden=*/false, kWidth, speed_limit));
  }

  // The line types of the lanes of road from-to, one code per lane in
  // lane order: two letters (left, right), n none, s striped, c
  // continuous.
  void SetLines(const char* from, const char* to,
                const std::vector<std::string>& codes) {
    auto type = [](char code) {
      return code == 'n'   ? LineType::kNone
             : code == 's' ? LineType::kStriped
                           : LineType::kContinuous;
    };
    RoadNetwork& net = road_.network;
    std::vector<Lane>& lanes =
        net.MutableLanes(net.NodeIndex(from), net.NodeIndex(to));
    for (size_t i = 0; i < lanes.size() && i < codes.size(); ++i) {
      lanes[i].set_line_types(type(codes[i][0]), type(codes[i][1]));
    }
  }

  // The tracks' lines, as highway-env's _make_road gives them.
  void SetTrackLines() {
    const char* roads[][2] = {{"a", "b"}, {"b", "c"}, {"c", "d"},
                              {"d", "e"}, {"e", "f"}, {"f", "g"},
                              {"g", "h"}, {"h", "i"}, {"i", "a"}};
    if (track_ == Track::kRacetrack) {
      for (const auto& road : roads) {
        const std::string name = std::string(road[0]) + road[1];
        if (name == "ab") {
          SetLines(road[0], road[1], {"cs", "sc"});
        } else if (name == "ef" || name == "ia") {
          SetLines(road[0], road[1], {"cs", "nc"});
        } else {
          SetLines(road[0], road[1], {"cn", "sc"});
        }
      }
    } else if (track_ == Track::kLarge) {
      for (const auto& road : roads) {
        const bool first = std::string(road[0]) == "a";
        SetLines(road[0], road[1], {first ? "cs" : "cn", "ss", "nc"});
      }
    } else {
      const char* oval[][2] = {{"a", "b"}, {"b", "c"}, {"c", "d"}, {"d", "e"},
                               {"e", "f"}, {"f", "g"}, {"g", "h"}, {"h", "a"}};
      const int n = static_cast<int>(no_lanes_);
      for (const auto& road : oval) {
        const std::string name = std::string(road[0]) + road[1];
        std::vector<std::string> codes;
        for (int i = 0; i < n; ++i) {
          if (i == 0) {
            codes.emplace_back(name == "ab" ? "cs" : "cn");
          } else if (i == n - 1 || name == "ha") {
            codes.emplace_back("sc");
          } else {
            codes.emplace_back("sn");
          }
        }
        SetLines(road[0], road[1], codes);
      }
    }
  }

  // RacetrackEnv._make_road (its speed limits are 10, not the option).
  void MakeRacetrack() {
    constexpr double kLimit = 10.0;
    Straight("a", "b", {42, 0}, {100, 0}, kLimit);
    Straight("a", "b", {42, 5}, {100, 5}, kLimit);
    Arc("b", "c", {100, -20}, 20, 90, -1, false, kLimit);
    Arc("b", "c", {100, -20}, 25, 90, -1, false, kLimit);
    Straight("c", "d", {120, -20}, {120, -30}, kLimit);
    Straight("c", "d", {125, -20}, {125, -30}, kLimit);
    Arc("d", "e", {105, -30}, 15, 0, -181, false, kLimit);
    Arc("d", "e", {105, -30}, 20, 0, -181, false, kLimit);
    Arc("e", "f", {70, -30}, 20, 0, 136, true, kLimit);
    Arc("e", "f", {70, -30}, 15, 0, 137, true, kLimit);
    Straight("f", "g", {55.7, -15.7}, {35.7, -35.7}, kLimit);
    Straight("f", "g", {59.3934, -19.2}, {39.3934, -39.2}, kLimit);
    Arc("g", "h", {18.1, -18.1}, 25, 315, 170, false, kLimit);
    Arc("g", "h", {18.1, -18.1}, 30, 315, 165, false, kLimit);
    Arc("h", "i", {18.1, -18.1}, 25, 170, 56, false, kLimit);
    Arc("h", "i", {18.1, -18.1}, 30, 170, 58, false, kLimit);
    Arc("i", "a", {43.2, 23.4}, 18.5 + 5, 240, 270, true, kLimit);
    Arc("i", "a", {43.2, 23.4}, 18.5, 238, 268, true, kLimit);
  }

  // RacetrackEnvLarge._make_road: three lanes, the option's speed limit.
  void MakeLarge() {
    const double v = speed_limit_;
    constexpr double w = kWidth;
    constexpr double w2 = 2 * w;
    for (double y : {0.0, w, w2}) {
      Straight("a", "b", {42, y}, {200, y}, v);
    }
    for (double r : {20.0, 20 + w, 20 + w2}) {
      Arc("b", "c", {200, -20}, r, 90, -1, false, v);
    }
    for (double x : {220.0, 220 + w, 220 + w2}) {
      Straight("c", "d", {x, -20}, {x, -60 + -1.0}, v);
    }
    for (double r : {15.0, 15 + w, 15 + w2}) {
      Arc("d", "e", {205, -60}, r, 0, -181, false, v);
    }
    Arc("e", "f", {170, -60}, 15 + 5, 0, 136, true, v);
    Arc("e", "f", {170, -60}, 15, 0, 137, true, v);
    Arc("e", "f", {170, -60}, 15 - w, 0, 137, true, v);
    const Vec2 extend = {-30, -30};
    const Vec2 start6 = {155.7, -45.7};
    const Vec2 end6 = {135.7 + extend.x, -65.7 + extend.y};
    const Vec2 start6_2 = {159.3934, -49.2};
    const Vec2 end6_2 = {139.3934 + extend.x, -69.2 + extend.y};
    const Vec2 start6_3 = {start6.x + 2 * (start6_2.x - start6.x),
                           start6.y + 2 * (start6_2.y - start6.y)};
    const Vec2 end6_3 = {end6.x + 2 * (end6_2.x - end6.x),
                         end6.y + 2 * (end6_2.y - end6.y)};
    Straight("f", "g", start6, end6, v);
    Straight("f", "g", start6_2, end6_2, v);
    Straight("f", "g", start6_3, end6_3, v);
    const Vec2 center7 = {118.1 + extend.x, -48.1 + extend.y};
    constexpr double kRadius7 = 25;
    constexpr double kTheta7 = 317;
    constexpr double kTheta7End = 205;
    Arc("g", "h", center7, kRadius7, kTheta7, kTheta7End - 3, false, v);
    Arc("g", "h", center7, kRadius7 + 5, kTheta7, kTheta7End, false, v);
    Arc("g", "h", center7, kRadius7 + w2, kTheta7, kTheta7End, false, v);
    const double c7 = numpy_kernels::Cos(Deg(kTheta7End));
    const double s7 = numpy_kernels::Sin(Deg(kTheta7End));
    constexpr double kRadius9 = 15;
    const double rad = Deg(30);
    const double c9 = numpy_kernels::Cos(rad);
    const double s9 = numpy_kernels::Sin(rad);
    const double radii7[3] = {kRadius7, kRadius7 + w, kRadius7 + w2};
    const double radii9[3] = {kRadius9, kRadius9 + w, kRadius9 + w2};
    for (int k = 0; k < 3; ++k) {
      const Vec2 start8 = {center7.x + radii7[k] * c7,
                           center7.y + radii7[k] * s7};
      const Vec2 end8 = {42 - radii9[k] * c9, -kRadius9 - radii9[k] * s9};
      Straight("h", "i", start8, end8, v);
    }
    const Vec2 center9 = {42, -kRadius9};
    Arc("i", "a", center9, kRadius9, 210, 88, false, v);
    Arc("i", "a", center9, kRadius9 + w, 210, 90, false, v);
    Arc("i", "a", center9, kRadius9 + w2, 212, 88, false, v);
  }

  // RacetrackEnvOval._make_road: `no_lanes` lanes around two straights of
  // `length` m, and the optional blocks.
  void MakeOval() {
    constexpr double v = 10;
    const auto length = static_cast<double>(length_);
    const int n = static_cast<int>(no_lanes_);
    for (int i = 0; i < n; ++i) {
      Straight("a", "b", {0, i * 5.0}, {length + 1, i * 5.0}, v);
    }
    for (int i = 0; i < n; ++i) {
      Arc("b", "c", {length, -20}, 20 + i * 5.0, 90, 0, false, v);
    }
    for (int i = 0; i < n; ++i) {
      Straight("c", "d", {length + 20 + i * 5, -20}, {length + 20 + i * 5, -50},
               v);
    }
    for (int i = 0; i < n; ++i) {
      Arc("d", "e", {length + 5, -50}, 15 + i * 5.0, 0, -90, false, v);
    }
    for (int i = 0; i < n; ++i) {
      const double y = -(65 + i * 5.0);
      Straight("e", "f", {length + 5, y}, {-5, y}, v);
    }
    for (int i = 0; i < n; ++i) {
      Arc("f", "g", {-5, -50}, 15 + i * 5.0, -90, -180, false, v);
    }
    for (int i = 0; i < n; ++i) {
      const double x = -20 - i * 5.0;
      Straight("g", "h", {x, -50}, {x, -20}, v);
    }
    for (int i = 0; i < n; ++i) {
      Arc("h", "a", {0, -20}, 20 + i * 5.0, 180, 90, false, v);
    }
    if (block_lane_) {
      for (double x : {40.0, 43.0, 46.0, 49.0}) {
        road_.objects.push_back(road_.MakeObstacle({length - x, 3.75}));
        road_.objects.push_back(road_.MakeObstacle({length - x, 6.25}));
      }
    }
    if (force_decision_) {
      for (double y : {-1.25, 1.25, 8.85, 11.25}) {
        road_.objects.push_back(road_.MakeObstacle({length - 90.0, y}));
      }
    }
  }

  // RacetrackEnv._make_vehicles: the ego on a drawn lane of the first
  // straight, a vehicle ahead on the first turn, and up to
  // integers(other_vehicles) more (none by default) kept 20 m apart.
  void MakeVehicles() {
    const RoadNetwork& net = road_.network;
    const int a = net.NodeIndex("a");
    const int b = net.NodeIndex("b");
    const int c = net.NodeIndex("c");
    // integers(2) (integers(no_lanes) on the oval), even on the large
    // track's three lanes.
    const int64_t lanes = track_ == Track::kOval ? no_lanes_ : 2;
    const LaneIndex ego_lane = {
        a, b, static_cast<int>(np_random_.Integers<int64_t>(0, lanes))};
    const double longitudinal = np_random_.Uniform(20, 50);
    const Lane& lane = net.GetLane(ego_lane);
    Vehicle ego = road_.MakeOnLane(VehicleKind::kKinematic, ego_lane,
                                   longitudinal, lane.speed_limit());
    ego.player = 0;
    road_.vehicles.push_back(ego);
    if (other_vehicles_ <= 0) {
      return;
    }
    const LaneIndex front_lane = {b, c, ego_lane.id};
    const double front_s =
        np_random_.Uniform(0.0, net.GetLane({b, c, 0}).length());
    const double front_speed = 6.0 + np_random_.Uniform(0.0, 3.0);
    road_.vehicles.push_back(
        road_.MakeOnLane(VehicleKind::kIdm, front_lane, front_s, front_speed));
    const int64_t others = np_random_.Integers<int64_t>(0, other_vehicles_);
    const auto& roads = net.roads();
    for (int64_t k = 0; k < others; ++k) {
      // RoadNetwork.random_lane_index: a node with roads, a road from it,
      // a lane of it (one road leaves every node here).
      const auto& road = roads[static_cast<size_t>(
          np_random_.Choice(static_cast<int64_t>(roads.size())))];
      np_random_.Choice(1);
      const LaneIndex index = {
          road.from, road.to,
          static_cast<int>(np_random_.Integers<int64_t>(
              0, static_cast<int64_t>(road.lanes.size())))};
      const double s = np_random_.Uniform(0.0, net.GetLane(index).length());
      const double speed = 6.0 + np_random_.Uniform(0.0, 3.0);
      Vehicle vehicle = road_.MakeOnLane(VehicleKind::kIdm, index, s, speed);
      bool too_close = false;
      for (const Vehicle& other : road_.vehicles) {
        if (Norm2(vehicle.position.x - other.position.x,
                  vehicle.position.y - other.position.y) < 20) {
          too_close = true;
          break;
        }
      }
      if (!too_close) {
        road_.vehicles.push_back(vehicle);
      }
    }
  }

  // OccupancyGridObservation.pos_to_index of a position relative to the
  // ego, in the ego's axes ([[c, s], [-s, c]] @ p: numpy's dgemv).
  std::pair<int, int> CellOf(double dx, double dy, double c, double s) const {
    const double px = GemvRow(c, s, dx, dy);
    const double py = GemvRow(-s, c, dx, dy);
    return {static_cast<int>(std::floor((px - kGridMin) / kGridStep)),
            static_cast<int>(std::floor((py - kGridMin) / kGridStep))};
  }
  void Mark(int layer, std::pair<int, int> cell) {
    if (0 <= cell.first && cell.first < kCells && 0 <= cell.second &&
        cell.second < kCells) {
      grid_[(layer * kCells + cell.first) * kCells + cell.second] = 1.0F;
    }
  }

  // OccupancyGridObservation.observe with features presence and on_road:
  // the vehicles (the last first; all mark 1), then every lane's waypoints
  // every 3 m within 100 m of the ego along it (np.arange, clipped to the
  // lane); cells left empty are 0.
  void Observe() {
    std::fill(grid_.begin(), grid_.end(), 0.0F);
    const Vehicle& ego = road_.vehicles[0];
    const Vec2 direction = ego.Direction();
    const double c = direction.x;
    const double s = direction.y;
    for (const Vehicle& v : road_.vehicles) {
      Mark(0, CellOf(v.position.x - ego.position.x,
                     v.position.y - ego.position.y, c, s));
    }
    constexpr double kPerception = 100;
    for (const auto& road : road_.network.roads()) {
      for (const Lane& lane : road.lanes) {
        const double origin = lane.LocalCoordinates(ego.position).first;
        const double start = origin - kPerception;
        const double stop = origin + kPerception;
        const auto count =
            static_cast<int64_t>(std::ceil((stop - start) / kGridStep));
        const double delta = (start + kGridStep) - start;
        for (int64_t k = 0; k < count; ++k) {
          double waypoint = k == 0   ? start
                            : k == 1 ? start + kGridStep
                                     : start + static_cast<double>(k) * delta;
          waypoint = std::min(std::max(waypoint, 0.0), lane.length());
          const Vec2 p = lane.Position(waypoint, 0);
          Mark(1, CellOf(p.x - ego.position.x, p.y - ego.position.y, c, s));
        }
      }
    }
  }

  void SaveScene(StateWriter* w) const override { w->Put(grid_); }
  void LoadScene(StateReader* r) override { r->Get(&grid_); }

  static constexpr double kWidth = 5;
  static constexpr double kGridMin = -18;
  static constexpr double kGridStep = 3;

  Fields fields_;
  Track track_;
  double duration_;
  bool connected_lanes_;
  int64_t other_vehicles_;
  double collision_reward_;
  double lane_centering_cost_;
  double lane_centering_reward_;
  double action_reward_;
  bool terminate_off_road_;
  double speed_limit_ = 10.0;
  int64_t length_ = 100;
  int64_t no_lanes_ = 3;
  bool block_lane_ = false;
  bool force_decision_ = false;
  std::array<float, kLayers* kCells* kCells> grid_ = {};
};

// racetrack-large: three lanes, RacetrackEnvLarge's road; its lanes take
// the `speed_limit` option (10 m/s).
class RacetrackLargeEnv : public RacetrackEnv {
 public:
  static Options DefaultOptions() {
    Options options = RacetrackEnv::DefaultOptions();
    options.Define("speed_limit", 10.0);
    return options;
  }
  RacetrackLargeEnv(const Options& options, const Fields& fields)
      : RacetrackEnv(options, fields, Track::kLarge) {}
};

// racetrack-oval: RacetrackEnvOval's road of `no_lanes` lanes and straights
// of `length` m. highway-env draws a 0 of either from an unseeded
// generator, which no seed reproduces: here they must be given.
class RacetrackOvalEnv : public RacetrackEnv {
 public:
  static Options DefaultOptions() {
    Options options = RacetrackEnv::DefaultOptions();
    options.Define("length", int64_t{100});
    options.Define("no_lanes", int64_t{3});
    options.Define("block_lane", false);
    options.Define("force_decision", false);
    return options;
  }
  RacetrackOvalEnv(const Options& options, const Fields& fields)
      : RacetrackEnv(options, fields, Track::kOval) {}
};

}  // namespace envpool::highway

#endif  // ENVPOOL_HIGHWAY_RACETRACK_ENV_H_
