// u-turn-v0 and u-turn-v1 of highway-env 1.12.1 (envs/u_turn_env.py): a
// two-lane road that turns back on itself through a half circle. The ego
// (an MDPVehicle with target speeds 8, 16, 24 m/s, on a route through the
// turn) overtakes six slow IDM vehicles placed along it; rewarded for speed
// and the left lane, it observes highway-env's TimeToCollision grid over a
// 16 s horizon.
#ifndef ENVPOOL_HIGHWAY_U_TURN_ENV_H_
#define ENVPOOL_HIGHWAY_U_TURN_ENV_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "envpool/core/env.h"
#include "envpool/highway/road.h"
#include "envpool/highway/scene.h"
#include "envpool/highway/time_to_collision.h"

namespace envpool::highway {

class UTurnEnv : public SceneEnv {
 public:
  using Fields = SceneFields;

  static constexpr int kHorizon = 16;

  static Options DefaultOptions() {
    return Options{
        {"max_episode_steps", int64_t{10}},
        {"duration", int64_t{10}},
        {"simulation_frequency", int64_t{15}},
        {"policy_frequency", int64_t{1}},
        {"neighbour_vehicles_connected_lanes", false},
        {"screen_width", int64_t{789}},
        {"screen_height", int64_t{289}},
    };
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;  // SceneEnv::SaveState, LoadState
    CheckFrequencies(options);
    if (options.Get<int64_t>("duration") < 1) {
      throw std::invalid_argument("option 'duration' must be at least 1");
    }
    const int time_cells =
        static_cast<int>(kHorizon * options.Get<int64_t>("policy_frequency"));
    fields->obs =
        spec->state.Add<float>("obs", {3, 3, time_cells}, {0.0}, {1.0});
    DeclareInfosAndAction(spec, fields);
    DeclareViewer(options, spec, ViewerConfig{789, 289, 5.5, 0.3, 0.5});
  }

  UTurnEnv(const Options& options, const Fields& fields)
      : SceneEnv(options),
        fields_(fields),
        duration_(static_cast<double>(options.Get<int64_t>("duration"))),
        connected_lanes_(
            options.Get<bool>("neighbour_vehicles_connected_lanes")) {
    viewer_ = ReadViewer(options, ViewerConfig{789, 289, 5.5, 0.3, 0.5});
  }

  void Reset() override {
    time_ = 0.0;
    NewRoad(connected_lanes_);
    road_.network = MakeNetwork();
    const RoadNetwork& net = road_.network;
    const int a = net.NodeIndex("a");
    const int b = net.NodeIndex("b");
    const int c = net.NodeIndex("c");
    const int d = net.NodeIndex("d");
    Vehicle ego = road_.MakeVehicle(
        VehicleKind::kMdp, net.GetLane({a, b, 0}).Position(0, 0), 0.0, 16.0);
    ego.target_speeds = {8.0, 16.0, 24.0};
    ego.speed_index = Road::SpeedToIndex(16.0, ego.target_speeds);
    ego.target_speed = ego.target_speeds[ego.speed_index];
    road_.PlanRouteTo(&ego, d);
    road_.vehicles.push_back(ego);
    constexpr double kPositionDeviation = 2.0;
    constexpr double kSpeedDeviation = 2.0;
    struct Start {
      LaneIndex lane;
      double longitudinal;
      double speed;
    };
    const Start starts[6] = {
        {{a, b, 0}, 25.0, 13.5}, {{a, b, 1}, 56.0, 14.5},
        {{b, c, 1}, 0.5, 4.5},   {{b, c, 0}, 17.5, 5.5},
        {{c, d, 0}, 1.0, 3.5},   {{c, d, 1}, 30.0, 5.5},
    };
    for (int k = 0; k < 6; ++k) {
      const double longitudinal =
          starts[k].longitudinal +
          np_random_.StandardNormal() * kPositionDeviation;
      const double speed =
          starts[k].speed + np_random_.StandardNormal() * kSpeedDeviation;
      Vehicle v = road_.MakeOnLane(VehicleKind::kIdm, starts[k].lane,
                                   longitudinal, speed);
      road_.PlanRouteTo(&v, d);
      if (k == 0) {
        v.delta = np_random_.Uniform(3.5, 4.5);  // only the first
      }
      road_.vehicles.push_back(v);
    }
    ClearStepResult();
  }

  void Step(const ActionView& action) override {
    AdvanceClock();
    Simulate(0, ToMetaAction(action.Scalar(fields_.action)));
    const Vehicle& ego = road_.vehicles[0];
    const bool on_road = road_.LaneOf(ego).OnLane(ego.position);
    // _reward: collision -1, left lane 0.1 x lane / (lanes - 1), high speed
    // 0.4 x speed mapped from [8, 24] and clipped; mapped from [-1, 0.5] to
    // [0, 1]; 0 off the road.
    const int lanes =
        road_.network.NumLanes(ego.lane_index.from, ego.lane_index.to);
    double reward = -1.0 * (ego.crashed ? 1.0 : 0.0);
    reward +=
        0.1 * (static_cast<double>(ego.lane_index.id) / std::max(lanes - 1, 1));
    reward += 0.4 * Clip(Lmap(ego.speed, 8, 24, 0, 1), 0, 1);
    reward += 0.0;  // on_road_reward has no weight
    reward = Lmap(reward, -1.0, 0.4 + 0.1, 0, 1);
    reward_ = reward * (on_road ? 1.0 : 0.0);
    terminated_ = ego.crashed;
    truncated_ = time_ >= duration_;
  }

  void Write(const Output& out) override {
    WriteInfos(out, fields_, 0);
    WriteTimeToCollision(road_, 0, policy_frequency_, kHorizon,
                         out.Get(fields_.obs));
  }

 private:
  // UTurnEnv._make_road(length=128).
  static RoadNetwork MakeNetwork() {
    constexpr double kLength = 128;
    constexpr double kWidth = Lane::kDefaultWidth;
    RoadNetwork net;
    constexpr LineType n = LineType::kNone;
    constexpr LineType c = LineType::kContinuous;
    constexpr LineType s = LineType::kStriped;
    constexpr LineType line = LineType::kContinuousLine;
    net.AddLane("c", "d",
                Lane({kLength, kWidth}, {0, kWidth}).set_line_types(line, s));
    net.AddLane("c", "d", Lane({kLength, 0}, {0, 0}).set_line_types(n, line));
    const Vec2 center = {kLength, kWidth + 20};
    constexpr double kRadius = 20;
    const double radii[2] = {kRadius, kRadius + kWidth};
    const LineType lines[2][2] = {{c, s}, {n, c}};
    for (int lane = 0; lane < 2; ++lane) {
      net.AddLane("b", "c",
                  Lane::Circular(center, radii[lane], 90 * (M_PI / 180),
                                 -90 * (M_PI / 180),
                                 /*clockwise=*/false,
                                 /*forbidden=*/false)
                      .set_line_types(lines[lane][0], lines[lane][1]));
    }
    constexpr double kOffset = 2 * kRadius;
    const double y0 = (2 * kWidth + kOffset) - kWidth;
    const double y1 = 2 * kWidth + kOffset;
    net.AddLane("a", "b", Lane({0, y0}, {kLength, y0}).set_line_types(line, s));
    net.AddLane("a", "b", Lane({0, y1}, {kLength, y1}).set_line_types(n, line));
    return net;
  }

  Fields fields_;
  double duration_;
  bool connected_lanes_;
};

}  // namespace envpool::highway

#endif  // ENVPOOL_HIGHWAY_U_TURN_ENV_H_
