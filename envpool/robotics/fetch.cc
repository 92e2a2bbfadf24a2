#include "envpool/robotics/fetch.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

#include "envpool/mujoco_common/numpy_math.h"
#include "envpool/mujoco_common/spec.h"
#include "envpool/mujoco_common/state.h"
#include "envpool/render/mujoco_egl.h"
#include "envpool/robotics/rotations.h"

namespace envpool::robotics {
namespace {

int JointQposAddress(const mjModel* model, const char* name) {
  return model->jnt_qposadr[mujoco_common::ObjectId(model, mjOBJ_JOINT, name)];
}

void CheckPositive(const Options& options, const char* name) {
  const auto value = options.Get<double>(name);
  if (!(value > 0.0) || !std::isfinite(value)) {
    throw std::invalid_argument(std::string("option '") + name +
                                "' must be a positive number, got " +
                                FloatText(value));
  }
}

}  // namespace

Options FetchEnv::DefaultOptions() {
  // FetchReach's; registration.py sets each task's.
  return Options{
      {"max_episode_steps", int64_t{50}},
      {"frame_skip", int64_t{20}},
      {"frame_stack", int64_t{1}},
      {"xml_file", std::string("fetch/reach.xml")},
      {"reward_type", std::string("sparse")},
      {"has_object", false},
      {"block_gripper", true},
      {"gripper_extra_height", 0.2},
      {"target_in_the_air", true},
      {"target_offset_x", 0.0},
      {"target_offset_y", 0.0},
      {"target_offset_z", 0.0},
      {"obj_range", 0.15},
      {"target_range", 0.15},
      {"distance_threshold", 0.05},
      {"initial_slide0", 0.4049},
      {"initial_slide1", 0.48},
      {"initial_slide2", 0.0},
      {"initial_object_x", 1.25},
      {"initial_object_y", 0.53},
      {"initial_object_z", 0.4},
  };
}

void FetchEnv::Declare(const Options& options, EnvSpec* spec, Fields* fields) {
  DenseReward(options);
  CheckFrameStack(options);
  CheckPositive(options, "distance_threshold");
  for (const char* name : {"obj_range", "target_range"}) {
    const auto value = options.Get<double>(name);
    if (!(value >= 0.0) || !std::isfinite(value)) {
      throw std::invalid_argument(std::string("option '") + name +
                                  "' must be a number >= 0, got " +
                                  FloatText(value));
    }
  }
  const auto model = mujoco_common::LoadModel(
      RoboticsModels(), options.Get<std::string>("xml_file"));
  if (model->nmocap != 1) {
    throw std::invalid_argument(
        "option 'xml_file': a Fetch model has one mocap body, " +
        options.Get<std::string>("xml_file") + " has " +
        std::to_string(model->nmocap));
  }
  const bool has_object = options.Get<bool>("has_object");
  DeclareGoalSpaces(has_object ? 25 : 10, 3, 4, spec, &fields->goal);
  fields->is_success = spec->state.Add<float>("info:is_success", {});
  mujoco_common::DeclareModelRendering(options, *model, 480, 480, spec);
  spec->snapshots = true;
}

FetchEnv::FetchEnv(const Options& options, const Fields& fields)
    : fields_(fields),
      model_(mujoco_common::LoadModel(RoboticsModels(),
                                      options.Get<std::string>("xml_file")),
             {{&mjModel::eq_data, &mjModel::neq, mjNEQDATA},
              {&mjModel::site_pos, &mjModel::nsite, 3}}),
      data_(mj_makeData(model_.get())),
      frame_skip_(static_cast<int>(mujoco_common::FrameSkip(options))),
      dense_(DenseReward(options)),
      has_object_(options.Get<bool>("has_object")),
      block_gripper_(options.Get<bool>("block_gripper")),
      target_in_the_air_(options.Get<bool>("target_in_the_air")),
      gripper_extra_height_(options.Get<double>("gripper_extra_height")),
      target_offset_{options.Get<double>("target_offset_x"),
                     options.Get<double>("target_offset_y"),
                     options.Get<double>("target_offset_z")},
      obj_range_(options.Get<double>("obj_range")),
      target_range_(options.Get<double>("target_range")),
      distance_threshold_(options.Get<double>("distance_threshold")),
      initial_slide_{options.Get<double>("initial_slide0"),
                     options.Get<double>("initial_slide1"),
                     options.Get<double>("initial_slide2")},
      initial_object_{options.Get<double>("initial_object_x"),
                      options.Get<double>("initial_object_y"),
                      options.Get<double>("initial_object_z")},
      observation_(has_object_ ? 25 : 10, 0.0) {
  if (data_ == nullptr) {
    throw std::runtime_error("cannot allocate MuJoCo data for " +
                             options.Get<std::string>("xml_file"));
  }
  const mjModel* m = model_.get();
  grip_site_ = mujoco_common::ObjectId(m, mjOBJ_SITE, "robot0:grip");
  mocap_body_ = mujoco_common::ObjectId(m, mjOBJ_BODY, "robot0:mocap");
  left_finger_joint_ =
      mujoco_common::ObjectId(m, mjOBJ_JOINT, "robot0:l_gripper_finger_joint");
  right_finger_joint_ =
      mujoco_common::ObjectId(m, mjOBJ_JOINT, "robot0:r_gripper_finger_joint");
  if (has_object_) {
    object_site_ = mujoco_common::ObjectId(m, mjOBJ_SITE, "object0");
    object_joint_ = mujoco_common::ObjectId(m, mjOBJ_JOINT, "object0:joint");
  }
  // robot_get_obs: the joints named "robot..." in id order; the
  // observation keeps the last two (the fingers).
  for (int j = 0; j < m->njnt; ++j) {
    const char* name = mj_id2name(m, mjOBJ_JOINT, j);
    if (name != nullptr && std::strncmp(name, "robot", 5) == 0) {
      gripper_joints_.push_back(j);
    }
  }
  if (gripper_joints_.size() < 2) {
    throw std::invalid_argument(
        "the Fetch model has fewer than two robot "
        "joints");
  }
  gripper_joints_.erase(gripper_joints_.begin(), gripper_joints_.end() - 2);
  jacobian_.assign(3 * static_cast<std::size_t>(m->nv), 0.0);
  EnvSetup();
}

void FetchEnv::EnvSetup() {
  mjModel* m = model_.get();
  mjData* d = data_.get();
  d->qpos[JointQposAddress(m, "robot0:slide0")] = initial_slide_[0];
  d->qpos[JointQposAddress(m, "robot0:slide1")] = initial_slide_[1];
  d->qpos[JointQposAddress(m, "robot0:slide2")] = initial_slide_[2];
  if (has_object_) {
    double* object = d->qpos + m->jnt_qposadr[object_joint_];
    const double pose[7] = {initial_object_[0],
                            initial_object_[1],
                            initial_object_[2],
                            1.0,
                            0.0,
                            0.0,
                            0.0};
    std::copy(pose, pose + 7, object);
  }
  // reset_mocap_welds: the welds hold the bodies at the mocap's pose.
  for (int i = 0; i < m->neq; ++i) {
    if (m->eq_type[i] == mjEQ_WELD) {
      double* eq = m->eq_data + static_cast<std::size_t>(i) * mjNEQDATA;
      const double identity[7] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0};
      std::copy(identity, identity + 7, eq);
    }
  }
  mj_forward(m, d);
  const double* grip = d->site_xpos + 3 * grip_site_;
  const int mocap = m->body_mocapid[mocap_body_];
  d->mocap_pos[3 * mocap + 0] = -0.498 + grip[0];
  d->mocap_pos[3 * mocap + 1] = 0.005 + grip[1];
  d->mocap_pos[3 * mocap + 2] = (-0.431 + gripper_extra_height_) + grip[2];
  const double rotation[4] = {1.0, 0.0, 1.0, 0.0};
  std::copy(rotation, rotation + 4, d->mocap_quat + 4 * mocap);
  for (int i = 0; i < 10 * frame_skip_; ++i) {
    mj_step(m, d);
  }
  std::copy(grip, grip + 3, initial_gripper_xpos_.begin());
  if (has_object_) {
    height_offset_ = d->site_xpos[3 * object_site_ + 2];
  }
  initial_time_ = d->time;
  initial_qpos_.assign(d->qpos, d->qpos + m->nq);
  initial_qvel_.assign(d->qvel, d->qvel + m->nv);
}

void FetchEnv::SampleGoal() {
  for (int k = 0; k < 3; ++k) {
    goal_[k] = initial_gripper_xpos_[k] +
               np_random_.Uniform(-target_range_, target_range_);
  }
  if (has_object_) {
    for (int k = 0; k < 3; ++k) {
      goal_[k] += target_offset_[k];
    }
    goal_[2] = height_offset_;
    if (target_in_the_air_ && np_random_.Uniform(0.0, 1.0) < 0.5) {
      goal_[2] += np_random_.Uniform(0.0, 0.45);
    }
  }
}

void FetchEnv::Reset() {
  mjModel* m = model_.get();
  mjData* d = data_.get();
  mj_resetData(m, d);
  d->time = initial_time_;
  std::copy(initial_qpos_.begin(), initial_qpos_.end(), d->qpos);
  std::copy(initial_qvel_.begin(), initial_qvel_.end(), d->qvel);
  if (has_object_) {
    double object_xpos[2] = {initial_gripper_xpos_[0],
                             initial_gripper_xpos_[1]};
    for (;;) {
      const double diff[2] = {object_xpos[0] - initial_gripper_xpos_[0],
                              object_xpos[1] - initial_gripper_xpos_[1]};
      if (!(mujoco_common::NumpyNorm(diff, 2) < 0.1)) {
        break;
      }
      for (int k = 0; k < 2; ++k) {
        object_xpos[k] = initial_gripper_xpos_[k] +
                         np_random_.Uniform(-obj_range_, obj_range_);
      }
    }
    double* object = d->qpos + m->jnt_qposadr[object_joint_];
    object[0] = object_xpos[0];
    object[1] = object_xpos[1];
  }
  mj_forward(m, d);
  SampleGoal();
  Observe();
}

void FetchEnv::Step(const ActionView& action) {
  mjModel* m = model_.get();
  mjData* d = data_.get();
  const float* raw = action.Get(fields_.goal.action);
  float a[4];
  for (int k = 0; k < 4; ++k) {
    a[k] = ClipAction(raw[k]);
  }
  // _set_action: float32 arithmetic on the float32 action.
  double pos_ctrl[3];
  for (int k = 0; k < 3; ++k) {
    pos_ctrl[k] = static_cast<float>(a[k] * 0.05F);
  }
  const double gripper_ctrl = block_gripper_ ? 0.0 : a[3];
  // ctrl_set_action: the fingers' actuators (position targets relative to
  // the joints' positions when biased).
  for (int i = 0; i < std::min<int64_t>(2, m->nu); ++i) {
    if (m->actuator_biastype[i] == 0) {
      d->ctrl[i] = gripper_ctrl;
    } else {
      const int joint = m->actuator_trnid[2 * i];
      d->ctrl[i] = d->qpos[m->jnt_qposadr[joint]] + gripper_ctrl;
    }
  }
  // mocap_set_action: the mocap at its welded body's pose, then moved by the
  // action (its quaternion plus the fixed rotation, unnormalised, as the
  // reference adds it).
  for (int i = 0; i < m->neq; ++i) {
    if (m->eq_type[i] != mjEQ_WELD) {
      continue;
    }
    int mocap = m->body_mocapid[m->eq_obj1id[i]];
    int body = m->eq_obj2id[i];
    if (mocap == -1) {
      mocap = m->body_mocapid[m->eq_obj2id[i]];
      body = m->eq_obj1id[i];
    }
    if (mocap == -1) {
      continue;
    }
    std::copy(d->xpos + 3 * body, d->xpos + 3 * body + 3,
              d->mocap_pos + 3 * mocap);
    std::copy(d->xquat + 4 * body, d->xquat + 4 * body + 4,
              d->mocap_quat + 4 * mocap);
  }
  const double quat_delta[4] = {1.0, 0.0, 1.0, 0.0};
  for (int mocap = 0; mocap < m->nmocap; ++mocap) {
    for (int k = 0; k < 3; ++k) {
      d->mocap_pos[3 * mocap + k] += pos_ctrl[k];
    }
    for (int k = 0; k < 4; ++k) {
      d->mocap_quat[4 * mocap + k] += quat_delta[k];
    }
  }
  for (int i = 0; i < frame_skip_; ++i) {
    mj_step(m, d);
  }
  if (block_gripper_) {
    d->qpos[m->jnt_qposadr[left_finger_joint_]] = 0.0;
    d->qpos[m->jnt_qposadr[right_finger_joint_]] = 0.0;
    mj_forward(m, d);
  }
  Observe();
  const double diff[3] = {achieved_goal_[0] - goal_[0],
                          achieved_goal_[1] - goal_[1],
                          achieved_goal_[2] - goal_[2]};
  const double distance = mujoco_common::PlainNorm(diff, 3);
  reward_ = dense_ ? -distance : (distance > distance_threshold_ ? -1.0 : 0.0);
  terminated_ = false;
}

void FetchEnv::SiteVelocity(int site, bool rotational, double* out) const {
  double* jac = const_cast<double*>(jacobian_.data());
  mj_jacSite(model_.get(), data_.get(), rotational ? nullptr : jac,
             rotational ? jac : nullptr, site);
  const int nv = model_->nv;
  const double dt = frame_skip_ * model_->opt.timestep;
  for (int r = 0; r < 3; ++r) {
    double sum = 0.0;
    for (int c = 0; c < nv; ++c) {
      sum += jac[r * nv + c] * data_->qvel[c];
    }
    out[r] = sum * dt;
  }
}

void FetchEnv::Observe() {
  const mjData* d = data_.get();
  const double dt = frame_skip_ * model_->opt.timestep;
  const double* grip_pos = d->site_xpos + 3 * grip_site_;
  double grip_velp[3];
  SiteVelocity(grip_site_, false, grip_velp);
  double gripper_state[2];
  double gripper_vel[2];
  for (int k = 0; k < 2; ++k) {
    const int joint = gripper_joints_[k];
    gripper_state[k] = d->qpos[model_->jnt_qposadr[joint]];
    gripper_vel[k] = d->qvel[model_->jnt_dofadr[joint]] * dt;
  }
  double* obs = observation_.data();
  obs = std::copy(grip_pos, grip_pos + 3, obs);
  if (has_object_) {
    const double* object_pos = d->site_xpos + 3 * object_site_;
    const rotations::Euler object_rot =
        rotations::Mat2Euler(d->site_xmat + 9 * object_site_);
    double object_velp[3];
    double object_velr[3];
    SiteVelocity(object_site_, false, object_velp);
    SiteVelocity(object_site_, true, object_velr);
    double object_rel_pos[3];
    for (int k = 0; k < 3; ++k) {
      object_rel_pos[k] = object_pos[k] - grip_pos[k];
      object_velp[k] -= grip_velp[k];
    }
    obs = std::copy(object_pos, object_pos + 3, obs);
    obs = std::copy(object_rel_pos, object_rel_pos + 3, obs);
    obs = std::copy(gripper_state, gripper_state + 2, obs);
    obs = std::copy(object_rot.begin(), object_rot.end(), obs);
    obs = std::copy(object_velp, object_velp + 3, obs);
    obs = std::copy(object_velr, object_velr + 3, obs);
    std::copy(object_pos, object_pos + 3, achieved_goal_.begin());
  } else {
    obs = std::copy(gripper_state, gripper_state + 2, obs);
    std::copy(grip_pos, grip_pos + 3, achieved_goal_.begin());
  }
  obs = std::copy(grip_velp, grip_velp + 3, obs);
  std::copy(gripper_vel, gripper_vel + 2, obs);
  const double diff[3] = {achieved_goal_[0] - goal_[0],
                          achieved_goal_[1] - goal_[1],
                          achieved_goal_[2] - goal_[2]};
  is_success_ =
      mujoco_common::PlainNorm(diff, 3) < distance_threshold_ ? 1.0F : 0.0F;
}

void FetchEnv::Write(const Output& out) {
  std::copy(observation_.begin(), observation_.end(),
            out.Get(fields_.goal.observation));
  std::copy(achieved_goal_.begin(), achieved_goal_.end(),
            out.Get(fields_.goal.achieved_goal));
  std::copy(goal_.begin(), goal_.end(), out.Get(fields_.goal.desired_goal));
  *out.Get(fields_.is_success) = is_success_;
}

void FetchEnv::Render(int width, int height, int camera_id, uint8_t* rgb) {
  if (!has_camera_) {
    // fetch_env.py's DEFAULT_CAMERA_CONFIG.
    render::CameraConfig config{2.5, -14.0, 132.0, true, {1.3, 0.75, 0.55}};
    camera_ = render::InitialCamera(model_.get(), data_.get(), config);
    has_camera_ = true;
  }
  // _render_callback: the target marker at the goal (the sites' offset is
  // taken from site 0, as the reference does).
  mjModel* m = model_.get();
  const int target = mj_name2id(m, mjOBJ_SITE, "target0");
  if (target >= 0) {
    for (int k = 0; k < 3; ++k) {
      const double offset = data_->site_xpos[k] - m->site_pos[k];
      m->site_pos[3 * target + k] = goal_[k] - offset;
    }
    mj_forward(m, data_.get());
  }
  render::RenderFrame(model_.shared(), m, data_.get(), camera_, camera_id,
                      width, height, render::SceneSettings{}, rgb);
}

void FetchEnv::SaveState(StateWriter* writer) const {
  SavePhysics(model_.get(), data_.get(), writer);
  writer->Put(goal_, observation_, achieved_goal_, is_success_);
}

void FetchEnv::LoadState(StateReader* reader) {
  LoadPhysics(model_.get(), data_.get(), reader);
  std::vector<double> observation;
  reader->Get(&goal_, &observation, &achieved_goal_, &is_success_);
  if (observation.size() != observation_.size()) {
    throw SnapshotError("the observation of this snapshot has another size");
  }
  observation_ = std::move(observation);
}

std::vector<double> FetchEnv::GetState() const {
  const mjData* d = data_.get();
  // The Fetch models have no activations: act adds nothing, and SetState
  // reads qpos, qvel, qacc_warmstart, the mocap pose and the goal.
  std::vector<double> state = mujoco_common::SimulationState(model_.get(), d);
  state.insert(state.end(), d->mocap_pos, d->mocap_pos + 3);
  state.insert(state.end(), d->mocap_quat, d->mocap_quat + 4);
  state.insert(state.end(), goal_.begin(), goal_.end());
  return state;
}

void FetchEnv::SetState(const std::vector<double>& state) {
  const mjModel* m = model_.get();
  mjData* d = data_.get();
  const int nq = m->nq;
  const int nv = m->nv;
  if (static_cast<int>(state.size()) != nq + 2 * nv + 10) {
    throw std::invalid_argument("the state of a Fetch env is qpos (" +
                                std::to_string(nq) + "), qvel (" +
                                std::to_string(nv) + "), qacc_warmstart (" +
                                std::to_string(nv) +
                                "), mocap_pos (3), mocap_quat (4) and the goal "
                                "(3), got " +
                                std::to_string(state.size()) + " numbers");
  }
  auto it = state.begin();
  std::copy(it, it + nq, d->qpos);
  it += nq;
  std::copy(it, it + nv, d->qvel);
  it += nv;
  std::copy(it, it + nv, d->qacc_warmstart);
  it += nv;
  std::copy(it, it + 3, d->mocap_pos);
  it += 3;
  std::copy(it, it + 4, d->mocap_quat);
  it += 4;
  std::copy(it, it + 3, goal_.begin());
  mj_forward(m, d);
  Observe();
}

}  // namespace envpool::robotics
