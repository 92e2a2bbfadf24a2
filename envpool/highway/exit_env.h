// exit-v0 and exit-v1 of highway-env 1.12.1 (envs/exit_env.py): a highway
// of `lanes_count` lanes (slower to the right: 26 - 3.4 * lane m/s) whose
// 100 m section after x = 400 m has one more lane, from which an exit ramp
// (a circular lane) leaves. The ego (an MDPVehicle with target speeds 18,
// 24, 30) starts on the leftmost lane; the traffic keeps its lane and its
// lane's speed, on a route to the highway's end. Success is being on the
// extra lane or the ramp; the observation is highway-env's ExitObservation.
#ifndef ENVPOOL_HIGHWAY_EXIT_ENV_H_
#define ENVPOOL_HIGHWAY_EXIT_ENV_H_

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

class ExitEnv : public SceneEnv {
 public:
  struct Fields : SceneFields {
    Field<bool> is_success;
  };

  // ExitEnv's viewer: the default one at 5 pixels a metre.
  static constexpr ViewerConfig kViewer{600, 150, 5.0, 0.3, 0.5};
  static constexpr int kObserved = 15;
  static constexpr int kFeatures = 7;

  // highway-env's ExitEnv defaults (EnvPool 1.2.7 lists lanes_count 2 and
  // vehicles_count 3 for these ids, its generic spec's values; the
  // reference's are these).
  static Options DefaultOptions() {
    return Options{
        {"max_episode_steps", int64_t{18}},
        {"duration", int64_t{18}},
        {"lanes_count", int64_t{6}},
        {"vehicles_count", int64_t{20}},
        {"vehicles_density", 1.5},
        {"ego_spacing", 2.0},
        {"simulation_frequency", int64_t{5}},
        {"policy_frequency", int64_t{1}},
        {"neighbour_vehicles_connected_lanes", false},
        {"screen_width", int64_t{600}},
        {"screen_height", int64_t{150}},
    };
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;  // SceneEnv::SaveState, LoadState
    auto at_least = [&](const char* name, int64_t low) {
      const int64_t v = options.Get<int64_t>(name);
      if (v < low) {
        throw std::invalid_argument(
            std::string("option '") + name + "' must be at least " +
            std::to_string(low) + ", got " + std::to_string(v));
      }
    };
    // Traffic lanes are drawn with weights 0, 1, ..., so two lanes at least.
    at_least("lanes_count", 2);
    at_least("vehicles_count", 0);
    at_least("duration", 1);
    at_least("policy_frequency", 1);
    at_least("simulation_frequency", options.Get<int64_t>("policy_frequency"));
    if (!(options.Get<double>("vehicles_density") > 0) ||
        !(options.Get<double>("ego_spacing") > 0)) {
      throw std::invalid_argument(
          "options 'vehicles_density' and 'ego_spacing' must be > 0");
    }
    constexpr double kInf = std::numeric_limits<double>::infinity();
    fields->obs =
        spec->state.Add<float>("obs", {kObserved, kFeatures}, {-kInf}, {kInf});
    DeclareInfosAndAction(spec, fields);
    fields->is_success = spec->state.Add<bool>("info:is_success", {});
    DeclareViewer(options, spec, kViewer);
  }

  ExitEnv(const Options& options, const Fields& fields)
      : SceneEnv(options),
        fields_(fields),
        duration_(static_cast<double>(options.Get<int64_t>("duration"))),
        lanes_count_(static_cast<int>(options.Get<int64_t>("lanes_count"))),
        vehicles_count_(
            static_cast<int>(options.Get<int64_t>("vehicles_count"))),
        vehicles_density_(options.Get<double>("vehicles_density")),
        ego_spacing_(options.Get<double>("ego_spacing")),
        connected_lanes_(
            options.Get<bool>("neighbour_vehicles_connected_lanes")) {
    viewer_ = ReadViewer(options, kViewer);
  }

  void Reset() override {
    time_ = 0.0;
    NewRoad(connected_lanes_);
    road_.network = MakeNetwork(lanes_count_);
    const RoadNetwork& net = road_.network;
    const int n0 = net.NodeIndex("0");
    const int n1 = net.NodeIndex("1");
    const int n3 = net.NodeIndex("3");
    // The ego: lane 0 of the first road at 25 m/s.
    Vehicle ego =
        CreateOnLane(VehicleKind::kMdp, {n0, n1, 0}, 25.0, ego_spacing_);
    road_.vehicles.push_back(ego);
    // The traffic: lane i drawn with weight i, at its speed limit, on a
    // route to the highway's end, never changing lanes.
    std::vector<double> weights(lanes_count_);
    double total = 0;
    for (int i = 0; i < lanes_count_; ++i) {
      total += i;
    }
    for (int i = 0; i < lanes_count_; ++i) {
      weights[i] = i / total;
    }
    for (int k = 0; k < vehicles_count_; ++k) {
      const int id = WeightedChoice(weights);
      const double speed = net.GetLane({n0, n1, id}).speed_limit();
      Vehicle v = CreateOnLane(VehicleKind::kIdm, {n0, n1, id}, speed,
                               1 / vehicles_density_);
      // plan_route_to("3")
      v.route = {v.lane_index};
      const std::vector<int> path = net.ShortestPath(v.lane_index.to, n3);
      for (size_t i = 0; i + 1 < path.size(); ++i) {
        v.route.push_back({path[i], path[i + 1], -1});
      }
      v.enable_lane_change = false;
      road_.vehicles.push_back(v);
    }
    y_range_ = RoadWidthOf(0);
    ClearStepResult();
  }

  void Step(const ActionView& action) override {
    AdvanceClock();
    Simulate(0, ToMetaAction(action.Scalar(fields_.action)));
    const Vehicle& ego = road_.vehicles[0];
    // _reward: collision 0, goal 1, high speed 0.1 (speed mapped from
    // [20, 30] and clipped), right lane 0; normalised from [0, 1] and
    // clipped.
    double reward = IsSuccess() ? 1.0 : 0.0;
    reward += 0.1 * Clip(Lmap(ego.speed, 20, 30, 0, 1), 0, 1);
    reward_ = Clip(Lmap(reward, 0, 1, 0, 1), 0, 1);
    terminated_ = ego.crashed;
    truncated_ = time_ >= duration_;
  }

  void Write(const Output& out) override {
    WriteInfos(out, fields_, 0);
    *out.Get(fields_.is_success) = IsSuccess();
    WriteExitObservation(out.Get(fields_.obs));
  }

 private:
  // ExitEnv._create_road: roads 0-1 (x 0..400), 1-2 (400..500, one more
  // lane), 2-3 (500..1000), and the ramp 2-exit.
  static RoadNetwork MakeNetwork(int lanes) {
    RoadNetwork net;
    auto straight = [&](int n, double start, double length, const char* from,
                        const char* to) {
      for (int lane = 0; lane < n; ++lane) {
        const double y = lane * Lane::kDefaultWidth;
        Lane straight({start, y}, {start + length, y}, Lane::kDefaultWidth,
                      30.0);
        RoadNetwork::SetStraightRoadLines(&straight, lane, n);
        net.AddLane(from, to, straight);
      }
    };
    straight(lanes, 0, 400, "0", "1");
    straight(lanes + 1, 400, 100, "1", "2");
    straight(lanes, 500, 500, "2", "3");
    for (const auto& road : net.roads()) {
      auto& road_lanes = net.MutableLanes(road.from, road.to);
      for (int id = 0; id < static_cast<int>(road_lanes.size()); ++id) {
        road_lanes[id].set_speed_limit(26 - 3.4 * id);
      }
    }
    constexpr double kRadius = 150;
    const Vec2 exit_position = {500.0, lanes * Lane::kDefaultWidth};
    net.AddLane(
        "2", "exit",
        Lane::Circular({exit_position.x + 0, exit_position.y + kRadius},
                       kRadius, 3 * M_PI / 2, 2 * M_PI, /*clockwise=*/true,
                       /*forbidden=*/true));
    return net;
  }

  // Vehicle.create_random with the lane and the speed given: placed behind
  // the furthest vehicle (one draw).
  Vehicle CreateOnLane(VehicleKind kind, const LaneIndex& index, double speed,
                       double spacing) {
    const Lane& lane = road_.network.GetLane(index);
    const int n = road_.network.NumLanes(index.from, index.to);
    const double default_spacing = 12 + 1.0 * speed;
    const double offset =
        spacing * default_spacing * numpy_kernels::Exp(-5.0 / 40 * n);
    double x0;
    if (!road_.vehicles.empty()) {
      x0 = -std::numeric_limits<double>::infinity();
      for (const Vehicle& v : road_.vehicles) {
        x0 = std::max(x0, lane.LocalCoordinates(v.position).first);
      }
    } else {
      x0 = 3 * offset;
    }
    x0 += offset * np_random_.Uniform(0.9, 1.1);
    Vehicle v;
    if (kind == VehicleKind::kMdp) {
      // DiscreteMetaAction's target_speeds for this env.
      Vehicle proto = road_.MakeVehicle(kind, lane.Position(x0, 0),
                                        lane.HeadingAt(x0), speed);
      proto.target_speeds = {18.0, 24.0, 30.0};
      proto.target_speed = speed;
      proto.speed_index = Road::SpeedToIndex(speed, proto.target_speeds);
      proto.target_speed = proto.target_speeds[proto.speed_index];
      return proto;
    }
    return road_.MakeVehicle(kind, lane.Position(x0, 0), lane.HeadingAt(x0),
                             speed);
  }

  // np_random.choice(len(p), size=1, p=p): one random() against the
  // normalised cumulative sum, the first bin above it.
  int WeightedChoice(const std::vector<double>& p) {
    std::vector<double> cdf(p.size());
    double sum = 0;
    for (size_t i = 0; i < p.size(); ++i) {
      sum += p[i];
      cdf[i] = sum;
    }
    const double last = cdf.back();
    for (double& c : cdf) {
      c /= last;
    }
    const double u = np_random_.Random();
    return static_cast<int>(std::upper_bound(cdf.begin(), cdf.end(), u) -
                            cdf.begin());
  }

  // ExitEnv._is_success: the ego's target lane is the extra lane or the
  // ramp.
  bool IsSuccess() const {
    const RoadNetwork& net = road_.network;
    const LaneIndex& lane = road_.vehicles[0].target_lane_index;
    return lane == LaneIndex{net.NodeIndex("1"), net.NodeIndex("2"),
                             lanes_count_} ||
           lane == LaneIndex{net.NodeIndex("2"), net.NodeIndex("exit"), 0};
  }

  // ExitObservation: the Kinematics rows with cos_h and sin_h, the ego's x
  // its position along the extra lane, not clipped, vehicles only.
  void WriteExitObservation(float* obs) const {
    std::fill(obs, obs + kObserved * kFeatures, 0.0F);
    const Vehicle& ego = road_.vehicles[0];
    const RoadNetwork& net = road_.network;
    const int n1 = net.NodeIndex("1");
    const int n2 = net.NodeIndex("2");
    const Lane& exit_lane = net.GetLane({n1, n2, net.NumLanes(n1, n2) - 1});
    auto write_row = [&](int row, const double(&f)[7]) {
      const double values[7] = {
          f[0],
          Lmap(f[1], -kPerceptionDistance, kPerceptionDistance, -1, 1),
          Lmap(f[2], -y_range_, y_range_, -1, 1),
          Lmap(f[3], -2 * Vehicle::kMaxSpeed, 2 * Vehicle::kMaxSpeed, -1, 1),
          Lmap(f[4], -2 * Vehicle::kMaxSpeed, 2 * Vehicle::kMaxSpeed, -1, 1),
          f[5],
          f[6]};
      for (int k = 0; k < kFeatures; ++k) {
        obs[row * kFeatures + k] = static_cast<float>(values[k]);
      }
    };
    const Vec2 ev = ego.Velocity();
    const Vec2 ed = ego.Direction();
    write_row(0, {1.0, exit_lane.LocalCoordinates(ego.position).first,
                  ego.position.y, ev.x, ev.y, ed.x, ed.y});
    const std::vector<int> close =
        CloseBodies(road_, 0, /*with_obstacles=*/false);
    const int rows = std::min(static_cast<int>(close.size()), kObserved - 1);
    for (int r = 0; r < rows; ++r) {
      const Vehicle& v = road_.vehicles[close[r]];
      const Vec2 vv = v.Velocity();
      const Vec2 vd = v.Direction();
      write_row(r + 1, {1.0, v.position.x - ego.position.x,
                        v.position.y - ego.position.y, vv.x - ev.x, vv.y - ev.y,
                        vd.x, vd.y});
    }
  }

  void SaveScene(StateWriter* w) const override { w->Put(y_range_); }
  void LoadScene(StateReader* r) override { r->Get(&y_range_); }

  Fields fields_;
  double duration_;
  int lanes_count_;
  int vehicles_count_;
  double vehicles_density_;
  double ego_spacing_;
  bool connected_lanes_;
  double y_range_ = 24.0;
};

}  // namespace envpool::highway

#endif  // ENVPOOL_HIGHWAY_EXIT_ENV_H_
