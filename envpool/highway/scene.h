// What every highway-env scene of this family does the same way (the
// AbstractEnv of highway-env 1.12.1, envs/common/abstract.py): one road
// driven by the controlled vehicle's DiscreteMetaAction, simulated for
// simulation_frequency / policy_frequency frames per step, the ego's speed
// and crash flag as infos. A scene keeps only its road, its traffic, its
// reward, its observation and its option checks.
#ifndef ENVPOOL_HIGHWAY_SCENE_H_
#define ENVPOOL_HIGHWAY_SCENE_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/core/snapshot.h"
#include "envpool/highway/render.h"
#include "envpool/highway/road.h"

namespace envpool::highway {

// The arrays every scene declares; a scene with more infos derives from it.
struct SceneFields {
  Field<float> obs;
  Field<int64_t> action;
  Field<float> speed;
  Field<bool> crashed;
};

// A vehicle's state in a snapshot: every member, the route with its length.
inline void PutVehicle(StateWriter* w, const Vehicle& v) {
  w->Put(v.kind, v.length, v.width, v.position, v.heading, v.speed,
         v.lane_index, v.target_lane_index, v.target_speed, v.steering,
         v.acceleration, v.crashed, v.has_impact, v.impact, v.check_collisions,
         v.delta, v.timer, v.enable_lane_change, v.target_speeds, v.speed_index,
         v.route, v.is_yielding, v.yield_timer, v.player, v.lateral_speed,
         v.yaw_rate);
}
inline void GetVehicle(StateReader* r, Vehicle* v) {
  r->Get(&v->kind, &v->length, &v->width, &v->position, &v->heading, &v->speed,
         &v->lane_index, &v->target_lane_index, &v->target_speed, &v->steering,
         &v->acceleration, &v->crashed, &v->has_impact, &v->impact,
         &v->check_collisions, &v->delta, &v->timer, &v->enable_lane_change,
         &v->target_speeds, &v->speed_index, &v->route, &v->is_yielding,
         &v->yield_timer, &v->player, &v->lateral_speed, &v->yaw_rate);
}
inline void PutVehicles(StateWriter* w, const std::vector<Vehicle>& list) {
  w->Put(static_cast<uint64_t>(list.size()));
  for (const Vehicle& v : list) {
    PutVehicle(w, v);
  }
}
inline void GetVehicles(StateReader* r, std::vector<Vehicle>* list) {
  uint64_t size = 0;
  r->Get(&size);
  // A corrupted count must not allocate the memory it names: each vehicle
  // takes well over a byte, so more than the bytes left is corrupt.
  if (size > r->left()) {
    throw SnapshotError("highway: corrupted vehicle count in a state");
  }
  list->assign(size, Vehicle());
  for (Vehicle& v : *list) {
    GetVehicle(r, &v);
  }
}

// A state's vector must have the size this env's options give it (the
// scene copies it into fixed-size outputs or indexes it by player).
template <typename T>
void GetSized(StateReader* r, std::vector<T>* values, const char* what) {
  const std::size_t size = values->size();
  r->Get(values);
  if (values->size() != size) {
    throw SnapshotError(std::string("highway: the state's ") + what + " has " +
                        std::to_string(values->size()) + " items, this env " +
                        std::to_string(size));
  }
}

// A lane of the network (a route may name any lane of a road: id -1).
inline bool IsLaneOf(const RoadNetwork& network, const LaneIndex& index,
                     bool any_lane) {
  for (const RoadNetwork::Road& road : network.roads()) {
    if (road.from == index.from && road.to == index.to) {
      return (any_lane && index.id == -1) ||
             (index.id >= 0 && index.id < static_cast<int>(road.lanes.size()));
    }
  }
  return false;
}

// What the road's code indexes with a vehicle's members: its lanes and
// route in the network, its speed index in its target speeds, its kind and
// player. A state whose checksum holds can still name a lane the network
// lacks (its lanes are read unchecked), so each is checked on loading.
inline void CheckVehicle(const RoadNetwork& network, const Vehicle& v,
                         int players) {
  const char* bad = nullptr;
  if (static_cast<int>(v.kind) < 0 ||
      static_cast<int>(v.kind) > static_cast<int>(VehicleKind::kKinematic)) {
    bad = "kind";
  } else if (!IsLaneOf(network, v.lane_index, false) ||
             !IsLaneOf(network, v.target_lane_index, false)) {
    bad = "lane";
  } else if (v.player < -1 || v.player >= players) {
    bad = "player";
  } else if ((!v.target_speeds.empty() || v.kind == VehicleKind::kMdp) &&
             (v.speed_index < 0 ||
              v.speed_index >= static_cast<int>(v.target_speeds.size()))) {
    bad = "speed index";
  }
  for (const LaneIndex& lane : v.route) {
    if (bad == nullptr && !IsLaneOf(network, lane, true)) {
      bad = "route";
    }
  }
  if (bad != nullptr) {
    throw SnapshotError(std::string("highway: a vehicle of the state has a ") +
                        bad + " this road does not have");
  }
}

class SceneEnv : public Env {
 public:
  // Snapshots (docs/snapshots.md): the clock, the road's vehicles and
  // objects with the regulation's counters and the traffic's constants, and
  // what the scene keeps besides (SaveScene). The network comes from the
  // options: an env that has never been reset builds it with a reset whose
  // draws are undone.
  void SaveState(StateWriter* w) const override {
    w->Put(time_, road_.regulated, road_.regulation_steps,
           road_.distance_wanted, road_.comfort_acc_max, road_.comfort_acc_min);
    PutVehicles(w, road_.vehicles);
    PutVehicles(w, road_.objects);
    SaveScene(w);
  }
  void LoadState(StateReader* r) override {
    if (road_.network.roads().empty()) {
      const random::Generator np_random = np_random_;
      const std::mt19937_64 rng = rng_;
      Reset();
      np_random_ = np_random;
      rng_ = rng;
    }
    r->Get(&time_, &road_.regulated, &road_.regulation_steps,
           &road_.distance_wanted, &road_.comfort_acc_max,
           &road_.comfort_acc_min);
    GetVehicles(r, &road_.vehicles);
    GetVehicles(r, &road_.objects);
    LoadScene(r);
    // The scenes read the controlled vehicles (the first, or those of
    // controlled_) without checking.
    if (road_.vehicles.empty()) {
      throw SnapshotError("highway: a state without vehicles");
    }
    const int vehicles = static_cast<int>(road_.vehicles.size());
    for (const Vehicle& v : road_.vehicles) {
      CheckVehicle(road_.network, v, vehicles);
    }
    for (const Vehicle& v : road_.objects) {
      CheckVehicle(road_.network, v, vehicles);
    }
    CheckScene();
  }

  // highway-env's rgb_array frame (scenes that declare their viewer).
  void Render(int /*width*/, int /*height*/, int /*camera_id*/,
              uint8_t* rgb) override {
    DrawFrame(viewer_, ViewerEgo(), rgb);
  }

  // Test hook: x, y, heading and speed of every vehicle, in road order.
  std::vector<double> GetState() const override {
    std::vector<double> state;
    for (const Vehicle& v : road_.vehicles) {
      state.insert(state.end(),
                   {v.position.x, v.position.y, v.heading, v.speed});
    }
    return state;
  }

 protected:
  // What a scene keeps besides its road, for snapshots.
  virtual void SaveScene(StateWriter* /*w*/) const {}
  virtual void LoadScene(StateReader* /*r*/) {}
  // The vehicle the viewer follows: the first controlled one.
  virtual int ViewerEgo() const { return 0; }
  // Throws SnapshotError where what LoadScene read does not fit the road.
  virtual void CheckScene() const {}

  explicit SceneEnv(const Options& options)
      : simulation_frequency_(options.Get<int64_t>("simulation_frequency")),
        policy_frequency_(options.Get<int64_t>("policy_frequency")) {}

  // Each step simulates a whole number of frames, at least one.
  static void CheckFrequencies(const Options& options) {
    const int64_t policy = options.Get<int64_t>("policy_frequency");
    const int64_t simulation = options.Get<int64_t>("simulation_frequency");
    if (policy < 1 || simulation < policy) {
      throw std::invalid_argument(
          "options 'policy_frequency' (>= 1) and 'simulation_frequency' (>= "
          "policy_frequency) got " +
          std::to_string(policy) + " and " + std::to_string(simulation));
    }
  }

  // The infos speed and crashed and the action: DiscreteMetaAction's five
  // meta actions. The scene declares its observation first.
  static void DeclareInfosAndAction(EnvSpec* spec, SceneFields* fields) {
    fields->speed = spec->state.Add<float>("info:speed", {});
    fields->crashed = spec->state.Add<bool>("info:crashed", {});
    fields->action = spec->action.AddDiscrete<int64_t>("action", 5);
  }

  // DiscreteMetaAction's ACTIONS_ALL, in action order.
  static MetaAction ToMetaAction(int64_t action) {
    static constexpr MetaAction kActions[5] = {
        MetaAction::kLaneLeft, MetaAction::kIdle, MetaAction::kLaneRight,
        MetaAction::kFaster, MetaAction::kSlower};
    return kActions[action];
  }

  // A new, empty road drawing from this env's generator; -v1 ids search
  // the connected lanes for neighbours.
  void NewRoad(bool connected_lanes) {
    road_ = Road();
    road_.np_random = &np_random_;
    road_.neighbour_vehicles_connected_lanes = connected_lanes;
  }

  // The step and reset results before the first step.
  void ClearStepResult() {
    reward_ = 0.0;
    terminated_ = false;
    truncated_ = false;
  }

  // AbstractEnv.time: one policy period per step.
  void AdvanceClock() { time_ += 1.0 / static_cast<double>(policy_frequency_); }

  // AbstractEnv._simulate: the controlled vehicle takes its meta action on
  // the first frame; every vehicle acts and moves on each frame.
  void Simulate(int controlled, MetaAction meta) {
    const int64_t frames = simulation_frequency_ / policy_frequency_;
    const double dt = 1.0 / static_cast<double>(simulation_frequency_);
    for (int64_t frame = 0; frame < frames; ++frame) {
      if (frame == 0) {
        road_.ActControlled(controlled, meta);
      }
      road_.Act();
      road_.Step(dt);
    }
  }

  // Kinematics' y range: the width of the ego's road at reset.
  double RoadWidthOf(int vehicle) const {
    const LaneIndex& lane = road_.vehicles[vehicle].lane_index;
    return Lane::kDefaultWidth * road_.network.NumLanes(lane.from, lane.to);
  }

  void WriteInfos(const Output& out, const SceneFields& fields,
                  int vehicle) const {
    const Vehicle& ego = road_.vehicles[vehicle];
    *out.Get(fields.speed) = static_cast<float>(ego.speed);
    *out.Get(fields.crashed) = ego.crashed;
  }

  // The viewer's options (screen_width, screen_height, and where the scene
  // has them, scaling and centering_position_x/y) and the frame rate
  // highway-env's metadata gives (2 x policy_frequency): render_mode
  // "rgb_array" at that size only.
  static ViewerConfig DeclareViewer(const Options& options, EnvSpec* spec,
                                    ViewerConfig defaults) {
    ViewerConfig config = ReadViewer(options, defaults);
    if (config.width < 1 || config.height < 1) {
      throw std::invalid_argument(
          "options 'screen_width' and 'screen_height' must be at least 1, "
          "got " +
          std::to_string(config.width) + " and " +
          std::to_string(config.height));
    }
    if (!(config.scaling > 0)) {
      throw std::invalid_argument("option 'scaling' must be > 0");
    }
    DeclareRendering(
        options, spec, {"rgb_array"}, config.width, config.height,
        static_cast<int>(2 * options.Get<int64_t>("policy_frequency")));
    return config;
  }
  static ViewerConfig ReadViewer(const Options& options,
                                 ViewerConfig defaults) {
    ViewerConfig config = defaults;
    config.width = static_cast<int>(options.Get<int64_t>("screen_width"));
    config.height = static_cast<int>(options.Get<int64_t>("screen_height"));
    if (options.Has("scaling")) {
      config.scaling = options.Get<double>("scaling");
    }
    if (options.Has("centering_position_x")) {
      config.centering_x = options.Get<double>("centering_position_x");
      config.centering_y = options.Get<double>("centering_position_y");
    }
    return config;
  }

  // EnvViewer.display then get_image: the window on the ego (vehicle
  // `ego`), the road, the objects, the vehicles in road order.
  void DrawFrame(const ViewerConfig& config, int ego, uint8_t* rgb) const {
    WorldFrame frame(config);
    frame.CenterOn(road_.vehicles[ego].position);
    frame.DrawRoad(road_.network);
    DrawObjects(&frame);
    for (size_t i = 0; i < road_.vehicles.size(); ++i) {
      frame.DrawVehicle(road_.vehicles[i], EgoColored(static_cast<int>(i)));
    }
    frame.Write(rgb);
  }
  // RoadGraphics.display_road_objects: the road's objects in order.
  virtual void DrawObjects(WorldFrame* frame) const {
    for (const Vehicle& o : road_.objects) {
      frame->DrawObject(o);
    }
  }
  // Whether vehicle i has highway-env's `color` set to the ego's green.
  virtual bool EgoColored(int /*i*/) const { return false; }

  int64_t simulation_frequency_;
  int64_t policy_frequency_;
  ViewerConfig viewer_;
  Road road_;
  double time_ = 0.0;
};

}  // namespace envpool::highway

#endif  // ENVPOOL_HIGHWAY_SCENE_H_
