#include "envpool/robotics/kitchen_env.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "envpool/mujoco_common/numpy_math.h"
#include "envpool/mujoco_common/spec.h"
#include "envpool/render/mujoco_egl.h"
#include "envpool/robotics/goal_env.h"

namespace envpool::robotics {
namespace {

// kitchen_env.py's OBS_ELEMENT_INDICES and OBS_ELEMENT_GOALS.
struct KitchenTask {
  const char* name;
  int first_qpos;
  int size;
  std::array<double, 7> goal;
};

constexpr KitchenTask kTasks[kKitchenTasks] = {
    {"bottom burner", 11, 2, {-0.88, -0.01}},
    {"top burner", 15, 2, {-0.92, -0.01}},
    {"light switch", 17, 2, {-0.69, -0.05}},
    {"slide cabinet", 19, 1, {0.37}},
    {"hinge cabinet", 20, 2, {0.0, 1.45}},
    {"microwave", 22, 1, {-0.75}},
    {"kettle", 23, 7, {-0.23, 0.75, 1.62, 0.99, 0.0, 0.0, -0.06}},
};

// kitchen_env.py's BONUS_THRESH.
constexpr double kBonusThreshold = 0.3;

// KitchenEnv's robot_env.init_qpos.
constexpr double kInitialQpos[30] = {
    1.48388023e-01,  -1.76848573e00,  1.84390296e00,   -2.47685760e00,
    2.60252026e-01,  7.12533105e-01,  1.59515394e00,   4.79267505e-02,
    3.71350919e-02,  -2.66279850e-04, -5.18043486e-05, 3.12877220e-05,
    -4.51199853e-05, -3.90842156e-06, -4.22629655e-05, 6.28065475e-05,
    4.04984708e-05,  4.62730939e-04,  -2.26906415e-04, -4.65501369e-04,
    -6.44129196e-03, -1.77048263e-03, 1.08009684e-03,  -2.69397440e-01,
    3.50383255e-01,  1.61944683e00,   1.00618764e00,   4.06395120e-03,
    -6.62095997e-03, -2.68278933e-04};

// franka_config.xml, one row per degree of freedom (qpos0 .. qpos28): the
// position and velocity noise amplitudes; and the robot's 9 position and
// velocity bounds.
constexpr int kDofs = 29;
constexpr double kPosNoiseAmp[kDofs] = {
    0.1,   0.1,    0.1,    0.1,    0.1,    0.1,    0.1,    0.1,   0.1,   0.005,
    0.005, 0.0005, 0.0005, 0.0005, 0.0005, 0.0005, 0.0005, 0.005, 0.005, 0.005,
    0.1,   0.1,    0.1,    0.005,  0.005,  0.005,  0.1,    0.1,   0.1};
constexpr double kVelNoiseAmp[kDofs] = {
    0.1,   0.1,   0.1,   0.1,   0.1,   0.1,   0.1,   0.1,   0.1,   0.005,
    0.005, 0.005, 0.005, 0.005, 0.005, 0.005, 0.005, 0.005, 0.005, 0.005,
    0.1,   0.1,   0.1,   0.005, 0.005, 0.005, 0.1,   0.1,   0.1};
constexpr double kPosBound[9][2] = {{-2.9, 2.9}, {-1.8, 1.8}, {-2.9, 2.9},
                                    {-3.1, 0.0}, {-2.9, 2.9}, {0.0, 3.8},
                                    {-2.9, 2.9}, {0.0, 0.04}, {0.0, 0.04}};
constexpr double kVelBound[9][2] = {{-10, 10}, {-10, 10}, {-10, 10},
                                    {-10, 10}, {-10, 10}, {-10, 10},
                                    {-10, 10}, {-10, 10}, {-10, 10}};

// The seven task names, quoted and separated by commas, for the errors.
std::string TaskNames() {
  std::string names;
  for (const KitchenTask& task : kTasks) {
    names += std::string(names.empty() ? "'" : ", '") + task.name + "'";
  }
  return names;
}

// The option tasks_to_complete: a list of the seven task names (repeats
// count once, as the reference's set and dict).
std::vector<int> GoalTasks(const Options& options) {
  std::vector<int> tasks;
  for (const std::string& name :
       options.Get<OptionStrings>("tasks_to_complete")) {
    int found = -1;
    for (int t = 0; t < kKitchenTasks; ++t) {
      if (name == kTasks[t].name) {
        found = t;
      }
    }
    if (found < 0) {
      throw std::invalid_argument("option 'tasks_to_complete': unknown task '" +
                                  name + "'; the tasks are " + TaskNames());
    }
    if (std::find(tasks.begin(), tasks.end(), found) == tasks.end()) {
      tasks.push_back(found);
    }
  }
  if (tasks.empty()) {
    throw std::invalid_argument(
        "option 'tasks_to_complete' names no task; give a list of some of " +
        TaskNames());
  }
  return tasks;
}

void CheckRatio(const Options& options, const char* name) {
  const auto value = options.Get<double>(name);
  if (!(value >= 0.0) || !std::isfinite(value)) {
    throw std::invalid_argument(std::string("option '") + name +
                                "' must be a number >= 0, got " +
                                FloatText(value));
  }
}

}  // namespace

Options FrankaKitchenEnv::DefaultOptions() {
  return Options{
      {"max_episode_steps", int64_t{280}},
      {"frame_skip", int64_t{40}},
      {"frame_stack", int64_t{1}},
      {"xml_file",
       std::string("kitchen_franka/kitchen_assets/kitchen_env_model.xml")},
      {"tasks_to_complete",
       OptionStrings{"bottom burner", "top burner", "light switch",
                     "slide cabinet", "hinge cabinet", "microwave", "kettle"}},
      {"terminate_on_tasks_completed", true},
      {"remove_task_when_completed", true},
      {"robot_noise_ratio", 0.01},
      {"object_noise_ratio", 0.0005},
  };
}

void FrankaKitchenEnv::Declare(const Options& options, EnvSpec* spec,
                               Fields* fields) {
  CheckFrameStack(options);
  CheckRatio(options, "robot_noise_ratio");
  CheckRatio(options, "object_noise_ratio");
  const auto tasks = GoalTasks(options);
  const auto model = mujoco_common::LoadModel(
      RoboticsModels(), options.Get<std::string>("xml_file"));
  if (model->nq != 30 || model->nv != kDofs || model->nu != 9) {
    throw std::invalid_argument(
        "option 'xml_file': the kitchen model has 30 positions, 29 degrees "
        "of freedom and 9 actuators "
        "(kitchen_franka/kitchen_assets/kitchen_env_model.xml)");
  }
  fields->observation =
      spec->state.Add<double>("obs:observation", {59}, {-kInf}, {kInf});
  for (const char* part : {"achieved_goal", "desired_goal"}) {
    auto* list = std::string(part) == "achieved_goal" ? &fields->achieved_goal
                                                      : &fields->desired_goal;
    for (int t : tasks) {
      list->push_back(spec->state.Add<double>(
          std::string("obs:") + part + ":" + kTasks[t].name, {kTasks[t].size},
          {-kInf}, {kInf}));
    }
  }
  fields->action = spec->action.Add<double>("action", {9}, {-1.0}, {1.0});
  fields->tasks_to_complete =
      spec->state.Add<bool>("info:tasks_to_complete", {kKitchenTasks});
  fields->step_task_completions =
      spec->state.Add<bool>("info:step_task_completions", {kKitchenTasks});
  fields->episode_task_completions =
      spec->state.Add<bool>("info:episode_task_completions", {kKitchenTasks});
  // render_fps: the reference's int(np.round(1 / dt)), which rounds 12.5
  // half to even (12); DeclareModelRendering's std::lround would say 13.
  const double dt = model->opt.timestep *
                    static_cast<double>(mujoco_common::FrameSkip(options));
  DeclareRendering(options, spec, {"rgb_array"}, 480, 480,
                   static_cast<int>(std::nearbyint(1.0 / dt)),
                   /*any_size=*/true, model->ncam);
  spec->snapshots = true;
}

FrankaKitchenEnv::FrankaKitchenEnv(const Options& options, const Fields& fields)
    : fields_(fields),
      model_(mujoco_common::LoadModel(RoboticsModels(),
                                      options.Get<std::string>("xml_file"))),
      data_(mj_makeData(model_.get())),
      frame_skip_(static_cast<int>(mujoco_common::FrameSkip(options))),
      robot_noise_ratio_(options.Get<double>("robot_noise_ratio")),
      object_noise_ratio_(options.Get<double>("object_noise_ratio")),
      remove_task_when_completed_(
          options.Get<bool>("remove_task_when_completed")),
      terminate_on_tasks_completed_(
          options.Get<bool>("terminate_on_tasks_completed")),
      goal_tasks_(GoalTasks(options)),
      observation_(59, 0.0) {
  if (data_ == nullptr) {
    throw std::runtime_error("cannot allocate MuJoCo data for " +
                             options.Get<std::string>("xml_file"));
  }
}

void FrankaKitchenEnv::Observe() {
  const mjData* d = data_.get();
  double* obs = observation_.data();
  // FrankaRobot._get_obs: the robot's joints (the first 9 of the model, all
  // hinges and slides) with noise; the noisy positions are the next step's
  // base.
  double robot_qvel[9];
  for (int k = 0; k < 9; ++k) {
    last_robot_qpos_[k] = d->qpos[k] + robot_noise_ratio_ * kPosNoiseAmp[k] *
                                           np_random_.Uniform(-1.0, 1.0);
  }
  for (int k = 0; k < 9; ++k) {
    robot_qvel[k] = d->qvel[k] + robot_noise_ratio_ * kVelNoiseAmp[k] *
                                     np_random_.Uniform(-1.0, 1.0);
  }
  obs = std::copy(last_robot_qpos_.begin(), last_robot_qpos_.end(), obs);
  obs = std::copy(robot_qvel, robot_qvel + 9, obs);
  // KitchenEnv._get_obs: the objects' 21 positions and 20 velocities.
  for (int k = 9; k < 30; ++k) {
    *obs++ = d->qpos[k] + object_noise_ratio_ * kPosNoiseAmp[k - 1] *
                              np_random_.Uniform(-1.0, 1.0);
  }
  for (int k = 9; k < kDofs; ++k) {
    *obs++ = d->qvel[k] + object_noise_ratio_ * kVelNoiseAmp[k] *
                              np_random_.Uniform(-1.0, 1.0);
  }
}

void FrankaKitchenEnv::Reset() {
  const mjModel* m = model_.get();
  mjData* d = data_.get();
  mj_resetData(m, d);
  std::copy(kInitialQpos, kInitialQpos + 30, d->qpos);
  mj_forward(m, d);
  Observe();
  to_complete_.fill(false);
  for (int t : goal_tasks_) {
    to_complete_[t] = true;
  }
  step_completions_.fill(false);
  episode_completions_.fill(false);
}

void FrankaKitchenEnv::Step(const ActionView& action) {
  const mjModel* m = model_.get();
  mjData* d = data_.get();
  const double* raw = action.Get(fields_.action);
  const double dt = m->opt.timestep * frame_skip_;
  for (int k = 0; k < 9; ++k) {
    // np.clip keeps a NaN.
    const double a =
        std::isnan(raw[k]) ? raw[k] : std::clamp(raw[k], -1.0, 1.0);
    double velocity = 0.0 + a * 2.0;
    velocity = std::clamp(velocity, kVelBound[k][0], kVelBound[k][1]);
    const double position = last_robot_qpos_[k] + velocity * dt;
    d->ctrl[k] = std::clamp(position, kPosBound[k][0], kPosBound[k][1]);
  }
  for (int i = 0; i < frame_skip_; ++i) {
    mj_step(m, d);
  }
  mj_rnePostConstraint(m, d);
  Observe();
  // compute_reward over the tasks still to complete, on the noiseless
  // positions.
  step_completions_.fill(false);
  int completed = 0;
  for (int t = 0; t < kKitchenTasks; ++t) {
    if (!to_complete_[t]) {
      continue;
    }
    double diff[7];
    for (int k = 0; k < kTasks[t].size; ++k) {
      diff[k] = d->qpos[kTasks[t].first_qpos + k] - kTasks[t].goal[k];
    }
    if (mujoco_common::NumpyNorm(diff, kTasks[t].size) < kBonusThreshold) {
      step_completions_[t] = true;
      ++completed;
    }
  }
  reward_ = completed;
  for (int t = 0; t < kKitchenTasks; ++t) {
    if (step_completions_[t]) {
      if (remove_task_when_completed_) {
        to_complete_[t] = false;
      }
      episode_completions_[t] = true;
    }
  }
  terminated_ = false;
  if (terminate_on_tasks_completed_) {
    terminated_ =
        std::all_of(goal_tasks_.begin(), goal_tasks_.end(),
                    [this](int t) { return episode_completions_[t]; });
  }
}

void FrankaKitchenEnv::Write(const Output& out) {
  std::copy(observation_.begin(), observation_.end(),
            out.Get(fields_.observation));
  const mjData* d = data_.get();
  for (std::size_t i = 0; i < goal_tasks_.size(); ++i) {
    const KitchenTask& task = kTasks[goal_tasks_[i]];
    std::copy(d->qpos + task.first_qpos, d->qpos + task.first_qpos + task.size,
              out.Get(fields_.achieved_goal[i]));
    std::copy(task.goal.begin(), task.goal.begin() + task.size,
              out.Get(fields_.desired_goal[i]));
  }
  std::copy(to_complete_.begin(), to_complete_.end(),
            out.Get(fields_.tasks_to_complete));
  std::copy(step_completions_.begin(), step_completions_.end(),
            out.Get(fields_.step_task_completions));
  std::copy(episode_completions_.begin(), episode_completions_.end(),
            out.Get(fields_.episode_task_completions));
}

void FrankaKitchenEnv::Render(int width, int height, int camera_id,
                              uint8_t* rgb) {
  if (!has_camera_) {
    // franka_env.py's DEFAULT_CAMERA_CONFIG.
    render::CameraConfig config{2.2, -35.0, 70.0, true, {-0.2, 0.5, 2.0}};
    camera_ = render::InitialCamera(model_.get(), data_.get(), config);
    has_camera_ = true;
  }
  render::RenderFrame(model_.get(), model_.get(), data_.get(), camera_,
                      camera_id, width, height, render::SceneSettings{}, rgb);
}

void FrankaKitchenEnv::SaveState(StateWriter* writer) const {
  SavePhysics(model_.get(), data_.get(), writer);
  writer->Put(last_robot_qpos_, observation_, to_complete_, step_completions_,
              episode_completions_);
}

void FrankaKitchenEnv::LoadState(StateReader* reader) {
  LoadPhysics(model_.get(), data_.get(), reader);
  std::vector<double> observation;
  reader->Get(&last_robot_qpos_, &observation, &to_complete_,
              &step_completions_, &episode_completions_);
  if (observation.size() != observation_.size()) {
    throw SnapshotError("this snapshot is not of a FrankaKitchen env");
  }
  observation_ = std::move(observation);
}

std::vector<double> FrankaKitchenEnv::GetState() const {
  const mjData* d = data_.get();
  std::vector<double> state(d->qpos, d->qpos + model_->nq);
  state.insert(state.end(), d->qvel, d->qvel + model_->nv);
  return state;
}

void FrankaKitchenEnv::SetState(const std::vector<double>& state) {
  const mjModel* m = model_.get();
  mjData* d = data_.get();
  if (state.size() != static_cast<std::size_t>(m->nq + m->nv)) {
    throw std::invalid_argument(
        "the state of a FrankaKitchen env is qpos (30) and qvel (29), got " +
        std::to_string(state.size()) + " numbers");
  }
  std::copy(state.begin(), state.begin() + m->nq, d->qpos);
  std::copy(state.begin() + m->nq, state.end(), d->qvel);
  mj_forward(m, d);
}

}  // namespace envpool::robotics
