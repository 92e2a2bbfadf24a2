// Rules of highway-env's road and vehicles on our classes (libm's functions
// here: numpy is not loaded in a C++ test): Python's float remainder, the
// MDP vehicle's speed rounding, IDM and MOBIL decisions, collisions and
// their push, and the env's episode rules. The alignment with highway-env
// itself is tests/test_highway.py.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/core/pool.h"
#include "envpool/highway/highway_env.h"
#include "envpool/highway/parking_env.h"
#include "envpool/highway/road.h"

namespace envpool::highway {
namespace {

TEST(HighwayMath, RemainderTakesTheDivisorsSignAsPythonDoes) {
  EXPECT_DOUBLE_EQ(PyMod(-1.0, 3.0), 2.0);
  EXPECT_DOUBLE_EQ(PyMod(1.0, -3.0), -2.0);
  EXPECT_TRUE(std::signbit(PyMod(-3.0, -3.0)));
  EXPECT_FALSE(std::signbit(PyMod(-3.0, 3.0)));
  EXPECT_EQ(PyMod(2.5, 3.0), 2.5);
  EXPECT_FALSE(std::signbit(PyMod(-0.0, 3.0)));
  EXPECT_EQ(PyMod(3.0, 3.0), 0.0);
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

// Step visits only the pairs with a vehicle that checks collisions, in the
// reference's order: a checking vehicle between two that do not crashes
// into both, the one before it in the road's order as the one after.
TEST(HighwayRoad, ACheckingVehicleCrashesIntoTrafficThatDoesNotCheck) {
  Road road = ThreeLaneRoad();
  for (double x : {100.0, 103.0, 106.0}) {
    road.vehicles.push_back(
        road.MakeVehicle(VehicleKind::kIdm, {x, 4.0}, 0.0, 20.0));
    road.vehicles.back().check_collisions = false;
  }
  road.vehicles[1].check_collisions = true;
  road.Step(1.0 / 15);
  EXPECT_TRUE(road.vehicles[0].crashed);
  EXPECT_TRUE(road.vehicles[1].crashed);
  EXPECT_TRUE(road.vehicles[2].crashed);
  // Vehicle 1 is pushed by the pair it is in last, (1, 2): backwards.
  ASSERT_TRUE(road.vehicles[1].has_impact);
  EXPECT_LT(road.vehicles[1].impact.x, 0);
}

// DesiredGap's 2 sqrt(ab) follows the IDM constants the road reads (the
// intersection writes them at reset).
TEST(HighwayRoad, DesiredGapFollowsTheComfortAccelerations) {
  Road road = ThreeLaneRoad();
  road.vehicles.push_back(
      road.MakeVehicle(VehicleKind::kIdm, {100.0, 4.0}, 0.0, 20.0));
  road.vehicles.push_back(
      road.MakeVehicle(VehicleKind::kIdm, {130.0, 4.0}, 0.0, 10.0));
  const Vehicle& ego = road.vehicles[0];
  const Vehicle& front = road.vehicles[1];
  auto expected = [&](double acc_max, double acc_min) {
    return road.distance_wanted + 20.0 * Road::kTimeWanted +
           20.0 * 10.0 / (2 * std::sqrt(-acc_max * acc_min));
  };
  EXPECT_DOUBLE_EQ(road.DesiredGap(ego, front), expected(3.0, -5.0));
  road.comfort_acc_max = 6.0;
  road.comfort_acc_min = -3.0;
  road.distance_wanted = 7.0;
  EXPECT_DOUBLE_EQ(road.DesiredGap(ego, front), expected(6.0, -3.0));
  road.comfort_acc_max = 1.0;
  EXPECT_DOUBLE_EQ(road.DesiredGap(ego, front), expected(1.0, -3.0));
}

// Direction() keeps (cos, sin) for the heading it was computed for: a new
// heading, even one that differs only in its sign bit, or a copy turned
// after the copy, gets its own.
TEST(HighwayVehicle, DirectionFollowsEveryChangeOfTheHeading) {
  Vehicle v;
  v.heading = 0.3;
  EXPECT_EQ(v.Direction().x, std::cos(0.3));
  EXPECT_EQ(v.Direction().y, std::sin(0.3));
  v.heading = 1.2;
  EXPECT_EQ(v.Direction().x, std::cos(1.2));
  EXPECT_EQ(v.Velocity().y, 0.0);  // speed 0
  v.heading = 0.0;
  EXPECT_FALSE(std::signbit(v.Direction().y));
  v.heading = -0.0;
  EXPECT_TRUE(std::signbit(v.Direction().y));
  Vehicle copy = v;
  copy.heading = 2.0;
  copy.speed = 3.0;
  EXPECT_EQ(copy.Velocity().x, 3.0 * std::cos(2.0));
  EXPECT_TRUE(std::signbit(v.Direction().y));
}

// Two one-lane roads crossing at the origin: the horizontal one of
// priority 3, the vertical one of priority 1 (the intersection's).
Road CrossingRoad() {
  Road road;
  Lane horizontal({-60.0, 0.0}, {60.0, 0.0}, Lane::kDefaultWidth, 10.0);
  horizontal.set_priority(3);
  Lane vertical({0.0, -60.0}, {0.0, 60.0}, Lane::kDefaultWidth, 10.0);
  vertical.set_priority(1);
  road.network.AddLane("w", "e", horizontal);
  road.network.AddLane("s", "n", vertical);
  road.regulated = true;
  return road;
}

TEST(HighwayRoad, RegulationStopsTheVehicleOfLowerPriorityBeforeAConflict) {
  Road road = CrossingRoad();
  // Both reach the crossing in 1.5 s at 10 m/s.
  road.vehicles.push_back(
      road.MakeVehicle(VehicleKind::kIdm, {-15.0, 0.0}, 0.0, 10.0));
  road.vehicles.push_back(
      road.MakeVehicle(VehicleKind::kIdm, {0.0, -15.0}, M_PI / 2, 10.0));
  const double dt = 1.0 / 15;
  // Twice a second: the 7th frame at 15 Hz enforces the priorities.
  for (int frame = 0; frame < 6; ++frame) {
    road.Act();
    road.Step(dt);
  }
  EXPECT_FALSE(road.vehicles[1].is_yielding);
  road.Act();
  road.Step(dt);
  EXPECT_FALSE(road.vehicles[0].is_yielding);
  EXPECT_TRUE(road.vehicles[1].is_yielding);
  EXPECT_EQ(road.vehicles[1].target_speed, 0.0);
  EXPECT_EQ(road.vehicles[0].target_speed, 10.0);
  // The next enforcement releases it to its lane's speed limit, and stops
  // it again while the conflict lasts.
  for (int frame = 0; frame < 7; ++frame) {
    road.Act();
    road.Step(dt);
  }
  EXPECT_TRUE(road.vehicles[1].is_yielding);
  EXPECT_LT(road.vehicles[1].speed, 10.0);
}

TEST(HighwayRoad, ControlledVehiclesNeverYield) {
  Road road = CrossingRoad();
  road.vehicles.push_back(
      road.MakeVehicle(VehicleKind::kIdm, {-15.0, 0.0}, 0.0, 10.0));
  road.vehicles.push_back(
      road.MakeVehicle(VehicleKind::kMdp, {0.0, -15.0}, M_PI / 2, 10.0));
  ASSERT_TRUE(road.IsConflictPossible(road.vehicles[0], road.vehicles[1]));
  ASSERT_EQ(road.RespectPriorities(0, 1), 1);  // the MDP vehicle should
  road.EnforceRoadRules();
  EXPECT_FALSE(road.vehicles[1].is_yielding);
  EXPECT_FALSE(road.vehicles[0].is_yielding);
}

TEST(HighwayRoad, BicycleDrivesStraightWithoutSteeringAndTurnsWithIt) {
  Road road = ThreeLaneRoad();
  road.vehicles.push_back(
      road.MakeVehicle(VehicleKind::kBicycle, {50.0, 4.0}, 0.0, 10.0));
  road.Step(0.1);
  EXPECT_NEAR(road.vehicles[0].position.x, 51.0, 1e-12);
  EXPECT_EQ(road.vehicles[0].position.y, 4.0);
  EXPECT_EQ(road.vehicles[0].yaw_rate, 0.0);
  road.vehicles[0].steering = 0.2;  // left, in highway-env's frame
  road.vehicles[0].acceleration = 1.0;
  for (int frame = 0; frame < 10; ++frame) {
    road.Step(0.1);
  }
  EXPECT_GT(road.vehicles[0].heading, 0.1);
  EXPECT_GT(road.vehicles[0].yaw_rate, 0.0);
  EXPECT_NEAR(road.vehicles[0].speed, 11.0, 1e-9);
  // A crash brakes it to a stop and centres its steering.
  road.vehicles[0].crashed = true;
  for (int frame = 0; frame < 100; ++frame) {
    road.Step(0.1);
  }
  EXPECT_LT(road.vehicles[0].speed, 1e-3);
  EXPECT_EQ(road.vehicles[0].steering, 0.0);
}

TEST(HighwayRoad, PlainVehicleKeepsItsActionAndHasNoTargetSpeed) {
  Road road = ThreeLaneRoad();
  road.vehicles.push_back(
      road.MakeVehicle(VehicleKind::kKinematic, {50.0, 4.0}, 0.0, 10.0));
  road.vehicles.push_back(
      road.MakeVehicle(VehicleKind::kIdm, {20.0, 4.0}, 0.0, 10.0));
  // IDMVehicle.acceleration reads getattr(vehicle, "target_speed", 0).
  EXPECT_EQ(road.vehicles[0].target_speed, 0.0);
  road.vehicles[0].steering = 0.1;
  road.vehicles[0].acceleration = 2.0;
  for (int frame = 0; frame < 5; ++frame) {
    road.Act();  // the IDM vehicle decides; the plain one keeps its action
    road.Step(0.1);
  }
  EXPECT_EQ(road.vehicles[0].steering, 0.1);
  EXPECT_EQ(road.vehicles[0].acceleration, 2.0);
  EXPECT_NEAR(road.vehicles[0].speed, 11.0, 1e-9);
  EXPECT_GT(road.vehicles[0].heading, 0.0);
}

TEST(HighwayParking, GoalRewardIsMinusTheSquareRootOfTheWeightedDistance) {
  const std::array<double, 6> goal = {0.1, -0.2, 0.0, 0.0, 0.0, 1.0};
  EXPECT_EQ(ParkingEnv::ComputeReward(goal, goal), -0.0);
  std::array<double, 6> off = goal;
  off[0] += 0.04;  // weight 1
  off[1] -= 0.1;   // weight 0.3
  off[2] += 7.0;   // weight 0: the speed does not count
  EXPECT_NEAR(ParkingEnv::ComputeReward(off, goal),
              -std::sqrt(0.04 + 0.3 * 0.1), 1e-12);
}

TEST(HighwayLane, CircularAndSineLanesMapPositionsBothWays) {
  const Lane arc = Lane::Circular({10.0, -5.0}, 20.0, M_PI / 2, -M_PI / 2,
                                  /*clockwise=*/false,
                                  /*forbidden=*/false);
  EXPECT_NEAR(arc.length(), 20.0 * M_PI, 1e-12);
  const Lane sine =
      Lane::Sine({0.0, 0.0}, {100.0, 0.0}, 3.0, 2 * M_PI / 50, 0.5, false);
  for (const Lane* lane : {&arc, &sine}) {
    for (double s : {1.0, 17.0, 40.0}) {
      for (double r : {-1.5, 0.0, 1.0}) {
        auto [s2, r2] = lane->LocalCoordinates(lane->Position(s, r));
        EXPECT_NEAR(s2, s, 1e-9);
        EXPECT_NEAR(r2, r, 1e-9);
      }
    }
  }
  // Not clockwise (highway-env's sense, y pointing down on screen): the
  // phase falls from pi/2 to -pi/2, heading east at the start, west at the
  // end.
  EXPECT_NEAR(arc.HeadingAt(0.0), 0.0, 1e-12);
  EXPECT_NEAR(WrapToPi(arc.HeadingAt(arc.length())), -M_PI, 1e-12);
}

TEST(HighwayRoad, RoutesChooseTheNextRoadAndShortestPathsSortNames) {
  RoadNetwork net;
  net.AddLane("a", "b", Lane({0, 0}, {100, 0}));
  net.AddLane("b", "z", Lane({100, 0}, {200, 0}));
  net.AddLane("b", "c", Lane({100, 0}, {100, 100}));
  net.AddLane("c", "z", Lane({100, 100}, {200, 100}));
  const int a = net.NodeIndex("a");
  const int b = net.NodeIndex("b");
  const int c = net.NodeIndex("c");
  const int z = net.NodeIndex("z");
  // Breadth first: b -> z directly.
  EXPECT_EQ(net.ShortestPath(a, z), (std::vector<int>{a, b, z}));
  // Without a route, the road whose lane is closest; with one, the route's.
  const Vec2 end = {99.0, 0.0};
  EXPECT_EQ(net.NextLane({a, b, 0}, end).to, z);
  std::vector<LaneIndex> route = {{a, b, 0}, {b, c, -1}, {c, z, -1}};
  EXPECT_EQ(net.NextLane({a, b, 0}, end, &route), (LaneIndex{b, c, 0}));
  EXPECT_EQ(route.size(), 2U);  // the finished road is dropped
}

TEST(HighwayRoad, AnObstacleTakesNoPushAndStopsTheVehicle) {
  Road road = ThreeLaneRoad();
  road.vehicles.push_back(
      road.MakeVehicle(VehicleKind::kIdm, {100.0, 4.0}, 0.0, 10.0));
  road.objects.push_back(road.MakeObstacle({103.2, 4.0}));
  road.Step(1.0 / 15);
  EXPECT_TRUE(road.vehicles[0].crashed);
  ASSERT_TRUE(road.vehicles[0].has_impact);
  EXPECT_FALSE(road.objects[0].has_impact);
  // The whole separation goes to the vehicle, backwards.
  EXPECT_LT(road.vehicles[0].impact.x, 0);
  // The vehicle sees the obstacle ahead of it.
  EXPECT_EQ(road.NeighbourVehicles(0, road.vehicles[0].lane_index).first, 1);
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
