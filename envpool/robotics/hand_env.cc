#include "envpool/robotics/hand_env.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

#include "envpool/mujoco_common/numpy_math.h"
#include "envpool/mujoco_common/spec.h"
#include "envpool/render/mujoco_egl.h"
#include "envpool/robotics/rotations.h"

namespace envpool::robotics {
namespace {

using rotations::Euler;
using rotations::Euler2Mat;
using rotations::Euler2Quat;
using rotations::Mat2Euler;
using rotations::Quat;
using rotations::Quat2Mat;
using rotations::QuatConjugate;
using rotations::QuatMul;

constexpr double kPi = 3.14159265358979323846;

// reach.py's DEFAULT_INITIAL_QPOS.
const std::pair<const char*, double> kReachInitialQpos[] = {
    {"robot0:WRJ1", -0.16514339750464327},
    {"robot0:WRJ0", -0.31973286565062153},
    {"robot0:FFJ3", 0.14340512546557435},
    {"robot0:FFJ2", 0.32028208333591573},
    {"robot0:FFJ1", 0.7126053607727917},
    {"robot0:FFJ0", 0.6705281001412586},
    {"robot0:MFJ3", 0.000246444303701037},
    {"robot0:MFJ2", 0.3152655251085491},
    {"robot0:MFJ1", 0.7659800313729842},
    {"robot0:MFJ0", 0.7323156897425923},
    {"robot0:RFJ3", 0.00038520700007378114},
    {"robot0:RFJ2", 0.36743546201985233},
    {"robot0:RFJ1", 0.7119514095008576},
    {"robot0:RFJ0", 0.6699446327514138},
    {"robot0:LFJ4", 0.0525442258033891},
    {"robot0:LFJ3", -0.13615534724474673},
    {"robot0:LFJ2", 0.39872030433433003},
    {"robot0:LFJ1", 0.7415570009679252},
    {"robot0:LFJ0", 0.704096378652974},
    {"robot0:THJ4", 0.003673823825070126},
    {"robot0:THJ3", 0.5506291436028695},
    {"robot0:THJ2", -0.014515151997119306},
    {"robot0:THJ1", -0.0015229223564485414},
    {"robot0:THJ0", -0.7894883021600622},
};

// reach.py's FINGERTIP_SITE_NAMES; the thumb is the last.
const char* const kFingertips[] = {"robot0:S_fftip", "robot0:S_mftip",
                                   "robot0:S_rftip", "robot0:S_lftip",
                                   "robot0:S_thtip"};

// rotations.get_parallel_rotations, as quaternions (euler2quat of each).
std::vector<Quat> ParallelQuats() {
  const double mult90[4] = {0.0, kPi / 2, -kPi / 2, kPi};
  std::vector<Euler> rotations;
  for (double a : mult90) {
    for (double b : mult90) {
      for (double c : mult90) {
        Euler canonical = Mat2Euler(Euler2Mat({a, b, c}));
        for (double& v : canonical) {
          v = std::nearbyint(v / (kPi / 2));
        }
        if (canonical[0] == -2) {
          canonical[0] = 2;
        }
        if (canonical[2] == -2) {
          canonical[2] = 2;
        }
        for (double& v : canonical) {
          v *= kPi / 2;
        }
        const bool is_new =
            std::all_of(rotations.begin(), rotations.end(),
                        [&](const Euler& r) { return r != canonical; });
        if (is_new) {
          rotations.push_back(canonical);
        }
      }
    }
  }
  std::vector<Quat> quats;
  quats.reserve(rotations.size());
  for (const Euler& r : rotations) {
    quats.push_back(Euler2Quat(r));
  }
  return quats;
}

// manipulate.py's quat_from_angle_and_axis.
Quat QuatFromAngleAndAxis(double angle, Euler axis) {
  const double axis_norm = mujoco_common::NumpyNorm(axis.data(), 3);
  for (double& v : axis) {
    v /= axis_norm;
  }
  const double s = std::sin(angle / 2.0);
  Quat q{std::cos(angle / 2.0), s * axis[0], s * axis[1], s * axis[2]};
  const double norm = mujoco_common::NumpyNorm(q.data(), 4);
  for (double& v : q) {
    v /= norm;
  }
  return q;
}

template <typename T>
T OneOf(const Options& options, const char* name,
        const std::vector<std::pair<std::string, T>>& values) {
  const auto value = options.Get<std::string>(name);
  std::string names;
  for (const auto& [text, result] : values) {
    if (value == text) {
      return result;
    }
    names += (names.empty() ? "'" : ", '") + text + "'";
  }
  throw std::invalid_argument(std::string("option '") + name +
                              "' must be one of " + names + ", got '" + value +
                              "'");
}

bool IsReach(const Options& options) {
  return OneOf<bool>(options, "hand_task",
                     {{"reach", true}, {"manipulate", false}});
}

void CheckPositive(const Options& options, const char* name) {
  const auto value = options.Get<double>(name);
  if (!(value > 0.0) || !std::isfinite(value)) {
    throw std::invalid_argument(std::string("option '") + name +
                                "' must be a positive number, got " +
                                FloatText(value));
  }
}

int JointQposAddress(const mjModel* model, const char* name) {
  return model->jnt_qposadr[mujoco_common::ObjectId(model, mjOBJ_JOINT, name)];
}

std::vector<int> RobotJoints(const mjModel* model) {
  std::vector<int> joints;
  for (int j = 0; j < model->njnt; ++j) {
    const char* name = mj_id2name(model, mjOBJ_JOINT, j);
    if (name != nullptr && std::strncmp(name, "robot", 5) == 0) {
      joints.push_back(j);
    }
  }
  return joints;
}

std::vector<int> TouchSensors(const mjModel* model) {
  std::vector<int> sensors;
  for (int s = 0; s < model->nsensor; ++s) {
    const char* name = mj_id2name(model, mjOBJ_SENSOR, s);
    if (name != nullptr && std::strstr(name, "robot0:TS_") != nullptr) {
      sensors.push_back(s);
    }
  }
  return sensors;
}

// The sizes the model gives: observation, goal.
std::pair<int, int> Dims(const Options& options, const mjModel& model) {
  const int robot = static_cast<int>(RobotJoints(&model).size());
  if (IsReach(options)) {
    return {2 * robot + 15, 15};
  }
  const bool touch = options.Get<std::string>("touch_get_obs") != "off";
  const int sensors = touch ? static_cast<int>(TouchSensors(&model).size()) : 0;
  return {2 * robot + 6 + 7 + sensors, 7};
}

}  // namespace

Options HandEnv::DefaultOptions() {
  // HandReach's; registration.py sets each task's.
  return Options{
      {"max_episode_steps", int64_t{50}},
      {"frame_skip", int64_t{20}},
      {"frame_stack", int64_t{1}},
      {"xml_file", std::string("hand/reach.xml")},
      {"hand_task", std::string("reach")},
      {"reward_type", std::string("sparse")},
      {"distance_threshold", 0.01},
      {"rotation_threshold", 0.1},
      {"relative_control", false},
      {"target_position", std::string("ignore")},
      {"target_rotation", std::string("ignore")},
      {"target_position_low0", -0.04},
      {"target_position_low1", -0.06},
      {"target_position_low2", 0.0},
      {"target_position_high0", 0.04},
      {"target_position_high1", 0.02},
      {"target_position_high2", 0.06},
      {"randomize_initial_position", false},
      {"randomize_initial_rotation", false},
      {"ignore_z_target_rotation", false},
      {"touch_get_obs", std::string("off")},
      {"touch_visualisation", std::string("off")},
      // EnvPool 1.2.7's sizes; they must agree with the model.
      {"obs_dim", int64_t{63}},
      {"goal_dim", int64_t{15}},
      {"qpos_dim", int64_t{24}},
      {"qvel_dim", int64_t{24}},
  };
}

void HandEnv::Declare(const Options& options, EnvSpec* spec, Fields* fields) {
  DenseReward(options);
  CheckFrameStack(options);
  CheckPositive(options, "distance_threshold");
  CheckPositive(options, "rotation_threshold");
  const bool reach = IsReach(options);
  OneOf<int>(options, "target_position",
             {{"ignore", 0}, {"fixed", 1}, {"random", 2}});
  OneOf<int>(
      options, "target_rotation",
      {{"ignore", 0}, {"fixed", 1}, {"xyz", 2}, {"z", 3}, {"parallel", 4}});
  OneOf<int>(options, "touch_get_obs",
             {{"off", 0}, {"sensordata", 1}, {"boolean", 2}, {"log", 3}});
  OneOf<int>(options, "touch_visualisation",
             {{"off", 0}, {"on_touch", 1}, {"always", 2}});
  for (int k = 0; k < 3; ++k) {
    const std::string low = "target_position_low" + std::to_string(k);
    const std::string high = "target_position_high" + std::to_string(k);
    const double lo = options.Get<double>(low);
    const double hi = options.Get<double>(high);
    if (!std::isfinite(lo) || !std::isfinite(hi) || hi < lo) {
      throw std::invalid_argument("options '" + low + "' and '" + high +
                                  "' must be finite with low <= high, got " +
                                  FloatText(lo) + " and " + FloatText(hi));
    }
  }
  const auto xml_file = options.Get<std::string>("xml_file");
  const auto model = mujoco_common::LoadModel(RoboticsModels(), xml_file);
  if (model->nu != 20) {
    throw std::invalid_argument(
        "option 'xml_file': a Shadow Hand model has 20 "
        "actuators, " +
        xml_file + " has " + std::to_string(model->nu));
  }
  if (!reach && mj_name2id(model.get(), mjOBJ_JOINT, "object:joint") < 0) {
    throw std::invalid_argument(
        "option 'xml_file': a manipulate model has a "
        "joint 'object:joint', " +
        xml_file + " has none");
  }
  const auto [obs_dim, goal_dim] = Dims(options, *model);
  const int robot = static_cast<int>(RobotJoints(model.get()).size());
  const std::pair<const char*, int> sizes[] = {
      {"obs_dim", obs_dim},
      {"goal_dim", goal_dim},
      {"qpos_dim", reach ? robot : model->nq},
      {"qvel_dim", reach ? robot : model->nv}};
  for (const auto& [name, size] : sizes) {
    if (options.Get<int64_t>(name) != size) {
      throw std::invalid_argument(std::string("option '") + name +
                                  "' must be " + std::to_string(size) +
                                  " (what " + xml_file + " gives), got " +
                                  std::to_string(options.Get<int64_t>(name)));
    }
  }
  DeclareGoalSpaces(obs_dim, goal_dim, 20, spec, &fields->goal);
  fields->is_success = spec->state.Add<float>("info:is_success", {});
  mujoco_common::DeclareModelRendering(options, *model, 480, 480, spec);
  spec->snapshots = true;
}

HandEnv::HandEnv(const Options& options, const Fields& fields)
    : fields_(fields),
      shared_model_(mujoco_common::LoadModel(
          RoboticsModels(), options.Get<std::string>("xml_file"))),
      model_(shared_model_.get()),
      data_(mj_makeData(model_)),
      reach_(IsReach(options)),
      frame_skip_(static_cast<int>(mujoco_common::FrameSkip(options))),
      dense_(DenseReward(options)),
      relative_control_(options.Get<bool>("relative_control")),
      distance_threshold_(options.Get<double>("distance_threshold")),
      rotation_threshold_(options.Get<double>("rotation_threshold")),
      position_low_{options.Get<double>("target_position_low0"),
                    options.Get<double>("target_position_low1"),
                    options.Get<double>("target_position_low2")},
      position_high_{options.Get<double>("target_position_high0"),
                     options.Get<double>("target_position_high1"),
                     options.Get<double>("target_position_high2")},
      randomize_position_(options.Get<bool>("randomize_initial_position")),
      randomize_rotation_(options.Get<bool>("randomize_initial_rotation")),
      ignore_z_rotation_(options.Get<bool>("ignore_z_target_rotation")),
      touch_visualisation_(options.Get<std::string>("touch_visualisation")) {
  if (data_ == nullptr) {
    throw std::runtime_error("cannot allocate MuJoCo data for " +
                             options.Get<std::string>("xml_file"));
  }
  target_position_ =
      OneOf<TargetPosition>(options, "target_position",
                            {{"ignore", TargetPosition::kIgnore},
                             {"fixed", TargetPosition::kFixed},
                             {"random", TargetPosition::kRandom}});
  target_rotation_ =
      OneOf<TargetRotation>(options, "target_rotation",
                            {{"ignore", TargetRotation::kIgnore},
                             {"fixed", TargetRotation::kFixed},
                             {"xyz", TargetRotation::kXyz},
                             {"z", TargetRotation::kZ},
                             {"parallel", TargetRotation::kParallel}});
  touch_ = OneOf<Touch>(options, "touch_get_obs",
                        {{"off", Touch::kOff},
                         {"sensordata", Touch::kSensordata},
                         {"boolean", Touch::kBoolean},
                         {"log", Touch::kLog}});
  const mjModel* m = model_;
  robot_joints_ = RobotJoints(m);
  const auto dims = Dims(options, *m);
  goal_dim_ = dims.second;
  observation_.assign(dims.first, 0.0);
  achieved_goal_.assign(goal_dim_, 0.0);
  goal_.assign(goal_dim_, 0.0);
  // relative_control's centres: the joint of each actuator's name
  // (robot0:A_X -> robot0:X), plus J0 for the fingers' J1 actuators.
  for (int i = 0; i < m->nu; ++i) {
    std::string name = mj_id2name(m, mjOBJ_ACTUATOR, i);
    const auto at = name.find(":A_");
    if (at != std::string::npos) {
      name.replace(at, 3, ":");
    }
    actuator_joint_.push_back(mj_name2id(m, mjOBJ_JOINT, name.c_str()));
    actuator_extra_joint_.push_back(-1);
  }
  for (const char* finger : {"FF", "MF", "RF", "LF"}) {
    const std::string actuator = std::string("robot0:A_") + finger + "J1";
    const int a = mj_name2id(m, mjOBJ_ACTUATOR, actuator.c_str());
    if (a >= 0) {
      actuator_extra_joint_[a] = mj_name2id(
          m, mjOBJ_JOINT, (std::string("robot0:") + finger + "J0").c_str());
    }
  }
  if (reach_) {
    for (const char* site : kFingertips) {
      fingertip_sites_.push_back(mujoco_common::ObjectId(m, mjOBJ_SITE, site));
    }
    palm_body_ = mujoco_common::ObjectId(m, mjOBJ_BODY, "robot0:palm");
    ReachSetup();
  } else {
    object_joint_ = mujoco_common::ObjectId(m, mjOBJ_JOINT, "object:joint");
    object_center_site_ =
        mujoco_common::ObjectId(m, mjOBJ_SITE, "object:center");
    if (touch_ != Touch::kOff) {
      touch_sensors_ = TouchSensors(m);
      for (int s : touch_sensors_) {
        std::string site = mj_id2name(m, mjOBJ_SENSOR, s);
        site.replace(site.find("robot0:TS_"), 10, "robot0:T_");
        touch_sites_.push_back(
            mujoco_common::ObjectId(m, mjOBJ_SITE, site.c_str()));
      }
    }
    parallel_quats_ = ParallelQuats();
    // _env_setup with no initial joint positions: mj_forward only.
    mj_forward(m, data_.get());
  }
  initial_time_ = data_->time;
  initial_qpos_.assign(data_->qpos, data_->qpos + m->nq);
  initial_qvel_.assign(data_->qvel, data_->qvel + m->nv);
}

void HandEnv::ReachSetup() {
  const mjModel* m = model_;
  mjData* d = data_.get();
  for (const auto& [joint, value] : kReachInitialQpos) {
    d->qpos[JointQposAddress(m, joint)] = value;
  }
  mj_forward(m, d);
  initial_goal_.clear();
  for (int site : fingertip_sites_) {
    initial_goal_.insert(initial_goal_.end(), d->site_xpos + 3 * site,
                         d->site_xpos + 3 * site + 3);
  }
  std::copy(d->xpos + 3 * palm_body_, d->xpos + 3 * palm_body_ + 3,
            palm_xpos_.begin());
}

void HandEnv::ReachSampleGoal() {
  // choice of the four fingers (not the thumb, the last).
  const int finger = static_cast<int>(np_random_.Choice(4));
  const int thumb = 4;
  double meeting[3] = {palm_xpos_[0] + 0.0, palm_xpos_[1] + -0.09,
                       palm_xpos_[2] + 0.05};
  for (double& v : meeting) {
    v += np_random_.Normal(0.0, 0.005);
  }
  goal_ = initial_goal_;
  for (int idx : {thumb, finger}) {
    double direction[3];
    for (int k = 0; k < 3; ++k) {
      direction[k] = meeting[k] - goal_[3 * idx + k];
    }
    const double norm = mujoco_common::NumpyNorm(direction, 3);
    for (int k = 0; k < 3; ++k) {
      direction[k] /= norm;
      goal_[3 * idx + k] = meeting[k] - 0.005 * direction[k];
    }
  }
  if (np_random_.Random() < 0.1) {
    goal_ = initial_goal_;
  }
}

bool HandEnv::ManipulateResetTry() {
  const mjModel* m = model_;
  mjData* d = data_.get();
  d->time = initial_time_;
  std::copy(initial_qpos_.begin(), initial_qpos_.end(), d->qpos);
  std::copy(initial_qvel_.begin(), initial_qvel_.end(), d->qvel);
  mj_forward(m, d);
  double* object = d->qpos + m->jnt_qposadr[object_joint_];
  double position[3] = {object[0], object[1], object[2]};
  Quat quat{object[3], object[4], object[5], object[6]};
  if (randomize_rotation_) {
    switch (target_rotation_) {
      case TargetRotation::kZ: {
        const double angle = np_random_.Uniform(-kPi, kPi);
        quat = QuatMul(quat, QuatFromAngleAndAxis(angle, {0.0, 0.0, 1.0}));
        break;
      }
      case TargetRotation::kParallel: {
        const double angle = np_random_.Uniform(-kPi, kPi);
        const Quat z_quat = QuatFromAngleAndAxis(angle, {0.0, 0.0, 1.0});
        const Quat& parallel = parallel_quats_[static_cast<std::size_t>(
            np_random_.Integers<int64_t>(
                0, static_cast<int64_t>(parallel_quats_.size())))];
        quat = QuatMul(quat, QuatMul(z_quat, parallel));
        break;
      }
      case TargetRotation::kXyz:
      case TargetRotation::kIgnore: {
        const double angle = np_random_.Uniform(-kPi, kPi);
        Euler axis{};
        for (double& v : axis) {
          v = np_random_.Uniform(-1.0, 1.0);
        }
        quat = QuatMul(quat, QuatFromAngleAndAxis(angle, axis));
        break;
      }
      case TargetRotation::kFixed:
        break;
    }
  }
  if (randomize_position_ && target_position_ != TargetPosition::kFixed) {
    for (double& v : position) {
      v += np_random_.Normal(0.0, 0.005);
    }
  }
  const double norm = mujoco_common::NumpyNorm(quat.data(), 4);
  for (double& v : quat) {
    v /= norm;
  }
  std::copy(position, position + 3, object);
  std::copy(quat.begin(), quat.end(), object + 3);
  const float neutral[20] = {};
  for (int i = 0; i < 10; ++i) {
    SetAction(neutral, /*float32_centres=*/false);
    for (int k = 0; k < frame_skip_; ++k) {
      mj_step(m, d);
    }
  }
  mj_forward(m, d);
  return d->site_xpos[3 * object_center_site_ + 2] > 0.04;
}

void HandEnv::ManipulateSampleGoal() {
  const double* object = data_->qpos + model_->jnt_qposadr[object_joint_];
  for (int k = 0; k < 3; ++k) {
    goal_[k] = object[k];
  }
  if (target_position_ == TargetPosition::kRandom) {
    for (int k = 0; k < 3; ++k) {
      goal_[k] =
          object[k] + np_random_.Uniform(position_low_[k], position_high_[k]);
    }
  }
  Quat quat{};
  switch (target_rotation_) {
    case TargetRotation::kZ:
      quat =
          QuatFromAngleAndAxis(np_random_.Uniform(-kPi, kPi), {0.0, 0.0, 1.0});
      break;
    case TargetRotation::kParallel: {
      const Quat z_quat =
          QuatFromAngleAndAxis(np_random_.Uniform(-kPi, kPi), {0.0, 0.0, 1.0});
      const Quat& parallel =
          parallel_quats_[static_cast<std::size_t>(np_random_.Integers<int64_t>(
              0, static_cast<int64_t>(parallel_quats_.size())))];
      quat = QuatMul(z_quat, parallel);
      break;
    }
    case TargetRotation::kXyz: {
      const double angle = np_random_.Uniform(-kPi, kPi);
      Euler axis{};
      for (double& v : axis) {
        v = np_random_.Uniform(-1.0, 1.0);
      }
      quat = QuatFromAngleAndAxis(angle, axis);
      break;
    }
    case TargetRotation::kIgnore:
    case TargetRotation::kFixed:
      // The object's own orientation (the reference's code for these
      // cannot run: docs/robotics.md).
      quat = {object[3], object[4], object[5], object[6]};
      break;
  }
  const double norm = mujoco_common::NumpyNorm(quat.data(), 4);
  for (int k = 0; k < 4; ++k) {
    goal_[3 + k] = quat[k] / norm;
  }
}

void HandEnv::Reset() {
  const mjModel* m = model_;
  mjData* d = data_.get();
  if (reach_) {
    mj_resetData(m, d);
    d->time = initial_time_;
    std::copy(initial_qpos_.begin(), initial_qpos_.end(), d->qpos);
    std::copy(initial_qvel_.begin(), initial_qvel_.end(), d->qvel);
    mj_forward(m, d);
    ReachSampleGoal();
  } else {
    // The reference tries until the object stays on the palm; a bound turns
    // a model or options where it never does into an error, not a hang.
    constexpr int kMaxTries = 1000;
    int tries = 1;
    while (!ManipulateResetTry()) {
      if (++tries > kMaxTries) {
        throw std::runtime_error(
            "the object fell off the palm in " + std::to_string(kMaxTries) +
            " resets in a row: check the options 'xml_file' and "
            "'randomize_initial_position'");
      }
    }
    ManipulateSampleGoal();
  }
  Observe();
}

void HandEnv::SetAction(const float* action, bool float32_centres) {
  const mjModel* m = model_;
  mjData* d = data_.get();
  for (int i = 0; i < m->nu; ++i) {
    const double low = m->actuator_ctrlrange[2 * i];
    const double high = m->actuator_ctrlrange[2 * i + 1];
    const double range = (high - low) / 2.0;
    double center = (high + low) / 2.0;
    if (relative_control_) {
      // np.zeros_like(action): float32 centres for a step's float32 action,
      // float64 for the settling's np.zeros(20).
      double c = 0.0;
      if (actuator_joint_[i] >= 0) {
        c = d->qpos[m->jnt_qposadr[actuator_joint_[i]]];
        if (float32_centres) {
          c = static_cast<float>(c);
        }
      }
      if (actuator_extra_joint_[i] >= 0) {
        c += d->qpos[m->jnt_qposadr[actuator_extra_joint_[i]]];
        if (float32_centres) {
          c = static_cast<float>(c);
        }
      }
      center = c;
    }
    const double ctrl = center + static_cast<double>(action[i]) * range;
    d->ctrl[i] = std::min(std::max(ctrl, low), high);
  }
}

void HandEnv::Step(const ActionView& action) {
  const float* raw = action.Get(fields_.goal.action);
  float a[20];
  for (int k = 0; k < 20; ++k) {
    a[k] = ClipAction(raw[k]);
  }
  SetAction(a, /*float32_centres=*/true);
  for (int i = 0; i < frame_skip_; ++i) {
    mj_step(model_, data_.get());
  }
  Observe();
  double d_pos = 0.0;
  double d_rot = 0.0;
  GoalDistance(achieved_goal_.data(), &d_pos, &d_rot);
  if (reach_) {
    reward_ = dense_ ? -d_pos : (d_pos > distance_threshold_ ? -1.0 : 0.0);
  } else {
    reward_ = dense_ ? -(10.0 * d_pos + d_rot) : is_success_ - 1.0;
  }
  terminated_ = false;
}

void HandEnv::GoalDistance(const double* achieved, double* d_pos,
                           double* d_rot) const {
  if (reach_) {
    double diff[15];
    for (int k = 0; k < 15; ++k) {
      diff[k] = achieved[k] - goal_[k];
    }
    // np.linalg.norm(axis=-1): numpy's sum of the squares.
    *d_pos = std::sqrt(mujoco_common::SumOfSquares(diff, 15));
    *d_rot = 0.0;
    return;
  }
  *d_pos = 0.0;
  *d_rot = 0.0;
  if (target_position_ != TargetPosition::kIgnore) {
    const double diff[3] = {achieved[0] - goal_[0], achieved[1] - goal_[1],
                            achieved[2] - goal_[2]};
    *d_pos = mujoco_common::PlainNorm(diff, 3);
  }
  if (target_rotation_ != TargetRotation::kIgnore) {
    Quat quat_a{achieved[3], achieved[4], achieved[5], achieved[6]};
    const Quat quat_b{goal_[3], goal_[4], goal_[5], goal_[6]};
    if (ignore_z_rotation_) {
      Euler euler_a = Mat2Euler(Quat2Mat(quat_a));
      const Euler euler_b = Mat2Euler(Quat2Mat(quat_b));
      euler_a[2] = euler_b[2];
      quat_a = Euler2Quat(euler_a);
    }
    const Quat diff = QuatMul(quat_a, QuatConjugate(quat_b));
    *d_rot = 2 * std::acos(std::min(std::max(diff[0], -1.0), 1.0));
  }
}

bool HandEnv::IsSuccess(const double* achieved) const {
  double d_pos = 0.0;
  double d_rot = 0.0;
  GoalDistance(achieved, &d_pos, &d_rot);
  if (reach_) {
    return d_pos < distance_threshold_;
  }
  return d_pos < distance_threshold_ && d_rot < rotation_threshold_;
}

void HandEnv::Observe() {
  const mjModel* m = model_;
  const mjData* d = data_.get();
  double* obs = observation_.data();
  for (int j : robot_joints_) {
    *obs++ = d->qpos[m->jnt_qposadr[j]];
  }
  for (int j : robot_joints_) {
    *obs++ = d->qvel[m->jnt_dofadr[j]];
  }
  if (reach_) {
    for (std::size_t f = 0; f < fingertip_sites_.size(); ++f) {
      std::copy(d->site_xpos + 3 * fingertip_sites_[f],
                d->site_xpos + 3 * fingertip_sites_[f] + 3,
                achieved_goal_.begin() + 3 * static_cast<std::ptrdiff_t>(f));
    }
    std::copy(achieved_goal_.begin(), achieved_goal_.end(), obs);
  } else {
    const double* object_qvel = d->qvel + m->jnt_dofadr[object_joint_];
    obs = std::copy(object_qvel, object_qvel + 6, obs);
    const double* object_qpos = d->qpos + m->jnt_qposadr[object_joint_];
    std::copy(object_qpos, object_qpos + 7, achieved_goal_.begin());
    obs = std::copy(object_qpos, object_qpos + 7, obs);
    for (int s : touch_sensors_) {
      const double value = d->sensordata[s];
      switch (touch_) {
        case Touch::kSensordata:
          *obs++ = value;
          break;
        case Touch::kBoolean:
          *obs++ = value > 0.0 ? 1.0 : 0.0;
          break;
        case Touch::kLog:
          *obs++ = std::log(value + 1.0);
          break;
        case Touch::kOff:
          break;
      }
    }
  }
  is_success_ = IsSuccess(achieved_goal_.data()) ? 1.0F : 0.0F;
}

void HandEnv::Write(const Output& out) {
  std::copy(observation_.begin(), observation_.end(),
            out.Get(fields_.goal.observation));
  std::copy(achieved_goal_.begin(), achieved_goal_.end(),
            out.Get(fields_.goal.achieved_goal));
  std::copy(goal_.begin(), goal_.end(), out.Get(fields_.goal.desired_goal));
  *out.Get(fields_.is_success) = is_success_;
}

void HandEnv::Render(int width, int height, int camera_id, uint8_t* rgb) {
  if (own_model_ == nullptr) {
    // The render callbacks move markers and colour sites: from now on this
    // env steps its own copy of the model (the same physics), whose moved
    // marker sites enter site_xpos as the reference's do.
    own_model_ = CopyModel(model_);
    model_ = own_model_.get();
    if (touch_visualisation_ == "off") {
      for (int site : touch_sites_) {
        own_model_->site_rgba[4 * site + 3] = 0.0F;
      }
    }
  }
  mjModel* m = own_model_.get();
  mjData* d = data_.get();
  if (!has_camera_) {
    // hand_env.py's DEFAULT_CAMERA_CONFIG.
    render::CameraConfig config{0.5, -25.0, 55.0, true, {1.0, 0.96, 0.14}};
    camera_ = render::InitialCamera(m, d, config);
    has_camera_ = true;
  }
  // _render_callback.
  if (reach_) {
    // The target and finger markers at the goal and the fingertips.
    std::vector<double> offset(3 * static_cast<std::size_t>(m->nsite));
    for (int k = 0; k < 3 * m->nsite; ++k) {
      offset[k] = d->site_xpos[k] - m->site_pos[k];
    }
    for (int f = 0; f < 5; ++f) {
      const std::string target = "target" + std::to_string(f);
      const std::string finger = "finger" + std::to_string(f);
      const int t = mj_name2id(m, mjOBJ_SITE, target.c_str());
      const int g = mj_name2id(m, mjOBJ_SITE, finger.c_str());
      for (int k = 0; k < 3; ++k) {
        if (t >= 0) {
          m->site_pos[3 * t + k] = goal_[3 * f + k] - offset[3 * t + k];
        }
        if (g >= 0) {
          m->site_pos[3 * g + k] =
              d->site_xpos[3 * fingertip_sites_[f] + k] - offset[3 * g + k];
        }
      }
    }
    mj_forward(m, d);
  } else {
    // The target object at the goal (beside the hand when the position is
    // ignored), the hidden object shown.
    const int target = mj_name2id(m, mjOBJ_JOINT, "target:joint");
    if (target >= 0) {
      double* qpos = d->qpos + m->jnt_qposadr[target];
      std::copy(goal_.begin(), goal_.end(), qpos);
      if (target_position_ == TargetPosition::kIgnore) {
        qpos[0] += 0.15;
      }
      std::fill(d->qvel + m->jnt_dofadr[target],
                d->qvel + m->jnt_dofadr[target] + 6, 0.0);
    }
    const int hidden = mj_name2id(m, mjOBJ_GEOM, "object_hidden");
    if (hidden >= 0) {
      m->geom_rgba[4 * hidden + 3] = 1.0F;
    }
    mj_forward(m, d);
    // The touch sites coloured by the sensors of the state just computed.
    if (touch_visualisation_ == "on_touch") {
      for (std::size_t i = 0; i < touch_sensors_.size(); ++i) {
        const bool touched = d->sensordata[touch_sensors_[i]] != 0.0;
        const float touch[4] = {1.0F, 0.0F, 0.0F, 0.5F};
        const float no_touch[4] = {0.0F, 0.5F, 0.0F, 0.2F};
        std::copy(touched ? touch : no_touch, (touched ? touch : no_touch) + 4,
                  m->site_rgba + 4 * touch_sites_[i]);
      }
    }
  }
  render::RenderFrame(shared_model_.get(), m, d, camera_, camera_id, width,
                      height, render::SceneSettings{}, rgb);
}

void HandEnv::SaveState(StateWriter* writer) const {
  SavePhysics(model_, data_.get(), writer);
  writer->Put(goal_, observation_, achieved_goal_, is_success_);
}

void HandEnv::LoadState(StateReader* reader) {
  LoadPhysics(model_, data_.get(), reader);
  std::vector<double> goal;
  std::vector<double> observation;
  std::vector<double> achieved_goal;
  reader->Get(&goal, &observation, &achieved_goal, &is_success_);
  if (goal.size() != goal_.size() ||
      observation.size() != observation_.size() ||
      achieved_goal.size() != achieved_goal_.size()) {
    throw SnapshotError("the observation of this snapshot has another size");
  }
  goal_ = std::move(goal);
  observation_ = std::move(observation);
  achieved_goal_ = std::move(achieved_goal);
}

}  // namespace envpool::robotics
