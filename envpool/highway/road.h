// Roads and vehicles of highway-env 1.12.1, written from its road/ and
// vehicle/ modules: straight lanes in a road network (a graph of nodes whose
// edges hold the lanes of one road), the kinematic bicycle model, the
// controlled vehicle's speed and steering controllers, the discrete-speed
// MDP vehicle, and IDM/MOBIL traffic. Every operation keeps the reference's
// float64 arithmetic in its order, and every draw from np_random is the
// reference's, in its order, so that a scene seeded like the reference's
// plays like it.
#ifndef ENVPOOL_HIGHWAY_ROAD_H_
#define ENVPOOL_HIGHWAY_ROAD_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/numpy_blas.h"
#include "envpool/core/numpy_kernels.h"
#include "envpool/core/random.h"

namespace envpool::highway {

struct Vec2 {
  double x = 0.0;
  double y = 0.0;
};

// The reference's small products (np.dot, `@`, np.linalg.norm) round as
// this process's numpy rounds them: its BLAS kernel, picked by CPU, decides
// where vehicles collide at an angle (the separating-axis test) and a lane
// change's lateral residual (envpool/core/numpy_blas.h; the module asks numpy
// when it is imported).
using numpy_blas::Dot;
using numpy_blas::Dot2;
using numpy_blas::GemmRow;
using numpy_blas::GemvRow;
using numpy_blas::Norm2;

// numpy's (and Python's) float remainder: the sign of the divisor.
inline double PyMod(double a, double b) {
  if (0 < a && a < b) {
    return a;  // what fmod gives exactly (WrapToPi's usual case)
  }
  double mod = std::fmod(a, b);
  if (mod != 0.0) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
    }
  } else {
    mod = std::copysign(0.0, b);
  }
  return mod;
}

// utils.wrap_to_pi.
inline double WrapToPi(double x) { return PyMod(x + M_PI, 2 * M_PI) - M_PI; }

// utils.not_zero.
inline double NotZero(double x, double eps = 1e-2) {
  if (std::abs(x) > eps) {
    return x;
  }
  return x >= 0 ? eps : -eps;
}

// np.clip of a scalar.
inline double Clip(double x, double low, double high) {
  return std::min(std::max(x, low), high);
}

// utils.lmap: v mapped from [x0, x1] to [y0, y1].
inline double Lmap(double v, double x0, double x1, double y0, double y1) {
  return y0 + (v - x0) * (y1 - y0) / (x1 - x0);
}

// (origin node, destination node, lane id on the road), nodes numbered in
// the order the network first saw them.
struct LaneIndex {
  int from = 0;
  int to = 0;
  int id = 0;
  bool operator==(const LaneIndex& o) const {
    return from == o.from && to == o.to && id == o.id;
  }
  bool operator!=(const LaneIndex& o) const { return !(*this == o); }
  bool SameRoad(const LaneIndex& o) const {
    return from == o.from && to == o.to;
  }
};

// A lane of road/lane.py: a StraightLane, a SineLane (a straight lane whose
// centre oscillates sideways: amplitude * sin(pulsation * s + phase), made by
// Sine) or a CircularLane (made by Circular), with AbstractLane's queries.
// highway-env's LineType: how a lane's side is drawn (rendering only).
enum class LineType { kNone, kStriped, kContinuous, kContinuousLine };

class Lane {
 public:
  static constexpr double kDefaultWidth = 4.0;
  static constexpr double kVehicleLength = 5.0;
  static constexpr double kDefaultSpeedLimit = 20.0;

  Lane(Vec2 start, Vec2 end, double width = kDefaultWidth,
       double speed_limit = kDefaultSpeedLimit, bool forbidden = false)
      : start_(start),
        end_(end),
        width_(width),
        speed_limit_(speed_limit),
        forbidden_(forbidden) {
    heading_ = numpy_kernels::Arctan2(end.y - start.y, end.x - start.x);
    const double dx = end.x - start.x;
    const double dy = end.y - start.y;
    length_ = Norm2(dx, dy);
    direction_ = {dx / length_, dy / length_};
    direction_lateral_ = {-direction_.y, direction_.x};
  }

  static Lane Sine(Vec2 start, Vec2 end, double amplitude, double pulsation,
                   double phase, bool forbidden, double width = kDefaultWidth) {
    Lane lane(start, end, width, kDefaultSpeedLimit, forbidden);
    lane.sine_ = true;
    lane.amplitude_ = amplitude;
    lane.pulsation_ = pulsation;
    lane.phase_ = phase;
    return lane;
  }

  // CircularLane: an arc of `radius` around `center` from `start_phase`
  // to `end_phase`, clockwise (in highway-env's sense) or not.
  static Lane Circular(Vec2 center, double radius, double start_phase,
                       double end_phase, bool clockwise, bool forbidden,
                       double width = kDefaultWidth,
                       double speed_limit = kDefaultSpeedLimit) {
    Lane lane({0, 0}, {1, 0}, width, speed_limit, forbidden);
    lane.circular_ = true;
    lane.center_ = center;
    lane.radius_ = radius;
    lane.start_phase_ = start_phase;
    lane.turn_ = clockwise ? 1 : -1;
    lane.length_ = radius * (end_phase - start_phase) * lane.turn_;
    return lane;
  }

  Vec2 Position(double longitudinal, double lateral) const {
    if (circular_) {
      const double phi = turn_ * longitudinal / radius_ + start_phase_;
      const double r = radius_ - lateral * turn_;
      return {center_.x + r * numpy_kernels::Cos(phi),
              center_.y + r * numpy_kernels::Sin(phi)};
    }
    if (sine_) {
      lateral = lateral + amplitude_ * numpy_kernels::Sin(
                                           pulsation_ * longitudinal + phase_);
    }
    return {
        start_.x + longitudinal * direction_.x + lateral * direction_lateral_.x,
        start_.y + longitudinal * direction_.y +
            lateral * direction_lateral_.y};
  }
  // (longitudinal, lateral) of a world position. The straight lane's two
  // products are inlined where the searches over all bodies call it; the
  // curved lanes' kernels are not.
  std::pair<double, double> LocalCoordinates(const Vec2& p) const {
    if (circular_ || sine_) {
      return CurvedLocalCoordinates(p);
    }
    const double dx = p.x - start_.x;
    const double dy = p.y - start_.y;
    return {Dot2(dx, dy, direction_.x, direction_.y),
            Dot2(dx, dy, direction_lateral_.x, direction_lateral_.y)};
  }
  [[gnu::noinline]] std::pair<double, double> CurvedLocalCoordinates(
      const Vec2& p) const {
    if (circular_) {
      const double dx = p.x - center_.x;
      const double dy = p.y - center_.y;
      double phi = numpy_kernels::Arctan2(dy, dx);
      phi = start_phase_ + WrapToPi(phi - start_phase_);
      const double r = Norm2(dx, dy);
      return {turn_ * (phi - start_phase_) * radius_, turn_ * (radius_ - r)};
    }
    const double dx = p.x - start_.x;
    const double dy = p.y - start_.y;
    const double longitudinal = Dot2(dx, dy, direction_.x, direction_.y);
    double lateral = Dot2(dx, dy, direction_lateral_.x, direction_lateral_.y);
    if (sine_) {
      lateral = lateral - amplitude_ * numpy_kernels::Sin(
                                           pulsation_ * longitudinal + phase_);
    }
    return {longitudinal, lateral};
  }
  double HeadingAt(double longitudinal) const {
    if (circular_) {
      const double phi = turn_ * longitudinal / radius_ + start_phase_;
      return phi + M_PI / 2 * turn_;
    }
    if (sine_) {
      return heading_ +
             numpy_kernels::Arctan(
                 amplitude_ * pulsation_ *
                 numpy_kernels::Cos(pulsation_ * longitudinal + phase_));
    }
    return heading_;
  }
  double WidthAt(double /*longitudinal*/) const { return width_; }
  // The lines drawn on the left (side 0) and right (side 1) of the lane:
  // highway-env's default is striped on both sides.
  LineType line_type(int side) const { return line_types_[side]; }
  Lane& set_line_types(LineType left, LineType right) {
    line_types_ = {left, right};
    return *this;
  }
  bool circular() const { return circular_; }
  // AbstractLane.priority: who yields at a regulated crossing.
  int priority() const { return priority_; }
  void set_priority(int priority) { priority_ = priority; }
  double length() const { return length_; }
  double speed_limit() const { return speed_limit_; }
  void set_speed_limit(double speed_limit) { speed_limit_ = speed_limit; }

  bool OnLane(double longitudinal, double lateral, double margin = 0) const {
    return std::abs(lateral) <= WidthAt(longitudinal) / 2 + margin &&
           -kVehicleLength <= longitudinal &&
           longitudinal < length_ + kVehicleLength;
  }
  bool OnLane(const Vec2& p) const {
    auto [s, r] = LocalCoordinates(p);
    return OnLane(s, r);
  }
  bool IsReachableFrom(const Vec2& p) const {
    if (forbidden_) {
      return false;
    }
    auto [s, r] = LocalCoordinates(p);
    return std::abs(r) <= 2 * WidthAt(s) && 0 <= s &&
           s < length_ + kVehicleLength;
  }
  bool AfterEnd(const Vec2& p) const {
    return LocalCoordinates(p).first > length_ - kVehicleLength / 2;
  }
  double Distance(const Vec2& p) const {
    auto [s, r] = LocalCoordinates(p);
    return std::abs(r) + std::max(s - length_, 0.0) + std::max(0 - s, 0.0);
  }
  double DistanceWithHeading(const Vec2& p, double heading) const {
    auto [s, r] = LocalCoordinates(p);
    const double angle = std::abs(WrapToPi(heading - HeadingAt(s)));
    return std::abs(r) + std::max(s - length_, 0.0) + std::max(0 - s, 0.0) +
           1.0 * angle;
  }

 private:
  Vec2 start_;
  Vec2 end_;
  double width_;
  double speed_limit_;
  bool forbidden_;
  double heading_;
  double length_;
  Vec2 direction_;
  Vec2 direction_lateral_;
  bool sine_ = false;
  bool circular_ = false;
  Vec2 center_;
  double radius_ = 0.0;
  double start_phase_ = 0.0;
  int turn_ = 1;
  double amplitude_ = 0.0;
  double pulsation_ = 0.0;
  double phase_ = 0.0;
  int priority_ = 0;
  std::array<LineType, 2> line_types_ = {LineType::kStriped,
                                         LineType::kStriped};
};

// road/road.py's RoadNetwork: node -> node -> lanes, in insertion order
// (Python dicts), which decides ties of the closest-lane search.
class RoadNetwork {
 public:
  void AddLane(const std::string& from, const std::string& to, Lane lane) {
    const int f = Node(from);
    const int t = Node(to);
    Road& road = FindOrAddRoad(f, t);
    road.lanes.push_back(std::move(lane));
  }

  const Lane& GetLane(const LaneIndex& index) const {
    return FindRoad(index.from, index.to)->lanes[index.id];
  }
  int NumLanes(int from, int to) const {
    return static_cast<int>(FindRoad(from, to)->lanes.size());
  }

  LaneIndex GetClosestLaneIndex(const Vec2& p, double heading) const {
    LaneIndex best;
    double best_distance = std::numeric_limits<double>::infinity();
    bool first = true;
    for (const Road& road : roads_) {
      for (int id = 0; id < static_cast<int>(road.lanes.size()); ++id) {
        const double d = road.lanes[id].DistanceWithHeading(p, heading);
        // np.argmin: the first minimum (a NaN is the minimum).
        if (first || d < best_distance ||
            (std::isnan(d) && !std::isnan(best_distance))) {
          best = {road.from, road.to, id};
          best_distance = d;
          first = false;
        }
      }
    }
    return best;
  }

  // RoadNetwork.next_lane: the lane to follow after `current`. A route
  // whose head is the current road drops it; a route going on from the
  // current road's end gives the next road; otherwise the road whose lane is
  // closest to the projected position. On the next road: the same lane id
  // when it has as many lanes (or the route's), else its closest lane. The
  // current index where no road follows.
  LaneIndex NextLane(const LaneIndex& current, const Vec2& position,
                     std::vector<LaneIndex>* route = nullptr) const {
    int next_to = -1;
    int next_id = -1;
    if (route != nullptr && !route->empty()) {
      if (route->front().SameRoad(current)) {
        route->erase(route->begin());
      }
      if (!route->empty() && route->front().from == current.to) {
        next_to = route->front().to;
        next_id = route->front().id;
      }
    }
    const Lane& lane = GetLane(current);
    const double s = lane.LocalCoordinates(position).first;
    const Vec2 projected = lane.Position(s, 0);
    // next_lane_given_next_road: (lane id, its distance).
    auto given_road = [&](int to, int id) {
      const Road* road = FindRoad(current.to, to);
      const int n = static_cast<int>(road->lanes.size());
      if (NumLanes(current.from, current.to) == n) {
        if (id < 0) {
          id = current.id;
        }
      } else {
        double d_min = 0;
        for (int l = 0; l < n; ++l) {
          const double d = road->lanes[l].Distance(projected);
          if (l == 0 || d < d_min) {
            d_min = d;
            id = l;
          }
        }
      }
      return std::pair<int, double>{id, road->lanes[id].Distance(projected)};
    };
    if (next_to < 0) {
      bool found = false;
      LaneIndex best = current;
      double best_distance = 0;
      for (const Road& road : roads_) {
        if (road.from != current.to) {
          continue;
        }
        auto [id, d] = given_road(road.to, -1);
        if (!found || d < best_distance) {
          found = true;
          best = {current.to, road.to, id};
          best_distance = d;
        }
      }
      return best;
    }
    return {current.to, next_to, given_road(next_to, next_id).first};
  }

  // RoadNetwork.shortest_path: breadth-first, next nodes in name order; the
  // node names from `start` to `goal`, or empty.
  std::vector<int> ShortestPath(int start, int goal) const {
    std::vector<std::pair<int, std::vector<int>>> queue = {{start, {start}}};
    for (size_t head = 0; head < queue.size(); ++head) {
      const auto [node, path] = queue[head];
      std::vector<int> next;
      bool has_roads = false;
      for (const Road& road : roads_) {
        if (road.from == node) {
          has_roads = true;
          if (std::find(path.begin(), path.end(), road.to) == path.end()) {
            next.push_back(road.to);
          }
        }
      }
      if (!has_roads) {
        return {};  // bfs_paths yields [] first for a node without roads
      }
      std::sort(next.begin(), next.end(),
                [&](int a, int b) { return nodes_[a] < nodes_[b]; });
      for (int n : next) {
        std::vector<int> extended = path;
        extended.push_back(n);
        if (n == goal) {
          return extended;
        }
        if (HasRoadsFrom(n)) {
          queue.push_back({n, extended});
        }
      }
    }
    return {};
  }
  bool HasRoadsFrom(int node) const {
    return std::any_of(roads_.begin(), roads_.end(),
                       [&](const Road& r) { return r.from == node; });
  }
  int NodeIndex(const std::string& name) const {
    for (int i = 0; i < static_cast<int>(nodes_.size()); ++i) {
      if (nodes_[i] == name) {
        return i;
      }
    }
    throw std::out_of_range("highway: no node " + name);
  }
  // The lanes of a road, to change their speed limits.
  std::vector<Lane>& MutableLanes(int from, int to) {
    return FindOrAddRoad(from, to).lanes;
  }

  // The lanes of the road of `index`, left (id - 1) first, then right.
  std::vector<LaneIndex> SideLanes(const LaneIndex& index) const {
    std::vector<LaneIndex> lanes;
    if (index.id > 0) {
      lanes.push_back({index.from, index.to, index.id - 1});
    }
    if (index.id < NumLanes(index.from, index.to) - 1) {
      lanes.push_back({index.from, index.to, index.id + 1});
    }
    return lanes;
  }

  // straight_road_network's lines: a continuous line on the road's edges,
  // stripes between its lanes.
  static void SetStraightRoadLines(Lane* lane, int id, int lanes) {
    lane->set_line_types(
        id == 0 ? LineType::kContinuousLine : LineType::kStriped,
        id == lanes - 1 ? LineType::kContinuousLine : LineType::kNone);
  }

  // straight_road_network(lanes, start=0, length=10000, angle=0).
  static RoadNetwork StraightRoad(int lanes, double speed_limit) {
    RoadNetwork net;
    for (int lane = 0; lane < lanes; ++lane) {
      const double y = lane * Lane::kDefaultWidth;
      Lane straight({0.0, y}, {10000.0, y}, Lane::kDefaultWidth, speed_limit);
      SetStraightRoadLines(&straight, lane, lanes);
      net.AddLane("0", "1", straight);
    }
    return net;
  }

  int NumNodes() const { return static_cast<int>(nodes_.size()); }
  const std::string& NodeName(int node) const { return nodes_[node]; }
  // The first road leaving node `from` (create_random's np_random.choice
  // over one key draws nothing; scenes here have one).
  struct Road {
    int from;
    int to;
    std::vector<Lane> lanes;
  };
  const std::vector<Road>& roads() const { return roads_; }

 private:
  int Node(const std::string& name) {
    for (int i = 0; i < static_cast<int>(nodes_.size()); ++i) {
      if (nodes_[i] == name) {
        return i;
      }
    }
    nodes_.push_back(name);
    return static_cast<int>(nodes_.size()) - 1;
  }
  Road& FindOrAddRoad(int from, int to) {
    for (Road& road : roads_) {
      if (road.from == from && road.to == to) {
        return road;
      }
    }
    // Keep the roads grouped by origin node, in the order of insertion.
    auto it = roads_.end();
    for (auto r = roads_.begin(); r != roads_.end(); ++r) {
      if (r->from == from) {
        it = r + 1;
      }
    }
    return *roads_.insert(it, Road{from, to, {}});
  }
  const Road* FindRoad(int from, int to) const {
    for (const Road& road : roads_) {
      if (road.from == from && road.to == to) {
        return &road;
      }
    }
    throw std::out_of_range("highway: no road between these nodes");
  }

  std::vector<std::string> nodes_;
  std::vector<Road> roads_;
};

// An IDMVehicle, an MDPVehicle (the controlled ones), an Obstacle (a
// still object: 2 m x 2 m, never acting), a BicycleVehicle (driven by a
// continuous action: the dynamical bicycle model with tyre friction), or a
// plain kinematics.Vehicle (the kinematic bicycle, keeping the last action
// it was given: parking's ego and parked cars).
enum class VehicleKind { kIdm, kMdp, kObstacle, kBicycle, kKinematic };

// vehicle/kinematics.py's Vehicle with what ControlledVehicle, MDPVehicle
// and IDMVehicle add.
struct Vehicle {
  static constexpr double kLength = 5.0;
  static constexpr double kWidth = 2.0;
  static constexpr double kMaxSpeed = 40.0;
  static constexpr double kMinSpeed = -40.0;

  VehicleKind kind = VehicleKind::kIdm;
  double length = kLength;
  double width = kWidth;
  Vec2 position;
  double heading = 0.0;
  double speed = 0.0;
  LaneIndex lane_index;
  LaneIndex target_lane_index;
  double target_speed = 0.0;
  // The stored low-level action (kinematics.Vehicle.action).
  double steering = 0.0;
  double acceleration = 0.0;
  bool crashed = false;
  bool has_impact = false;
  Vec2 impact;
  bool check_collisions = true;
  // IDMVehicle.
  double delta = 4.0;
  double timer = 0.0;
  bool enable_lane_change = true;
  // MDPVehicle: its allowed speeds (DiscreteMetaAction's target_speeds)
  // and the index of the one it tracks.
  std::array<double, 3> target_speeds = {20.0, 25.0, 30.0};
  int speed_index = 0;
  // ControlledVehicle.route: the lanes to follow (id -1: any lane of the
  // road); empty without a plan.
  std::vector<LaneIndex> route;
  // RegulatedRoad: an IDM vehicle stopped for a vehicle of higher priority.
  bool is_yielding = false;
  int yield_timer = 0;
  // The controlled vehicle's player index; -1 for the traffic.
  int player = -1;
  // BicycleVehicle's lateral speed and yaw rate.
  double lateral_speed = 0.0;
  double yaw_rate = 0.0;

  // (cos, sin) of the heading through numpy's kernels. A frame reads a
  // vehicle's direction many times (every IDM gap it is in, its collision
  // checks, its observation row), so it is kept with the heading it was
  // computed for and computed again only when the heading's bits change: the
  // same function of the same bits, so the same result.
  Vec2 Direction() const {
    if (!direction_known_ || !SameBits(direction_heading_, heading)) {
      ComputeDirection();
    }
    return direction_;
  }
  Vec2 Velocity() const {
    const Vec2 d = Direction();
    return {speed * d.x, speed * d.y};
  }

 private:
  static bool SameBits(double a, double b) {
    uint64_t a_bits = 0;
    uint64_t b_bits = 0;
    std::memcpy(&a_bits, &a, sizeof(double));
    std::memcpy(&b_bits, &b, sizeof(double));
    return a_bits == b_bits;
  }
  // Direction()'s kernels, out of line so that the check inlines.
  [[gnu::noinline]] void ComputeDirection() const {
    direction_ = {numpy_kernels::Cos(heading), numpy_kernels::Sin(heading)};
    direction_heading_ = heading;
    direction_known_ = true;
  }
  // Direction()'s cache: not part of the vehicle's state (snapshots leave
  // it out; a copy carries it, valid for the copy's heading).
  mutable bool direction_known_ = false;
  mutable double direction_heading_ = 0.0;
  mutable Vec2 direction_;
};

// MDPVehicle.DEFAULT_TARGET_SPEEDS = np.linspace(20, 30, 3).
inline constexpr std::array<double, 3> kTargetSpeeds = {20.0, 25.0, 30.0};
using TargetSpeeds = std::array<double, 3>;

enum class MetaAction { kNone, kLaneLeft, kIdle, kLaneRight, kFaster, kSlower };

// road/road.py's Road: the network, the vehicles (in the reference's list
// order) and the behaviour of the traffic.
class Road {
 public:
  // IDMVehicle's class constants.
  static constexpr double kAccMax = 6.0;
  static constexpr double kComfortAccMax = 3.0;
  static constexpr double kComfortAccMin = -5.0;
  static constexpr double kDistanceWanted = 5.0 + Vehicle::kLength;
  static constexpr double kTimeWanted = 1.5;
  static constexpr double kPoliteness = 0.0;
  static constexpr double kLaneChangeMinAccGain = 0.2;
  static constexpr double kLaneChangeMaxBrakingImposed = 2.0;
  static constexpr double kLaneChangeDelay = 1.0;
  // ControlledVehicle's.
  static constexpr double kTauAcc = 0.6;
  static constexpr double kTauHeading = 0.2;
  static constexpr double kTauLateral = 0.6;
  static constexpr double kTauPursuit = 0.5 * kTauHeading;
  static constexpr double kKpA = 1 / kTauAcc;
  static constexpr double kKpHeading = 1 / kTauHeading;
  static constexpr double kKpLateral = 1 / kTauLateral;
  static constexpr double kMaxSteeringAngle = M_PI / 3;

  // IDMVehicle's class constants as the traffic reads them: the defaults,
  // or what IntersectionEnv writes into the class at reset.
  double distance_wanted = kDistanceWanted;
  double comfort_acc_max = kComfortAccMax;
  double comfort_acc_min = kComfortAccMin;
  // RegulatedRoad (the intersections): every 1 / kRegulationFrequency s,
  // IDM vehicles in a predicted conflict with one of higher priority stop.
  static constexpr int kRegulationFrequency = 2;
  bool regulated = false;
  int64_t regulation_steps = 0;

  RoadNetwork network;
  std::vector<Vehicle> vehicles;
  // road.objects: obstacles, after the vehicles in every search.
  std::vector<Vehicle> objects;
  random::Generator* np_random = nullptr;
  // Road.neighbour_vehicles_connected_lanes (the -v1 ids): also search the
  // lanes before and after for preceding and following vehicles.
  bool neighbour_vehicles_connected_lanes = false;

 private:
  // BodiesOnLane's lists: per lane during Act (the first
  // on_lane_cached_ entries), else the last one made. The lists keep their
  // memory from frame to frame.
  mutable std::vector<std::pair<LaneIndex, std::vector<std::pair<double, int>>>>
      on_lane_cache_;
  mutable int on_lane_cached_ = 0;
  mutable std::vector<std::pair<double, int>> uncached_;
  mutable std::vector<std::pair<const Lane*, double>> search_lanes_;
  bool caching_on_lane_ = false;
  // Act's IDM vehicles, whose steering and acceleration are computed for
  // all of them at the end of the pass: per vehicle, its IDM pairs (ego,
  // front), and for all of them the arguments of numpy's power.
  struct IdmAccelerationPairs {
    std::array<std::array<int, 2>, 2> pairs;
    int count;
  };
  std::vector<int> acting_idm_ids_;
  std::vector<IdmAccelerationPairs> acting_idm_pairs_;
  std::vector<double> acting_idm_power_base_;
  std::vector<double> acting_idm_power_exponent_;
  std::vector<double> acting_idm_power_;
  std::vector<double> acting_idm_steering_;
  // StepVehicles' kinematic vehicles (all but the bicycles), in road order.
  std::vector<int> kinematic_ids_;
  // Step's vehicles that check collisions, in road order.
  std::vector<int> colliding_ids_;
  // TwoSqrtAb's value and the constants it is for.
  mutable bool two_sqrt_ab_known_ = false;
  mutable double two_sqrt_ab_max_ = 0.0;
  mutable double two_sqrt_ab_min_ = 0.0;
  mutable double two_sqrt_ab_ = 0.0;
  // The stages' scratch arrays (Accelerations, SteeringControl,
  // StepVehicles).
  mutable std::array<std::vector<double>, 5> scratch_;

 public:
  int NumBodies() const {
    return static_cast<int>(vehicles.size() + objects.size());
  }
  // Vehicle j, or object j - vehicles.size().
  const Vehicle& Body(int j) const {
    const int n = static_cast<int>(vehicles.size());
    return j < n ? vehicles[j] : objects[j - n];
  }

  // An Obstacle at a position (heading 0, speed 0).
  Vehicle MakeObstacle(Vec2 position) const {
    Vehicle o;
    o.kind = VehicleKind::kObstacle;
    o.length = 2.0;
    o.width = 2.0;
    o.position = position;
    o.lane_index = network.GetClosestLaneIndex(position, 0.0);
    o.target_lane_index = o.lane_index;
    return o;
  }

  const Lane& LaneOf(const Vehicle& v) const {
    return network.GetLane(v.lane_index);
  }

  // A vehicle at a position: its lane is the closest one.
  Vehicle MakeVehicle(VehicleKind kind, Vec2 position, double heading,
                      double speed) const {
    Vehicle v;
    v.kind = kind;
    v.position = position;
    v.heading = heading;
    v.speed = speed;
    v.lane_index = network.GetClosestLaneIndex(position, heading);
    v.target_lane_index = v.lane_index;
    v.target_speed = speed;
    if (kind == VehicleKind::kMdp) {
      v.speed_index = SpeedToIndex(v.target_speed, v.target_speeds);
      v.target_speed = v.target_speeds[v.speed_index];
    } else if (kind == VehicleKind::kKinematic) {
      // A plain Vehicle has no target speed: IDMVehicle.acceleration reads
      // 0 for it (getattr's default).
      v.target_speed = 0.0;
    } else {
      v.timer = PyMod((position.x + position.y) * M_PI, kLaneChangeDelay);
    }
    return v;
  }

  // Vehicle.create_random on the road from the first node (every scene
  // here has one road there): lane drawn unless `lane_id` >= 0, speed drawn
  // unless given (>= 0 is given), placed behind the furthest vehicle.
  Vehicle CreateRandom(VehicleKind kind, double speed, int lane_id,
                       double spacing) {
    const auto& road = network.roads().front();
    const int n = static_cast<int>(road.lanes.size());
    const int id =
        lane_id >= 0 ? lane_id : static_cast<int>(np_random->Choice(n));
    const Lane& lane = road.lanes[id];
    if (speed < 0) {
      speed = np_random->Uniform(0.7 * lane.speed_limit(),
                                 0.8 * lane.speed_limit());
    }
    const double default_spacing = 12 + 1.0 * speed;
    const double offset =
        spacing * default_spacing * numpy_kernels::Exp(-5.0 / 40 * n);
    double x0;
    if (!vehicles.empty()) {
      x0 = -std::numeric_limits<double>::infinity();
      for (const Vehicle& v : vehicles) {
        x0 = std::max(x0, lane.LocalCoordinates(v.position).first);
      }
    } else {
      x0 = 3 * offset;
    }
    x0 += offset * np_random->Uniform(0.9, 1.1);
    return MakeVehicle(kind, lane.Position(x0, 0), lane.HeadingAt(x0), speed);
  }

  // ControlledVehicle.plan_route_to: the current lane, then the roads of
  // the shortest path to `destination` (any lane).
  void PlanRouteTo(Vehicle* v, int destination) const {
    v->route = {v->lane_index};
    const std::vector<int> path =
        network.ShortestPath(v->lane_index.to, destination);
    for (size_t k = 0; k + 1 < path.size(); ++k) {
      v->route.push_back({path[k], path[k + 1], -1});
    }
  }

  // RoadObject.make_on_lane: on a lane at a longitudinal position, along
  // its heading there.
  Vehicle MakeOnLane(VehicleKind kind, const LaneIndex& index,
                     double longitudinal, double speed) const {
    const Lane& lane = network.GetLane(index);
    return MakeVehicle(kind, lane.Position(longitudinal, 0),
                       lane.HeadingAt(longitudinal), speed);
  }

  // MDPVehicle.speed_to_index: the closest allowed speed (np.round: half to
  // even).
  static int SpeedToIndex(double speed,
                          const TargetSpeeds& speeds = kTargetSpeeds) {
    const double x = (speed - speeds[0]) / (speeds[2] - speeds[0]);
    return static_cast<int>(
        Clip(std::nearbyint(x * (speeds.size() - 1)), 0, speeds.size() - 1));
  }

  // -- Perception --

  // Road.neighbour_vehicles: the bodies (vehicles, then objects) preceding
  // and following vehicle `i` on `lane_index` (-1: none).
  std::pair<int, int> NeighbourVehicles(int i,
                                        const LaneIndex& lane_index) const {
    const Lane& lane = network.GetLane(lane_index);
    const double s = lane.LocalCoordinates(vehicles[i].position).first;
    int front = -1;
    int rear = -1;
    double s_front = 0;
    double s_rear = 0;
    // In body order, as the reference's loop: ties go to the last body in
    // front and the first behind.
    for (const auto& [s_v, j] : BodiesOnLane(lane_index)) {
      if (j == i) {
        continue;
      }
      if (s <= s_v && (front < 0 || s_v <= s_front)) {
        s_front = s_v;
        front = j;
      }
      if (s_v < s && (rear < 0 || s_v > s_rear)) {
        s_rear = s_v;
        rear = j;
      }
    }
    return {front, rear};
  }

  // The bodies on `lane_index` (or, for the -v1 ids, on the lanes before and
  // after it: the first of them a body is on), with their longitudinal
  // coordinate along it, in body order. No body moves while the vehicles
  // decide (Act), so within Act each lane's list is made once, for all the
  // searches of the pass: the same function of the same positions, so the
  // same bits.
  const std::vector<std::pair<double, int>>& BodiesOnLane(
      const LaneIndex& lane_index) const {
    if (caching_on_lane_) {
      for (int k = 0; k < on_lane_cached_; ++k) {
        if (on_lane_cache_[k].first == lane_index) {
          return on_lane_cache_[k].second;
        }
      }
    }
    const Lane& lane = network.GetLane(lane_index);
    std::vector<std::pair<const Lane*, double>>& lanes_offsets = search_lanes_;
    lanes_offsets.assign(1, {&lane, 0.0});
    if (neighbour_vehicles_connected_lanes) {
      for (const auto& road : network.roads()) {
        if (road.from == lane_index.to && !road.lanes.empty()) {
          const int id = lane_index.id < static_cast<int>(road.lanes.size())
                             ? lane_index.id
                             : 0;
          lanes_offsets.push_back({&road.lanes[id], lane.length()});
        }
      }
      for (const auto& road : network.roads()) {
        if (road.to == lane_index.from && !road.lanes.empty()) {
          const int id = lane_index.id < static_cast<int>(road.lanes.size())
                             ? lane_index.id
                             : 0;
          lanes_offsets.push_back({&road.lanes[id], -road.lanes[id].length()});
        }
      }
    }
    std::vector<std::pair<double, int>>* list = &uncached_;
    if (caching_on_lane_) {
      if (on_lane_cached_ == static_cast<int>(on_lane_cache_.size())) {
        on_lane_cache_.emplace_back();
      }
      on_lane_cache_[on_lane_cached_].first = lane_index;
      list = &on_lane_cache_[on_lane_cached_++].second;
    }
    std::vector<std::pair<double, int>>& bodies = *list;
    bodies.clear();
    for (int j = 0; j < NumBodies(); ++j) {
      for (const auto& [search_lane, offset] : lanes_offsets) {
        auto [s_v, lat_v] = search_lane->LocalCoordinates(Body(j).position);
        if (search_lane->OnLane(s_v, lat_v, 1)) {
          bodies.emplace_back(s_v + offset, j);
          break;
        }
      }
    }
    return bodies;
  }

  // RoadObject.lane_distance_to, along vehicle a's lane.
  double LaneDistance(const Vehicle& a, const Vehicle& b) const {
    const Lane& lane = LaneOf(a);
    return lane.LocalCoordinates(b.position).first -
           lane.LocalCoordinates(a.position).first;
  }

  // IDMVehicle.desired_gap (projected).
  double DesiredGap(const Vehicle& ego, const Vehicle& front) const {
    // ego.Velocity() from the one direction (the same bits as computing it
    // twice).
    const Vec2 d = ego.Direction();
    const Vec2 ve = {ego.speed * d.x, ego.speed * d.y};
    const Vec2 vf = front.Velocity();
    const double dv = Dot2(ve.x - vf.x, ve.y - vf.y, d.x, d.y);
    return distance_wanted + ego.speed * kTimeWanted +
           ego.speed * dv / TwoSqrtAb();
  }

  // DesiredGap's 2 * sqrt(-comfort_acc_max * comfort_acc_min), kept with
  // the constants it was computed from (a square root and a division in
  // every gap otherwise).
  double TwoSqrtAb() const {
    if (!two_sqrt_ab_known_ || two_sqrt_ab_max_ != comfort_acc_max ||
        two_sqrt_ab_min_ != comfort_acc_min ||
        std::signbit(two_sqrt_ab_max_) != std::signbit(comfort_acc_max) ||
        std::signbit(two_sqrt_ab_min_) != std::signbit(comfort_acc_min)) {
      const double ab = -comfort_acc_max * comfort_acc_min;
      two_sqrt_ab_ = 2 * std::sqrt(ab);
      two_sqrt_ab_max_ = comfort_acc_max;
      two_sqrt_ab_min_ = comfort_acc_min;
      two_sqrt_ab_known_ = true;
    }
    return two_sqrt_ab_;
  }

  // IDMVehicle.acceleration of vehicle ego behind vehicle front (-1: no
  // vehicle), with the exponent of the vehicle that asks (`delta`), for n
  // pairs {ego, front} at once: numpy's power runs once for all of them
  // (numpy_kernels::UnaryN: the bits of one call each).
  void Accelerations(double delta, const std::array<int, 2>* pairs, int n,
                     double* out) const {
    std::vector<double>& x = scratch_[0];
    std::vector<double>& y = scratch_[1];
    std::vector<double>& power = scratch_[2];
    for (std::vector<double>* values : {&x, &y, &power}) {
      if (values->size() < static_cast<size_t>(2 * n)) {
        values->resize(2 * n);
      }
    }
    const int m = PowerArguments(delta, pairs, n, x.data(), y.data());
    numpy_kernels::Power(x.data(), y.data(), power.data(), m);
    int used = 0;
    CombineAccelerations(pairs, n, power.data(), &used, out);
  }

  // Accelerations' two halves: the bases and exponents of numpy's power for
  // n pairs (into x[0..m), y[0..m), m <= 2 n returned), and the
  // accelerations from the powers (from power[*used] on; *used advanced past
  // them).
  int PowerArguments(double delta, const std::array<int, 2>* pairs, int n,
                     double* x, double* y) const {
    int m = 0;
    for (int k = 0; k < n; ++k) {
      const auto [ego, front] = pairs[k];
      if (ego < 0 || Body(ego).kind == VehicleKind::kObstacle) {
        continue;  // no vehicle, or an obstacle (not a Vehicle): 0
      }
      const Vehicle& e = Body(ego);
      const double target = Clip(e.target_speed, 0, LaneOf(e).speed_limit());
      x[m] = std::max(e.speed, 0.0) / std::abs(NotZero(target));
      y[m++] = delta;
      if (front >= 0) {
        const double d = LaneDistance(e, Body(front));
        x[m] = DesiredGap(e, Body(front)) / NotZero(d);
        y[m++] = 2;
      }
    }
    return m;
  }
  void CombineAccelerations(const std::array<int, 2>* pairs, int n,
                            const double* power, int* used, double* out) const {
    int m = *used;
    for (int k = 0; k < n; ++k) {
      const auto [ego, front] = pairs[k];
      out[k] = 0;
      if (ego < 0 || Body(ego).kind == VehicleKind::kObstacle) {
        continue;
      }
      out[k] = comfort_acc_max * (1 - power[m++]);
      if (front >= 0) {
        out[k] -= comfort_acc_max * power[m++];
      }
    }
    *used = m;
  }

  // -- Control --

  // ControlledVehicle.steering_control of vehicles ids[0..n) towards their
  // target lanes, into out[0..n): numpy's kernels run once a stage for all
  // of them (numpy_kernels::UnaryN: the bits of one call each).
  void SteeringControl(const int* ids, int n, double* out) const {
    std::vector<double>& a = scratch_[0];
    std::vector<double>& b = scratch_[1];
    std::vector<double>& future_heading = scratch_[2];
    a.resize(n);
    b.resize(n);
    future_heading.resize(n);
    for (int k = 0; k < n; ++k) {
      const Vehicle& v = vehicles[ids[k]];
      const Lane& lane = network.GetLane(v.target_lane_index);
      auto [s, r] = lane.LocalCoordinates(v.position);
      const double lane_next = s + v.speed * kTauPursuit;
      future_heading[k] = lane.HeadingAt(lane_next);
      const double lateral_speed_command = -kKpLateral * r;
      a[k] = Clip(lateral_speed_command / NotZero(v.speed), -1, 1);
    }
    numpy_kernels::Arcsin(a.data(), b.data(), n);  // heading_command
    for (int k = 0; k < n; ++k) {
      const Vehicle& v = vehicles[ids[k]];
      const double heading_ref =
          future_heading[k] + Clip(b[k], -M_PI / 4, M_PI / 4);
      const double heading_rate_command =
          kKpHeading * WrapToPi(heading_ref - v.heading);
      a[k] =
          Clip(Vehicle::kLength / 2 / NotZero(v.speed) * heading_rate_command,
               -1, 1);
    }
    numpy_kernels::Arcsin(a.data(), b.data(), n);  // slip_angle
    numpy_kernels::Tan(b.data(), a.data(), n);
    for (int k = 0; k < n; ++k) {
      a[k] = 2 * a[k];
    }
    numpy_kernels::Arctan(a.data(), b.data(), n);
    for (int k = 0; k < n; ++k) {
      out[k] = Clip(b[k], -kMaxSteeringAngle, kMaxSteeringAngle);
    }
  }

  // ControlledVehicle.follow_road.
  void FollowRoad(Vehicle* v) const {
    if (network.GetLane(v->target_lane_index).AfterEnd(v->position)) {
      v->target_lane_index =
          network.NextLane(v->target_lane_index, v->position, &v->route);
    }
  }

  // ControlledVehicle.act / MDPVehicle.act for vehicle i.
  void ActControlled(int i, MetaAction action) {
    Vehicle& v = vehicles[i];
    if (action == MetaAction::kFaster || action == MetaAction::kSlower) {
      const int step = action == MetaAction::kFaster ? 1 : -1;
      v.speed_index =
          static_cast<int>(Clip(SpeedToIndex(v.speed, v.target_speeds) + step,
                                0, v.target_speeds.size() - 1));
      v.target_speed = v.target_speeds[v.speed_index];
      action = MetaAction::kNone;
    }
    FollowRoad(&v);
    if (action == MetaAction::kLaneRight || action == MetaAction::kLaneLeft) {
      LaneIndex target = v.target_lane_index;
      const int n = network.NumLanes(target.from, target.to);
      target.id = static_cast<int>(Clip(
          target.id + (action == MetaAction::kLaneRight ? 1 : -1), 0, n - 1));
      if (network.GetLane(target).IsReachableFrom(v.position)) {
        v.target_lane_index = target;
      }
    }
    double steering = 0.0;
    SteeringControl(&i, 1, &steering);
    v.steering = Clip(steering, -kMaxSteeringAngle, kMaxSteeringAngle);
    v.acceleration = kKpA * (v.target_speed - v.speed);
  }

  // IDMVehicle.mobil of vehicle i towards lane_index, in two halves: the
  // six (ego, front) pairs whose accelerations it may weigh (computed at
  // once: they are pure, so what the reference skips when it returns early
  // changes nothing, and they do not read the target lane), and the
  // decision from those accelerations.
  using MobilPairs = std::array<std::array<int, 2>, 6>;
  MobilPairs MobilAccelerationPairs(int i, const LaneIndex& lane_index) const {
    auto [new_preceding, new_following] = NeighbourVehicles(i, lane_index);
    auto [old_preceding, old_following] =
        NeighbourVehicles(i, vehicles[i].lane_index);
    return {{
        {new_following, new_preceding},
        {new_following, i},
        {i, new_preceding},
        {i, old_preceding},
        {old_following, i},
        {old_following, old_preceding},
    }};
  }
  bool MobilDecision(int i, const LaneIndex& lane_index,
                     const double* a) const {
    const Vehicle& self = vehicles[i];
    const double new_following_a = a[0];
    const double new_following_pred_a = a[1];
    const double self_pred_a = a[2];
    const double self_a = a[3];
    const double old_following_a = a[4];
    const double old_following_pred_a = a[5];
    if (new_following_pred_a < -kLaneChangeMaxBrakingImposed) {
      return false;
    }
    if (!self.route.empty() && self.route.front().id >= 0) {
      // A planned lane: change only towards it, and only safely.
      auto sign = [](int v) { return (v > 0) - (v < 0); };
      if (sign(lane_index.id - self.target_lane_index.id) !=
          sign(self.route.front().id - self.target_lane_index.id)) {
        return false;
      }
      return !(self_pred_a < -kLaneChangeMaxBrakingImposed);
    }
    const double jerk = self_pred_a - self_a +
                        kPoliteness * (new_following_pred_a - new_following_a +
                                       old_following_pred_a - old_following_a);
    return !(jerk < kLaneChangeMinAccGain);
  }

  // IDMVehicle.change_lane_policy.
  void ChangeLanePolicy(int i) {
    Vehicle& self = vehicles[i];
    if (self.lane_index != self.target_lane_index) {
      if (self.lane_index.SameRoad(self.target_lane_index)) {
        for (int j = 0; j < static_cast<int>(vehicles.size()); ++j) {
          const Vehicle& v = vehicles[j];
          // Only a ControlledVehicle has a target lane (a plain Vehicle
          // is not one).
          if (j != i && v.kind != VehicleKind::kKinematic &&
              v.lane_index != self.target_lane_index &&
              v.target_lane_index == self.target_lane_index) {
            const double d = LaneDistance(self, v);
            const double d_star = DesiredGap(self, v);
            if (0 < d && d < d_star) {
              self.target_lane_index = self.lane_index;
              break;
            }
          }
        }
      }
      return;
    }
    if (!(kLaneChangeDelay < self.timer)) {
      return;
    }
    self.timer = 0;
    // The side lanes MOBIL weighs (neither test reads the target lane), their
    // accelerations in one power call, then the decisions in order (the
    // second reads the target the first may have set).
    std::array<LaneIndex, 2> candidates;
    int count = 0;
    for (const LaneIndex& lane_index : network.SideLanes(self.lane_index)) {
      if (!network.GetLane(lane_index).IsReachableFrom(self.position)) {
        continue;
      }
      if (std::abs(self.speed) < 1) {
        continue;
      }
      candidates[count++] = lane_index;
    }
    if (count == 0) {
      return;
    }
    std::array<std::array<int, 2>, 12> pairs;
    for (int c = 0; c < count; ++c) {
      const MobilPairs lane_pairs = MobilAccelerationPairs(i, candidates[c]);
      std::copy(lane_pairs.begin(), lane_pairs.end(), pairs.begin() + 6 * c);
    }
    std::array<double, 12> a{};
    Accelerations(self.delta, pairs.data(), 6 * count, a.data());
    for (int c = 0; c < count; ++c) {
      if (MobilDecision(i, candidates[c], a.data() + 6 * c)) {
        vehicles[i].target_lane_index = candidates[c];
      }
    }
  }

  // IDMVehicle.act, but for the steering and the power of the
  // acceleration, which Act computes for all IDM vehicles at the end of its
  // pass: no vehicle's act reads another's steering or acceleration, and the
  // power's arguments are taken here, from what this act sees.
  void ActIdm(int i) {
    if (vehicles[i].crashed) {
      return;
    }
    FollowRoad(&vehicles[i]);
    if (vehicles[i].enable_lane_change) {
      ChangeLanePolicy(i);
    }
    const Vehicle& self = vehicles[i];
    auto [front, rear] = NeighbourVehicles(i, self.lane_index);
    IdmAccelerationPairs acceleration{{{{i, front}, {i, -1}}}, 1};
    if (self.lane_index != self.target_lane_index) {
      auto [target_front, target_rear] =
          NeighbourVehicles(i, self.target_lane_index);
      acceleration.pairs[acceleration.count++] = {i, target_front};
    }
    std::array<double, 4> base{};
    std::array<double, 4> exponent{};
    const int m =
        PowerArguments(self.delta, acceleration.pairs.data(),
                       acceleration.count, base.data(), exponent.data());
    acting_idm_power_base_.insert(acting_idm_power_base_.end(), base.begin(),
                                  base.begin() + m);
    acting_idm_power_exponent_.insert(acting_idm_power_exponent_.end(),
                                      exponent.begin(), exponent.begin() + m);
    acting_idm_ids_.push_back(i);
    acting_idm_pairs_.push_back(acceleration);
  }

  // Road.act: every vehicle decides, in list order (the lanes' bodies
  // found once for the pass: BodiesOnLane).
  void Act() {
    on_lane_cached_ = 0;
    caching_on_lane_ = true;
    acting_idm_ids_.clear();
    acting_idm_pairs_.clear();
    acting_idm_power_base_.clear();
    acting_idm_power_exponent_.clear();
    for (int i = 0; i < static_cast<int>(vehicles.size()); ++i) {
      if (vehicles[i].kind == VehicleKind::kIdm) {
        ActIdm(i);
      } else if (vehicles[i].kind != VehicleKind::kBicycle &&
                 vehicles[i].kind != VehicleKind::kKinematic) {
        ActControlled(i, MetaAction::kNone);
      }  // a BicycleVehicle or a plain Vehicle repeats its last action
    }
    const int n = static_cast<int>(acting_idm_ids_.size());
    const int powers = static_cast<int>(acting_idm_power_base_.size());
    acting_idm_power_.resize(powers);
    numpy_kernels::Power(acting_idm_power_base_.data(),
                         acting_idm_power_exponent_.data(),
                         acting_idm_power_.data(), powers);
    int used = 0;
    for (int k = 0; k < n; ++k) {
      const IdmAccelerationPairs& acceleration = acting_idm_pairs_[k];
      std::array<double, 2> a{};
      CombineAccelerations(acceleration.pairs.data(), acceleration.count,
                           acting_idm_power_.data(), &used, a.data());
      const double value =
          acceleration.count == 1 ? a[0] : std::min(a[0], a[1]);
      vehicles[acting_idm_ids_[k]].acceleration =
          Clip(value, -kAccMax, kAccMax);
    }
    acting_idm_steering_.resize(n);
    SteeringControl(acting_idm_ids_.data(), n, acting_idm_steering_.data());
    for (int k = 0; k < n; ++k) {
      vehicles[acting_idm_ids_[k]].steering =
          Clip(acting_idm_steering_[k], -kMaxSteeringAngle, kMaxSteeringAngle);
    }
    caching_on_lane_ = false;
    on_lane_cached_ = 0;
  }

  // -- BicycleVehicle (vehicle/dynamics.py) --

  static constexpr double kBicycleMass = 1;
  static constexpr double kBicycleLengthA = Vehicle::kLength / 2;
  static constexpr double kBicycleLengthB = Vehicle::kLength / 2;
  static constexpr double kBicycleInertiaZ =
      1.0 / 12 * kBicycleMass *
      (Vehicle::kLength * Vehicle::kLength + Vehicle::kWidth * Vehicle::kWidth);
  static constexpr double kBicycleFriction = 15.0 * kBicycleMass;
  static constexpr double kBicycleMaxAngularSpeed = 2 * M_PI;

  // BicycleVehicle.derivative_func of the state (x, y, heading, speed,
  // lateral speed, yaw rate) under the vehicle's stored action.
  static std::array<double, 6> BicycleDerivative(
      const Vehicle& v, const std::array<double, 6>& state) {
    const double heading = state[2];
    const double speed = state[3];
    const double lateral_speed = state[4];
    const double yaw_rate = state[5];
    const double theta_vf = numpy_kernels::Arctan2(
        lateral_speed + kBicycleLengthA * yaw_rate, speed);
    const double theta_vr = numpy_kernels::Arctan2(
        lateral_speed - kBicycleLengthB * yaw_rate, speed);
    double f_yf = 2 * kBicycleFriction * (v.steering - theta_vf);
    double f_yr = 2 * kBicycleFriction * (0 - theta_vr);
    if (std::abs(speed) < 1) {
      // Low speed: damping of the lateral speed and the yaw rate.
      f_yf = -kBicycleMass * lateral_speed -
             kBicycleInertiaZ / kBicycleLengthA * yaw_rate;
      f_yr = -kBicycleMass * lateral_speed +
             kBicycleInertiaZ / kBicycleLengthA * yaw_rate;
    }
    const double d_lateral_speed =
        1 / kBicycleMass * (f_yf + f_yr) - yaw_rate * speed;
    const double d_yaw_rate = 1 / kBicycleInertiaZ *
                              (kBicycleLengthA * f_yf - kBicycleLengthB * f_yr);
    const double c = numpy_kernels::Cos(heading);
    const double s = numpy_kernels::Sin(heading);
    return {GemvRow(c, -s, speed, lateral_speed),
            GemvRow(s, c, speed, lateral_speed),
            yaw_rate,
            v.acceleration,
            d_lateral_speed,
            d_yaw_rate};
  }

  // Vehicle.clip_actions: a crashed vehicle brakes to a stop, and no
  // acceleration takes the speed past its bounds.
  static void ClipActions(Vehicle* v) {
    if (v->crashed) {
      v->steering = 0;
      v->acceleration = -1.0 * v->speed;
    }
    if (v->speed > Vehicle::kMaxSpeed) {
      v->acceleration =
          std::min(v->acceleration, 1.0 * (Vehicle::kMaxSpeed - v->speed));
    } else if (v->speed < Vehicle::kMinSpeed) {
      v->acceleration =
          std::max(v->acceleration, 1.0 * (Vehicle::kMinSpeed - v->speed));
    }
  }

  // BicycleVehicle.step: its clip_actions, then one RK4 step. It applies
  // no collision push (unlike Vehicle.step); a crash still stops it.
  static void StepBicycle(Vehicle* v, double dt) {
    ClipActions(v);
    v->steering = Clip(v->steering, -M_PI / 2, M_PI / 2);
    v->yaw_rate =
        Clip(v->yaw_rate, -kBicycleMaxAngularSpeed, kBicycleMaxAngularSpeed);
    const std::array<double, 6> state = {v->position.x,    v->position.y,
                                         v->heading,       v->speed,
                                         v->lateral_speed, v->yaw_rate};
    auto shifted = [&](const std::array<double, 6>& f, double h) {
      std::array<double, 6> out;
      for (int k = 0; k < 6; ++k) {
        out[k] = state[k] + f[k] * h;
      }
      return out;
    };
    const std::array<double, 6> f1 = BicycleDerivative(*v, state);
    const std::array<double, 6> f2 = BicycleDerivative(*v, shifted(f1, dt / 2));
    const std::array<double, 6> f3 = BicycleDerivative(*v, shifted(f2, dt / 2));
    const std::array<double, 6> f4 = BicycleDerivative(*v, shifted(f3, dt));
    std::array<double, 6> next;
    for (int k = 0; k < 6; ++k) {
      next[k] = state[k] + dt / 6 * (((f1[k] + 2 * f2[k]) + 2 * f3[k]) + f4[k]);
    }
    v->position = {next[0], next[1]};
    v->heading = next[2];
    v->speed = next[3];
    v->lateral_speed = next[4];
    v->yaw_rate = next[5];
  }

  // -- Regulation (road/regulation.py) --

  // RoadNetwork.position_heading_along_route: the position and heading
  // `longitudinal` metres along `route` (from its head), lanes of unknown
  // id taken as the current lane's id where the road has it, else 0.
  std::pair<Vec2, double> PositionHeadingAlongRoute(
      const std::vector<LaneIndex>& route, double longitudinal,
      const LaneIndex& current) const {
    auto head_with_id = [&](size_t k) {
      LaneIndex index = route[k];
      if (index.id < 0) {
        index.id = current.id < network.NumLanes(current.from, current.to)
                       ? current.id
                       : 0;
      }
      return index;
    };
    size_t head = 0;
    LaneIndex index = head_with_id(head);
    while (route.size() - head > 1 &&
           longitudinal > network.GetLane(index).length()) {
      longitudinal -= network.GetLane(index).length();
      ++head;
      index = head_with_id(head);
    }
    const Lane& lane = network.GetLane(index);
    return {lane.Position(longitudinal, 0), lane.HeadingAt(longitudinal)};
  }

  // ControlledVehicle.predict_trajectory_constant_speed at `t` seconds:
  // along its route (or its lane) at its current speed.
  std::pair<Vec2, double> PredictConstantSpeed(const Vehicle& v,
                                               double t) const {
    const double s = LaneOf(v).LocalCoordinates(v.position).first;
    if (v.route.empty()) {
      return PositionHeadingAlongRoute({v.lane_index}, s + v.speed * t,
                                       v.lane_index);
    }
    return PositionHeadingAlongRoute(v.route, s + v.speed * t, v.lane_index);
  }

  // RegulatedRoad's prediction times: np.arange(0.25, 3, 0.25).
  static constexpr int kPredictions = 11;
  static constexpr double kPredictionStep = 0.25;
  using Trajectory = std::array<std::pair<Vec2, double>, kPredictions>;

  // predict_trajectory_constant_speed: a ControlledVehicle along its route
  // at its speed; a BicycleVehicle (Vehicle's "constant_steering") as a
  // copy with no acceleration and the same steering, stepped 0.25 s at a
  // time.
  Trajectory PredictTrajectory(const Vehicle& v) const {
    Trajectory trajectory;
    if (v.kind == VehicleKind::kBicycle) {
      Vehicle copy = v;
      copy.acceleration = 0.0;
      for (int k = 0; k < kPredictions; ++k) {
        StepBicycle(&copy, kPredictionStep);
        trajectory[k] = {copy.position, copy.heading};
      }
      return trajectory;
    }
    for (int k = 0; k < kPredictions; ++k) {
      trajectory[k] = PredictConstantSpeed(v, kPredictionStep * (k + 1));
    }
    return trajectory;
  }

  // utils.rect_corners with the midpoints and the centre: the corners, the
  // centre, then the midpoints of the ends and of the sides, rotated (a
  // matrix product: GemmRow) and moved to `center`.
  static std::array<Vec2, 9> RectPoints(const Vec2& center, double length,
                                        double width, double angle) {
    const double hl = length / 2;
    const double hw = width / 2;
    const double px[9] = {-hl, -hl, hl, hl, 0, -hl, hl, -0.0, 0};
    const double py[9] = {-hw, hw, hw, -hw, 0, -0.0, 0, -hw, hw};
    const double c = numpy_kernels::Cos(angle);
    const double s = numpy_kernels::Sin(angle);
    std::array<Vec2, 9> points;
    for (int k = 0; k < 9; ++k) {
      points[k] = {GemmRow(c, -s, px[k], py[k]) + center.x,
                   GemmRow(s, c, px[k], py[k]) + center.y};
    }
    return points;
  }

  // utils.point_in_rotated_rectangle: the point's offset from the centre
  // turned by +angle (as the reference does), inside the axis-aligned box.
  static bool PointInRotatedRectangle(const Vec2& p, const Vec2& center,
                                      double length, double width,
                                      double angle) {
    const double c = numpy_kernels::Cos(angle);
    const double s = numpy_kernels::Sin(angle);
    const double dx = p.x - center.x;
    const double dy = p.y - center.y;
    const double ux = GemvRow(c, -s, dx, dy);
    const double uy = GemvRow(s, c, dx, dy);
    return -length / 2 <= ux && ux <= length / 2 && -width / 2 <= uy &&
           uy <= width / 2;
  }

  // utils.rotated_rectangles_intersect of (centre, 1.5 lengths, 0.9 widths,
  // heading) rectangles: a point of one inside the other.
  static bool RectanglesIntersect(const Vec2& c1, double h1, const Vec2& c2,
                                  double h2) {
    constexpr double kL = 1.5 * Vehicle::kLength;
    constexpr double kW = 0.9 * Vehicle::kWidth;
    for (const Vec2& p : RectPoints(c1, kL, kW, h1)) {
      if (PointInRotatedRectangle(p, c2, kL, kW, h2)) {
        return true;
      }
    }
    for (const Vec2& p : RectPoints(c2, kL, kW, h2)) {
      if (PointInRotatedRectangle(p, c1, kL, kW, h1)) {
        return true;
      }
    }
    return false;
  }

  // RegulatedRoad.is_conflict_possible: both predicted at constant speed
  // every 0.25 s up to 3 s; a conflict where their enlarged boxes meet.
  bool IsConflictPossible(const Vehicle& a, const Vehicle& b) const {
    const Trajectory ta = PredictTrajectory(a);
    const Trajectory tb = PredictTrajectory(b);
    for (int k = 0; k < kPredictions; ++k) {
      const auto& [pa, ha] = ta[k];
      const auto& [pb, hb] = tb[k];
      if (Norm2(pb.x - pa.x, pb.y - pa.y) > Vehicle::kLength) {
        continue;
      }
      if (RectanglesIntersect(pa, ha, pb, hb)) {
        return true;
      }
    }
    return false;
  }

  // RegulatedRoad.respect_priorities: the vehicle on the lane of lower
  // priority yields; at equal priority the one behind.
  int RespectPriorities(int i, int j) const {
    const Vehicle& a = vehicles[i];
    const Vehicle& b = vehicles[j];
    const int pa = LaneOf(a).priority();
    const int pb = LaneOf(b).priority();
    if (pa > pb) {
      return j;
    }
    if (pa < pb) {
      return i;
    }
    auto front_distance = [](const Vehicle& from, const Vehicle& to) {
      const Vec2 d = from.Direction();
      return Dot2(d.x, d.y, to.position.x - from.position.x,
                  to.position.y - from.position.y);
    };
    return front_distance(a, b) > front_distance(b, a) ? i : j;
  }

  // RegulatedRoad.enforce_road_rules: release the vehicles that yielded
  // (YIELD_DURATION 0: at the next enforcement), then stop every IDM
  // vehicle that must yield in a possible conflict.
  void EnforceRoadRules() {
    for (Vehicle& v : vehicles) {
      if (v.is_yielding) {
        v.target_speed = LaneOf(v).speed_limit();
        v.is_yielding = false;
      }
    }
    const int n = static_cast<int>(vehicles.size());
    for (int i = 0; i + 1 < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        if (!IsConflictPossible(vehicles[i], vehicles[j])) {
          continue;
        }
        Vehicle& yielding = vehicles[RespectPriorities(i, j)];
        if (yielding.kind == VehicleKind::kIdm) {
          yielding.target_speed = 0;
          yielding.is_yielding = true;
          yielding.yield_timer = 0;
        }
      }
    }
  }

  // -- Dynamics --

  // Vehicle.step of every vehicle (IDMVehicle.step advances its timer
  // first). A vehicle moves on its own, so numpy's kernels run once a stage
  // for all of them (numpy_kernels::UnaryN: the bits of one call each).
  void StepVehicles(double dt) {
    kinematic_ids_.clear();
    for (int i = 0; i < static_cast<int>(vehicles.size()); ++i) {
      Vehicle* v = &vehicles[i];
      if (v->kind == VehicleKind::kBicycle) {
        StepBicycle(v, dt);
        v->lane_index = network.GetClosestLaneIndex(v->position, v->heading);
        continue;
      }
      if (v->kind == VehicleKind::kIdm) {
        v->timer += dt;
      }
      ClipActions(v);
      kinematic_ids_.push_back(i);
    }
    const int n = static_cast<int>(kinematic_ids_.size());
    std::vector<double>& a = scratch_[0];
    std::vector<double>& beta = scratch_[1];
    std::vector<double>& cos_angle = scratch_[2];
    std::vector<double>& sin_angle = scratch_[3];
    std::vector<double>& sin_beta = scratch_[4];
    for (std::vector<double>* x :
         {&a, &beta, &cos_angle, &sin_angle, &sin_beta}) {
      x->resize(n);
    }
    for (int k = 0; k < n; ++k) {
      a[k] = vehicles[kinematic_ids_[k]].steering;
    }
    numpy_kernels::Tan(a.data(), beta.data(), n);
    for (int k = 0; k < n; ++k) {
      a[k] = 1.0 / 2 * beta[k];
    }
    numpy_kernels::Arctan(a.data(), beta.data(), n);
    for (int k = 0; k < n; ++k) {
      a[k] = vehicles[kinematic_ids_[k]].heading + beta[k];
    }
    numpy_kernels::Cos(a.data(), cos_angle.data(), n);
    numpy_kernels::Sin(a.data(), sin_angle.data(), n);
    numpy_kernels::Sin(beta.data(), sin_beta.data(), n);
    for (int k = 0; k < n; ++k) {
      Vehicle* v = &vehicles[kinematic_ids_[k]];
      const double vx = v->speed * cos_angle[k];
      const double vy = v->speed * sin_angle[k];
      v->position.x += vx * dt;
      v->position.y += vy * dt;
      if (v->has_impact) {
        v->position.x += v->impact.x;
        v->position.y += v->impact.y;
        v->crashed = true;
        v->has_impact = false;
      }
      v->heading += v->speed * sin_beta[k] / (Vehicle::kLength / 2) * dt;
      v->speed += v->acceleration * dt;
      v->lane_index = network.GetClosestLaneIndex(v->position, v->heading);
    }
  }

  // Road.step: move every vehicle, then check each pair for collisions
  // (RegulatedRoad.step enforces the priorities first).
  void Step(double dt) {
    if (regulated) {
      ++regulation_steps;
      const auto period = static_cast<int64_t>(1 / dt / kRegulationFrequency);
      if (period > 0 && regulation_steps % period == 0) {
        EnforceRoadRules();
      }
    }
    StepVehicles(dt);
    const int n = static_cast<int>(vehicles.size());
    // The pairs in the reference's order, but for the pairs of which
    // neither vehicle checks collisions (HandleCollisions does nothing for
    // them): highway-fast-v0's traffic does not check, so its ego's pairs
    // are the only ones left.
    colliding_ids_.clear();
    for (int i = 0; i < n; ++i) {
      if (vehicles[i].check_collisions) {
        colliding_ids_.push_back(i);
      }
    }
    size_t first_colliding_after = 0;
    for (int i = 0; i < n; ++i) {
      while (first_colliding_after < colliding_ids_.size() &&
             colliding_ids_[first_colliding_after] <= i) {
        ++first_colliding_after;
      }
      if (vehicles[i].check_collisions) {
        for (int j = i + 1; j < n; ++j) {
          HandleCollisions(&vehicles[i], &vehicles[j], dt);
        }
      } else {
        for (size_t k = first_colliding_after; k < colliding_ids_.size(); ++k) {
          HandleCollisions(&vehicles[i], &vehicles[colliding_ids_[k]], dt);
        }
      }
      for (Vehicle& object : objects) {
        HandleCollisions(&vehicles[i], &object, dt);
      }
    }
  }

  // RoadObject.handle_collisions between two vehicles.
  static void HandleCollisions(Vehicle* a, Vehicle* b, double dt) {
    if (!(a->check_collisions || b->check_collisions)) {
      return;
    }
    const double diagonal_a =
        std::sqrt(a->length * a->length + a->width * a->width);
    const double diagonal_b =
        std::sqrt(b->length * b->length + b->width * b->width);
    const double dx = b->position.x - a->position.x;
    const double dy = b->position.y - a->position.y;
    if (Norm2(dx, dy) > (diagonal_a + diagonal_b) / 2 + a->speed * dt) {
      return;
    }
    const Vec2 va = a->Velocity();
    const Vec2 vb = b->Velocity();
    bool intersecting = false;
    bool will_intersect = false;
    Vec2 translation;
    PolygonsIntersecting(Polygon(*a), Polygon(*b), {va.x * dt, va.y * dt},
                         {vb.x * dt, vb.y * dt}, &intersecting, &will_intersect,
                         &translation);
    if (will_intersect) {
      if (b->kind == VehicleKind::kObstacle) {
        a->has_impact = true;
        a->impact = translation;
      } else {
        a->has_impact = true;
        a->impact = {translation.x / 2, translation.y / 2};
        b->has_impact = true;
        b->impact = {-translation.x / 2, -translation.y / 2};
      }
    }
    if (intersecting) {
      a->crashed = true;
      b->crashed = true;
    }
  }

  // Whether handle_collisions finds `a` and `b` intersecting (what sets a
  // non-solid Landmark's `hit`): the spherical pre-check, then the
  // separating axes.
  static bool Intersecting(const Vehicle& a, const Vehicle& b, double dt) {
    if (!(a.check_collisions || b.check_collisions)) {
      return false;
    }
    const double diagonal_a =
        std::sqrt(a.length * a.length + a.width * a.width);
    const double diagonal_b =
        std::sqrt(b.length * b.length + b.width * b.width);
    const double dx = b.position.x - a.position.x;
    const double dy = b.position.y - a.position.y;
    if (Norm2(dx, dy) > (diagonal_a + diagonal_b) / 2 + a.speed * dt) {
      return false;
    }
    const Vec2 va = a.Velocity();
    const Vec2 vb = b.Velocity();
    bool intersecting = false;
    bool will_intersect = false;
    Vec2 translation;
    PolygonsIntersecting(Polygon(a), Polygon(b), {va.x * dt, va.y * dt},
                         {vb.x * dt, vb.y * dt}, &intersecting, &will_intersect,
                         &translation);
    return intersecting;
  }

  // RoadObject.polygon: the four corners and the first again.
  static std::array<Vec2, 5> Polygon(const Vehicle& v) {
    const double kL = v.length / 2;
    const double kW = v.width / 2;
    const double px[4] = {-kL, -kL, kL, kL};
    const double py[4] = {-kW, kW, kW, -kW};
    const Vec2 direction = v.Direction();
    const double c = direction.x;
    const double s = direction.y;
    std::array<Vec2, 5> points;
    for (int k = 0; k < 4; ++k) {
      points[k] = {c * px[k] + -s * py[k] + v.position.x,
                   s * px[k] + c * py[k] + v.position.y};
    }
    points[4] = points[0];
    return points;
  }

  // utils.are_polygons_intersecting (separating axes, with the relative
  // displacement over the step).
  static void PolygonsIntersecting(const std::array<Vec2, 5>& a,
                                   const std::array<Vec2, 5>& b,
                                   const Vec2& displacement_a,
                                   const Vec2& displacement_b,
                                   bool* intersecting, bool* will_intersect,
                                   Vec2* translation) {
    *intersecting = true;
    *will_intersect = true;
    double min_distance = std::numeric_limits<double>::infinity();
    Vec2 axis;
    auto project = [](const std::array<Vec2, 5>& polygon, const Vec2& n,
                      double* lo, double* hi) {
      for (int k = 0; k < 5; ++k) {
        const double p = Dot2(polygon[k].x, polygon[k].y, n.x, n.y);
        if (k == 0 || p < *lo) {
          *lo = p;
        }
        if (k == 0 || p > *hi) {
          *hi = p;
        }
      }
    };
    auto interval_distance = [](double min_a, double max_a, double min_b,
                                double max_b) {
      return min_a < min_b ? min_b - max_a : min_a - max_b;
    };
    auto center = [](const std::array<Vec2, 5>& p) {
      return Vec2{(((p[0].x + p[1].x) + p[2].x) + p[3].x) / 4,
                  (((p[0].y + p[1].y) + p[2].y) + p[3].y) / 4};
    };
    for (const auto* polygon : {&a, &b}) {
      for (int k = 0; k < 4; ++k) {
        const Vec2& p1 = (*polygon)[k];
        const Vec2& p2 = (*polygon)[k + 1];
        Vec2 normal = {-p2.y + p1.y, p2.x - p1.x};
        const double norm = Norm2(normal.x, normal.y);
        normal.x /= norm;
        normal.y /= norm;
        double min_a = 0;
        double max_a = 0;
        double min_b = 0;
        double max_b = 0;
        project(a, normal, &min_a, &max_a);
        project(b, normal, &min_b, &max_b);
        if (interval_distance(min_a, max_a, min_b, max_b) > 0) {
          *intersecting = false;
        }
        const double velocity_projection =
            Dot2(normal.x, normal.y, displacement_a.x - displacement_b.x,
                 displacement_a.y - displacement_b.y);
        if (velocity_projection < 0) {
          min_a += velocity_projection;
        } else {
          max_a += velocity_projection;
        }
        const double distance = interval_distance(min_a, max_a, min_b, max_b);
        if (distance > 0) {
          *will_intersect = false;
        }
        if (!*intersecting && !*will_intersect) {
          break;
        }
        if (std::abs(distance) < min_distance) {
          min_distance = std::abs(distance);
          const Vec2 ca = center(a);
          const Vec2 cb = center(b);
          const double d = Dot2(ca.x - cb.x, ca.y - cb.y, normal.x, normal.y);
          axis = d > 0 ? normal : Vec2{-normal.x, -normal.y};
        }
      }
    }
    if (*will_intersect) {
      *translation = {min_distance * axis.x, min_distance * axis.y};
    }
  }
};

}  // namespace envpool::highway

#endif  // ENVPOOL_HIGHWAY_ROAD_H_
