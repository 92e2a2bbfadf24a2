#include "envpool/locomotion/rodent.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

#include "envpool/core/env.h"
#include "envpool/core/numpy_kernels.h"
#include "envpool/locomotion/bowl_terrain.h"
#include "envpool/locomotion/corridor.h"
#include "envpool/locomotion/maze_arena.h"
#include "envpool/locomotion/maze_task.h"
#include "envpool/locomotion/mjcf_reader.h"
#include "envpool/locomotion/physics_render.h"
#include "envpool/locomotion/rodent_maze.h"
#include "envpool/locomotion/soccer_model.h"
#include "envpool/locomotion/task_options.h"
#include "envpool/mujoco_common/numpy_math.h"
#include "envpool/mujoco_common/physics.h"
#include "envpool/mujoco_common/state.h"
#include "envpool/render/mujoco_egl.h"

namespace envpool::locomotion {
namespace {

const char* const kWalkerModel = "walkers/rodent.xml";
const char* const kSkinFile = "walkers/rodent_walker_skin.skn";
const char* const kGroundTexture =
    "arenas/outdoor_natural/OutdoorGrassFloorD.png";
const char* const kSkyTexture = "arenas/outdoor_natural/OutdoorSkybox2048.png";
// basic_rodent_2020's time steps: 20 physics steps of 1 ms per control step.
constexpr int kSubSteps = 20;
// The egocentric camera's frame.
constexpr int kCameraSize = 64;
// legacy_base.py's _TOUCH_THRESHOLD.
constexpr double kTouchThreshold = 1e-3;
// escape.py's upright reward: full within 30 degrees of vertical.
constexpr double kUprightDeviationDegrees = 30;
// bowl.py's heightfield: 201 x 201 samples over 12 m x 12 m.
constexpr int kBowlResolution = 201;
constexpr double kBowlHalfSize = 6;
// escape.py's _find_non_contacting_height: 1 cm steps, at most 1000 tries.
constexpr double kHeightStep = 0.01;
constexpr int kMaxHeightTries = 1000;
// floors.Floor's top camera and TwoTouch's floor (size=(10, 10)).
constexpr double kFloorSize = 10.0;
constexpr double kTopCameraPadding = 1.1;
constexpr double kTopCameraDistance = 100.0;
// basic_rodent_2020.rodent_run_gaps' RunThroughCorridor: the walker's
// spawn position, target velocity and the end effectors' failure height.
constexpr double kRunGapsSpawn[3] = {5, 0, 0};
constexpr double kRunGapsTargetVelocity = 1.0;
constexpr double kRunGapsTerminateAtHeight = -0.3;
// basic_rodent_2020.rodent_maze_forage: 50 per target.
constexpr double kMazeTargetReward = 50.0;
// The maze's texture folders in the asset folder (labmaze's style_01 walls,
// the outdoor_natural ground and sky).
const char* const kMazeWallTextureDir = "labmaze/style_01";
const char* const kMazeGroundTextureDir = "arenas/outdoor_natural";
const char* const kMazeWallTexture = "labmaze/style_01/wall_blue_d.png";

std::string Number(double x) { return MjcfNumber(x); }

// The arena's assets: the bowl's heightfield, then floors.Floor's and
// bowl.Bowl's outdoor_natural ground and sky.
std::string OutdoorArena(bool bowl) {
  return std::string(bowl ? "    <hfield name=\"terrain\" nrow=\"201\" "
                            "ncol=\"201\" size=\"6 6 0.5 "
                            "0.10000000000000001\"/>\n"
                          : "") +
         "    <texture name=\"aesthetic_texture\" class=\"/\" type=\"2d\" "
         "file=\"" +
         std::string(kGroundTexture) +
         "\"/>\n"
         "    <material name=\"aesthetic_material\" class=\"/\" "
         "texture=\"aesthetic_texture\" texuniform=\"true\"/>\n"
         "    <texture name=\"aesthetic_skybox\" class=\"/\" type=\"skybox\" "
         "file=\"" +
         std::string(kSkyTexture) +
         "\" gridsize=\"3 4\" gridlayout=\".U..LFRB.D..\"/>\n";
}

// TargetSphereTwoTouch's checker textures (untouched, touched once,
// touched twice) and its material.
std::string TargetAssets() {
  std::string xml;
  const char* const textures[][3] = {
      {"init", "0 0.40000000000000002 0", "0 0.69999999999999996 0"},
      {"inter", "1 1 0.40000000000000002",
       "0.69999999999999996 0.69999999999999996 0"},
      {"final", "0.40000000000000002 0.69999999999999996 1",
       "0 0.40000000000000002 0.69999999999999996"},
  };
  for (const auto& texture : textures) {
    xml += std::string("    <texture name=\"target_0_0/target_sphere_") +
           texture[0] +
           "\" class=\"target_0_0/\" type=\"cube\" builtin=\"checker\" "
           "rgb1=\"" +
           texture[1] + "\" rgb2=\"" + texture[2] +
           "\" width=\"100\" height=\"100\"/>\n";
  }
  xml +=
      "    <material name=\"target_0_0/target_sphere_init\" "
      "class=\"target_0_0/\" texture=\"target_0_0/target_sphere_init\"/>\n";
  return xml;
}

}  // namespace

std::string RodentXml(RodentTask task, const std::vector<double>& gaps) {
  const bool bowl = task == RodentTask::kEscapeBowl;
  const bool two_touch = task == RodentTask::kTwoTouch;
  const bool run_gaps = task == RodentTask::kRunGaps;
  std::string xml =
      std::string(bowl       ? "<mujoco model=\"bowl\">\n"
                  : run_gaps ? "<mujoco model=\"gaps_corridor\">\n"
                             : "<mujoco model=\"floor\">\n") +
      kRodentCompilerAndOption + RodentWalkerSizes() + "  <visual>\n" +
      RodentWalkerVisual() +
      "    <headlight ambient=\"0.4 0.4 0.4\" diffuse=\"0.8 0.8 0.8\" "
      "specular=\"0.1 0.1 0.1\"/>\n" +
      (bowl       ? "    <map znear=\"0.00025000000000000001\" zfar=\"50\"/>\n"
       : run_gaps ? "    <map znear=\"0.00025000000000000001\" zfar=\"4\"/>\n"
                  : "    <map znear=\"0.01\"/>\n") +
      "    <scale forcewidth=\"0.01\" "
      "contactwidth=\"0.059999999999999998\" contactheight=\"0.01\" "
      "jointwidth=\"0.01\" framelength=\"0.29999999999999999\" "
      "framewidth=\"0.01\"/>\n"
      "  </visual>\n"
      "  <default>\n"
      "    <default class=\"/\"/>\n" +
      RodentWalkerDefaults();
  if (two_touch) {
    xml += "    <default class=\"target_0_0/\"/>\n";
  }
  xml += "  </default>\n  <asset>\n" + OutdoorArena(bowl);
  xml += RodentWalkerAssets();
  if (two_touch) {
    xml += TargetAssets();
  }
  xml += "  </asset>\n  <worldbody>\n";
  if (bowl) {
    xml +=
        "    <geom name=\"terrain\" class=\"/\" type=\"hfield\" "
        "material=\"aesthetic_material\" pos=\"0 0 -0.01\" "
        "hfield=\"terrain\"/>\n"
        "    <geom name=\"groundplane\" class=\"/\" type=\"plane\" "
        "size=\"20 20 0.5\" material=\"aesthetic_material\"/>\n";
  } else if (run_gaps) {
    xml += GapsCorridorWorldbody(kRodentGapsCorridor, gaps);
  } else {
    // floors.Floor(size=(10, 10)): the plane's half size 10, its top
    // camera framing it.
    const double fovy = 2 *
                        numpy_kernels::Arctan2(kTopCameraPadding * kFloorSize,
                                               kTopCameraDistance) *
                        (180.0 / M_PI);
    xml +=
        "    <geom name=\"groundplane\" class=\"/\" type=\"plane\" "
        "size=\"10 10 0.25\" material=\"aesthetic_material\"/>\n"
        "    <camera name=\"top_camera\" class=\"/\" fovy=\"" +
        Number(fovy) + "\" pos=\"0 0 100\" quat=\"1 0 0 0\"/>\n";
  }
  xml += RodentWalkerBody();
  if (two_touch) {
    // TargetSphereTwoTouch(radius=0.025) attached at TwoTouch's first
    // target position (1, 1, 0.14); each episode moves it.
    xml +=
        "    <body name=\"target_0_0/\">\n"
        "      <geom name=\"target_0_0/geom\" class=\"target_0_0/\" "
        "type=\"sphere\" size=\"0.025000000000000001\" "
        "material=\"target_0_0/target_sphere_init\" "
        "margin=\"-0.050000000000000003\" gap=\"0.050000000000000003\" "
        "pos=\"1 1 0.14000000000000001\"/>\n"
        "    </body>\n";
  }
  xml += "  </worldbody>\n" + RodentWalkerSections() + "</mujoco>\n";
  return xml;
}

namespace {

using Key = ObservationKey;

// dm_control's observation keys but the camera's, in its order
// (strip_singleton_obs_buffer_dim: no leading 1).
std::string TaskName(RodentTask task) {
  switch (task) {
    case RodentTask::kEscapeBowl:
      return "rodent_escape_bowl";
    case RodentTask::kTwoTouch:
      return "rodent_two_touch";
    case RodentTask::kRunGaps:
      return "rodent_run_gaps";
    case RodentTask::kMazeForage:
      return "rodent_maze_forage";
  }
  return "";
}

RodentTask TaskOf(const std::string& task_name) {
  for (RodentTask task : {RodentTask::kEscapeBowl, RodentTask::kTwoTouch,
                          RodentTask::kRunGaps, RodentTask::kMazeForage}) {
    if (TaskName(task) == task_name) {
      return task;
    }
  }
  throw std::invalid_argument("no rodent task '" + task_name + "'");
}

std::vector<Key> ObservationKeys(RodentTask task) {
  std::vector<Key> keys{
      {"walker/actuator_activation", {38}},
      {"walker/appendages_pos", {15}},
      {"walker/body_height", {}},
      {"walker/end_effectors_pos", {12}},
      {"walker/joints_pos", {30}},
      {"walker/joints_vel", {30}},
      {"walker/sensors_accelerometer", {3}},
      {"walker/sensors_force", {0}},
      {"walker/sensors_gyro", {3}},
      {"walker/sensors_torque", {0}},
      {"walker/sensors_touch", {4}},
      {"walker/sensors_velocimeter", {3}},
      {"walker/tendons_pos", {8}},
      {"walker/tendons_vel", {8}},
      {"walker/world_zaxis", {3}},
  };
  if (task == RodentTask::kEscapeBowl) {
    keys.push_back({"walker/origin", {3}});
  }
  return keys;
}

// The task's model compiled from its text (RunGaps' with the corridor of
// `gaps`), owned by the caller. The text and the prefixed skin are files
// of a virtual file system in the asset folder, so that MuJoCo finds the
// textures beside them.
mjModel* CompileRodentModel(RodentTask task, const std::vector<double>& gaps) {
  return CompileWithRodentSkin(RodentXml(task, gaps), TaskName(task) + ".xml",
                               "the rodent's");
}

// The task's model, once per process: each env of EscapeBowl and TwoTouch
// copies it; RunGaps compiles every episode's corridor, and this one (of
// RandomState(0)'s draws) gives the env its element ids before the first
// reset and the render contexts their model.
const mjModel& BaseModel(RodentTask task) {
  if (task == RodentTask::kEscapeBowl) {
    static const mujoco_common::SharedModel bowl(
        CompileRodentModel(RodentTask::kEscapeBowl, {}), mj_deleteModel);
    return *bowl;
  }
  if (task == RodentTask::kRunGaps) {
    static const mujoco_common::SharedModel gaps = [] {
      random::RandomState random{uint32_t{0}};
      return mujoco_common::SharedModel(
          CompileRodentModel(RodentTask::kRunGaps,
                             DrawGaps(kRodentGapsCorridor, &random)),
          mj_deleteModel);
    }();
    return *gaps;
  }
  if (task == RodentTask::kMazeForage) {
    // The first episode after RandomState(0)'s draws: it gives the env its
    // walker's ids before the first reset (each episode's model is its own).
    static const mujoco_common::SharedModel maze = [] {
      const MazeArenaSpec& spec = RodentMazeForageArena();
      random::RandomState global_random{uint32_t{0}}, random{uint32_t{0}};
      LabMaze labmaze(spec.maze, 0);
      const MazeEpisode episode =
          DrawMazeEpisode(spec, &labmaze, &global_random, &random);
      return CompileRodentMaze(WriteMazeArena(
          spec, episode, kMazeWallTextureDir, kMazeGroundTextureDir));
    }();
    return *maze;
  }
  static const mujoco_common::SharedModel floor(
      CompileRodentModel(RodentTask::kTwoTouch, {}), mj_deleteModel);
  return *floor;
}

// RunGaps' model of an episode's corridor. The platforms are geoms of the
// body "ground", written before the walker: the ids an env holds (bodies,
// joints, sensors, the camera; no geom's) are those of every corridor.
mujoco_common::ModelPtr RunGapsModel(const std::vector<double>& gaps) {
  mujoco_common::ModelPtr model(CompileRodentModel(RodentTask::kRunGaps, gaps));
  const mjModel& base = BaseModel(RodentTask::kRunGaps);
  if (model->nbody != base.nbody || model->njnt != base.njnt ||
      model->nsensordata != base.nsensordata || model->ncam != base.ncam ||
      model->nu != base.nu || model->ntendon != base.ntendon) {
    throw std::runtime_error(
        "the rodent's corridor model differs from another corridor's beyond "
        "its platforms");
  }
  return model;
}

// A stamp no other heightfield or model of this process has had.
// rewards.tolerance(x, bounds=(lower, inf), margin, value_at_margin=0,
// sigmoid='linear').
double LinearTolerance(double x, double lower, double margin) {
  if (x >= lower) {
    return 1.0;
  }
  const double d = (lower - x) / margin;
  return std::abs(d) < 1 ? 1 - d : 0.0;
}

}  // namespace

const MjcfElement& RodentWalker() {
  static const MjcfElement walker =
      ParseMjcf(mujoco_common::ReadModelText(LocomotionAssets(), kWalkerModel),
                kWalkerModel);
  return walker;
}

const MjcfElement& RodentWalkerSection(const char* tag) {
  return WalkerSection(RodentWalker(), tag, kWalkerModel, "rodent");
}

namespace {

void AppendChildren(const MjcfElement& element, const PrefixRules& rules,
                    int indent, std::string* xml) {
  for (const MjcfElement& child : element.children) {
    AppendPrefixed(child, rules, indent, xml);
  }
}

}  // namespace

std::string RodentWalkerSizes() {
  std::string xml;
  for (const char* tag : {"size", "statistic"}) {
    if (const MjcfElement* element = RodentWalker().Child(tag)) {
      AppendPrefixed(*element, PrefixRules{""}, 2, &xml);
    }
  }
  return xml;
}

std::string RodentWalkerVisual() {
  std::string xml;
  if (const MjcfElement* visual = RodentWalker().Child("visual")) {
    AppendChildren(*visual, PrefixRules{""}, 4, &xml);
  }
  return xml;
}

std::string RodentWalkerDefaults() {
  const std::string p = kRodentPrefix;
  std::string xml = "    <default class=\"" + p + "\">\n";
  AppendChildren(RodentWalkerSection("default"), PrefixRules{p}, 6, &xml);
  return xml + "    </default>\n";
}

std::string RodentWalkerAssets() {
  PrefixRules asset_rules{kRodentPrefix};
  // The skin's file: the prefixed one (RodentSkin()) in place of the
  // wheel's.
  asset_rules.edit = [](const MjcfElement& element, auto* attributes) {
    for (auto& [key, value] : *attributes) {
      if (element.tag == "skin" && key == "file") {
        value = kRodentPrefixedSkinFile;
      }
    }
  };
  std::string xml;
  AppendChildren(RodentWalkerSection("asset"), asset_rules, 4, &xml);
  return xml;
}

std::string RodentWalkerBody() {
  const std::string p = kRodentPrefix;
  std::string xml =
      "    <body name=\"" + p + "\">\n      <freejoint name=\"" + p + "\"/>\n";
  AppendChildren(RodentWalkerSection("worldbody"),
                 PrefixRules{p, /*add_class=*/true}, 6, &xml);
  return xml + "    </body>\n";
}

std::string RodentWalkerSections() {
  const std::string p = kRodentPrefix;
  const PrefixRules rules{p};
  const PrefixRules walker_rules{p, /*add_class=*/true};
  std::string xml = "  <contact>\n";
  AppendChildren(RodentWalkerSection("contact"), rules, 4, &xml);
  xml += "  </contact>\n  <tendon>\n";
  AppendChildren(RodentWalkerSection("tendon"), rules, 4, &xml);
  xml += "  </tendon>\n  <actuator>\n";
  AppendChildren(RodentWalkerSection("actuator"), walker_rules, 4, &xml);
  xml += "  </actuator>\n  <sensor>\n";
  AppendChildren(RodentWalkerSection("sensor"), rules, 4, &xml);
  for (const char* body : kRodentEndEffectors) {
    xml += "    <framepos name=\"" + p + body +
           "_end_effector\" objtype=\"xbody\" objname=\"" + p + body +
           "\" reftype=\"xbody\" refname=\"" + p + "torso\"/>\n";
  }
  return xml + "  </sensor>\n";
}

std::string RodentSkin() {
  return PrefixedSkin(
      mujoco_common::ReadModelText(LocomotionAssets(), kSkinFile), kSkinFile,
      kRodentPrefix);
}

mjModel* CompileWithRodentSkin(const std::string& xml,
                               const std::string& file_name,
                               const std::string& whose) {
  const std::string folder = envpool::FamilyAssetDir(LocomotionAssets().family);
  const std::string path = folder + "/" + file_name;
  return mujoco_common::CompileText(
             path, xml, whose + " MuJoCo model",
             {{folder + "/" + kRodentPrefixedSkinFile, RodentSkin()}})
      .release();
}

Options RodentEnv::TaskOptions(const std::string& task_name,
                               double time_limit) {
  return LocomotionOptions(task_name, time_limit);
}

void RodentEnv::DeclareTask(RodentTask rodent_task, const Options& options,
                            EnvSpec* spec, Fields* fields) {
  const std::string task = options.Get<std::string>("task_name");
  const std::string expected = TaskName(rodent_task);
  if (task != expected) {
    throw std::invalid_argument("option 'task_name' of this id must be '" +
                                expected + "', got '" + task + "'");
  }
  CheckedTimeLimit(options);
  RequireSoccerDefaults(options, task);
  spec->snapshots = true;
  fields->obs = AddFloatObservations(ObservationKeys(rodent_task), spec);
  fields->camera =
      spec->state.Add<uint8_t>("obs:walker/egocentric_camera",
                               {kCameraSize, kCameraSize, 3}, {0.0}, {255.0});
  // TwoTouch's task_logic: its state machine's state (int64).
  fields->task_logic = Field<int64_t>{};
  if (rodent_task == RodentTask::kTwoTouch) {
    // No bounds: the int64's full range, as dm_control's spec has it.
    fields->task_logic = spec->state.Add<int64_t>("obs:task_logic", {1});
  }
  // basic_rodent_2020: control steps of 20 physics steps of 1 ms.
  DeclarePhysicsRendering(options, kSubSteps * 0.001,
                          BaseModel(rodent_task).ncam, spec);
  ArraySpec action;
  action.name = "action";
  action.dtype = DType::kFloat64;
  action.shape = {38};
  action.low = {-1.0};
  action.high = {1.0};
  fields->action = spec->action.Add<double>(action);
}

RodentEnv::RodentEnv(const Options& options, const Fields& fields)
    : task_(TaskOf(options.Get<std::string>("task_name"))),
      time_limit_(options.Get<double>("time_limit")),
      fields_(fields) {
  const std::vector<Key> keys = ObservationKeys(task_);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    obs_index_[keys[i].name] = static_cast<int>(i);
  }
  std::vector<const char*> files{kWalkerModel, kSkinFile, kGroundTexture,
                                 kSkyTexture};
  if (task_ == RodentTask::kMazeForage) {
    files.push_back(kMazeWallTexture);
  }
  for (const char* file : files) {
    mujoco_common::ResolveModelPath(LocomotionAssets(), file);
  }
  model_.reset(mj_copyModel(nullptr, &BaseModel(task_)));
  model_stamp_ = render::NewStamp();
  data_.reset(mj_makeData(model_.get()));
  if (model_ == nullptr || data_ == nullptr) {
    throw std::runtime_error("cannot allocate the MuJoCo model");
  }
  FindElements();
}

void RodentEnv::FindElements() {
  const mjModel* m = model_.get();
  const std::string p = kRodentPrefix;
  auto id = [m](mjtObj type, const std::string& name) {
    return mujoco_common::ObjectId(m, type, name.c_str());
  };
  auto sensor = [m, &id](const std::string& name) {
    return m->sensor_adr[id(mjOBJ_SENSOR, name)];
  };
  torso_body_ = id(mjOBJ_BODY, p + "torso");
  pelvis_body_ = id(mjOBJ_BODY, p + "pelvis");
  skull_body_ = id(mjOBJ_BODY, p + "skull");
  head_site_ = id(mjOBJ_SITE, p + "head");
  camera_ = id(mjOBJ_CAMERA, p + "egocentric");
  joint_qpos_.clear();
  joint_qvel_.clear();
  end_effector_bodies_.clear();
  end_effector_sensors_.clear();
  touch_sensors_.clear();
  if (task_ == RodentTask::kEscapeBowl) {
    terrain_hfield_ = id(mjOBJ_HFIELD, "terrain");
  } else if (task_ == RodentTask::kTwoTouch) {
    target_geom_ = id(mjOBJ_GEOM, "target_0_0/geom");
    target_material_ = id(mjOBJ_MATERIAL, "target_0_0/target_sphere_init");
    texture_init_ = id(mjOBJ_TEXTURE, "target_0_0/target_sphere_init");
    texture_interval_ = id(mjOBJ_TEXTURE, "target_0_0/target_sphere_inter");
    texture_final_ = id(mjOBJ_TEXTURE, "target_0_0/target_sphere_final");
    hand_l_body_ = id(mjOBJ_BODY, p + "hand_L");
    hand_r_body_ = id(mjOBJ_BODY, p + "hand_R");
    // Every geom below either hand (find_all: the fingers' too).
    hand_geom_.assign(m->ngeom, false);
    for (int g = 0; g < m->ngeom; ++g) {
      for (int body = m->geom_bodyid[g]; body > 0;
           body = m->body_parentid[body]) {
        if (body == hand_l_body_ || body == hand_r_body_) {
          hand_geom_[g] = true;
        }
      }
    }
  } else if (task_ == RodentTask::kMazeForage) {
    // The episode's targets, target_0_0 ... in the order Composer attached
    // them (the shuffled positions').
    target_geoms_.clear();
    target_materials_.clear();
    for (std::size_t i = 0;; ++i) {
      const std::string target = "target_0_" + std::to_string(i) + "/";
      const int geom = mj_name2id(m, mjOBJ_GEOM, (target + "geom").c_str());
      if (geom < 0) {
        break;
      }
      target_geoms_.push_back(geom);
      target_materials_.push_back(id(mjOBJ_MATERIAL, target + "target_sphere"));
    }
  }
  free_qpos_ = m->jnt_qposadr[id(mjOBJ_JOINT, p)];
  free_qvel_ = m->jnt_dofadr[id(mjOBJ_JOINT, p)];
  // observable_joints: the joints of the actuators that drive one.
  for (int a = 0; a < m->nu; ++a) {
    if (m->actuator_trntype[a] == mjTRN_JOINT) {
      const int joint = m->actuator_trnid[2 * a];
      joint_qpos_.push_back(m->jnt_qposadr[joint]);
      joint_qvel_.push_back(m->jnt_dofadr[joint]);
    }
  }
  for (const char* body : kRodentEndEffectors) {
    end_effector_bodies_.push_back(id(mjOBJ_BODY, p + body));
    end_effector_sensors_.push_back(sensor(p + body + "_end_effector"));
  }
  for (int s = 0; s < m->nsensor; ++s) {
    if (m->sensor_type[s] == mjSENS_TOUCH) {
      touch_sensors_.push_back(m->sensor_adr[s]);
    }
  }
  velocimeter_ = sensor(p + "velocimeter");
  gyro_ = sensor(p + "gyro");
  accelerometer_ = sensor(p + "accelerometer");
}

void RodentEnv::OnSeed(uint64_t seed) {
  // The env's random_state and dm_control's global np.random, both seeded
  // with the env's seed.
  random_ = random::RandomState::FromSeed(seed);
  global_random_ = random_;
  if (task_ == RodentTask::kMazeForage) {
    // RandomMazeWithTargets, built after np.random.seed: labmaze's seed is
    // np.random.randint(2**31), and labmaze makes its first maze.
    const auto maze_seed = static_cast<uint32_t>(
        global_random_.Randint<int64_t>(0, int64_t{1} << 31));
    maze_ = std::make_unique<LabMaze>(RodentMazeForageArena().maze, maze_seed);
  }
}

// Physics.after_reset: mj_forward with the actuation disabled.
void RodentEnv::AfterReset() {
  mujoco_common::ForwardWithoutActuation(model_.get(), data_.get());
}

// escape.py's _find_non_contacting_height at (0, 0): from the floor up in
// 1 cm steps (the height summed as Python does), each try a reset of the
// physics with the free joint at that pose and a forward pass.
void RodentEnv::FindNonContactingHeight(const double orientation[4]) {
  mjModel* m = model_.get();
  mjData* d = data_.get();
  double z = 0.0;
  for (int count = 1;; ++count) {
    if (count > kMaxHeightTries) {
      throw std::runtime_error(
          "the rodent touches something at every height up to 10 m: the "
          "model is not dm_control's");
    }
    mj_resetData(m, d);
    double* root = d->qpos + free_qpos_;
    root[0] = 0.0;
    root[1] = 0.0;
    root[2] = z;
    std::copy(orientation, orientation + 4, root + 3);
    AfterReset();
    z += kHeightStep;
    if (d->ncon == 0) {
      return;
    }
  }
}

void RodentEnv::ResetEscapeBowl() {
  mjModel* m = model_.get();
  mjData* d = data_.get();
  float* hfield = m->hfield_data + m->hfield_adr[terrain_hfield_];
  const int samples =
      m->hfield_nrow[terrain_hfield_] * m->hfield_ncol[terrain_hfield_];
  // Composer compiles the episode's model before the task places the
  // walker: its heightfield is flat then.
  std::fill(hfield, hfield + samples, 0.0f);
  mj_resetData(m, d);
  // Escape.initialize_episode: a random orientation, the lowest height
  // (in 1 cm steps) at which the walker touches nothing.
  double orientation[4];
  for (double& q : orientation) {
    q = random_.StandardNormal();
  }
  const double norm = mujoco_common::NumpyNorm(orientation, 4);
  for (double& q : orientation) {
    q /= norm;
  }
  FindNonContactingHeight(orientation);
  // Bowl.initialize_episode: the terrain (float32 in the model).
  const std::vector<double> terrain = BowlTerrain(
      kBowlResolution, m->hfield_size[4 * terrain_hfield_], &random_);
  for (int k = 0; k < samples; ++k) {
    hfield[k] = static_cast<float>(terrain[k]);
  }
  hfield_stamp_ = render::NewStamp();
}

void RodentEnv::SetTargetTexture(int texture) {
  // dm_control binds the material's texid: every texture role.
  std::fill(model_->mat_texid + mjNTEXROLE * target_material_,
            model_->mat_texid + mjNTEXROLE * (target_material_ + 1), texture);
}

void RodentEnv::RandomizeTarget() {
  // TwoTouch._randomize_targets with the global np.random: the target area
  // (1.5, 1.5) times uniform(-1, 1) each (the shuffle of one position draws
  // nothing), the target reset and moved there.
  constexpr double kTargetArea = 1.5;
  constexpr double kTargetHeight = 0.14;
  const double x = kTargetArea * global_random_.Uniform(-1., 1.);
  const double y = kTargetArea * global_random_.Uniform(-1., 1.);
  TwoTouchState& t = two_touch_;
  t.touched_once = false;
  t.touched_twice = false;
  SetTargetTexture(texture_init_);
  double* pos = model_->geom_pos + 3 * target_geom_;
  pos[0] = x;
  pos[1] = y;
  pos[2] = kTargetHeight;
  // dm_control's binding clears the geom's sameframe when it sets its pos.
  model_->geom_sameframe[target_geom_] = 0;
  t.rewarded_once = false;
  t.rewarded_twice = false;
  t.first_touch_time = 0;
  t.second_touch_time = 0;
  t.do_time_out = false;
  t.logic = 0;  // PRE_TOUCH
}

void RodentEnv::ResetTwoTouch() {
  mjModel* m = model_.get();
  mjData* d = data_.get();
  // Composer compiles the episode's model with the target where the last
  // episode left it (TwoTouch keeps its last position), and the compiler's
  // statistics (center, extent: the renderer's clip planes scale with the
  // extent) take in the target's box; the rest of the model spans
  // [-1, 1] on each axis (the walker's cameras and lights). The bounding
  // box of the two, as MuJoCo's compiler sums it.
  {
    const double* at = m->geom_pos + 3 * target_geom_;
    const double radius = m->geom_size[3 * target_geom_];
    double extent = 0;
    for (int k = 0; k < 3; ++k) {
      const double lo = std::min(-1.0, at[k] - radius);
      const double hi = std::max(1.0, at[k] + radius);
      m->stat.center[k] = (lo + hi) / 2;
      extent = std::max(extent, hi - lo);
    }
    m->stat.extent = extent;
  }
  mj_resetData(m, d);
  // _respawn_walker: UprightInitializer (the joints at qpos0, the free joint
  // at the origin, upright, at rest: what mj_resetData leaves), then
  // shift_pose by a rotation of 2 pi uniform() about z from the global
  // np.random, its quaternion premultiplied and divided by numpy's norm.
  const double rotation = 2 * M_PI * global_random_.RandomSample();
  const double turn[4] = {numpy_kernels::Cos(rotation / 2), 0, 0,
                          numpy_kernels::Sin(rotation / 2)};
  double* root = d->qpos + free_qpos_;
  double current[4];
  std::copy(root + 3, root + 7, current);
  for (int k = 0; k < 3; ++k) {
    root[k] = root[k] + 0.0;
  }
  double quat[4];
  mju_mulQuat(quat, turn, current);
  // rotate_velocity: the free joint's linear velocity (zero) rotated.
  double velocity[3];
  mju_rotVecQuat(velocity, d->qvel + free_qvel_, turn);
  std::copy(velocity, velocity + 3, d->qvel + free_qvel_);
  const double norm = mujoco_common::NumpyNorm(quat, 4);
  for (int k = 0; k < 4; ++k) {
    root[3 + k] = quat[k] / norm;
  }
  two_touch_ = TwoTouchState{};
  RandomizeTarget();
  two_touch_.must_randomize = false;
  two_touch_.observed_logic = two_touch_.logic;
}

void RodentEnv::ResetRunGaps() {
  // initialize_episode_mjcf: the arena's regenerate draws the platforms and
  // gaps, then Composer compiles the episode's model.
  std::vector<double> gaps = DrawGaps(kRodentGapsCorridor, &random_);
  mujoco_common::ModelPtr model = RunGapsModel(gaps);
  mujoco_common::DataPtr data(mj_makeData(model.get()));
  if (data == nullptr) {
    throw std::runtime_error("cannot allocate the MuJoCo data");
  }
  model_ = std::move(model);
  model_stamp_ = render::NewStamp();
  data_ = std::move(data);
  gaps_ = std::move(gaps);
  mjModel* m = model_.get();
  mjData* d = data_.get();
  mj_resetData(m, d);
  // RunThroughCorridor.initialize_episode: UprightInitializer (the joints
  // at qpos0, the free joint at the origin, upright, at rest: what
  // mj_resetData leaves), then shift_pose by the spawn position;
  // walker_spawn_rotation=0 turns nothing.
  double* root = d->qpos + free_qpos_;
  for (int k = 0; k < 3; ++k) {
    root[k] = root[k] + kRunGapsSpawn[k];
  }
}

namespace {

// The model of a maze episode (its maze, textures and target order).
mujoco_common::ModelPtr MazeModel(const MazeEpisode& episode) {
  const MazeArenaXml arena =
      WriteMazeArena(RodentMazeForageArena(), episode, kMazeWallTextureDir,
                     kMazeGroundTextureDir);
  return mujoco_common::ModelPtr(CompileWithRodentSkin(
      RodentMazeXml(arena), "rodent_maze_forage.xml", "the rodent maze's"));
}

}  // namespace

void RodentEnv::UseMazeModel(const MazeEpisode& episode) {
  mujoco_common::ModelPtr model = MazeModel(episode);
  mujoco_common::DataPtr data(mj_makeData(model.get()));
  if (data == nullptr) {
    throw std::runtime_error("cannot allocate the MuJoCo data");
  }
  model_ = std::move(model);
  data_ = std::move(data);
  model_stamp_ = render::NewStamp();
  maze_episode_ = episode;
  FindElements();
}

void RodentEnv::RespawnInMaze() {
  // walker.reinitialize_pose (UprightInitializer): the joints at qpos0, the
  // free joint at the origin, upright, at rest: what mj_resetData left.
  if (maze_episode_.spawns.empty()) {
    throw std::runtime_error("the rodent's maze has no spawn cell");
  }
  RespawnWalkerInMaze(model_.get(), data_.get(), free_qpos_, free_qvel_,
                      maze_episode_.spawns, &random_);
}

void RodentEnv::UpdateMazeTargets() {
  ActivateTouchedTargets(model_.get(), data_.get(), target_geoms_,
                         target_materials_, &target_activated_);
}

void RodentEnv::ResetMazeForage() {
  // initialize_episode_mjcf: the arena regenerated (the maze, its textures
  // from the global np.random), the targets shuffled with random_state and
  // attached; Composer compiles the episode's model.
  UseMazeModel(DrawMazeEpisode(RodentMazeForageArena(), maze_.get(),
                               &global_random_, &random_));
  target_activated_.assign(target_geoms_.size(), false);
  target_rewarded_.assign(target_geoms_.size(), false);
  // Physics.reset: mj_resetData and a forward pass without actuation, whose
  // kinematics and contacts the task's and the targets' initialize_episode
  // read.
  mj_resetData(model_.get(), data_.get());
  AfterReset();
  RespawnInMaze();
  UpdateMazeTargets();
}

void RodentEnv::Reset() {
  if (task_ == RodentTask::kEscapeBowl) {
    ResetEscapeBowl();
  } else if (task_ == RodentTask::kRunGaps) {
    ResetRunGaps();
  } else if (task_ == RodentTask::kMazeForage) {
    ResetMazeForage();
  } else {
    ResetTwoTouch();
  }
  AfterReset();
  has_episode_ = true;
  reward_ = 0.0;
  terminated_ = false;
  truncated_ = false;
}

bool RodentEnv::UpdateTargetActivation() {
  // TargetSphereTwoTouch(touch_debounce=0.2)._update_activation.
  constexpr double kTouchDebounce = 0.2;
  TwoTouchState& t = two_touch_;
  bool retextured = false;
  if (t.touched_once && t.touched_twice) {
    return retextured;
  }
  const mjData* d = data_.get();
  for (int c = 0; c < d->ncon; ++c) {
    const int g1 = d->contact[c].geom[0];
    const int g2 = d->contact[c].geom[1];
    if (!(hand_geom_[g1] || hand_geom_[g2]) ||
        (g1 != target_geom_ && g2 != target_geom_)) {
      continue;
    }
    if (!t.touched_once) {
      t.touched_once = true;
      t.touch_time = d->time;
      SetTargetTexture(texture_interval_);
      retextured = true;
    }
    if (t.touched_once && d->time > t.touch_time + kTouchDebounce) {
      t.touched_twice = true;
      SetTargetTexture(texture_final_);
      retextured = true;
    }
  }
  return retextured;
}

double RodentEnv::TwoTouchReward() {
  // reach.TwoTouch's defaults and basic_rodent_2020's reward of 25.
  constexpr double kTargetReward = 25.;
  constexpr double kTouchInterval = 0.8;
  constexpr double kIntervalTolerance = 0.1;
  constexpr double kFailureTimeout = 1.2;
  constexpr double kResetDelay = 0.;
  constexpr int64_t kPreTouch = 0, kTouchedOnce = 1, kTouchedTwice = 2,
                    kTouchedTooSoon = 3, kNoSecondTouch = 4;
  const mjData* d = data_.get();
  TwoTouchState& t = two_touch_;
  double reward = 0.0;
  const double* target = d->geom_xpos + 3 * target_geom_;
  auto closeness = [&](int body) {
    const double* hand = d->xpos + 3 * body;
    double sum = 0;
    for (int k = 0; k < 3; ++k) {
      sum = sum + std::abs(hand[k] - target[k]);
    }
    return numpy_kernels::Exp(-3. * sum);
  };
  const double left = closeness(hand_l_body_);
  const double right = closeness(hand_r_body_);
  reward += .01 * std::max(left, right) * kTargetReward;
  const double time = d->time;
  if (t.logic == kPreTouch) {
    if (t.touched_once && !t.rewarded_once) {
      t.first_touch_time = time;
      t.logic = kTouchedOnce;
      t.rewarded_once = true;
      reward += kTargetReward;
    }
  } else if (t.logic == kTouchedOnce) {
    if (t.touched_twice && !t.rewarded_twice) {
      t.second_touch_time = time;
      t.logic = kTouchedTwice;
      t.rewarded_twice = true;
      if ((t.second_touch_time - t.first_touch_time) <
          (kTouchInterval - kIntervalTolerance)) {
        t.do_time_out = true;
        t.logic = kTouchedTooSoon;
      } else if ((t.second_touch_time - t.first_touch_time) <=
                 (kTouchInterval + kIntervalTolerance)) {
        reward += kTargetReward;
      }
    }
    if ((time - t.first_touch_time) > (kTouchInterval + kIntervalTolerance)) {
      t.do_time_out = true;
      t.logic = kNoSecondTouch;
      t.second_touch_time = time;
    }
  } else if (t.logic == kTouchedTwice || t.logic == kTouchedTooSoon ||
             t.logic == kNoSecondTouch) {
    if (t.do_time_out) {
      if (time > (t.second_touch_time + kFailureTimeout)) {
        t.do_time_out = false;
      }
    } else if (time > (t.second_touch_time + kResetDelay)) {
      t.must_randomize = true;
    }
  }
  return reward;
}

void RodentEnv::Step(const ActionView& action) {
  mjData* d = data_.get();
  const bool two_touch = task_ == RodentTask::kTwoTouch;
  // dm_control's mjcf Physics runs mj_forward at the first read through a
  // binding after a write through one that marks it dirty: here the
  // target's moves and retexturings within the step (the actions' write
  // does not), so the observations after such a step read a forward pass.
  bool model_written = false;
  // TwoTouch.before_step: a target the last reward asked to move.
  if (two_touch && two_touch_.must_randomize) {
    RandomizeTarget();
    two_touch_.must_randomize = false;
    model_written = true;
  }
  const double* a = action.Get(fields_.action);
  for (int i = 0; i < model_->nu; ++i) {
    d->ctrl[i] = a[i];
  }
  for (int i = 0; i < kSubSteps; ++i) {
    mj_step2(model_.get(), d);
    mj_step1(model_.get(), d);
    if (two_touch && UpdateTargetActivation()) {
      model_written = true;
    }
    if (task_ == RodentTask::kMazeForage) {
      UpdateMazeTargets();
    }
  }
  // RunThroughCorridor.after_step reads the end effectors' positions
  // through a binding after the actions' write through one (ctrl is of the
  // attributes that mark the Physics dirty): that read runs mj_forward,
  // whose sensors the observations then read, as after the CMU humanoid's
  // steps.
  if (model_written || task_ == RodentTask::kRunGaps) {
    mj_forward(model_.get(), d);
  }
  // Else no forward pass after the substeps: EscapeBowl's and TwoTouch's
  // observations read the last mj_step2's sensors (the accelerometer
  // differs otherwise).
  truncated_ = d->time >= time_limit_;
  terminated_ = false;
  if (task_ == RodentTask::kRunGaps) {
    // RunThroughCorridor(contact_termination=False, terminate_at_height=
    // -0.3): the episode fails (discount 0) when an end effector is below
    // -0.3 m; the reward is the torso's subtree_linvel x (the walker's
    // subtreelinvel sensor had the last mj_step1 compute it) around 1 m/s.
    bool failed = false;
    for (int body : end_effector_bodies_) {
      failed = failed || d->xpos[3 * body + 2] < kRunGapsTerminateAtHeight;
    }
    reward_ = CorridorVelocityReward(d->subtree_linvel[3 * torso_body_],
                                     kRunGapsTargetVelocity);
    terminated_ = failed;
    truncated_ = !failed && d->time >= time_limit_;
    return;
  }
  if (task_ == RodentTask::kMazeForage) {
    // ManyHeterogeneousGoalsMaze.get_reward: 50 per target activated since
    // the last reward; should_terminate_episode: every target activated
    // (discount 1 in dm_control: the task is done, so terminated here).
    reward_ = 0.0;
    bool all_activated = true;
    for (std::size_t i = 0; i < target_activated_.size(); ++i) {
      if (target_activated_[i] && !target_rewarded_[i]) {
        reward_ += kMazeTargetReward;
        target_rewarded_[i] = true;
      }
      all_activated = all_activated && target_activated_[i];
    }
    terminated_ = all_activated;
    truncated_ = !all_activated && d->time >= time_limit_;
    return;
  }
  if (two_touch) {
    // Composer observes before it asks for the reward.
    two_touch_.observed_logic = two_touch_.logic;
    reward_ = TwoTouchReward();
    return;
  }
  // Escape.get_reward: the head site's distance from the origin against
  // the terrain's half size, times the torso and pelvis upright.
  const double terrain_size = model_->hfield_size[4 * terrain_hfield_];
  const double* head = d->site_xpos + 3 * head_site_;
  const double escape = LinearTolerance(mujoco_common::NumpyNorm(head, 3),
                                        terrain_size, terrain_size);
  const double deviation =
      numpy_kernels::Cos(kUprightDeviationDegrees * (M_PI / 180.0));
  const double upright = std::min(
      LinearTolerance(d->xmat[9 * torso_body_ + 8], deviation, 1 + deviation),
      LinearTolerance(d->xmat[9 * pelvis_body_ + 8], deviation, 1 + deviation));
  reward_ = upright * escape;
  terminated_ = false;
  truncated_ = d->time >= time_limit_;
}

double* RodentEnv::Obs(const Output& out, const char* key) const {
  return out.Get(fields_.obs[obs_index_.at(key)]);
}

void RodentEnv::RenderCamera(uint8_t* rgb) {
  mjvCamera camera;
  mjv_defaultCamera(&camera);
  render::SceneSettings settings;
  settings.max_geom = render::DmControlMaxGeom(model_.get());
  settings.rangefinders = false;
  settings.hfield_stamp = hfield_stamp_;
  // RodentObservables.egocentric_camera hides the walker's collision (2)
  // and cosmetic (1) geom groups.
  settings.hidden_geom_groups = (1 << 1) | (1 << 2);
  // EscapeBowl's terrain is the env's own too (a bowl per episode): in a
  // thread's context, shared by the envs the thread steps, every frame of
  // an env other than the thread's last re-uploaded it (46 ms of CPU under
  // llvmpipe, as much as the frame), and the pool moves envs between its
  // threads. Its own context uploads it once an episode (hfield_stamp_).
  if (task_ == RodentTask::kMazeForage || hfield_stamp_ != 0) {
    // Each episode's model has planes (walls, floor tiles) and materials of
    // its own, which a render context keeps: the env's own context, remade
    // for each new model (model_stamp_).
    if (maze_renderer_ == nullptr) {
      maze_renderer_ = std::make_unique<render::ModelRenderer>();
    }
    maze_renderer_->Render(model_.get(), model_stamp_, data_.get(), camera,
                           camera_, kCameraSize, kCameraSize, settings, rgb);
    return;
  }
  render::RenderFrame(&BaseModel(task_), model_.get(), data_.get(), camera,
                      camera_, kCameraSize, kCameraSize, settings, rgb);
}

void RodentEnv::Write(const Output& out) {
  const mjModel* m = model_.get();
  const mjData* d = data_.get();
  const double* xpos = d->xpos + 3 * torso_body_;
  const double* xmat = d->xmat + 9 * torso_body_;
  auto egocentric = [&](const double* vec, double* to) {
    const double delta[3] = {vec[0] - xpos[0], vec[1] - xpos[1],
                             vec[2] - xpos[2]};
    for (int j = 0; j < 3; ++j) {
      to[j] =
          delta[0] * xmat[j] + delta[1] * xmat[3 + j] + delta[2] * xmat[6 + j];
    }
  };
  std::copy(d->act, d->act + m->na, Obs(out, "walker/actuator_activation"));
  double* appendages = Obs(out, "walker/appendages_pos");
  int k = 0;
  for (int body : end_effector_bodies_) {
    egocentric(d->xpos + 3 * body, appendages + 3 * k++);
  }
  egocentric(d->xpos + 3 * skull_body_, appendages + 3 * k);
  Obs(out, "walker/body_height")[0] = xpos[2];
  double* effectors = Obs(out, "walker/end_effectors_pos");
  for (int adr : end_effector_sensors_) {
    effectors =
        std::copy(d->sensordata + adr, d->sensordata + adr + 3, effectors);
  }
  double* qpos = Obs(out, "walker/joints_pos");
  double* qvel = Obs(out, "walker/joints_vel");
  for (std::size_t i = 0; i < joint_qpos_.size(); ++i) {
    qpos[i] = d->qpos[joint_qpos_[i]];
    qvel[i] = d->qvel[joint_qvel_[i]];
  }
  std::copy(d->sensordata + accelerometer_, d->sensordata + accelerometer_ + 3,
            Obs(out, "walker/sensors_accelerometer"));
  std::copy(d->sensordata + gyro_, d->sensordata + gyro_ + 3,
            Obs(out, "walker/sensors_gyro"));
  std::copy(d->sensordata + velocimeter_, d->sensordata + velocimeter_ + 3,
            Obs(out, "walker/sensors_velocimeter"));
  double* touch = Obs(out, "walker/sensors_touch");
  for (std::size_t i = 0; i < touch_sensors_.size(); ++i) {
    touch[i] = d->sensordata[touch_sensors_[i]] > kTouchThreshold ? 1.0 : 0.0;
  }
  std::copy(d->ten_length, d->ten_length + m->ntendon,
            Obs(out, "walker/tendons_pos"));
  std::copy(d->ten_velocity, d->ten_velocity + m->ntendon,
            Obs(out, "walker/tendons_vel"));
  std::copy(xmat + 6, xmat + 9, Obs(out, "walker/world_zaxis"));
  if (task_ == RodentTask::kEscapeBowl) {
    // Escape's origin: -torso_pos . torso_frame.
    double* origin = Obs(out, "walker/origin");
    for (int j = 0; j < 3; ++j) {
      origin[j] =
          -(xpos[0] * xmat[j] + xpos[1] * xmat[3 + j] + xpos[2] * xmat[6 + j]);
    }
  } else if (task_ == RodentTask::kTwoTouch) {
    out.Get(fields_.task_logic)[0] = two_touch_.observed_logic;
  }
  RenderCamera(out.Get(fields_.camera));
}

void RodentEnv::Render(int width, int height, int camera_id, uint8_t* rgb) {
  RenderPhysics(&frame_renderer_, model_.get(), model_stamp_, hfield_stamp_,
                data_.get(), width, height, camera_id, rgb);
}

std::vector<double> RodentEnv::GetState() const {
  return mujoco_common::SimulationState(model_.get(), data_.get());
}

void RodentEnv::SaveState(StateWriter* writer) const {
  std::vector<mjtNum> state;
  mujoco_common::GetIntegrationState(model_.get(), data_.get(), &state);
  const std::vector<mjtNum> sensors(data_->sensordata,
                                    data_->sensordata + model_->nsensordata);
  std::vector<float> terrain;
  if (terrain_hfield_ >= 0) {
    const float* hfield =
        model_->hfield_data + model_->hfield_adr[terrain_hfield_];
    terrain.assign(hfield, hfield + model_->hfield_nrow[terrain_hfield_] *
                                        model_->hfield_ncol[terrain_hfield_]);
  }
  std::array<double, 3> target{};
  int texture = -1;
  if (target_geom_ >= 0) {
    std::copy(model_->geom_pos + 3 * target_geom_,
              model_->geom_pos + 3 * target_geom_ + 3, target.begin());
    texture = model_->mat_texid[mjNTEXROLE * target_material_];
  }
  const TwoTouchState& t = two_touch_;
  const std::array<double, 4> stat{model_->stat.extent, model_->stat.center[0],
                                   model_->stat.center[1],
                                   model_->stat.center[2]};
  writer->Put(random_, global_random_, has_episode_, gaps_, terrain, target,
              stat, texture, t.touched_once, t.touched_twice, t.touch_time,
              t.logic, t.observed_logic, t.rewarded_once, t.rewarded_twice,
              t.first_touch_time, t.second_touch_time, t.do_time_out,
              t.must_randomize, state, sensors);
  // MazeForage: labmaze's generator (its seed and how many mazes it made),
  // the episode (the model is rebuilt from it) and the targets' state; the
  // task, so that no other rodent task's state is taken for it.
  const MazeEpisode& e = maze_episode_;
  const uint32_t maze_seed = maze_ != nullptr ? maze_->seed() : 0;
  const int64_t maze_generations = maze_ != nullptr ? maze_->generations() : 0;
  writer->Put(static_cast<int32_t>(task_), maze_seed, maze_generations,
              e.entity_layer, e.variations_layer, e.textures.wall,
              e.textures.floor, e.textures.variations, e.targets, e.spawns,
              e.builders, target_activated_, target_rewarded_);
}

void RodentEnv::LoadState(StateReader* reader) {
  random::RandomState random{uint32_t{0}}, global_random{uint32_t{0}};
  bool has_episode = false;
  std::vector<float> terrain;
  std::array<double, 3> target{};
  int texture = -1;
  TwoTouchState t;
  std::vector<mjtNum> state, sensors;
  std::array<double, 4> stat{};
  std::vector<double> gaps;
  reader->Get(&random, &global_random, &has_episode, &gaps, &terrain, &target,
              &stat, &texture, &t.touched_once, &t.touched_twice, &t.touch_time,
              &t.logic, &t.observed_logic, &t.rewarded_once, &t.rewarded_twice,
              &t.first_touch_time, &t.second_touch_time, &t.do_time_out,
              &t.must_randomize, &state, &sensors);
  int32_t task = -1;
  uint32_t maze_seed = 0;
  int64_t maze_generations = 0;
  MazeEpisode maze_episode;
  std::vector<bool> activated, rewarded;
  reader->Get(&task, &maze_seed, &maze_generations, &maze_episode.entity_layer,
              &maze_episode.variations_layer, &maze_episode.textures.wall,
              &maze_episode.textures.floor, &maze_episode.textures.variations,
              &maze_episode.targets, &maze_episode.spawns,
              &maze_episode.builders, &activated, &rewarded);
  if (task != static_cast<int32_t>(task_)) {
    throw SnapshotError("the rodent's state is of another task");
  }
  const bool maze = task_ == RodentTask::kMazeForage;
  if (maze && maze_generations < 1) {
    throw SnapshotError("the rodent maze's state has no maze");
  }
  if (maze && has_episode && maze_episode.builders != std::vector<int64_t>{0}) {
    throw SnapshotError("the rodent maze's state has another kind of target");
  }
  // RunGaps: the model of the snapshot's corridor (the task's shared one
  // before the first reset), where it is not the env's; only RunGaps has a
  // corridor.
  mujoco_common::ModelPtr model;
  mujoco_common::DataPtr data;
  if (task_ == RodentTask::kRunGaps && gaps != gaps_) {
    model =
        gaps.empty()
            ? mujoco_common::ModelPtr(mj_copyModel(nullptr, &BaseModel(task_)))
            : RunGapsModel(gaps);
    data.reset(mj_makeData(model.get()));
    if (data == nullptr) {
      throw std::runtime_error("cannot allocate the MuJoCo data");
    }
  } else if (task_ != RodentTask::kRunGaps && !gaps.empty()) {
    throw SnapshotError("the rodent's state is of another task (a corridor)");
  } else if (maze && has_episode &&
             !(has_episode_ && SameMazeEpisode(maze_episode, maze_episode_))) {
    // The snapshot's maze episode, where it is not the env's.
    model = MazeModel(maze_episode);
  } else if (maze && !has_episode && has_episode_) {
    model.reset(mj_copyModel(nullptr, &BaseModel(task_)));
  }
  if (model != nullptr && data == nullptr) {
    data.reset(mj_makeData(model.get()));
    if (data == nullptr) {
      throw std::runtime_error("cannot allocate the MuJoCo data");
    }
  }
  const mjModel* m = model != nullptr ? model.get() : model_.get();
  const int samples = terrain_hfield_ < 0 ? 0
                                          : m->hfield_nrow[terrain_hfield_] *
                                                m->hfield_ncol[terrain_hfield_];
  const bool texture_ok = target_geom_ < 0 ? texture == -1
                                           : (texture == texture_init_ ||
                                              texture == texture_interval_ ||
                                              texture == texture_final_);
  if (static_cast<int>(state.size()) !=
          mj_stateSize(m, mujoco_common::kIntegrationState) ||
      static_cast<int>(sensors.size()) != m->nsensordata ||
      static_cast<int>(terrain.size()) != samples || !texture_ok) {
    throw SnapshotError("the rodent's state is not of this task's model");
  }
  std::size_t targets = 0;
  if (maze) {
    for (const std::string target = "target_0_";
         mj_name2id(m, mjOBJ_GEOM,
                    (target + std::to_string(targets) + "/geom").c_str()) >= 0;
         ++targets) {
    }
  }
  if (activated.size() != targets || rewarded.size() != targets) {
    throw SnapshotError("the rodent's state is not of this task's model");
  }
  if (model != nullptr) {
    model_ = std::move(model);
    data_ = std::move(data);
    if (task_ == RodentTask::kRunGaps) {
      gaps_ = std::move(gaps);
    }
    model_stamp_ = render::NewStamp();
    FindElements();
  }
  if (maze) {
    if (maze_ == nullptr || maze_->seed() != maze_seed ||
        maze_->generations() != maze_generations) {
      maze_ =
          std::make_unique<LabMaze>(RodentMazeForageArena().maze, maze_seed);
      maze_->Restore(maze_seed, maze_generations);
    }
    maze_episode_ = std::move(maze_episode);
    target_activated_ = std::move(activated);
    target_rewarded_ = std::move(rewarded);
    // An activated target's material is transparent, the others opaque
    // (as the episode's freshly compiled model has them).
    for (std::size_t i = 0; i < target_materials_.size(); ++i) {
      model_->mat_rgba[4 * target_materials_[i] + 3] =
          target_activated_[i] ? 0.0f : 1.0f;
    }
  }
  random_ = random;
  global_random_ = global_random;
  has_episode_ = has_episode;
  if (terrain_hfield_ >= 0) {
    std::copy(terrain.begin(), terrain.end(),
              model_->hfield_data + model_->hfield_adr[terrain_hfield_]);
    hfield_stamp_ = render::NewStamp();
  }
  if (target_geom_ >= 0) {
    std::copy(target.begin(), target.end(),
              model_->geom_pos + 3 * target_geom_);
    SetTargetTexture(texture);
  }
  two_touch_ = t;
  model_->stat.extent = stat[0];
  std::copy(stat.begin() + 1, stat.end(), model_->stat.center);
  mujoco_common::SetIntegrationState(model_.get(), data_.get(), state);
  mj_step1(model_.get(), data_.get());
  std::copy(sensors.begin(), sensors.end(), data_->sensordata);
}

}  // namespace envpool::locomotion
