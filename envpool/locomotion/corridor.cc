#include "envpool/locomotion/corridor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>

#include "envpool/locomotion/go_to_target.h"
#include "envpool/locomotion/mjcf_reader.h"
#include "envpool/locomotion/physics_render.h"
#include "envpool/locomotion/soccer_model.h"
#include "envpool/locomotion/task_options.h"
#include "envpool/mujoco_common/numpy_math.h"
#include "envpool/mujoco_common/physics.h"
#include "envpool/mujoco_common/state.h"
#include "envpool/render/mujoco_egl.h"

namespace envpool::locomotion {
namespace {

const char* const kWalkerModel = "walkers/humanoid_CMU_V2019.xml";
// basic_cmu_2019's corridors: 10 m wide, 100 m long; corridors.py's
// _CORRIDOR_X_PADDING, _WALL_THICKNESS and _SIDE_WALL_HEIGHT.
constexpr double kCorridorWidth = 10;
constexpr double kCorridorLength = 100;
constexpr double kPadding = 2.0;
constexpr double kWallThickness = 0.16;
constexpr double kSideWallHeight = 4.0;
// cmu_humanoid_run_walls' WallsCorridor: wall_gap 4, wall_width
// Uniform(1, 7), wall_height 3, no initial padding, swapping sides.
constexpr double kWallGap = 4.0;
constexpr double kWallWidthLow = 1, kWallWidthHigh = 7;
constexpr double kWallHeight = 3.0;
// cmu_humanoid_run_gaps' GapsCorridor: platform_length Uniform(.3, 2.5),
// gap_length Uniform(.5, 1.25).
constexpr double kPlatformLow = .3, kPlatformHigh = 2.5;
constexpr double kGapLow = .5, kGapHigh = 1.25;
constexpr GapsCorridorSizes kCmuGapsCorridor{
    kCorridorWidth, kCorridorLength, kPlatformLow, kPlatformHigh,
    kGapLow,        kGapHigh,        false};
// RunThroughCorridor's: spawn position, target velocity, failure height.
constexpr double kSpawnX = 0.5;
constexpr double kTargetVelocity = 3.0;
constexpr double kTerminateAtHeight = -0.5;
constexpr int kSubSteps = 6;  // control 0.03 s / physics 0.005 s

std::string Number(double x) { return MjcfNumber(x); }

std::string Triple(double a, double b, double c) {
  return Number(a) + " " + Number(b) + " " + Number(c);
}

// EmptyCorridor's perimeter planes: the ground, then left, right, near and
// far (invisible: visible_side_planes is False), named as Composer names
// unnamed geoms (`first_index` geoms of the arena come before them).
std::string PerimeterPlanes(int first_index, double width, double length,
                            double ground_z, const char* ground_rgba) {
  const double half_length = length / 2 + kPadding;
  const double half_width = width / 2;
  const double half_height = kSideWallHeight / 2;
  struct Plane {
    std::string size, pos, xyaxes, rgba;
  };
  const Plane planes[] = {
      {Triple(half_length, half_width, 1), Triple(length / 2, 0, ground_z), "",
       ground_rgba},
      {Triple(half_length, half_height, 1),
       Triple(length / 2, half_width, half_height), "1 0 0 0 0 1", "1 0 0 0"},
      {Triple(half_length, half_height, 1),
       Triple(length / 2, -half_width, half_height), "-1 0 0 0 0 1", "1 0 0 0"},
      {Triple(half_width, half_height, 1), Triple(-kPadding, 0, half_height),
       "0 1 0 0 0 1", "1 0 0 0"},
      {Triple(half_width, half_height, 1),
       Triple(length + kPadding, 0, half_height), "0 -1 0 0 0 1", "1 0 0 0"},
  };
  std::string xml;
  int index = first_index;
  for (const Plane& plane : planes) {
    xml += "    <geom name=\"//unnamed_geom_" + std::to_string(index++) +
           "\" class=\"/\" type=\"plane\"" +
           (plane.xyaxes.empty() ? "" : " group=\"3\"") + " size=\"" +
           plane.size + "\" pos=\"" + plane.pos + "\"" +
           (plane.xyaxes.empty() ? "" : " xyaxes=\"" + plane.xyaxes + "\"") +
           " rgba=\"" + plane.rgba + "\"/>\n";
  }
  return xml;
}

// One compiled model; the text has no files to find.
mujoco_common::ModelPtr CompileCorridor(const CorridorLayout& layout) {
  return mujoco_common::CompileText("corridor.xml", CorridorXml(layout),
                                    "the corridor model");
}

// The model the render contexts are made from (its skybox and materials are
// every episode's), one per kind, for the life of the process. What else a
// context takes from its model is the shadow clip of directional lights and
// the fog's range (from stat.extent, which the corridor drawn changes): the
// walker's tracking light is a spot light and the fog is off, so frames are
// the same as from a context made from the episode's model.
const mjModel* ContextModel(CorridorKind kind) {
  static const mujoco_common::SharedModel walls = [] {
    random::RandomState random{uint32_t{0}};
    return mujoco_common::SharedModel(
        CompileCorridor(DrawCorridor(CorridorKind::kWalls, &random)));
  }();
  static const mujoco_common::SharedModel gaps = [] {
    random::RandomState random{uint32_t{0}};
    return mujoco_common::SharedModel(
        CompileCorridor(DrawCorridor(CorridorKind::kGaps, &random)));
  }();
  return kind == CorridorKind::kWalls ? walls.get() : gaps.get();
}

const char* TaskName(CorridorKind kind) {
  return kind == CorridorKind::kWalls ? "cmu_humanoid_run_walls"
                                      : "cmu_humanoid_run_gaps";
}

CorridorKind KindOf(const std::string& task) {
  if (task == "cmu_humanoid_run_walls") {
    return CorridorKind::kWalls;
  }
  if (task == "cmu_humanoid_run_gaps") {
    return CorridorKind::kGaps;
  }
  throw std::invalid_argument(
      "option 'task_name' of DmcCmuHumanoidRun must be "
      "'cmu_humanoid_run_walls' or 'cmu_humanoid_run_gaps', got '" +
      task + "'");
}

}  // namespace

// rewards.tolerance(x, (target, target), margin=target, sigmoid='linear',
// value_at_margin=0), as dm_control computes it.
double CorridorVelocityReward(double x_velocity, double target) {
  const double lower = target, upper = target;
  if (lower <= x_velocity && x_velocity <= upper) {
    return 1.0;
  }
  const double d =
      (x_velocity < lower ? lower - x_velocity : x_velocity - upper) / target;
  const double scaled = d * (1 - 0.0);
  return std::abs(scaled) < 1 ? 1 - scaled : 0.0;
}

std::vector<double> DrawGaps(const GapsCorridorSizes& sizes,
                             random::RandomState* random) {
  std::vector<double> draws;
  double x = 3. * kPadding;  // the first platform
  while (x < sizes.length) {
    const double platform =
        random->Uniform(sizes.platform_low, sizes.platform_high);
    const double gap = random->Uniform(sizes.gap_low, sizes.gap_high);
    draws.push_back(platform);
    draws.push_back(gap);
    x += platform + gap;
  }
  return draws;
}

std::string GapsCorridorWorldbody(const GapsCorridorSizes& sizes,
                                  const std::vector<double>& draws) {
  // The ground plane 10 m down, invisible; the platforms on a body, each
  // with the arena's ground material (outdoor_natural) or grey.
  std::string xml =
      "    <body name=\"walls\"/>\n" +
      PerimeterPlanes(0, sizes.width, sizes.length, -10, "0 0 0 0") +
      "    <body name=\"ground\">\n";
  auto platform = [&sizes](const std::string& name, double length, double x) {
    const std::string size =
        Triple(length / 2, sizes.width / 2, kWallThickness);
    const std::string pos = Triple(x, 0, -kWallThickness);
    return "      <geom name=\"" + name +
           "\" class=\"/\" type=\"box\" size=\"" + size +
           (sizes.textured ? "\" material=\"aesthetic_material\" pos=\"" + pos
                           : "\" pos=\"" + pos + "\" rgba=\"0.5 0.5 0.5 1") +
           "\"/>\n";
  };
  const double first = 3. * kPadding;
  xml += platform("start_floor", first, first / 2);
  double x = first;
  for (std::size_t i = 0; i + 1 < draws.size(); i += 2) {
    xml +=
        platform("floor_" + std::to_string(i / 2), draws[i], x + draws[i] / 2.);
    x += draws[i] + draws[i + 1];
  }
  xml += "    </body>\n";
  return xml;
}

CorridorLayout DrawCorridor(CorridorKind kind, random::RandomState* random) {
  CorridorLayout layout;
  layout.kind = kind;
  if (kind == CorridorKind::kWalls) {
    // The wall gap and the wall height are numbers (no draws).
    for (double x = kWallGap - kPadding; x < kCorridorLength; x += kWallGap) {
      layout.draws.push_back(random->Uniform(kWallWidthLow, kWallWidthHigh));
    }
    return layout;
  }
  layout.draws = DrawGaps(kCmuGapsCorridor, random);
  return layout;
}

std::string CorridorXml(const CorridorLayout& layout) {
  CmuArenaXml arena;
  // RunThroughCorridor's initialize_episode_mjcf sets znear and zfar.
  arena.map = "znear=\"0.00025000000000000001\" zfar=\"4\"";
  arena.assets =
      "    <texture name=\"//unnamed_texture_0\" class=\"/\" type=\"skybox\" "
      "builtin=\"gradient\" rgb1=\"0.40000000000000002 0.59999999999999998 "
      "0.80000000000000004\" rgb2=\"0 0 0\" width=\"100\" height=\"600\"/>\n";
  if (layout.kind == CorridorKind::kWalls) {
    arena.model = "walls_corridor";
    arena.before_walker = "    <body name=\"walls\">\n";
    double x = kWallGap - kPadding;
    int side = 0;
    int id = 0;
    for (double width : layout.draws) {
      side = 1 - side;
      const double y = (2 * side - 1) * (kCorridorWidth - width) / 2;
      arena.before_walker +=
          "      <geom name=\"wall_" + std::to_string(id++) +
          "\" class=\"/\" type=\"box\" size=\"" +
          Triple(kWallThickness / 2, width / 2, kWallHeight / 2) + "\" pos=\"" +
          Triple(x, y, kWallHeight / 2) + "\" rgba=\"1 1 1 1\"/>\n";
      x += kWallGap;
    }
    arena.before_walker +=
        "    </body>\n" + PerimeterPlanes(static_cast<int>(layout.draws.size()),
                                          kCorridorWidth, kCorridorLength, 0,
                                          "0.5 0.5 0.5 1");
    return CmuHumanoidTaskXml(arena);
  }
  arena.model = "gaps_corridor";
  arena.before_walker = GapsCorridorWorldbody(kCmuGapsCorridor, layout.draws);
  return CmuHumanoidTaskXml(arena);
}

Options CorridorEnv::DefaultOptions() {
  return LocomotionOptions("cmu_humanoid_run_walls", 30.0);
}

void CorridorEnv::Declare(const Options& options, EnvSpec* spec,
                          Fields* fields) {
  const std::string task = options.Get<std::string>("task_name");
  KindOf(task);
  CheckedTimeLimit(options);
  RequireSoccerDefaults(options, task);
  DeclareCmuTask(CmuWalkerObservationKeys(), true, spec, fields);
  DeclarePhysicsRendering(options, kSubSteps * 0.005,
                          ContextModel(KindOf(task))->ncam, spec);
}

CorridorEnv::CorridorEnv(const Options& options, const Fields& fields)
    : kind_(KindOf(options.Get<std::string>("task_name"))),
      time_limit_(options.Get<double>("time_limit")),
      fields_(fields) {
  const std::vector<ObservationKey> keys = CmuWalkerObservationKeys();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    obs_index_[keys[i].name] = static_cast<int>(i);
  }
  // The walker's file is there in this asset folder (an option of the
  // family); the first episode's corridor is built at the first reset.
  mujoco_common::ResolveModelPath(LocomotionAssets(), kWalkerModel);
  ContextModel(kind_);
}

void CorridorEnv::Build(const CorridorLayout& layout) {
  model_ = CompileCorridor(layout);
  model_stamp_ = render::NewStamp();
  data_.reset(mj_makeData(model_.get()));
  if (data_ == nullptr) {
    throw std::runtime_error("cannot allocate the MuJoCo data");
  }
  layout_ = layout;
  const mjModel* m = model_.get();
  walker_ = std::make_unique<CmuWalker>(m);
  auto id = [m](mjtObj type, const std::string& name) {
    return mujoco_common::ObjectId(m, type, name.c_str());
  };
  camera_ = id(mjOBJ_CAMERA, "walker/egocentric");
  // The ground: WallsCorridor's plane; GapsCorridor's plane and the
  // platforms of the body "ground".
  const int ground_body =
      kind_ == CorridorKind::kGaps ? id(mjOBJ_BODY, "ground") : -1;
  // The world body's geoms come first: the ground plane is geom 0.
  const int ground_plane = 0;
  ground_geom_.assign(m->ngeom, false);
  for (int g = 0; g < m->ngeom; ++g) {
    ground_geom_[g] = g == ground_plane || m->geom_bodyid[g] == ground_body;
  }
  if (m->geom_type[ground_plane] != mjGEOM_PLANE ||
      m->geom_bodyid[ground_plane] != 0) {
    throw std::runtime_error("corridor model: the ground plane is not geom " +
                             std::to_string(ground_plane));
  }
}

void CorridorEnv::OnSeed(uint64_t seed) {
  random_ = random::RandomState::FromSeed(seed);
}

void CorridorEnv::AfterReset() {
  mujoco_common::ForwardWithoutActuation(model_.get(), data_.get());
}

void CorridorEnv::Reset() {
  // initialize_episode_mjcf: the arena's regenerate, then Composer compiles.
  Build(DrawCorridor(kind_, &random_));
  mjModel* m = model_.get();
  mjData* d = data_.get();
  mj_resetData(m, d);
  AfterReset();
  // UprightInitializer, then shift_pose by the spawn position (0.5, 0, 0),
  // no rotation.
  walker_->PlaceUpright(m, d, kSpawnX, 0.0);
  AfterReset();
  has_episode_ = true;
  failed_ = false;
  reward_ = 0.0;
  terminated_ = false;
  truncated_ = false;
}

bool CorridorEnv::Failed() const {
  const mjData* d = data_.get();
  if (walker_->NonFootContact(d, ground_geom_)) {
    return true;
  }
  for (int body : walker_->end_effector_bodies()) {
    if (d->xpos[3 * body + 2] < kTerminateAtHeight) {
      return true;
    }
  }
  return false;
}

void CorridorEnv::Step(const ActionView& action) {
  mjData* d = data_.get();
  const double* a = action.Get(fields_.action);
  for (int i = 0; i < kCmuWalkerActions; ++i) {
    d->ctrl[i] = a[i];
  }
  for (int i = 0; i < kSubSteps; ++i) {
    mj_step2(model_.get(), d);
    mj_step1(model_.get(), d);
  }
  // The contacts of the last mj_step1; the end effectors' heights are read
  // through a binding, which runs mj_forward first (dm_control's Physics is
  // dirty after the action was written through one): the positions and
  // contacts are the same, the sensors become those of the new state.
  mj_forward(model_.get(), d);
  failed_ = Failed();
  mj_subtreeVel(model_.get(), d);
  reward_ = CorridorVelocityReward(d->subtree_linvel[3 * walker_->root_body()],
                                   kTargetVelocity);
  terminated_ = failed_;
  truncated_ = !failed_ && d->time >= time_limit_;
}

double* CorridorEnv::Obs(const Output& out, const char* key) const {
  return out.Get(fields_.obs[obs_index_.at(key)]);
}

void CorridorEnv::Write(const Output& out) {
  const mjData* d = data_.get();
  walker_->Write(d, [&](const char* key) { return Obs(out, key); });
  // The egocentric camera: dm_control's Physics.render(64, 64, camera).
  const mjModel* context = ContextModel(kind_);
  render::SceneSettings settings;
  settings.max_geom = render::DmControlMaxGeom(context);
  settings.rangefinders = false;
  mjvCamera camera;
  mjv_defaultCamera(&camera);
  render::RenderFrame(context, model_.get(), d, camera, camera_, kCmuCameraSize,
                      kCmuCameraSize, settings, out.Get(fields_.camera));
}

void CorridorEnv::Render(int width, int height, int camera_id, uint8_t* rgb) {
  RenderPhysics(&frame_renderer_, model_.get(), model_stamp_, 0, data_.get(),
                width, height, camera_id, rgb);
}

std::vector<double> CorridorEnv::GetState() const {
  return mujoco_common::SimulationState(model_.get(), data_.get());
}

void CorridorEnv::SaveState(StateWriter* writer) const {
  std::vector<mjtNum> state, sensors;
  if (model_ != nullptr) {
    mujoco_common::GetIntegrationState(model_.get(), data_.get(), &state);
    sensors.assign(data_->sensordata, data_->sensordata + model_->nsensordata);
  }
  const int64_t kind = kind_ == CorridorKind::kWalls ? 0 : 1;
  writer->Put(random_, has_episode_, failed_, kind, layout_.draws, state,
              sensors);
}

void CorridorEnv::LoadState(StateReader* reader) {
  random::RandomState random{uint32_t{0}};
  bool has_episode = false;
  bool failed = false;
  int64_t kind = 0;
  std::vector<double> draws;
  std::vector<mjtNum> state, sensors;
  reader->Get(&random, &has_episode, &failed, &kind, &draws, &state, &sensors);
  if (kind != (kind_ == CorridorKind::kWalls ? 0 : 1)) {
    throw SnapshotError(std::string("the state is not of ") + TaskName(kind_));
  }
  if (model_ == nullptr || draws != layout_.draws) {
    CorridorLayout layout;
    layout.kind = kind_;
    layout.draws = draws;
    if (state.empty()) {
      // Saved before the first reset: no episode, no model.
      random_ = random;
      has_episode_ = has_episode;
      failed_ = failed;
      return;
    }
    Build(layout);
  }
  if (static_cast<int>(state.size()) !=
          mj_stateSize(model_.get(), mujoco_common::kIntegrationState) ||
      static_cast<int>(sensors.size()) != model_->nsensordata) {
    throw SnapshotError("the corridor state is not of this model");
  }
  random_ = random;
  has_episode_ = has_episode;
  failed_ = failed;
  mujoco_common::SetIntegrationState(model_.get(), data_.get(), state);
  mj_step1(model_.get(), data_.get());
  std::copy(sensors.begin(), sensors.end(), data_->sensordata);
}

}  // namespace envpool::locomotion
