#include "envpool/locomotion/go_to_target.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>

#include "envpool/core/numpy_kernels.h"
#include "envpool/locomotion/mjcf_reader.h"
#include "envpool/locomotion/physics_render.h"
#include "envpool/locomotion/soccer_model.h"
#include "envpool/locomotion/task_options.h"
#include "envpool/mujoco_common/numpy_math.h"
#include "envpool/mujoco_common/physics.h"
#include "envpool/mujoco_common/state.h"

namespace envpool::locomotion {
namespace {

const char* const kWalkerModel = "walkers/humanoid_CMU_V2019.xml";
const char* const kPrefix = "walker/";
// floors.Floor's defaults (its size: the plane's half extents) and
// go_to_target.py's.
constexpr double kFloorSize = 8.0;
constexpr double kTopCameraPadding = 1.1;
constexpr double kTopCameraDistance = 100.0;
constexpr double kDistanceTolerance = 1.0;
constexpr int kSubSteps = 6;  // control 0.03 s / physics 0.005 s

// cmu_humanoid.py's _POSITION_ACTUATORS: joint, force range +-, kp.
struct PositionActuator {
  const char* joint;
  double force;
  double kp;
};
constexpr PositionActuator kActuators[] = {
    {"headrx", 20, 20},        {"headry", 20, 20},
    {"headrz", 20, 20},        {"lclaviclery", 20, 20},
    {"lclaviclerz", 20, 20},   {"lfemurrx", 120, 120},
    {"lfemurry", 80, 80},      {"lfemurrz", 80, 80},
    {"lfingersrx", 20, 20},    {"lfootrx", 50, 50},
    {"lfootrz", 50, 50},       {"lhandrx", 20, 20},
    {"lhandrz", 20, 20},       {"lhumerusrx", 60, 60},
    {"lhumerusry", 60, 60},    {"lhumerusrz", 60, 60},
    {"lowerbackrx", 120, 150}, {"lowerbackry", 120, 150},
    {"lowerbackrz", 120, 150}, {"lowerneckrx", 20, 20},
    {"lowerneckry", 20, 20},   {"lowerneckrz", 20, 20},
    {"lradiusrx", 60, 60},     {"lthumbrx", 20, 20},
    {"lthumbrz", 20, 20},      {"ltibiarx", 80, 80},
    {"ltoesrx", 20, 20},       {"lwristry", 20, 20},
    {"rclaviclery", 20, 20},   {"rclaviclerz", 20, 20},
    {"rfemurrx", 120, 120},    {"rfemurry", 80, 80},
    {"rfemurrz", 80, 80},      {"rfingersrx", 20, 20},
    {"rfootrx", 50, 50},       {"rfootrz", 50, 50},
    {"rhandrx", 20, 20},       {"rhandrz", 20, 20},
    {"rhumerusrx", 60, 60},    {"rhumerusry", 60, 60},
    {"rhumerusrz", 60, 60},    {"rradiusrx", 60, 60},
    {"rthumbrx", 20, 20},      {"rthumbrz", 20, 20},
    {"rtibiarx", 80, 80},      {"rtoesrx", 20, 20},
    {"rwristry", 20, 20},      {"thoraxrx", 80, 100},
    {"thoraxry", 80, 100},     {"thoraxrz", 80, 100},
    {"upperbackrx", 80, 80},   {"upperbackry", 80, 80},
    {"upperbackrz", 80, 80},   {"upperneckrx", 20, 20},
    {"upperneckry", 20, 20},   {"upperneckrz", 20, 20},
};
constexpr int kNumActuators = sizeof(kActuators) / sizeof(kActuators[0]);
static_assert(kNumActuators == kCmuWalkerActions,
              "the action is one entry per position actuator");
const char* const kEndEffectors[] = {"rradius", "lradius", "rfoot", "lfoot"};

const MjcfElement& Walker() {
  static const MjcfElement walker =
      ParseMjcf(mujoco_common::ReadModelText(LocomotionAssets(), kWalkerModel),
                kWalkerModel);
  return walker;
}

const MjcfElement& Section(const char* tag) {
  return WalkerSection(Walker(), tag, kWalkerModel, "CMU humanoid");
}

const MjcfElement* FindJoint(const MjcfElement& element,
                             const std::string& name) {
  for (const MjcfElement& child : element.children) {
    if (child.tag == "joint" && child.Get("name") == name) {
      return &child;
    }
    if (const MjcfElement* found = FindJoint(child, name)) {
      return found;
    }
  }
  return nullptr;
}

std::string Number(double x) { return MjcfNumber(x); }

// scaled_actuators.add_position_actuator's gain and bias, ctrlrange (-1, 1).
std::string PositionActuatorXml(const PositionActuator& actuator) {
  const MjcfElement* joint = FindJoint(Section("worldbody"), actuator.joint);
  if (joint == nullptr) {
    throw std::runtime_error(std::string(kWalkerModel) + " has no joint " +
                             actuator.joint);
  }
  const std::string range = joint->Get("range");
  char* end = nullptr;
  const double low = std::strtod(range.c_str(), &end);
  const double high = std::strtod(end, nullptr);
  const double kp = actuator.kp;
  const double slope = (high - low) / (1.0 - -1.0);
  const double g0 = kp * slope;
  const double b0 = kp * (low - slope * -1.0);
  const double b1 = -kp;
  const std::string p = kPrefix;
  return "    <general name=\"" + p + actuator.joint + "\" class=\"" + p +
         "\" ctrlrange=\"-1 1\" ctrllimited=\"true\" forcerange=\"" +
         Number(-actuator.force) + " " + Number(actuator.force) +
         "\" joint=\"" + p + actuator.joint +
         "\" biastype=\"affine\" gainprm=\"" + Number(g0) + "\" biasprm=\"" +
         Number(b0) + " " + Number(b1) + " 0\"/>\n";
}

}  // namespace

std::string CmuHumanoidTaskXml(const CmuArenaXml& arena) {
  const std::string p = kPrefix;
  const PrefixRules walker_rules{p, /*add_class=*/true};
  std::string xml =
      "<mujoco model=\"" + arena.model +
      "\">\n"
      "  <compiler boundmass=\"1.0000000000000001e-05\" "
      "boundinertia=\"9.9999999999999994e-12\" coordinate=\"local\" "
      "angle=\"radian\" eulerseq=\"xyz\"/>\n"
      "  <option timestep=\"" +
      Number(arena.timestep) +
      "\" noslip_tolerance=\"0\" "
      "cone=\"elliptic\" noslip_iterations=\"5\"/>\n"
      "  <size njmax=\"500\" nconmax=\"500\"/>\n"
      "  <visual>\n"
      "    <headlight " +
      arena.headlight +
      "/>\n"
      "    <map " +
      arena.map +
      "/>\n"
      "    <scale forcewidth=\"0.01\" contactwidth=\"0.059999999999999998\" "
      "contactheight=\"0.01\" jointwidth=\"0.01\" "
      "framelength=\"0.29999999999999999\" framewidth=\"0.01\"/>\n"
      "  </visual>\n"
      "  <default>\n" +
      arena.defaults_before + "    <default class=\"" + p + "\">\n";
  // The walker's defaults; CMUHumanoidPositionControlled limits the force
  // of every general actuator.
  PrefixRules default_rules{p};
  default_rules.edit = [](const MjcfElement& element, auto* attributes) {
    if (element.tag == "general") {
      attributes->emplace_back("forcelimited", "true");
    }
  };
  for (const MjcfElement& child : Section("default").children) {
    AppendPrefixed(child, default_rules, 6, &xml);
  }
  xml += "    </default>\n" + arena.defaults_after +
         "  </default>\n"
         "  <asset>\n" +
         arena.assets;
  for (const MjcfElement& child : Section("asset").children) {
    AppendPrefixed(child, walker_rules, 4, &xml);
  }
  xml += arena.assets_after + "  </asset>\n  <worldbody>\n" +
         arena.before_walker + "    <body name=\"" + p +
         "\">\n      <freejoint name=\"" + p + "\"/>\n";
  for (const MjcfElement& child : Section("worldbody").children) {
    AppendPrefixed(child, walker_rules, 6, &xml);
  }
  xml += "    </body>\n" + arena.after_walker + "  </worldbody>\n  <contact>\n";
  int counter = 0;
  for (const MjcfElement& child : Section("contact").children) {
    MjcfElement named = child;
    if (named.Get("name").empty()) {
      named.attributes.insert(
          named.attributes.begin(),
          {"name", "/unnamed_contact_" + std::to_string(counter++)});
    }
    AppendPrefixed(named, PrefixRules{p}, 4, &xml);
  }
  xml += "  </contact>\n  <actuator>\n";
  for (const PositionActuator& actuator : kActuators) {
    xml += PositionActuatorXml(actuator);
  }
  xml += "  </actuator>\n  <sensor>\n";
  for (const MjcfElement& child : Section("sensor").children) {
    AppendPrefixed(child, PrefixRules{p}, 4, &xml);
  }
  for (const char* body : kEndEffectors) {
    xml += "    <framepos name=\"" + p + body +
           "_end_effector\" objtype=\"xbody\" objname=\"" + p + body +
           "\" reftype=\"xbody\" refname=\"" + p + "root\"/>\n";
  }
  xml += "  </sensor>\n</mujoco>\n";
  return xml;
}

std::string GoToTargetXml(double target_x, double target_y) {
  // floors.Floor: the checker ground plane and the top camera; the target
  // site after the walker.
  CmuArenaXml arena;
  arena.model = "floor";
  arena.map = "znear=\"0.01\"";
  arena.assets =
      "    <texture name=\"groundplane\" class=\"/\" type=\"2d\" "
      "builtin=\"checker\" rgb1=\"0.2 0.3 0.4\" rgb2=\"0.1 0.2 0.3\" "
      "mark=\"edge\" markrgb=\"0.8 0.8 0.8\" width=\"200\" height=\"200\"/>\n"
      "    <material name=\"groundplane\" class=\"/\" texture=\"groundplane\" "
      "texrepeat=\"2 2\" texuniform=\"true\" reflectance=\"0.2\"/>\n";
  const double fovy = 2 *
                      numpy_kernels::Arctan2(kTopCameraPadding * kFloorSize,
                                             kTopCameraDistance) *
                      (180.0 / M_PI);
  arena.before_walker =
      "    <geom name=\"groundplane\" class=\"/\" type=\"plane\" size=\"8 "
      "8 0.25\" material=\"groundplane\"/>\n"
      "    <camera name=\"top_camera\" class=\"/\" fovy=\"" +
      Number(fovy) + "\" pos=\"0 0 100\" quat=\"1 0 0 0\"/>\n";
  arena.after_walker =
      "    <site name=\"target\" class=\"/\" type=\"sphere\" pos=\"" +
      Number(target_x) + " " + Number(target_y) +
      " 0\" size=\"0.10000000000000001\" rgba=\"0.90000000000000002 "
      "0.59999999999999998 0.59999999999999998 1\"/>\n";
  return CmuHumanoidTaskXml(arena);
}

namespace {

// dm_control's observation keys: the walker's, then the target's.
std::vector<ObservationKey> ObservationKeys() {
  std::vector<ObservationKey> keys = CmuWalkerObservationKeys();
  keys.push_back({"walker/target", {3}});
  return keys;
}

// The compiled model with the target at the origin, once per process; each
// env copies it.
const mjModel& BaseModel() {
  static const mujoco_common::SharedModel model =
      mujoco_common::LoadModelFromText(LocomotionAssets(), "go_to_target",
                                       GoToTargetXml(0.0, 0.0));
  return *model;
}

}  // namespace

Options GoToTargetEnv::DefaultOptions() {
  return LocomotionOptions("cmu_humanoid_go_to_target", 30.0);
}

void GoToTargetEnv::Declare(const Options& options, EnvSpec* spec,
                            Fields* fields) {
  const std::string task = options.Get<std::string>("task_name");
  if (task != "cmu_humanoid_go_to_target") {
    throw std::invalid_argument(
        "option 'task_name' of DmcCmuHumanoidGoToTarget must be "
        "'cmu_humanoid_go_to_target', got '" +
        task + "'");
  }
  CheckedTimeLimit(options);
  RequireSoccerDefaults(options, task);
  DeclareCmuTask(ObservationKeys(), false, spec, fields);
  DeclarePhysicsRendering(options, kSubSteps * 0.005, BaseModel().ncam, spec);
}

GoToTargetEnv::GoToTargetEnv(const Options& options, const Fields& fields)
    : time_limit_(options.Get<double>("time_limit")), fields_(fields) {
  const std::vector<ObservationKey> keys = ObservationKeys();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    obs_index_[keys[i].name] = static_cast<int>(i);
  }
  // The walker's file is there in this asset folder (an option of the
  // family), then its model is compiled once per process.
  mujoco_common::ResolveModelPath(LocomotionAssets(), kWalkerModel);
  model_.reset(mj_copyModel(nullptr, &BaseModel()));
  model_stamp_ = render::NewStamp();
  data_.reset(mj_makeData(model_.get()));
  if (model_ == nullptr || data_ == nullptr) {
    throw std::runtime_error("cannot allocate the MuJoCo model");
  }
  const mjModel* m = model_.get();
  walker_ = std::make_unique<CmuWalker>(m);
  auto id = [m](mjtObj type, const std::string& name) {
    return mujoco_common::ObjectId(m, type, name.c_str());
  };
  target_site_ = id(mjOBJ_SITE, "target");
  // The target moves by its site_pos (as the episode's compile places it):
  // its frame is not the world body's, whose it shares at the origin.
  model_->site_sameframe[target_site_] = 0;
  ground_geom_.assign(m->ngeom, false);
  ground_geom_[id(mjOBJ_GEOM, "groundplane")] = true;
  // go_to_target.py adds the target site's element id to its set of ground
  // geom ids: the geom with that id counts as ground.
  if (target_site_ < m->ngeom) {
    ground_geom_[target_site_] = true;
  }
}

void GoToTargetEnv::OnSeed(uint64_t seed) {
  random_ = random::RandomState::FromSeed(seed);
}

void GoToTargetEnv::AfterReset() {
  mujoco_common::ForwardWithoutActuation(model_.get(), data_.get());
}

void GoToTargetEnv::Reset() {
  mjModel* m = model_.get();
  mjData* d = data_.get();
  // initialize_episode_mjcf: the target, anywhere on the floor
  // (Uniform(-size / 2, size / 2)).
  const double half = kFloorSize / 2;
  const double target_x = random_.Uniform(-half, half);
  const double target_y = random_.Uniform(-half, half);
  double* site = m->site_pos + 3 * target_site_;
  site[0] = target_x;
  site[1] = target_y;
  site[2] = 0.0;
  mj_resetData(m, d);
  AfterReset();
  // UprightInitializer, then shift_pose by the walker's spawn position.
  const double x = random_.Uniform(-half, half);
  const double y = random_.Uniform(-half, half);
  walker_->PlaceUpright(m, d, x, y);
  AfterReset();
  has_episode_ = true;
  failed_ = false;
  reward_ = 0.0;
  terminated_ = false;
  truncated_ = false;
}

void GoToTargetEnv::Step(const ActionView& action) {
  mjData* d = data_.get();
  const double* a = action.Get(fields_.action);
  for (int i = 0; i < kCmuWalkerActions; ++i) {
    d->ctrl[i] = a[i];
  }
  for (int i = 0; i < kSubSteps; ++i) {
    mj_step2(model_.get(), d);
    mj_step1(model_.get(), d);
  }
  failed_ = walker_->NonFootContact(d, ground_geom_);
  // dm_control's mjcf Physics marks itself dirty when the action is written
  // through a binding, and the first observable read through one after the
  // substeps runs mj_forward: the accelerometer and touch sensors are then
  // those of the new state, not of the last mj_step2. (Soccer reads the
  // ball through a binding before its substeps, so its forward comes
  // first and changes nothing.)
  mj_forward(model_.get(), d);
  const double* target = model_->site_pos + 3 * target_site_;
  const double* xpos = d->xpos + 3 * walker_->root_body();
  const double delta[2] = {target[0] - xpos[0], target[1] - xpos[1]};
  reward_ = mujoco_common::NumpyNorm(delta, 2) < kDistanceTolerance ? 1.0 : 0.0;
  terminated_ = failed_;
  truncated_ = !failed_ && d->time >= time_limit_;
}

double* GoToTargetEnv::Obs(const Output& out, const char* key) const {
  return out.Get(fields_.obs[obs_index_.at(key)]);
}

void GoToTargetEnv::Write(const Output& out) {
  const mjData* d = data_.get();
  walker_->Write(d, [&](const char* key) { return Obs(out, key); });
  walker_->Egocentric(d, model_->site_pos + 3 * target_site_,
                      Obs(out, "walker/target"));
}

void GoToTargetEnv::Render(int width, int height, int camera_id, uint8_t* rgb) {
  // Composer compiles each episode's model with the target where the
  // episode drew it, and the compiler's statistics (the free camera's
  // distance and lookat, the clip planes) take the target in. This env moves
  // the target in its copy of one model: a frame of a new target position
  // takes the statistics of that position's compile (once per episode, and
  // only for frames).
  mjModel* m = model_.get();
  const double* target = m->site_pos + 3 * target_site_;
  if (!(stat_target_[0] == target[0] && stat_target_[1] == target[1])) {
    const mujoco_common::ModelPtr episode = mujoco_common::CompileText(
        envpool::FamilyAssetDir(LocomotionAssets().family) +
            "/go_to_target.xml",
        GoToTargetXml(target[0], target[1]), "the go-to-target MuJoCo model");
    m->stat = episode->stat;
    stat_target_ = {target[0], target[1]};
  }
  RenderPhysics(&frame_renderer_, model_.get(), model_stamp_, 0, data_.get(),
                width, height, camera_id, rgb);
}

std::vector<double> GoToTargetEnv::GetState() const {
  return mujoco_common::SimulationState(model_.get(), data_.get());
}

void GoToTargetEnv::SaveState(StateWriter* writer) const {
  std::vector<mjtNum> state;
  mujoco_common::GetIntegrationState(model_.get(), data_.get(), &state);
  const std::vector<mjtNum> sensors(data_->sensordata,
                                    data_->sensordata + model_->nsensordata);
  const double* target = model_->site_pos + 3 * target_site_;
  const std::array<double, 3> target_pos{target[0], target[1], target[2]};
  writer->Put(random_, has_episode_, failed_, target_pos, state, sensors);
}

void GoToTargetEnv::LoadState(StateReader* reader) {
  random::RandomState random{uint32_t{0}};
  bool has_episode = false;
  bool failed = false;
  std::array<double, 3> target_pos{};
  std::vector<mjtNum> state, sensors;
  reader->Get(&random, &has_episode, &failed, &target_pos, &state, &sensors);
  if (static_cast<int>(state.size()) !=
          mj_stateSize(model_.get(), mujoco_common::kIntegrationState) ||
      static_cast<int>(sensors.size()) != model_->nsensordata) {
    throw SnapshotError("the go-to-target state is not of this model");
  }
  random_ = random;
  has_episode_ = has_episode;
  failed_ = failed;
  std::copy(target_pos.begin(), target_pos.end(),
            model_->site_pos + 3 * target_site_);
  mujoco_common::SetIntegrationState(model_.get(), data_.get(), state);
  mj_step1(model_.get(), data_.get());
  std::copy(sensors.begin(), sensors.end(), data_->sensordata);
}

}  // namespace envpool::locomotion
