// Rules of highway-env's road and vehicles on our classes (libm's functions
// here: numpy is not loaded in a C++ test): Python's float remainder, the
// MDP vehicle's speed rounding, IDM and MOBIL decisions, collisions and
// their push, and the env's episode rules. The alignment with highway-env
// itself is tests/test_highway.py.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/core/pool.h"
#include "envpool/highway/highway_env.h"
#include "envpool/highway/road.h"

namespace envpool::highway {
namespace {

TEST(HighwayMath, RemainderTakesTheDivisorsSignAsPythonDoes) {
  EXPECT_DOUBLE_EQ(PyMod(-1.0, 3.0), 2.0);
  EXPECT_DOUBLE_EQ(PyMod(1.0, -3.0), -2.0);
  EXPECT_TRUE(std::signbit(PyMod(-3.0, -3.0)));
  EXPECT_FALSE(std::signbit(PyMod(-3.0, 3.0)));
  EXPECT_NEAR(WrapToPi(1.5 * M_PI), -0.5 * M_PI, 1e-12);
  EXPECT_NEAR(WrapToPi(-1.5 * M_PI), 0.5 * M_PI, 1e-12);
}

TEST(HighwayMath, NotZeroKeepsTheSign) {
  EXPECT_EQ(NotZero(0.0), 1e-2);
  EXPECT_EQ(NotZero(-1e-3), -1e-2);
  EXPECT_EQ(NotZero(5.0), 5.0);
}

TEST(HighwayVehicle, SpeedIndexRoundsHalfToEvenAsNumpy) {
  EXPECT_EQ(Road::SpeedToIndex(22.5), 0);  // x * 2 = 0.5 -> 0
  EXPECT_EQ(Road::SpeedToIndex(27.5), 2);  // 1.5 -> 2
  EXPECT_EQ(Road::SpeedToIndex(25.0), 1);
  EXPECT_EQ(Road::SpeedToIndex(-10.0), 0);
  EXPECT_EQ(Road::SpeedToIndex(99.0), 2);
}

Road ThreeLaneRoad() {
  Road road;
  road.network = RoadNetwork::StraightRoad(3, 30.0);
  return road;
}

TEST(HighwayRoad, ClosestLaneIsTheLaneUnderTheVehicle) {
  Road road = ThreeLaneRoad();
  EXPECT_EQ(road.network.GetClosestLaneIndex({100.0, 4.2}, 0.0).id, 1);
  EXPECT_EQ(road.network.GetClosestLaneIndex({100.0, 7.9}, 0.0).id, 2);
  // The midline between lanes 0 and 1 goes to the first lane listed.
  EXPECT_EQ(road.network.GetClosestLaneIndex({100.0, 2.0}, 0.0).id, 0);
}

TEST(HighwayRoad, FreeIdmVehicleReachesTheSpeedLimitInItsLane) {
  Road road = ThreeLaneRoad();
  road.vehicles.push_back(
      road.MakeVehicle(VehicleKind::kIdm, {50.0, 4.0}, 0.0, 20.0));
  road.vehicles[0].target_speed = 35.0;  // above the lane's limit of 30
  for (int t = 0; t < 15 * 30; ++t) {
    road.Act();
    road.Step(1.0 / 15);
  }
  const Vehicle& v = road.vehicles[0];
  EXPECT_NEAR(v.speed, 30.0, 0.5);
  EXPECT_LT(v.speed, 30.0);
  EXPECT_EQ(v.lane_index.id, 1);
  EXPECT_NEAR(v.position.y, 4.0, 1e-9);
}

TEST(HighwayRoad, MobilOvertakesASlowVehicleAhead) {
  Road road = ThreeLaneRoad();
  road.vehicles.push_back(
      road.MakeVehicle(VehicleKind::kIdm, {50.0, 4.0}, 0.0, 25.0));
  road.vehicles.push_back(
      road.MakeVehicle(VehicleKind::kIdm, {90.0, 4.0}, 0.0, 5.0));
  road.vehicles[1].enable_lane_change = false;
  road.vehicles[1].target_speed = 5.0;
  bool changed = false;
  for (int t = 0; t < 15 * 3 && !changed; ++t) {
    road.Act();
    road.Step(1.0 / 15);
    changed = road.vehicles[0].target_lane_index.id != 1;
  }
  EXPECT_TRUE(changed);
  EXPECT_FALSE(road.vehicles[0].crashed);
}

TEST(HighwayRoad, OverlappingVehiclesCrashAndArePushedApart) {
  Road road = ThreeLaneRoad();
  road.vehicles.push_back(
      road.MakeVehicle(VehicleKind::kIdm, {100.0, 4.0}, 0.0, 20.0));
  road.vehicles.push_back(
      road.MakeVehicle(VehicleKind::kIdm, {103.0, 4.5}, 0.0, 20.0));
  road.Step(1.0 / 15);
  EXPECT_TRUE(road.vehicles[0].crashed);
  EXPECT_TRUE(road.vehicles[1].crashed);
  ASSERT_TRUE(road.vehicles[0].has_impact);
  // The push separates them along the axis of least overlap: sideways here,
  // the lower vehicle down, the upper one up.
  EXPECT_LT(road.vehicles[0].impact.y, 0);
  EXPECT_GT(road.vehicles[1].impact.y, 0);
  const double y0 = road.vehicles[0].position.y;
  road.Step(1.0 / 15);
  EXPECT_LT(road.vehicles[0].position.y, y0);
}

TEST(HighwayRoad, VehiclesThatDoNotCheckCollisionsPassThroughEachOther) {
  Road road = ThreeLaneRoad();
  for (double x : {100.0, 101.0}) {
    road.vehicles.push_back(
        road.MakeVehicle(VehicleKind::kIdm, {x, 4.0}, 0.0, 20.0));
    road.vehicles.back().check_collisions = false;
  }
  road.Step(1.0 / 15);
  EXPECT_FALSE(road.vehicles[0].crashed);
  EXPECT_FALSE(road.vehicles[1].crashed);
}

// -- The env outside a pool --

Options HighwayOptions(Options options) {
  Options all = HighwayEnv::DefaultOptions();
  for (const auto& [name, value] : options.items()) {
    all.Set(name, value);
  }
  const Options common = CommonOptions();
  for (const auto& [name, value] : common.items()) {
    if (!all.Has(name)) {
      all.Define(name, value);
    }
  }
  return all;
}

TEST(HighwayEnvTest, ResetIsDeterminedByTheSeed) {
  const Options options = HighwayOptions({{"vehicles_count", int64_t{20}}});
  HighwayEnv a(options, DeclareFields<HighwayEnv>(options));
  HighwayEnv b(options, DeclareFields<HighwayEnv>(options));
  HighwayEnv c(options, DeclareFields<HighwayEnv>(options));
  a.Seed(3);
  b.Seed(3);
  c.Seed(4);
  a.Reset();
  b.Reset();
  c.Reset();
  EXPECT_EQ(a.GetState(), b.GetState());
  EXPECT_NE(a.GetState(), c.GetState());
  // The ego and 20 others, four numbers each.
  EXPECT_EQ(a.GetState().size(), 21U * 4);
}

TEST(HighwayEnvTest, TrafficStartsOnLanesAheadOfTheEgo) {
  const Options options = HighwayOptions({{"initial_lane_id", int64_t{2}}});
  HighwayEnv env(options, DeclareFields<HighwayEnv>(options));
  env.Seed(0);
  env.Reset();
  const std::vector<double> state = env.GetState();
  EXPECT_EQ(state[1], 8.0);   // the ego on lane 2
  EXPECT_EQ(state[3], 25.0);  // at 25 m/s
  for (size_t k = 4; k < state.size(); k += 4) {
    EXPECT_GT(state[k], state[k - 4]);  // each ahead of the one before
    EXPECT_EQ(std::fmod(state[k + 1], 4.0), 0.0);
    EXPECT_GE(state[k + 3], 21.0);
    EXPECT_LE(state[k + 3], 24.0);
  }
}

}  // namespace
}  // namespace envpool::highway
