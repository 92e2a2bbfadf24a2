// roundabout-v0 and roundabout-v1 of highway-env 1.12.1
// (envs/roundabout_env.py): a two-lane roundabout of radius 20 m with four
// entries and exits (straight lanes joined by sine lanes). The ego (an
// MDPVehicle with target speeds 0, 8, 16 m/s) enters from the south on a
// route to the north exit; four IDM vehicles drive to random exits. The
// observation is Kinematics in absolute coordinates.
#ifndef ENVPOOL_HIGHWAY_ROUNDABOUT_ENV_H_
#define ENVPOOL_HIGHWAY_ROUNDABOUT_ENV_H_

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

class RoundaboutEnv : public SceneEnv {
 public:
  using Fields = SceneFields;

  static Options DefaultOptions() {
    return Options{
        {"max_episode_steps", int64_t{11}},
        {"duration", int64_t{11}},
        {"simulation_frequency", int64_t{15}},
        {"policy_frequency", int64_t{1}},
        {"neighbour_vehicles_connected_lanes", false},
        // -1: a random exit for the vehicle entering from the west, else
        // its index in (east, south, north) (highway-env's
        // incoming_vehicle_destination).
        {"incoming_vehicle_destination", int64_t{-1}},
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
    const int64_t destination =
        options.Get<int64_t>("incoming_vehicle_destination");
    if (destination < -1 || destination > 2) {
      throw std::invalid_argument(
          "option 'incoming_vehicle_destination' must be -1 (random), 0, 1 "
          "or 2, got " +
          std::to_string(destination));
    }
    constexpr double kInf = std::numeric_limits<double>::infinity();
    fields->obs = spec->state.Add<float>("obs", {5, 5}, {-kInf}, {kInf});
    DeclareInfosAndAction(spec, fields);
    DeclareViewer(options, spec, kViewer);
  }

  RoundaboutEnv(const Options& options, const Fields& fields)
      : SceneEnv(options),
        fields_(fields),
        duration_(static_cast<double>(options.Get<int64_t>("duration"))),
        connected_lanes_(
            options.Get<bool>("neighbour_vehicles_connected_lanes")),
        incoming_destination_(static_cast<int>(
            options.Get<int64_t>("incoming_vehicle_destination"))) {
    viewer_ = ReadViewer(options, kViewer);
  }

  // RoundaboutEnv's viewer: 600x600, the ego at 60% of the height.
  static constexpr ViewerConfig kViewer{600, 600, 5.5, 0.5, 0.6};

  void Reset() override {
    time_ = 0.0;
    NewRoad(connected_lanes_);
    MakeScene();
    ClearStepResult();
  }

 protected:
  // RoundaboutEnv._make_road and _make_vehicles.
  virtual void MakeScene() {
    road_.network = MakeNetwork();
    const RoadNetwork& net = road_.network;
    auto node = [&](const char* name) { return net.NodeIndex(name); };
    // The ego.
    const Lane& ego_lane = net.GetLane({node("ser"), node("ses"), 0});
    Vehicle ego =
        road_.MakeVehicle(VehicleKind::kMdp, ego_lane.Position(125.0, 0.0),
                          ego_lane.HeadingAt(140.0), 8.0);
    ego.target_speeds = {0.0, 8.0, 16.0};
    ego.speed_index = Road::SpeedToIndex(8.0, ego.target_speeds);
    ego.target_speed = ego.target_speeds[ego.speed_index];
    road_.PlanRouteTo(&ego, node("nxs"));
    road_.vehicles.push_back(ego);
    // The traffic.
    const int destinations[3] = {node("exr"), node("sxr"), node("nxr")};
    constexpr double kPositionDeviation = 2.0;
    constexpr double kSpeedDeviation = 2.0;
    auto add = [&](const LaneIndex& lane, double longitudinal_mean,
                   double speed_mean, int destination) {
      const double longitudinal =
          longitudinal_mean + np_random_.StandardNormal() * kPositionDeviation;
      const double speed =
          speed_mean + np_random_.StandardNormal() * kSpeedDeviation;
      Vehicle v =
          road_.MakeOnLane(VehicleKind::kIdm, lane, longitudinal, speed);
      if (destination < 0) {
        destination =
            destinations[static_cast<int>(np_random_.Choice(int64_t{3}))];
      }
      road_.PlanRouteTo(&v, destination);
      v.delta = np_random_.Uniform(3.5, 4.5);
      road_.vehicles.push_back(v);
    };
    add({node("we"), node("sx"), 1}, 5.0, 16,
        incoming_destination_ >= 0 ? destinations[incoming_destination_] : -1);
    add({node("we"), node("sx"), 0}, 20.0 * 1.0, 16.0, -1);
    add({node("we"), node("sx"), 0}, 20.0 * -1.0, 16.0, -1);
    add({node("eer"), node("ees"), 0}, 50.0, 16.0, -1);
  }

 public:
  void Step(const ActionView& action) override {
    const int64_t a = action.Scalar(fields_.action);
    AdvanceClock();
    Simulate(0, ToMetaAction(a));
    const Vehicle& ego = road_.vehicles[0];
    const bool on_road = road_.LaneOf(ego).OnLane(ego.position);
    // _reward: collision -1, high speed 0.2 x speed index / 2, lane change
    // -0.05; mapped from [-1, 0.2] to [0, 1]; 0 off the road.
    double reward = -1.0 * (ego.crashed ? 1.0 : 0.0);
    reward += 0.2 * (ego.speed_index / 2.0);
    reward += -0.05 * (a == 0 || a == 2 ? 1.0 : 0.0);
    reward = Lmap(reward, -1, 0.2, 0, 1);
    reward_ = reward * (on_road ? 1.0 : 0.0);
    terminated_ = ego.crashed;
    truncated_ = time_ >= duration_;
  }

  void Write(const Output& out) override {
    WriteInfos(out, fields_, 0);
    WriteKinematics(road_, 0, 5, {100.0, 100.0, 15.0, 15.0},
                    /*absolute=*/true, out.Get(fields_.obs));
  }

 protected:
  static double Deg2Rad(double degrees) { return degrees * (M_PI / 180); }

  // RoundaboutEnv._make_road.
  static RoadNetwork MakeNetwork() {
    RoadNetwork net;
    const Vec2 center = {0, 0};
    constexpr double kRadius = 20;
    constexpr double kAlpha = 24;
    const double radii[2] = {kRadius, kRadius + 4};
    // (from, to, start, end) of the ring's eight arcs, counter-clockwise.
    struct Arc {
      const char* from;
      const char* to;
      double start;
      double end;
    };
    const Arc arcs[8] = {
        {"se", "ex", 90 - kAlpha, kAlpha},
        {"ex", "ee", kAlpha, -kAlpha},
        {"ee", "nx", -kAlpha, -90 + kAlpha},
        {"nx", "ne", -90 + kAlpha, -90 - kAlpha},
        {"ne", "wx", -90 - kAlpha, -180 + kAlpha},
        {"wx", "we", -180 + kAlpha, -180 - kAlpha},
        {"we", "sx", 180 - kAlpha, 90 + kAlpha},
        {"sx", "se", 90 + kAlpha, 90 - kAlpha},
    };
    const LineType lines[2][2] = {{LineType::kContinuous, LineType::kStriped},
                                  {LineType::kNone, LineType::kContinuous}};
    for (int lane = 0; lane < 2; ++lane) {
      for (const Arc& arc : arcs) {
        net.AddLane(arc.from, arc.to,
                    Lane::Circular(center, radii[lane], Deg2Rad(arc.start),
                                   Deg2Rad(arc.end),
                                   /*clockwise=*/false,
                                   /*forbidden=*/false)
                        .set_line_types(lines[lane][0], lines[lane][1]));
      }
    }
    constexpr double kAccess = 170;
    constexpr double kDev = 85;
    constexpr double kA = 5;
    constexpr double kDeltaSt = 0.2 * kDev;
    constexpr double kDeltaEn = kDev - kDeltaSt;
    const double w = 2 * M_PI / kDev;
    // Entries ("ser", ...) striped on the left, exits ("sxs", ...) not.
    auto straight = [&](const char* from, const char* to, Vec2 start,
                        Vec2 end) {
      const bool entry = from[2] == 'r';
      net.AddLane(
          from, to,
          Lane(start, end)
              .set_line_types(entry ? LineType::kStriped : LineType::kNone,
                              LineType::kContinuous));
    };
    auto sine = [&](const char* from, const char* to, Vec2 start, Vec2 end,
                    double phase) {
      net.AddLane(
          from, to,
          Lane::Sine(start, end, kA, w, phase, false)
              .set_line_types(LineType::kContinuous, LineType::kContinuous));
    };
    straight("ser", "ses", {2, kAccess}, {2, kDev / 2});
    sine("ses", "se", {2 + kA, kDev / 2}, {2 + kA, kDev / 2 - kDeltaSt},
         -M_PI / 2);
    sine("sx", "sxs", {-2 - kA, -kDev / 2 + kDeltaEn}, {-2 - kA, kDev / 2},
         -M_PI / 2 + w * kDeltaEn);
    straight("sxs", "sxr", {-2, kDev / 2}, {-2, kAccess});
    straight("eer", "ees", {kAccess, -2}, {kDev / 2, -2});
    sine("ees", "ee", {kDev / 2, -2 - kA}, {kDev / 2 - kDeltaSt, -2 - kA},
         -M_PI / 2);
    sine("ex", "exs", {-kDev / 2 + kDeltaEn, 2 + kA}, {kDev / 2, 2 + kA},
         -M_PI / 2 + w * kDeltaEn);
    straight("exs", "exr", {kDev / 2, 2}, {kAccess, 2});
    straight("ner", "nes", {-2, -kAccess}, {-2, -kDev / 2});
    sine("nes", "ne", {-2 - kA, -kDev / 2}, {-2 - kA, -kDev / 2 + kDeltaSt},
         -M_PI / 2);
    sine("nx", "nxs", {2 + kA, kDev / 2 - kDeltaEn}, {2 + kA, -kDev / 2},
         -M_PI / 2 + w * kDeltaEn);
    straight("nxs", "nxr", {2, -kDev / 2}, {2, -kAccess});
    straight("wer", "wes", {-kAccess, 2}, {-kDev / 2, 2});
    sine("wes", "we", {-kDev / 2, 2 + kA}, {-kDev / 2 + kDeltaSt, 2 + kA},
         -M_PI / 2);
    sine("wx", "wxs", {kDev / 2 - kDeltaEn, -2 - kA}, {-kDev / 2, -2 - kA},
         -M_PI / 2 + w * kDeltaEn);
    straight("wxs", "wxr", {-kDev / 2, -2}, {-kAccess, -2});
    return net;
  }

  Fields fields_;
  double duration_;
  bool connected_lanes_;
  int incoming_destination_;
};

// roundabout-generic-v0/-v1 (RoundaboutGenericEnv): `roundabout_lanes`
// lanes from `roundabout_radius` outwards, access lanes fitted to the
// outer ring, the ego at the end of the south access lane, and
// `vehicles_count` IDM vehicles spawned at random lanes of seven (up to ten
// draws each to keep 7 m from the others).
class RoundaboutGenericEnv : public RoundaboutEnv {
 public:
  static Options DefaultOptions() {
    Options options = RoundaboutEnv::DefaultOptions();
    options.Set("duration", int64_t{17});
    options.Set("max_episode_steps", int64_t{17});
    options.Define("roundabout_radius", 20.0);
    options.Define("roundabout_lanes", int64_t{2});
    options.Define("vehicles_count", int64_t{5});
    return options;
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;  // SceneEnv::SaveState, LoadState
    if (options.Get<int64_t>("roundabout_lanes") < 1) {
      throw std::invalid_argument(
          "option 'roundabout_lanes' must be at least 1");
    }
    if (!(options.Get<double>("roundabout_radius") > 0)) {
      throw std::invalid_argument("option 'roundabout_radius' must be > 0");
    }
    if (options.Get<int64_t>("vehicles_count") < 0) {
      throw std::invalid_argument("option 'vehicles_count' must be at least 0");
    }
    Options base = options;
    // Destinations 0..3 here (west too); highway-env takes min(d, 3).
    base.Set("incoming_vehicle_destination",
             std::min<int64_t>(
                 options.Get<int64_t>("incoming_vehicle_destination"), 2));
    RoundaboutEnv::Declare(base, spec, fields);
  }

  RoundaboutGenericEnv(const Options& options, const Fields& fields)
      : RoundaboutEnv(options, fields),
        radius_(options.Get<double>("roundabout_radius")),
        lanes_(static_cast<int>(options.Get<int64_t>("roundabout_lanes"))),
        vehicles_count_(
            static_cast<int>(options.Get<int64_t>("vehicles_count"))),
        destination_(static_cast<int>(
            options.Get<int64_t>("incoming_vehicle_destination"))) {}

 protected:
  void MakeScene() override {
    road_.network = MakeGenericNetwork();
    const RoadNetwork& net = road_.network;
    auto node = [&](const char* name) { return net.NodeIndex(name); };
    const LaneIndex ego_lane_id = {node("ser"), node("ses"), 0};
    const Lane& ego_lane = net.GetLane(ego_lane_id);
    const double ego_longitudinal = ego_lane.length() - 2.5;
    Vehicle ego = road_.MakeVehicle(VehicleKind::kMdp,
                                    ego_lane.Position(ego_longitudinal, 0.0),
                                    ego_lane.HeadingAt(ego_longitudinal), 8.0);
    ego.target_speeds = {0.0, 8.0, 16.0};
    ego.speed_index = Road::SpeedToIndex(8.0, ego.target_speeds);
    ego.target_speed = ego.target_speeds[ego.speed_index];
    road_.PlanRouteTo(&ego, node("nxs"));
    road_.vehicles.push_back(ego);
    const int destinations[4] = {node("exr"), node("sxr"), node("nxr"),
                                 node("wxr")};
    const char* spawn_lanes[7][2] = {
        {"we", "sx"},   {"sx", "se"},   {"ee", "nx"},  {"nx", "ne"},
        {"eer", "ees"}, {"ner", "nes"}, {"wer", "wes"}};
    std::vector<Vec2> spawned = {ego_lane.Position(ego_longitudinal, 0.0)};
    constexpr double kSafeDistance = 7.0;
    constexpr int kTries = 10;
    for (int k = 0; k < vehicles_count_; ++k) {
      for (int t = 0; t < kTries; ++t) {
        const auto* tuple = spawn_lanes[np_random_.Integers<int64_t>(0, 7)];
        const int from = node(tuple[0]);
        const int to = node(tuple[1]);
        const int id = static_cast<int>(
            np_random_.Integers<int64_t>(0, net.NumLanes(from, to)));
        const Lane& lane = net.GetLane({from, to, id});
        const double longitudinal =
            np_random_.Uniform(5.0, std::max(5.0, lane.length() - 5.0));
        const Vec2 candidate = lane.Position(longitudinal, 0.0);
        bool safe = true;
        for (const Vec2& point : spawned) {
          if (Norm2(candidate.x - point.x, candidate.y - point.y) <
              kSafeDistance) {
            safe = false;
            break;
          }
        }
        if (!safe) {
          continue;
        }
        const double speed = 14.0 + np_random_.StandardNormal() * 2.0;
        Vehicle v = road_.MakeOnLane(VehicleKind::kIdm, {from, to, id},
                                     longitudinal, speed);
        const int destination =
            destination_ >= 0
                ? destinations[std::min(destination_, 3)]
                : destinations[np_random_.Integers<int64_t>(0, 4)];
        road_.PlanRouteTo(&v, destination);
        v.delta = np_random_.Uniform(3.5, 4.5);
        road_.vehicles.push_back(v);
        spawned.push_back(candidate);
        break;
      }
    }
  }

 private:
  // RoundaboutGenericEnv._make_road.
  RoadNetwork MakeGenericNetwork() const {
    RoadNetwork net;
    constexpr double kAlpha = 24;
    const char* nodes[9] = {"se", "ex", "ee", "nx", "ne",
                            "wx", "we", "sx", "se"};
    const double angles[8][2] = {
        {90 - kAlpha, kAlpha},         {kAlpha, -kAlpha},
        {-kAlpha, -90 + kAlpha},       {-90 + kAlpha, -90 - kAlpha},
        {-90 - kAlpha, -180 + kAlpha}, {-180 + kAlpha, -180 - kAlpha},
        {180 - kAlpha, 90 + kAlpha},   {90 + kAlpha, 90 - kAlpha}};
    double outer_radius = radius_;
    for (int lane = 0; lane < lanes_; ++lane) {
      const double radius = radius_ + (4 * lane);
      outer_radius = radius;
      LineType left = LineType::kNone;
      LineType right = LineType::kStriped;
      if (lanes_ == 1) {
        left = right = LineType::kContinuous;
      } else if (lane == 0) {
        left = LineType::kContinuous;
      } else if (lane == lanes_ - 1) {
        right = LineType::kContinuous;
      }
      for (int i = 0; i < 8; ++i) {
        net.AddLane(nodes[i], nodes[i + 1],
                    Lane::Circular({0, 0}, radius, Deg2Rad(angles[i][0]),
                                   Deg2Rad(angles[i][1]), /*clockwise=*/false,
                                   /*forbidden=*/false)
                        .set_line_types(left, right));
      }
    }
    auto pt = [&](double degrees) {
      const double rad = Deg2Rad(degrees);
      return Vec2{outer_radius * numpy_kernels::Cos(rad),
                  outer_radius * numpy_kernels::Sin(rad)};
    };
    const Vec2 p_se = pt(90 - kAlpha);
    const Vec2 p_ex = pt(kAlpha);
    const Vec2 p_ee = pt(-kAlpha);
    const Vec2 p_nx = pt(-90 + kAlpha);
    const Vec2 p_ne = pt(-90 - kAlpha);
    const Vec2 p_wx = pt(-180 + kAlpha);
    const Vec2 p_we = pt(180 - kAlpha);
    const Vec2 p_sx = pt(90 + kAlpha);
    const double dev = std::max(100.0, 2 * outer_radius + 40.0);
    const double access = dev + 40.0;
    // Entries ("ser", ...) striped on the left, exits ("sxs", ...) not.
    auto straight = [&](const char* from, const char* to, Vec2 start,
                        Vec2 end) {
      const bool entry = from[2] == 'r';
      net.AddLane(
          from, to,
          Lane(start, end)
              .set_line_types(entry ? LineType::kStriped : LineType::kNone,
                              LineType::kContinuous));
    };
    auto sine = [&](const char* from, const char* to, Vec2 start, Vec2 end,
                    double amplitude, double pulsation) {
      net.AddLane(
          from, to,
          Lane::Sine(start, end, amplitude, pulsation, -M_PI / 2,
                     /*forbidden=*/false)
              .set_line_types(LineType::kContinuous, LineType::kContinuous));
    };
    double d = dev / 2 - p_se.y;
    double a = (p_se.x - 2) / 2;
    double w = M_PI / d;
    straight("ser", "ses", {2, access}, {2, dev / 2});
    sine("ses", "se", {2 + a, dev / 2}, {2 + a, p_se.y}, a, w);
    d = dev / 2 - p_sx.y;
    a = (p_sx.x + 2) / 2;
    w = M_PI / d;
    sine("sx", "sxs", {p_sx.x - a, p_sx.y}, {p_sx.x - a, dev / 2}, a, w);
    straight("sxs", "sxr", {-2, dev / 2}, {-2, access});
    d = dev / 2 - p_ee.x;
    a = (-2 - p_ee.y) / 2;
    w = M_PI / d;
    straight("eer", "ees", {access, -2}, {dev / 2, -2});
    sine("ees", "ee", {dev / 2, -2 - a}, {p_ee.x, -2 - a}, a, w);
    d = dev / 2 - p_ex.x;
    a = (2 - p_ex.y) / 2;
    w = M_PI / d;
    sine("ex", "exs", {p_ex.x, p_ex.y + a}, {dev / 2, p_ex.y + a}, a, w);
    straight("exs", "exr", {dev / 2, 2}, {access, 2});
    d = p_ne.y - (-dev / 2);
    a = (-2 - p_ne.x) / 2;
    w = M_PI / d;
    straight("ner", "nes", {-2, -access}, {-2, -dev / 2});
    sine("nes", "ne", {-2 - a, -dev / 2}, {-2 - a, p_ne.y}, a, w);
    d = p_nx.y - (-dev / 2);
    a = (2 - p_nx.x) / 2;
    w = M_PI / d;
    sine("nx", "nxs", {p_nx.x + a, p_nx.y}, {p_nx.x + a, -dev / 2}, a, w);
    straight("nxs", "nxr", {2, -dev / 2}, {2, -access});
    d = p_we.x - (-dev / 2);
    a = (p_we.y - 2) / 2;
    w = M_PI / d;
    straight("wer", "wes", {-access, 2}, {-dev / 2, 2});
    sine("wes", "we", {-dev / 2, 2 + a}, {p_we.x, 2 + a}, a, w);
    d = p_wx.x - (-dev / 2);
    a = (p_wx.y + 2) / 2;
    w = M_PI / d;
    sine("wx", "wxs", {p_wx.x, p_wx.y - a}, {-dev / 2, p_wx.y - a}, a, w);
    straight("wxs", "wxr", {-dev / 2, -2}, {-access, -2});
    return net;
  }

  double radius_;
  int lanes_;
  int vehicles_count_;
  int destination_;
};

}  // namespace envpool::highway

#endif  // ENVPOOL_HIGHWAY_ROUNDABOUT_ENV_H_
