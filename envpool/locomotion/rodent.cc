#include "envpool/locomotion/rodent.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

#include "envpool/core/env.h"
#include "envpool/core/numpy_kernels.h"
#include "envpool/locomotion/bowl_terrain.h"
#include "envpool/locomotion/mjcf_reader.h"
#include "envpool/locomotion/soccer_model.h"
#include "envpool/mujoco_common/numpy_math.h"
#include "envpool/mujoco_common/state.h"
#include "envpool/render/mujoco_egl.h"

namespace envpool::locomotion {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const char* const kWalkerModel = "walkers/rodent.xml";
const char* const kSkinFile = "walkers/rodent_walker_skin.skn";
// The skin as Composer writes it for the attached walker (its bones' body
// names prefixed), given to MuJoCo in memory under this name.
const char* const kPrefixedSkinFile = "walkers/rodent_walker_skin_walker.skn";
const char* const kGroundTexture =
    "arenas/outdoor_natural/OutdoorGrassFloorD.png";
const char* const kSkyTexture = "arenas/outdoor_natural/OutdoorSkybox2048.png";
const char* const kPrefix = "walker/";
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
const char* const kEndEffectors[] = {"lower_arm_R", "lower_arm_L", "foot_R",
                                     "foot_L"};

const MjcfElement& Walker() {
  static const MjcfElement walker =
      ParseMjcf(mujoco_common::ReadModelText(LocomotionAssets(), kWalkerModel),
                kWalkerModel);
  return walker;
}

const MjcfElement& Section(const char* tag) {
  const MjcfElement* section = Walker().Child(tag);
  if (section == nullptr) {
    throw std::runtime_error(std::string(kWalkerModel) + " has no <" + tag +
                             ">: not dm_control's rodent");
  }
  return *section;
}

std::string Number(double x) { return MjcfNumber(x); }

// The <visual> children of the walker's file (its shadow quality), which
// Composer merges into the arena's <visual>.
std::string WalkerVisual() {
  std::string xml;
  if (const MjcfElement* visual = Walker().Child("visual")) {
    for (const MjcfElement& child : visual->children) {
      AppendPrefixed(child, PrefixRules{""}, 4, &xml);
    }
  }
  return xml;
}

std::string BowlArena() {
  return "    <hfield name=\"terrain\" nrow=\"201\" ncol=\"201\" size=\"6 6 "
         "0.5 0.10000000000000001\"/>\n"
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

}  // namespace

std::string RodentXml(RodentTask /*task*/) {
  const std::string p = kPrefix;
  const MjcfElement* statistic = Walker().Child("statistic");
  std::string xml =
      "<mujoco model=\"bowl\">\n"
      "  <compiler boundmass=\"1.0000000000000001e-05\" "
      "boundinertia=\"9.9999999999999994e-12\" coordinate=\"local\" "
      "angle=\"radian\" eulerseq=\"xyz\"/>\n"
      "  <option timestep=\"0.001\" noslip_tolerance=\"0\" "
      "cone=\"elliptic\" noslip_iterations=\"5\"/>\n";
  if (const MjcfElement* size = Walker().Child("size")) {
    AppendPrefixed(*size, PrefixRules{""}, 2, &xml);
  }
  if (statistic != nullptr) {
    AppendPrefixed(*statistic, PrefixRules{""}, 2, &xml);
  }
  xml += "  <visual>\n" + WalkerVisual() +
         "    <headlight ambient=\"0.4 0.4 0.4\" diffuse=\"0.8 0.8 0.8\" "
         "specular=\"0.1 0.1 0.1\"/>\n"
         "    <map znear=\"0.00025000000000000001\" zfar=\"50\"/>\n"
         "    <scale forcewidth=\"0.01\" "
         "contactwidth=\"0.059999999999999998\" contactheight=\"0.01\" "
         "jointwidth=\"0.01\" framelength=\"0.29999999999999999\" "
         "framewidth=\"0.01\"/>\n"
         "  </visual>\n"
         "  <default>\n"
         "    <default class=\"/\"/>\n"
         "    <default class=\"" +
         p + "\">\n";
  for (const MjcfElement& child : Section("default").children) {
    AppendPrefixed(child, PrefixRules{p}, 6, &xml);
  }
  xml += "    </default>\n  </default>\n  <asset>\n" + BowlArena();
  // The skin's file, as the wheel ships it beside the walker.
  PrefixRules asset_rules{p};
  asset_rules.edit = [](const MjcfElement& element, auto* attributes) {
    for (auto& [key, value] : *attributes) {
      if (element.tag == "skin" && key == "file") {
        value = kPrefixedSkinFile;
      }
    }
  };
  for (const MjcfElement& child : Section("asset").children) {
    AppendPrefixed(child, asset_rules, 4, &xml);
  }
  xml +=
      "  </asset>\n  <worldbody>\n"
      "    <geom name=\"terrain\" class=\"/\" type=\"hfield\" "
      "material=\"aesthetic_material\" pos=\"0 0 -0.01\" "
      "hfield=\"terrain\"/>\n"
      "    <geom name=\"groundplane\" class=\"/\" type=\"plane\" size=\"20 "
      "20 0.5\" material=\"aesthetic_material\"/>\n"
      "    <body name=\"" +
      p + "\">\n      <freejoint name=\"" + p + "\"/>\n";
  const PrefixRules walker_rules{p, /*add_class=*/true};
  for (const MjcfElement& child : Section("worldbody").children) {
    AppendPrefixed(child, walker_rules, 6, &xml);
  }
  xml += "    </body>\n  </worldbody>\n  <contact>\n";
  for (const MjcfElement& child : Section("contact").children) {
    AppendPrefixed(child, PrefixRules{p}, 4, &xml);
  }
  xml += "  </contact>\n  <tendon>\n";
  for (const MjcfElement& child : Section("tendon").children) {
    AppendPrefixed(child, PrefixRules{p}, 4, &xml);
  }
  xml += "  </tendon>\n  <actuator>\n";
  for (const MjcfElement& child : Section("actuator").children) {
    AppendPrefixed(child, walker_rules, 4, &xml);
  }
  xml += "  </actuator>\n  <sensor>\n";
  for (const MjcfElement& child : Section("sensor").children) {
    AppendPrefixed(child, PrefixRules{p}, 4, &xml);
  }
  for (const char* body : kEndEffectors) {
    xml += "    <framepos name=\"" + p + body +
           "_end_effector\" objtype=\"xbody\" objname=\"" + p + body +
           "\" reftype=\"xbody\" refname=\"" + p + "torso\"/>\n";
  }
  xml += "  </sensor>\n</mujoco>\n";
  return xml;
}

namespace {

struct Key {
  std::string name;
  std::vector<int64_t> shape;
};

// dm_control's observation keys but the camera's, in its order
// (strip_singleton_obs_buffer_dim: no leading 1).
std::vector<Key> ObservationKeys(RodentTask /*task*/) {
  return {
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
      {"walker/origin", {3}},
  };
}

// The skin file (MuJoCo's binary .skn: counts, vertices, texture
// coordinates, faces, then per bone its body's name in 40 bytes, bind pose
// and vertex weights) with every bone's body name prefixed, as Composer's
// mjcf.skin.serialize writes it for the attached walker.
std::string PrefixedSkin(const std::string& skin, const std::string& prefix) {
  constexpr std::size_t kNameLength = 40;
  auto fail = [] {
    throw std::runtime_error(std::string(kSkinFile) +
                             " is not a MuJoCo skin file");
  };
  auto read_int = [&](std::size_t at) {
    if (at + 4 > skin.size()) {
      fail();
    }
    int32_t value = 0;
    std::memcpy(&value, skin.data() + at, 4);
    return static_cast<std::size_t>(value);
  };
  const std::size_t nvertex = read_int(0), ntexcoord = read_int(4);
  const std::size_t nface = read_int(8), nbone = read_int(12);
  std::size_t at = 16 + 4 * (3 * nvertex + 2 * ntexcoord + 3 * nface);
  if (at > skin.size()) {
    fail();
  }
  std::string out = skin.substr(0, at);
  for (std::size_t b = 0; b < nbone; ++b) {
    if (at + kNameLength > skin.size()) {
      fail();
    }
    const std::string name(skin.c_str() + at,
                           strnlen(skin.c_str() + at, kNameLength));
    const std::string prefixed = prefix + name;
    if (prefixed.size() > kNameLength) {
      throw std::runtime_error("the skin's body name " + prefixed +
                               " is longer than a skin file holds");
    }
    out += prefixed + std::string(kNameLength - prefixed.size(), '\0');
    at += kNameLength;
    const std::size_t count = read_int(at + 4 * 7);
    const std::size_t size = 4 * 7 + 4 + 8 * count;
    if (at + size > skin.size()) {
      fail();
    }
    out += skin.substr(at, size);
    at += size;
  }
  return out;
}

// The compiled model, once per process; each env copies it. The text and
// the prefixed skin are files of a virtual file system in the asset
// folder, so that MuJoCo finds the textures beside them.
const mjModel& BaseModel(RodentTask task) {
  static const mujoco_common::SharedModel model = [task] {
    const std::string folder =
        envpool::FamilyAssetDir(LocomotionAssets().family);
    const std::string path = folder + "/rodent_escape_bowl.xml";
    const std::string xml = RodentXml(task);
    const std::string skin = RodentSkin();
    mjVFS vfs;
    mj_defaultVFS(&vfs);
    mj_addBufferVFS(&vfs, path.c_str(), xml.data(),
                    static_cast<int>(xml.size()));
    const std::string skin_path = folder + "/" + kPrefixedSkinFile;
    mj_addBufferVFS(&vfs, skin_path.c_str(), skin.data(),
                    static_cast<int>(skin.size()));
    char error[1000] = "";
    mjModel* compiled = mj_loadXML(path.c_str(), &vfs, error, sizeof(error));
    mj_deleteVFS(&vfs);
    if (compiled == nullptr) {
      throw std::invalid_argument(
          std::string("cannot build the rodent's MuJoCo model: ") + error);
    }
    return mujoco_common::SharedModel(compiled, mj_deleteModel);
  }();
  return *model;
}

uint64_t NewHfieldStamp() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1);
}

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

std::string RodentSkin() {
  return PrefixedSkin(
      mujoco_common::ReadModelText(LocomotionAssets(), kSkinFile), kPrefix);
}

Options RodentEnv::TaskOptions(const std::string& task_name,
                               double time_limit) {
  // EnvPool 1.2.7's locomotion options; those of soccer only accept their
  // defaults here.
  return Options{
      {"max_episode_steps", int64_t{2147483647}},
      {"task_name", task_name},
      {"team_size", int64_t{2}},
      {"time_limit", time_limit},
      {"disable_walker_contacts", false},
      {"enable_field_box", false},
      {"terminate_on_goal", true},
      {"keep_aspect_ratio", false},
  };
}

void RodentEnv::Declare(const Options& options, EnvSpec* spec, Fields* fields) {
  const std::string task = options.Get<std::string>("task_name");
  if (task != "rodent_escape_bowl") {
    throw std::invalid_argument(
        "option 'task_name' of DmcRodentEscapeBowl must be "
        "'rodent_escape_bowl', got '" +
        task + "'");
  }
  const double time_limit = options.Get<double>("time_limit");
  if (!(time_limit > 0.0)) {
    throw std::invalid_argument(
        "option 'time_limit' must be a positive number of seconds, got " +
        std::to_string(time_limit));
  }
  if (options.Get<int64_t>("team_size") != 2 ||
      options.Get<bool>("disable_walker_contacts") ||
      options.Get<bool>("enable_field_box") ||
      !options.Get<bool>("terminate_on_goal") ||
      options.Get<bool>("keep_aspect_ratio")) {
    throw std::invalid_argument(
        "options 'team_size', 'disable_walker_contacts', 'enable_field_box', "
        "'terminate_on_goal' and 'keep_aspect_ratio' are soccer's: " +
        task + " takes only their defaults");
  }
  spec->snapshots = true;
  fields->obs.clear();
  std::vector<Key> keys = ObservationKeys(RodentTask::kEscapeBowl);
  for (const Key& key : keys) {
    ArraySpec array;
    array.name = "obs:" + key.name;
    array.dtype = DType::kFloat64;
    array.shape = key.shape;
    array.low = {-kInf};
    array.high = {kInf};
    fields->obs.push_back(spec->state.Add<double>(array));
  }
  fields->camera =
      spec->state.Add<uint8_t>("obs:walker/egocentric_camera",
                               {kCameraSize, kCameraSize, 3}, {0.0}, {255.0});
  ArraySpec action;
  action.name = "action";
  action.dtype = DType::kFloat64;
  action.shape = {38};
  action.low = {-1.0};
  action.high = {1.0};
  fields->action = spec->action.Add<double>(action);
}

RodentEnv::RodentEnv(const Options& options, const Fields& fields)
    : task_(RodentTask::kEscapeBowl),
      time_limit_(options.Get<double>("time_limit")),
      fields_(fields) {
  const std::vector<Key> keys = ObservationKeys(task_);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    obs_index_[keys[i].name] = static_cast<int>(i);
  }
  for (const char* file :
       {kWalkerModel, kSkinFile, kGroundTexture, kSkyTexture}) {
    mujoco_common::ResolveModelPath(LocomotionAssets(), file);
  }
  model_.reset(mj_copyModel(nullptr, &BaseModel(task_)));
  data_.reset(mj_makeData(model_.get()));
  if (model_ == nullptr || data_ == nullptr) {
    throw std::runtime_error("cannot allocate the MuJoCo model");
  }
  const mjModel* m = model_.get();
  const std::string p = kPrefix;
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
  terrain_hfield_ = id(mjOBJ_HFIELD, "terrain");
  free_qpos_ = m->jnt_qposadr[id(mjOBJ_JOINT, p)];
  // observable_joints: the joints of the actuators that drive one.
  for (int a = 0; a < m->nu; ++a) {
    if (m->actuator_trntype[a] == mjTRN_JOINT) {
      const int joint = m->actuator_trnid[2 * a];
      joint_qpos_.push_back(m->jnt_qposadr[joint]);
      joint_qvel_.push_back(m->jnt_dofadr[joint]);
    }
  }
  for (const char* body : kEndEffectors) {
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
  if (seed >> 32 == 0) {
    random_ = random::RandomState(static_cast<uint32_t>(seed));
  } else {
    random_ = random::RandomState(std::vector<uint32_t>{
        static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)});
  }
}

// Physics.after_reset: mj_forward with the actuation disabled.
void RodentEnv::AfterReset() {
  const int flags = model_->opt.disableflags;
  model_->opt.disableflags = flags | mjDSBL_ACTUATION;
  mj_forward(model_.get(), data_.get());
  model_->opt.disableflags = flags;
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

void RodentEnv::Reset() {
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
  hfield_stamp_ = NewHfieldStamp();
  AfterReset();
  has_episode_ = true;
  reward_ = 0.0;
  terminated_ = false;
  truncated_ = false;
}

void RodentEnv::Step(const ActionView& action) {
  mjData* d = data_.get();
  const double* a = action.Get(fields_.action);
  for (int i = 0; i < model_->nu; ++i) {
    d->ctrl[i] = a[i];
  }
  for (int i = 0; i < kSubSteps; ++i) {
    mj_step2(model_.get(), d);
    mj_step1(model_.get(), d);
  }
  // No forward pass after the substeps: unlike the CMU humanoid's
  // go-to-target, the rodent's observations read the last mj_step2's
  // sensors (the accelerometer differs otherwise).
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
  // Escape's origin: -torso_pos . torso_frame.
  double* origin = Obs(out, "walker/origin");
  for (int j = 0; j < 3; ++j) {
    origin[j] =
        -(xpos[0] * xmat[j] + xpos[1] * xmat[3 + j] + xpos[2] * xmat[6 + j]);
  }
  RenderCamera(out.Get(fields_.camera));
}

std::vector<double> RodentEnv::GetState() const {
  const mjModel* m = model_.get();
  const mjData* d = data_.get();
  std::vector<double> state(d->qpos, d->qpos + m->nq);
  state.insert(state.end(), d->qvel, d->qvel + m->nv);
  state.insert(state.end(), d->act, d->act + m->na);
  state.insert(state.end(), d->qacc_warmstart, d->qacc_warmstart + m->nv);
  return state;
}

void RodentEnv::SaveState(StateWriter* writer) const {
  std::vector<mjtNum> state;
  mujoco_common::GetIntegrationState(model_.get(), data_.get(), &state);
  const std::vector<mjtNum> sensors(data_->sensordata,
                                    data_->sensordata + model_->nsensordata);
  const float* hfield =
      model_->hfield_data + model_->hfield_adr[terrain_hfield_];
  const std::vector<float> terrain(
      hfield, hfield + model_->hfield_nrow[terrain_hfield_] *
                           model_->hfield_ncol[terrain_hfield_]);
  writer->Put(random_, has_episode_, terrain, state, sensors);
}

void RodentEnv::LoadState(StateReader* reader) {
  random::RandomState random{uint32_t{0}};
  bool has_episode = false;
  std::vector<float> terrain;
  std::vector<mjtNum> state, sensors;
  reader->Get(&random, &has_episode, &terrain, &state, &sensors);
  const int samples = model_->hfield_nrow[terrain_hfield_] *
                      model_->hfield_ncol[terrain_hfield_];
  if (static_cast<int>(state.size()) !=
          mj_stateSize(model_.get(), mujoco_common::kIntegrationState) ||
      static_cast<int>(sensors.size()) != model_->nsensordata ||
      static_cast<int>(terrain.size()) != samples) {
    throw SnapshotError("the rodent's state is not of this model");
  }
  random_ = random;
  has_episode_ = has_episode;
  std::copy(terrain.begin(), terrain.end(),
            model_->hfield_data + model_->hfield_adr[terrain_hfield_]);
  hfield_stamp_ = NewHfieldStamp();
  mujoco_common::SetIntegrationState(model_.get(), data_.get(), state);
  mj_step1(model_.get(), data_.get());
  std::copy(sensors.begin(), sensors.end(), data_->sensordata);
}

}  // namespace envpool::locomotion
