#include "envpool/robotics/adroit_env.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "envpool/mujoco_common/numpy_math.h"
#include "envpool/mujoco_common/spec.h"
#include "envpool/render/mujoco_egl.h"
#include "envpool/robotics/goal_env.h"
#include "envpool/robotics/rotations.h"

namespace envpool::robotics {
namespace {

using Task = AdroitHandEnv::Task;

// What differs between the four tasks: EnvPool 1.2.7's declared sizes
// (obs_dim, action_dim, qpos_dim, qvel_dim, reset_dim) and the reference's
// model file and default camera.
struct TaskFacts {
  const char* name;
  Task task;
  const char* xml_file;
  int obs_dim;
  int action_dim;
  int qpos_dim;
  int reset_dim;
  int draws;  // the numbers a reset draws
  double camera_distance;
  double camera_azimuth;
};

constexpr TaskFacts kTasks[] = {
    {"door", Task::kDoor, "adroit_hand/adroit_door.xml", 39, 28, 30, 3, 3, 1.5,
     90.0},
    {"hammer", Task::kHammer, "adroit_hand/adroit_hammer.xml", 46, 26, 33, 3, 1,
     2.0, 45.0},
    {"pen", Task::kPen, "adroit_hand/adroit_pen.xml", 45, 24, 30, 4, 2, 1.0,
     -45.0},
    {"relocate", Task::kRelocate, "adroit_hand/adroit_relocate.xml", 39, 30, 36,
     6, 5, 1.5, 90.0},
};

const TaskFacts& FactsOf(const Options& options) {
  const auto name = options.Get<std::string>("adroit_task");
  for (const TaskFacts& facts : kTasks) {
    if (name == facts.name) {
      return facts;
    }
  }
  throw std::invalid_argument(
      "option 'adroit_task' must be 'door', 'hammer', 'pen' or 'relocate', "
      "got '" +
      name + "'");
}

const TaskFacts& FactsOf(Task task) {
  for (const TaskFacts& facts : kTasks) {
    if (facts.task == task) {
      return facts;
    }
  }
  throw std::logic_error("unknown Adroit task");
}

// The sizes EnvPool 1.2.7 declares as options follow from the task; a
// different value is refused rather than ignored.
void CheckDeclaredSize(const Options& options, const char* name, int want,
                       const char* task) {
  const auto value = options.Get<int64_t>(name);
  if (value != want) {
    throw std::invalid_argument(std::string("option '") + name +
                                "' of the Adroit task '" + task + "' must be " +
                                std::to_string(want) + " (it follows from " +
                                "the task), got " + std::to_string(value));
  }
}

// np.linalg.norm(a - b) of 3-vectors.
double Distance(const double* a, const double* b) {
  const double diff[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return mujoco_common::NumpyNorm(diff, 3);
}

int Site(const mjModel* m, const char* name) {
  return mujoco_common::ObjectId(m, mjOBJ_SITE, name);
}

int Body(const mjModel* m, const char* name) {
  return mujoco_common::ObjectId(m, mjOBJ_BODY, name);
}

}  // namespace

Options AdroitHandEnv::DefaultOptions() {
  // AdroitHandDoor-v1's; registration.py sets each task's.
  return Options{
      {"max_episode_steps", int64_t{200}},
      {"frame_skip", int64_t{5}},
      {"frame_stack", int64_t{1}},
      {"adroit_task", std::string("door")},
      {"xml_file", std::string("adroit_hand/adroit_door.xml")},
      {"reward_type", std::string("dense")},
      {"obs_dim", int64_t{39}},
      {"action_dim", int64_t{28}},
      {"qpos_dim", int64_t{30}},
      {"qvel_dim", int64_t{30}},
      {"reset_dim", int64_t{3}},
  };
}

void AdroitHandEnv::Declare(const Options& options, EnvSpec* spec,
                            Fields* fields) {
  const TaskFacts& facts = FactsOf(options);
  DenseReward(options);
  CheckFrameStack(options);
  CheckDeclaredSize(options, "obs_dim", facts.obs_dim, facts.name);
  CheckDeclaredSize(options, "action_dim", facts.action_dim, facts.name);
  CheckDeclaredSize(options, "qpos_dim", facts.qpos_dim, facts.name);
  CheckDeclaredSize(options, "qvel_dim", facts.qpos_dim, facts.name);
  CheckDeclaredSize(options, "reset_dim", facts.reset_dim, facts.name);
  const auto model = mujoco_common::LoadModel(
      RoboticsModels(), options.Get<std::string>("xml_file"));
  if (model->nq != facts.qpos_dim || model->nu != facts.action_dim) {
    throw std::invalid_argument(
        "option 'xml_file': the Adroit task '" + std::string(facts.name) +
        "' needs a model of " + std::to_string(facts.qpos_dim) +
        " positions and " + std::to_string(facts.action_dim) + " actuators (" +
        facts.xml_file + "), " + options.Get<std::string>("xml_file") +
        " has " + std::to_string(model->nq) + " and " +
        std::to_string(model->nu));
  }
  fields->obs =
      spec->state.Add<double>("obs", {facts.obs_dim}, {-kInf}, {kInf});
  fields->action =
      spec->action.Add<float>("action", {facts.action_dim}, {-1.0}, {1.0});
  fields->success = spec->state.Add<double>("info:success", {});
  fields->distance = spec->state.Add<double>("info:distance", {});
  mujoco_common::DeclareModelRendering(options, *model, 480, 480, spec);
  spec->snapshots = true;
}

AdroitHandEnv::AdroitHandEnv(const Options& options, const Fields& fields)
    : fields_(fields),
      task_(FactsOf(options).task),
      model_(mujoco_common::LoadModel(RoboticsModels(),
                                      options.Get<std::string>("xml_file")),
             {{&mjModel::actuator_gainprm, &mjModel::nu, mjNGAIN},
              {&mjModel::actuator_biasprm, &mjModel::nu, mjNBIAS},
              {&mjModel::body_pos, &mjModel::nbody, 3},
              {&mjModel::body_quat, &mjModel::nbody, 4},
              {&mjModel::site_pos, &mjModel::nsite, 3}}),
      data_(mj_makeData(model_.get())),
      frame_skip_(static_cast<int>(mujoco_common::FrameSkip(options))),
      dense_(DenseReward(options)),
      reset_parameters_(FactsOf(task_).draws, 0.0),
      observation_(FactsOf(task_).obs_dim, 0.0) {
  if (data_ == nullptr) {
    throw std::runtime_error("cannot allocate MuJoCo data for " +
                             options.Get<std::string>("xml_file"));
  }
  mjModel* m = model_.get();
  // The reference's actuator gains: position servos of gain 10 (wrist) and
  // 1 (fingers), over the actuators from the first to the last named.
  const auto set_servos = [m](const char* first, const char* last,
                              double gain) {
    const int from = mujoco_common::ObjectId(m, mjOBJ_ACTUATOR, first);
    const int to = mujoco_common::ObjectId(m, mjOBJ_ACTUATOR, last);
    for (int i = from; i <= to; ++i) {
      double* gainprm = m->actuator_gainprm + i * mjNGAIN;
      double* biasprm = m->actuator_biasprm + i * mjNBIAS;
      gainprm[0] = gain;
      gainprm[1] = 0.0;
      gainprm[2] = 0.0;
      biasprm[0] = 0.0;
      biasprm[1] = -gain;
      biasprm[2] = 0.0;
    }
  };
  set_servos("A_WRJ1", "A_WRJ0", 10.0);
  set_servos("A_FFJ3", "A_THJ0", 1.0);
  for (int i = 0; i < m->nu; ++i) {
    const double low = m->actuator_ctrlrange[2 * i];
    const double high = m->actuator_ctrlrange[2 * i + 1];
    act_mean_.push_back((low + high) / 2.0);
    act_half_range_.push_back(0.5 * (high - low));
  }
  grasp_site_ = Site(m, "S_grasp");
  switch (task_) {
    case Task::kDoor:
      door_hinge_ =
          m->jnt_dofadr[mujoco_common::ObjectId(m, mjOBJ_JOINT, "door_hinge")];
      handle_site_ = Site(m, "S_handle");
      moved_body_ = Body(m, "frame");
      break;
    case Task::kHammer:
      target_site_ = Site(m, "S_target");
      object_body_ = Body(m, "Object");
      tool_site_ = Site(m, "tool");
      goal_site_ = Site(m, "nail_goal");
      moved_body_ = Body(m, "nail_board");
      nail_sensor_ = mujoco_common::ObjectId(m, mjOBJ_SENSOR, "S_nail");
      break;
    case Task::kPen:
      moved_body_ = Body(m, "target");
      object_body_ = Body(m, "Object");
      target_site_ = Site(m, "eps_ball");
      object_top_site_ = Site(m, "object_top");
      object_bottom_site_ = Site(m, "object_bottom");
      target_top_site_ = Site(m, "target_top");
      target_bottom_site_ = Site(m, "target_bottom");
      break;
    case Task::kRelocate:
      target_site_ = Site(m, "target");
      object_body_ = Body(m, "Object");
      moved_body_ = object_body_;
      break;
  }
}

void AdroitHandEnv::ApplyResetParameters() {
  mjModel* m = model_.get();
  const double* p = reset_parameters_.data();
  double* body_pos = m->body_pos + 3 * moved_body_;
  switch (task_) {
    case Task::kDoor:
      std::copy(p, p + 3, body_pos);
      break;
    case Task::kHammer:
      body_pos[2] = p[0];
      break;
    case Task::kPen: {
      const rotations::Quat quat = rotations::Euler2Quat({p[0], p[1], 0.0});
      std::copy(quat.begin(), quat.end(), m->body_quat + 4 * moved_body_);
      break;
    }
    case Task::kRelocate:
      body_pos[0] = p[0];
      body_pos[1] = p[1];
      std::copy(p + 2, p + 5, m->site_pos + 3 * target_site_);
      break;
  }
}

void AdroitHandEnv::Reset() {
  mjModel* m = model_.get();
  mjData* d = data_.get();
  mj_resetData(m, d);
  // reset_model's draws, in its order.
  double* p = reset_parameters_.data();
  switch (task_) {
    case Task::kDoor:
      p[0] = np_random_.Uniform(-0.3, -0.2);
      p[1] = np_random_.Uniform(0.25, 0.35);
      p[2] = np_random_.Uniform(0.252, 0.35);
      break;
    case Task::kHammer:
      p[0] = np_random_.Uniform(0.1, 0.25);
      break;
    case Task::kPen:
      p[0] = np_random_.Uniform(-1.0, 1.0);
      p[1] = np_random_.Uniform(-1.0, 1.0);
      break;
    case Task::kRelocate:
      p[0] = np_random_.Uniform(-0.15, 0.15);
      p[1] = np_random_.Uniform(-0.15, 0.3);
      p[2] = np_random_.Uniform(-0.2, 0.2);
      p[3] = np_random_.Uniform(-0.2, 0.2);
      p[4] = np_random_.Uniform(0.15, 0.35);
      break;
  }
  ApplyResetParameters();
  // set_state(init_qpos, init_qvel): qpos0 and rest, as mj_resetData left
  // them.
  mj_forward(m, d);
  if (task_ == Task::kPen) {
    pen_length_ = Distance(d->site_xpos + 3 * object_top_site_,
                           d->site_xpos + 3 * object_bottom_site_);
    target_length_ = Distance(d->site_xpos + 3 * target_top_site_,
                              d->site_xpos + 3 * target_bottom_site_);
  }
  Observe();
  // The reference's reset info is empty; ours says whether the first state
  // already succeeds, judged as a step would.
  const double reward = reward_;
  Judge();
  reward_ = reward;
}

void AdroitHandEnv::Step(const ActionView& action) {
  mjModel* m = model_.get();
  mjData* d = data_.get();
  const float* raw = action.Get(fields_.action);
  for (int i = 0; i < m->nu; ++i) {
    // np.clip of the float32 action, then act_mean + a * act_rng in float64.
    const double a = ClipAction(raw[i]);
    d->ctrl[i] = act_mean_[i] + a * act_half_range_[i];
  }
  for (int i = 0; i < frame_skip_; ++i) {
    mj_step(m, d);
  }
  mj_rnePostConstraint(m, d);
  Observe();
  Judge();
  terminated_ = false;
}

void AdroitHandEnv::Observe() {
  const mjModel* m = model_.get();
  const mjData* d = data_.get();
  const int nq = m->nq;
  const double* qpos = d->qpos;
  const double* palm = d->site_xpos + 3 * grasp_site_;
  double* obs = observation_.data();
  switch (task_) {
    case Task::kDoor: {
      const double* handle = d->site_xpos + 3 * handle_site_;
      const double door = qpos[door_hinge_];
      obs = std::copy(qpos + 1, qpos + nq - 2, obs);
      *obs++ = qpos[nq - 1];  // the latch
      *obs++ = door;
      obs = std::copy(palm, palm + 3, obs);
      obs = std::copy(handle, handle + 3, obs);
      for (int k = 0; k < 3; ++k) {
        *obs++ = palm[k] - handle[k];
      }
      *obs = door > 1.0 ? 1.0 : -1.0;
      break;
    }
    case Task::kHammer: {
      obs = std::copy(qpos, qpos + nq - 6, obs);
      for (int k = m->nv - 6; k < m->nv; ++k) {
        *obs++ = std::clamp(d->qvel[k], -1.0, 1.0);
      }
      obs = std::copy(palm, palm + 3, obs);
      const double* object = d->xpos + 3 * object_body_;
      obs = std::copy(object, object + 3, obs);
      const double* quat = d->xquat + 4 * object_body_;
      const rotations::Euler euler =
          rotations::Quat2Euler({quat[0], quat[1], quat[2], quat[3]});
      obs = std::copy(euler.begin(), euler.end(), obs);
      const double* target = d->site_xpos + 3 * target_site_;
      obs = std::copy(target, target + 3, obs);
      // The reference indexes sensordata by the sensor's id.
      *obs = std::clamp(d->sensordata[nail_sensor_], -1.0, 1.0);
      break;
    }
    case Task::kPen: {
      obs = std::copy(qpos, qpos + nq - 6, obs);
      const double* object = d->xpos + 3 * object_body_;
      const double* desired = d->site_xpos + 3 * target_site_;
      obs = std::copy(object, object + 3, obs);
      obs = std::copy(d->qvel + m->nv - 6, d->qvel + m->nv, obs);
      double object_orientation[3];
      double desired_orientation[3];
      for (int k = 0; k < 3; ++k) {
        object_orientation[k] = (d->site_xpos[3 * object_top_site_ + k] -
                                 d->site_xpos[3 * object_bottom_site_ + k]) /
                                pen_length_;
        desired_orientation[k] = (d->site_xpos[3 * target_top_site_ + k] -
                                  d->site_xpos[3 * target_bottom_site_ + k]) /
                                 target_length_;
      }
      obs = std::copy(object_orientation, object_orientation + 3, obs);
      obs = std::copy(desired_orientation, desired_orientation + 3, obs);
      for (int k = 0; k < 3; ++k) {
        *obs++ = object[k] - desired[k];
      }
      for (int k = 0; k < 3; ++k) {
        *obs++ = object_orientation[k] - desired_orientation[k];
      }
      break;
    }
    case Task::kRelocate: {
      obs = std::copy(qpos, qpos + nq - 6, obs);
      const double* object = d->xpos + 3 * object_body_;
      const double* target = d->site_xpos + 3 * target_site_;
      for (int k = 0; k < 3; ++k) {
        *obs++ = palm[k] - object[k];
      }
      for (int k = 0; k < 3; ++k) {
        *obs++ = palm[k] - target[k];
      }
      for (int k = 0; k < 3; ++k) {
        *obs++ = object[k] - target[k];
      }
      break;
    }
  }
}

void AdroitHandEnv::Judge() {
  const mjModel* m = model_.get();
  const mjData* d = data_.get();
  const double* palm = d->site_xpos + 3 * grasp_site_;
  bool achieved = false;
  double reward = 0.0;
  switch (task_) {
    case Task::kDoor: {
      const double door = d->qpos[door_hinge_];
      distance_ = door;
      achieved = door >= 1.35;
      const double* handle = d->site_xpos + 3 * handle_site_;
      reward = 0.1 * Distance(palm, handle);
      reward += -0.1 * (door - 1.57) * (door - 1.57);
      reward += -1e-5 * mujoco_common::SumOfSquares(d->qvel, m->nv);
      if (door > 0.2) {
        reward += 2;
      }
      if (door > 1.0) {
        reward += 8;
      }
      if (door > 1.35) {
        reward += 10;
      }
      break;
    }
    case Task::kHammer: {
      const double* hammer = d->xpos + 3 * object_body_;
      const double* head = d->site_xpos + 3 * tool_site_;
      const double* nail = d->site_xpos + 3 * target_site_;
      const double* goal = d->site_xpos + 3 * goal_site_;
      distance_ = Distance(nail, goal);
      achieved = distance_ < 0.01;
      reward = 0.1 * Distance(palm, hammer);
      reward -= Distance(head, nail);
      reward -= 10 * Distance(nail, goal);
      reward -= 1e-2 * mujoco_common::NumpyNorm(d->qvel, m->nv);
      if (hammer[2] > 0.04 && head[2] > 0.04) {
        reward += 2;
      }
      if (distance_ < 0.020) {
        reward += 25;
      }
      if (distance_ < 0.010) {
        reward += 75;
      }
      break;
    }
    case Task::kPen: {
      const double* object = d->xpos + 3 * object_body_;
      const double* desired = d->site_xpos + 3 * target_site_;
      // The observation holds both orientations (after the 24 hand
      // positions, the pen's position and velocity).
      const double* object_orientation = observation_.data() + 33;
      const double* desired_orientation = observation_.data() + 36;
      distance_ = Distance(object, desired);
      const double similarity =
          mujoco_common::NumpyDot(object_orientation, desired_orientation, 3);
      achieved = distance_ < 0.075 && similarity > 0.95;
      reward = -distance_ + similarity;
      if (distance_ < 0.075 && similarity > 0.9) {
        reward += 10;
      }
      if (distance_ < 0.075 && similarity > 0.95) {
        reward += 50;
      }
      if (object[2] < 0.075) {
        reward -= 5;
      }
      break;
    }
    case Task::kRelocate: {
      const double* object = d->xpos + 3 * object_body_;
      const double* target = d->site_xpos + 3 * target_site_;
      distance_ = Distance(object, target);
      achieved = distance_ < 0.1;
      reward = 0.1 * Distance(palm, object);
      if (object[2] > 0.04) {
        reward += 1.0;
        reward += -0.5 * Distance(palm, target);
        reward += -0.5 * Distance(object, target);
      }
      if (distance_ < 0.1) {
        reward += 10.0;
      }
      if (distance_ < 0.05) {
        reward += 20.0;
      }
      break;
    }
  }
  success_ = achieved ? 1.0 : 0.0;
  reward_ = dense_ ? reward : (achieved ? 10.0 : -0.1);
}

void AdroitHandEnv::Write(const Output& out) {
  std::copy(observation_.begin(), observation_.end(), out.Get(fields_.obs));
  *out.Get(fields_.success) = success_;
  *out.Get(fields_.distance) = distance_;
}

void AdroitHandEnv::Render(int width, int height, int camera_id, uint8_t* rgb) {
  if (!has_camera_) {
    // The task's DEFAULT_CAMERA_CONFIG: distance and azimuth.
    const TaskFacts& facts = FactsOf(task_);
    render::CameraConfig config = render::NoCameraConfig();
    config.distance = facts.camera_distance;
    config.azimuth = facts.camera_azimuth;
    camera_ = render::InitialCamera(model_.get(), data_.get(), config);
    has_camera_ = true;
  }
  render::RenderFrame(model_.shared(), model_.get(), data_.get(), camera_,
                      camera_id, width, height, render::SceneSettings{}, rgb);
}

void AdroitHandEnv::SaveState(StateWriter* writer) const {
  // The reset's draws first: a load puts them into the model before the
  // physics' mj_forward.
  writer->Put(reset_parameters_);
  SavePhysics(model_.get(), data_.get(), writer);
  writer->Put(pen_length_, target_length_, observation_, success_, distance_);
}

void AdroitHandEnv::LoadState(StateReader* reader) {
  std::vector<double> parameters;
  reader->Get(&parameters);
  if (parameters.size() != reset_parameters_.size()) {
    throw SnapshotError(
        "this snapshot is not of an Adroit env of the same task");
  }
  reset_parameters_ = std::move(parameters);
  ApplyResetParameters();
  LoadPhysics(model_.get(), data_.get(), reader);
  std::vector<double> observation;
  reader->Get(&pen_length_, &target_length_, &observation, &success_,
              &distance_);
  if (observation.size() != observation_.size()) {
    throw SnapshotError("the observation of this snapshot has another size");
  }
  observation_ = std::move(observation);
}

std::vector<double> AdroitHandEnv::GetState() const {
  const mjModel* m = model_.get();
  const mjData* d = data_.get();
  std::vector<double> state(d->qpos, d->qpos + m->nq);
  state.insert(state.end(), d->qvel, d->qvel + m->nv);
  state.insert(state.end(), reset_parameters_.begin(), reset_parameters_.end());
  return state;
}

void AdroitHandEnv::SetState(const std::vector<double>& state) {
  const mjModel* m = model_.get();
  mjData* d = data_.get();
  const std::size_t nq = m->nq;
  const std::size_t nv = m->nv;
  if (state.size() != nq + nv + reset_parameters_.size()) {
    throw std::invalid_argument(
        "the state of this Adroit env is qpos (" + std::to_string(nq) +
        "), qvel (" + std::to_string(nv) + ") and the reset's draws (" +
        std::to_string(reset_parameters_.size()) + "), got " +
        std::to_string(state.size()) + " numbers");
  }
  std::copy(state.begin(), state.begin() + nq, d->qpos);
  std::copy(state.begin() + nq, state.begin() + nq + nv, d->qvel);
  std::copy(state.begin() + nq + nv, state.end(), reset_parameters_.begin());
  ApplyResetParameters();
  mj_forward(m, d);
  if (task_ == Task::kPen) {
    pen_length_ = Distance(d->site_xpos + 3 * object_top_site_,
                           d->site_xpos + 3 * object_bottom_site_);
    target_length_ = Distance(d->site_xpos + 3 * target_top_site_,
                              d->site_xpos + 3 * target_bottom_site_);
  }
  Observe();
  const double reward = reward_;
  Judge();
  reward_ = reward;
}

}  // namespace envpool::robotics
