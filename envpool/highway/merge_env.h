// merge-v0 and merge-v1 of highway-env 1.12.1 (envs/merge_env.py): a
// two-lane highway that an access ramp (a straight lane, then a sine lane)
// joins through a third, short lane ending at an obstacle. The ego (an
// MDPVehicle, DiscreteMetaAction) starts on the left lane among three IDM
// vehicles and a merging one; it is rewarded for speed and the right lane,
// penalised for lane changes and for slowing the merging traffic, and the
// episode ends at a crash or past x = 370 m.
#ifndef ENVPOOL_HIGHWAY_MERGE_ENV_H_
#define ENVPOOL_HIGHWAY_MERGE_ENV_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/highway/observation.h"
#include "envpool/highway/road.h"
#include "envpool/highway/scene.h"

namespace envpool::highway {

class MergeEnv : public SceneEnv {
 public:
  using Fields = SceneFields;

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
    spec->snapshots = true;  // SceneEnv::SaveState, LoadState
    CheckFrequencies(options);
    constexpr double kInf = std::numeric_limits<double>::infinity();
    fields->obs = spec->state.Add<float>("obs", {5, 5}, {-kInf}, {kInf});
    DeclareInfosAndAction(spec, fields);
    DeclareViewer(options, spec, ViewerConfig{});
  }

  MergeEnv(const Options& options, const Fields& fields)
      : SceneEnv(options),
        fields_(fields),
        connected_lanes_(
            options.Get<bool>("neighbour_vehicles_connected_lanes")) {
    viewer_ = ReadViewer(options, ViewerConfig{});
  }

  void Reset() override {
    NewRoad(connected_lanes_);
    MakeScene();
    y_range_ = RoadWidthOf(0);
    ClearStepResult();
  }

 protected:
  // MergeEnv._make_road and _make_vehicles.
  virtual void MakeScene() {
    road_.network = MakeNetwork();
    const Lane& lbc = road_.network.GetLane({kB, kC, 2});
    road_.objects.push_back(road_.MakeObstacle(lbc.Position(kEnds[2], 0)));
    const Lane& ab1 = road_.network.GetLane({kA, kB, 1});
    road_.vehicles.push_back(road_.MakeVehicle(
        VehicleKind::kMdp, ab1.Position(30.0, 0.0), 0.0, 30.0));
    const double starts[3][2] = {{90.0, 29.0}, {70.0, 31.0}, {5.0, 31.5}};
    for (const auto& [position, speed] : starts) {
      const int id = static_cast<int>(np_random_.Integers<int64_t>(0, 2));
      const Lane& lane = road_.network.GetLane({kA, kB, id});
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
  }

 public:
  void Step(const ActionView& action) override {
    const int64_t a = action.Scalar(fields_.action);
    Simulate(0, ToMetaAction(a));
    const Vehicle& ego = road_.vehicles[0];
    reward_ = Reward(ego, a == 0 || a == 2);
    terminated_ = ego.crashed || ego.position.x > end_position_;
    truncated_ = false;
  }

  void Write(const Output& out) override {
    WriteInfos(out, fields_, 0);
    WriteKinematics(road_, 0, 5, {kPerceptionDistance, y_range_},
                    /*absolute=*/false, out.Get(fields_.obs));
  }

 protected:
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
    const double y[2] = {0, Lane::kDefaultWidth};
    constexpr LineType c = LineType::kContinuousLine;
    constexpr LineType s = LineType::kStriped;
    constexpr LineType n = LineType::kNone;
    const LineType line_type[2][2] = {{c, s}, {n, c}};
    const LineType line_type_merge[2][2] = {{c, s}, {n, s}};
    for (int i = 0; i < 2; ++i) {
      const double yi = y[i];
      net.AddLane("a", "b",
                  Lane({0, yi}, {kEnds[0] + kEnds[1], yi})
                      .set_line_types(line_type[i][0], line_type[i][1]));
      net.AddLane(
          "b", "c",
          Lane({kEnds[0] + kEnds[1], yi}, {kEnds[0] + kEnds[1] + kEnds[2], yi})
              .set_line_types(line_type_merge[i][0], line_type_merge[i][1]));
      net.AddLane("c", "d",
                  Lane({kEnds[0] + kEnds[1] + kEnds[2], yi},
                       {kEnds[0] + kEnds[1] + kEnds[2] + kEnds[3], yi})
                      .set_line_types(line_type[i][0], line_type[i][1]));
    }
    constexpr double kAmplitude = 3.25;
    const double y_ramp = 6.5 + 4 + 4;
    Lane ljk({0, y_ramp}, {kEnds[0], y_ramp}, Lane::kDefaultWidth,
             Lane::kDefaultSpeedLimit, /*forbidden=*/true);
    Lane lkb =
        Lane::Sine(ljk.Position(kEnds[0], -kAmplitude),
                   ljk.Position(kEnds[0] + kEnds[1], -kAmplitude), kAmplitude,
                   2 * M_PI / (2 * kEnds[1]), M_PI / 2, /*forbidden=*/true);
    const Vec2 merge_start = lkb.Position(kEnds[1], 0);
    Lane lbc(merge_start, {merge_start.x + kEnds[2], merge_start.y + 0},
             Lane::kDefaultWidth, Lane::kDefaultSpeedLimit, /*forbidden=*/true);
    ljk.set_line_types(c, c);
    lkb.set_line_types(c, c);
    lbc.set_line_types(n, c);
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

  void SaveScene(StateWriter* w) const override {
    w->Put(y_range_, end_position_);
  }
  void LoadScene(StateReader* r) override { r->Get(&y_range_, &end_position_); }

  Fields fields_;
  bool connected_lanes_;
  double y_range_ = 8.0;
  // Past this x [m] the episode ends.
  double end_position_ = 370;
};

// merge-generic-v0/-v1 (MergeGenericEnv): the merge with `lanes_count`
// highway lanes, the section lengths as options, `vehicles_count` IDM
// vehicles spawned at random (up to ten tries each to stay 15 m from the
// others of its lane), MergeEnv's reward, and the end 90 m before the
// road's.
class MergeGenericEnv : public MergeEnv {
 public:
  static Options DefaultOptions() {
    Options options = MergeEnv::DefaultOptions();
    options.Define("lanes_count", int64_t{2});
    options.Define("vehicles_count", int64_t{3});
    options.Define("before_merge_length", 150.0);
    options.Define("converge_merge_length", 80.0);
    options.Define("parallel_merge_length", 80.0);
    options.Define("after_merge_length", 150.0);
    return options;
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;  // SceneEnv::SaveState, LoadState
    if (options.Get<int64_t>("lanes_count") < 1) {
      throw std::invalid_argument("option 'lanes_count' must be at least 1");
    }
    if (options.Get<int64_t>("vehicles_count") < 0) {
      throw std::invalid_argument("option 'vehicles_count' must be at least 0");
    }
    for (const char* name : {"before_merge_length", "converge_merge_length",
                             "parallel_merge_length"}) {
      if (!(options.Get<double>(name) > 0)) {
        throw std::invalid_argument(std::string("option '") + name +
                                    "' must be > 0 (highway-env's assertion)");
      }
    }
    if (!(options.Get<double>("after_merge_length") >= 90)) {
      throw std::invalid_argument(
          "option 'after_merge_length' must be >= 90 (highway-env's "
          "assertion)");
    }
    MergeEnv::Declare(options, spec, fields);
  }

  MergeGenericEnv(const Options& options, const Fields& fields)
      : MergeEnv(options, fields),
        lanes_(static_cast<int>(options.Get<int64_t>("lanes_count"))),
        vehicles_count_(
            static_cast<int>(options.Get<int64_t>("vehicles_count"))),
        pre_merge_(options.Get<double>("before_merge_length")),
        converge_(options.Get<double>("converge_merge_length")),
        parallel_(options.Get<double>("parallel_merge_length")),
        after_(options.Get<double>("after_merge_length")) {
    end_position_ = pre_merge_ + converge_ + parallel_ + after_ - 90;
  }

 protected:
  void MakeScene() override {
    RoadNetwork net;
    auto straight = [&](double start, double length, const char* from,
                        const char* to) {
      for (int lane = 0; lane < lanes_; ++lane) {
        const double y = lane * Lane::kDefaultWidth;
        Lane straight({start, y}, {start + length, y}, Lane::kDefaultWidth, 30);
        RoadNetwork::SetStraightRoadLines(&straight, lane, lanes_);
        net.AddLane(from, to, straight);
      }
    };
    straight(0, pre_merge_ + converge_, "a", "b");
    straight(pre_merge_ + converge_, parallel_, "b", "c");
    straight(pre_merge_ + converge_ + parallel_, after_, "c", "d");
    constexpr double kAmplitude = 3.25;
    const double y_parallel = lanes_ * Lane::kDefaultWidth;
    const double y_approach = y_parallel + 2 * kAmplitude;
    Lane ljk({0, y_approach}, {pre_merge_, y_approach}, Lane::kDefaultWidth, 30,
             /*forbidden=*/true);
    Lane lkb = Lane::Sine({pre_merge_, y_parallel + kAmplitude},
                          {pre_merge_ + converge_, y_parallel + kAmplitude},
                          kAmplitude, 2 * M_PI / (2 * converge_), M_PI / 2,
                          /*forbidden=*/true);
    lkb.set_speed_limit(30);
    Lane lbc({pre_merge_ + converge_, y_parallel},
             {pre_merge_ + converge_ + parallel_, y_parallel},
             Lane::kDefaultWidth, 30, /*forbidden=*/true);
    ljk.set_line_types(LineType::kContinuousLine, LineType::kContinuousLine);
    lkb.set_line_types(LineType::kContinuousLine, LineType::kContinuousLine);
    lbc.set_line_types(LineType::kStriped, LineType::kContinuousLine);
    net.AddLane("j", "k", ljk);
    net.AddLane("k", "b", lkb);
    net.AddLane("b", "c", lbc);
    road_.network = std::move(net);
    road_.objects.push_back(road_.MakeObstacle(lbc.Position(parallel_, 0)));

    const RoadNetwork& network = road_.network;
    const int a = network.NodeIndex("a");
    const int b = network.NodeIndex("b");
    constexpr double kEgoLongitudinal = 30.0;
    road_.vehicles.push_back(road_.MakeVehicle(
        VehicleKind::kMdp,
        network.GetLane({a, b, lanes_ - 1}).Position(kEgoLongitudinal, 0.0),
        0.0, 30.0));
    const double max_pos = pre_merge_ + converge_ + parallel_;
    std::vector<std::vector<double>> spawned(lanes_);
    spawned[lanes_ - 1].push_back(kEgoLongitudinal);
    constexpr double kSafeDistance = 15.0;
    constexpr int kTries = 10;
    for (int k = 0; k < vehicles_count_; ++k) {
      for (int t = 0; t < kTries; ++t) {
        const int lane =
            static_cast<int>(np_random_.Integers<int64_t>(0, lanes_));
        const double longitudinal = np_random_.Uniform(0, max_pos);
        const bool clear = std::all_of(
            spawned[lane].begin(), spawned[lane].end(), [&](double p) {
              return std::abs(longitudinal - p) > kSafeDistance;
            });
        if (clear) {
          const Vec2 pos =
              network.GetLane({a, b, lane}).Position(longitudinal, 0.0);
          const double speed = 30.0 + np_random_.Uniform(-2.0, 2.0);
          road_.vehicles.push_back(
              road_.MakeVehicle(VehicleKind::kIdm, pos, 0.0, speed));
          spawned[lane].push_back(longitudinal);
          break;
        }
      }
    }
    Vehicle merging = road_.MakeVehicle(
        VehicleKind::kIdm,
        network.GetLane({network.NodeIndex("j"), network.NodeIndex("k"), 0})
            .Position(kEgoLongitudinal + 30, 0.0),
        0.0, 20.0);
    merging.target_speed = 30.0;
    road_.vehicles.push_back(merging);
  }

 private:
  int lanes_;
  int vehicles_count_;
  double pre_merge_;
  double converge_;
  double parallel_;
  double after_;
};

}  // namespace envpool::highway

#endif  // ENVPOOL_HIGHWAY_MERGE_ENV_H_
