#include "envpool/metaworld/sawyer_env.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "envpool/core/numpy_kernels.h"
#include "envpool/mujoco_common/numpy_math.h"
#include "envpool/mujoco_common/spec.h"
#include "envpool/mujoco_common/state.h"
#include "envpool/render/mujoco_egl.h"

namespace envpool::metaworld {
namespace {

// sawyer_xyz_env.py's _HAND_SPACE, the hand's observation bounds.
constexpr std::array<double, 3> kHandSpaceLow{-0.525, 0.348, -0.0525};
constexpr std::array<double, 3> kHandSpaceHigh{0.525, 1.025, 0.7};
constexpr double kTargetRadius = 0.05;
constexpr double kActionScale = 0.01;
constexpr int kHandResetSteps = 50;

const mujoco_common::ModelFolder& MetaWorldModels() {
  static const mujoco_common::ModelFolder folder{
      "metaworld", /*accepts_paths=*/false,
      [](const std::string& name, const std::string& path) {
        if (path.empty()) {
          return "Meta-World model '" + name +
                 "' not found: the metaworld family's asset folder is "
                 "missing (reinstall envpool, or pip install --no-deps "
                 "metaworld==3.1.1 and point ASSET_DIR at its assets folder)";
        }
        return "Meta-World model '" + name + "' not found at " + path +
               " (the models ship with envpool in metaworld/assets; "
               "reinstall envpool, or pip install --no-deps metaworld==3.1.1)";
      }};
  return folder;
}

double Clip(double x, double low, double high) {
  // np.clip: NaN stays NaN.
  return x < low ? low : (x > high ? high : x);
}

float ClipAction(float x) { return x < -1.0F ? -1.0F : (x > 1.0F ? 1.0F : x); }

double Norm3(const double* a, const double* b) {
  const double diff[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return mujoco_common::NumpyNorm(diff, 3);
}

// The observation's bounds: the hand, the fingers' opening and the
// objects (unbounded), twice, then the goal.
void ObservationBounds(const TaskConfig& task, bool partially_observable,
                       std::vector<double>* low, std::vector<double>* high) {
  const double inf = std::numeric_limits<double>::infinity();
  for (int frame = 0; frame < 2; ++frame) {
    low->insert(low->end(), kHandSpaceLow.begin(), kHandSpaceLow.end());
    high->insert(high->end(), kHandSpaceHigh.begin(), kHandSpaceHigh.end());
    low->push_back(-1.0);
    high->push_back(1.0);
    low->insert(low->end(), 14, -inf);
    high->insert(high->end(), 14, inf);
  }
  for (int k = 0; k < 3; ++k) {
    low->push_back(partially_observable ? 0.0 : task.goal_low[k]);
    high->push_back(partially_observable ? 0.0 : task.goal_high[k]);
  }
}

}  // namespace

Options SawyerEnv::DefaultOptions() {
  return Options{
      {"max_episode_steps", int64_t{500}},
      {"frame_skip", int64_t{5}},
      {"frame_stack", int64_t{1}},
      {"task_name", std::string("pick-place-v3")},
      {"partially_observable", true},
      // Meta-World's benchmarks (task_sampling.h, docs/metaworld.md).
      {"benchmark", std::string("")},
      {"split", std::string("train")},
      {"benchmark_seed", int64_t{0}},
      {"task_index", int64_t{0}},
      {"num_goals", int64_t{kDefaultTaskVariations}},
      {"task_sampling", std::string("random")},
      {"task_vector", int64_t{-1}},
      {"task_vectors_per_class", int64_t{-1}},
      {"task_vector_stride", int64_t{1}},
      {"task_vector_offset", int64_t{0}},
  };
}

void SawyerEnv::Declare(const Options& options, EnvSpec* spec, Fields* fields) {
  const TaskConfig& task = FindTask(BenchmarkTaskName(options));
  mujoco_common::FrameSkip(options);
  const auto frame_stack = options.Get<int64_t>("frame_stack");
  if (frame_stack != 1) {
    throw std::invalid_argument(
        "option 'frame_stack' must be 1 (the observation already holds the "
        "previous frame), got " +
        std::to_string(frame_stack));
  }
  const auto max_steps = options.Get<int64_t>("max_episode_steps");
  if (max_steps < 1 || max_steps > 500) {
    throw std::invalid_argument(
        "option 'max_episode_steps' must be in [1, 500] (Meta-World's "
        "max_path_length: its env refuses a 501st step), got " +
        std::to_string(max_steps));
  }
  // Loading checks that the model is there (an error naming it if not).
  const mujoco_common::SharedModel model =
      mujoco_common::LoadModel(MetaWorldModels(), task.xml);
  std::vector<double> low;
  std::vector<double> high;
  ObservationBounds(task, options.Get<bool>("partially_observable"), &low,
                    &high);
  if (!options.Get<std::string>("benchmark").empty() &&
      !options.Get<bool>("partially_observable")) {
    std::array<double, 3> goal_low{};
    std::array<double, 3> goal_high{};
    GoalBounds(options, &goal_low, &goal_high);
    std::copy(goal_low.begin(), goal_low.end(), low.end() - 3);
    std::copy(goal_high.begin(), goal_high.end(), high.end() - 3);
  }
  fields->obs = spec->state.Add<double>("obs", {kObsDim}, low, high);
  fields->action = spec->action.Add<float>("action", {4}, {-1.0}, {1.0});
  fields->success = spec->state.Add<double>("info:success", {});
  fields->near_object = spec->state.Add<double>("info:near_object", {});
  fields->grasp_success = spec->state.Add<double>("info:grasp_success", {});
  fields->grasp_reward = spec->state.Add<double>("info:grasp_reward", {});
  fields->in_place_reward = spec->state.Add<double>("info:in_place_reward", {});
  fields->obj_to_target = spec->state.Add<double>("info:obj_to_target", {});
  fields->unscaled_reward = spec->state.Add<double>("info:unscaled_reward", {});
  fields->task_id = spec->state.Add<int32_t>("info:task_id", {});
  // SawyerXYZEnv's width and height (480 x 480), its metadata's render_fps
  // (80: round(1 / (0.0025 x 5))); a benchmark's classes all have the
  // cameras of xyz_base.xml.
  mujoco_common::DeclareModelRendering(options, *model, 480, 480, spec);
  spec->snapshots = true;
}

SawyerEnv::SawyerEnv(const Options& options, const Fields& fields)
    : fields_(fields),
      task_(&FindTask(BenchmarkTaskName(options))),
      model_(mujoco_common::LoadModel(MetaWorldModels(), task_->xml),
             {{&mjModel::body_pos, &mjModel::nbody, 3},
              {&mjModel::site_pos, &mjModel::nsite, 3},
              {&mjModel::eq_data, &mjModel::neq, mjNEQDATA}}),
      data_(mj_makeData(model_.get())),
      frame_skip_(static_cast<int>(mujoco_common::FrameSkip(options))),
      partially_observable_(options.Get<bool>("partially_observable")),
      full_first_reset_model_(
          options.Has("render_mode") &&
          !options.Get<std::string>("render_mode").empty()) {
  if (data_ == nullptr) {
    throw std::runtime_error(std::string("cannot allocate MuJoCo data for ") +
                             task_->xml);
  }
  task_sampler_ = TaskSampler::Make(options);
  mjModel* m = model_.get();
  using mujoco_common::ObjectId;
  hand_body_ = ObjectId(m, mjOBJ_BODY, "hand");
  mocap_ = m->body_mocapid[ObjectId(m, mjOBJ_BODY, "mocap")];
  right_claw_ = ObjectId(m, mjOBJ_BODY, "rightclaw");
  left_claw_ = ObjectId(m, mjOBJ_BODY, "leftclaw");
  right_effector_ = ObjectId(m, mjOBJ_SITE, "rightEndEffector");
  left_effector_ = ObjectId(m, mjOBJ_SITE, "leftEndEffector");
  left_pad_ = ObjectId(m, mjOBJ_BODY, "leftpad");
  right_pad_ = ObjectId(m, mjOBJ_BODY, "rightpad");
  left_pad_geom_ = ObjectId(m, mjOBJ_GEOM, "leftpad_geom");
  right_pad_geom_ = ObjectId(m, mjOBJ_GEOM, "rightpad_geom");
  if (CallsNumpyExpOrLog()) {
    FindGaussianTaskElements();
  } else if (IsLever()) {
    moved_body_ = ObjectId(m, mjOBJ_BODY, "lever");
    object_site_ = ObjectId(m, mjOBJ_SITE, task_->object_site);
    obj_geom_ = ObjectId(m, mjOBJ_GEOM, task_->object_geom);
    lever_axis_ = ObjectId(m, mjOBJ_JOINT, "LeverAxis");
  } else if (IsDoorLock()) {
    moved_body_ = ObjectId(m, mjOBJ_BODY, "door");
    object_site_ = ObjectId(m, mjOBJ_SITE, task_->object_site);
    door_link_ = ObjectId(m, mjOBJ_BODY, "door_link");
    lock_link_ = ObjectId(m, mjOBJ_BODY, "lock_link");
  } else if (IsCoffee()) {
    moved_body_ = ObjectId(m, mjOBJ_BODY, "coffee_machine");
    object_site_ = ObjectId(m, mjOBJ_SITE, task_->object_site);
  } else if (IsDrawer()) {
    moved_body_ = ObjectId(m, mjOBJ_BODY, "drawer");
    drawer_link_ = ObjectId(m, mjOBJ_BODY, "drawer_link");
  } else if (IsWindow()) {
    moved_body_ = ObjectId(m, mjOBJ_BODY, "window");
    object_site_ = ObjectId(m, mjOBJ_SITE, task_->object_site);
    window_slide_ = ObjectId(m, mjOBJ_JOINT, "window_slide");
  } else if (IsHandle()) {
    moved_body_ = ObjectId(m, mjOBJ_BODY, "box");
    object_site_ = ObjectId(m, mjOBJ_SITE, task_->object_site);
    goal_press_site_ = ObjectId(
        m, mjOBJ_SITE,
        task_->kind == TaskKind::kHandlePress ? "goalPress" : "goalPull");
  } else if (IsButton()) {
    button_body_ = ObjectId(m, mjOBJ_BODY, "button");
    moved_body_ = ObjectId(m, mjOBJ_BODY, "box");
    hole_site_ = ObjectId(m, mjOBJ_SITE, "hole");
    button_start_site_ = ObjectId(m, mjOBJ_SITE, "buttonStart");
  } else if (IsTool()) {
    SetUpTool();
  } else {
    obj_geom_ = ObjectId(m, mjOBJ_GEOM, task_->object_geom);
    if (task_->kind == TaskKind::kSoccer) {
      moved_body_ = ObjectId(m, mjOBJ_BODY, "goal_whole");
    }
    if (IsMug()) {
      moved_body_ = ObjectId(m, mjOBJ_BODY, "coffee_machine");
    }
  }
  if (!task_->position_from_geom && !IsButton() && !ObservesSite() &&
      !IsDrawer() && !IsTool() && !CallsNumpyExpOrLog()) {
    obj_body_ =
        ObjectId(m, mjOBJ_BODY,
                 task_->kind == TaskKind::kSoccer ? "soccer_ball" : "obj");
  }
  if (task_->puck_goal != PuckGoal::kNone) {
    moved_body_ = ObjectId(m, mjOBJ_BODY, "puck_goal");
  }
  // The goal marker site, which the button tasks lack; the coffee mug's and
  // the faucets' have their own names (the faucets' other marker stays
  // where the model puts it, as the reference's does).
  const char* goal_marker = "goal";
  if (IsMug()) {
    goal_marker = "mug_goal";
  } else if (task_->kind == TaskKind::kFaucetOpen) {
    goal_marker = "goal_open";
  } else if (task_->kind == TaskKind::kFaucetClose) {
    goal_marker = "goal_close";
  }
  goal_site_ = mj_name2id(m, mjOBJ_SITE, goal_marker);
  if (task_->kind == TaskKind::kShelfPlace) {
    // The goal site sits on the shelf; the reference moves only its data
    // (site_xpos), and reads the model's position at the next reset.
    moved_body_ = ObjectId(m, mjOBJ_BODY, "shelf");
    shelf_goal_offset_ = {m->site_pos[3 * goal_site_],
                          m->site_pos[3 * goal_site_ + 1],
                          m->site_pos[3 * goal_site_ + 2]};
    goal_site_ = -1;
  }
  if (task_->kind == TaskKind::kHammer ||
      task_->kind == TaskKind::kBasketball ||
      task_->kind == TaskKind::kBinPicking) {
    // Their goal sites sit on the box and on the hoop: the goal is where
    // the site is, not the other way round. (Bin-picking moves no site.)
    goal_site_ = -1;
  }
  if (mocap_ < 0 || m->nu != 2) {
    throw std::invalid_argument(std::string("the Meta-World model ") +
                                task_->xml +
                                " lacks the mocap body or the two finger "
                                "actuators");
  }
  // reset_mocap_welds: the weld holds the hand at the mocap's pose (the
  // reference writes 11 numbers into each weld's row).
  const double weld[11] = {0.0,  0.0, 0.0, 0.0, 0.0, 0.0,
                           -1.0, 0.0, 0.0, 0.0, 5.0};
  for (int i = 0; i < m->neq; ++i) {
    if (m->eq_type[i] == mjEQ_WELD) {
      std::copy(weld, weld + 11,
                m->eq_data + static_cast<std::size_t>(i) * mjNEQDATA);
    }
  }
  mj_forward(m, data_.get());
}

std::vector<double> SawyerEnv::DrawPlacement() {
  if (task_vector_ != nullptr) {
    return *task_vector_;  // set_task's frozen vector: no draw
  }
  return metaworld::DrawPlacement(*task_, &np_random_);
}

std::array<double, 3> SawyerEnv::BodyPos(int body) const {
  const double* x = data_->xpos + 3 * body;
  return {x[0], x[1], x[2]};
}

std::array<double, 3> SawyerEnv::TcpCenter() const {
  const double* right = data_->site_xpos + 3 * right_effector_;
  const double* left = data_->site_xpos + 3 * left_effector_;
  return {(right[0] + left[0]) / 2.0, (right[1] + left[1]) / 2.0,
          (right[2] + left[2]) / 2.0};
}

void SawyerEnv::ResetHand() {
  mjModel* m = model_.get();
  mjData* d = data_.get();
  for (int i = 0; i < kHandResetSteps; ++i) {
    std::copy(task_->hand_init_pos.begin(), task_->hand_init_pos.end(),
              d->mocap_pos + 3 * mocap_);
    const double quat[4] = {1.0, 0.0, 1.0, 0.0};
    std::copy(quat, quat + 4, d->mocap_quat + 4 * mocap_);
    d->ctrl[0] = -1.0;
    d->ctrl[1] = 1.0;
    for (int s = 0; s < frame_skip_; ++s) {
      mj_step(m, d);
    }
  }
  init_tcp_ = TcpCenter();
}

void SawyerEnv::SetObjectPosition(const std::array<double, 3>& pos) {
  // _set_obj_xyz: the free joint's position, its velocity zeroed.
  mjData* d = data_.get();
  std::copy(pos.begin(), pos.end(), d->qpos + 9);
  std::fill(d->qvel + 9, d->qvel + 15, 0.0);
  mj_forward(model_.get(), d);
}

void SawyerEnv::Reset() {
  if (task_sampler_) {
    task_vector_ = &task_sampler_->Next(&np_random_);
  }
  // The reference's first reset_model(): its physics are discarded, its
  // draws and its moves of the model's bodies are not (the next hand reset
  // runs with them). A rendering env runs it in full, as the reference
  // does: the model's sites it places (the goal marker) are where the
  // second run's hand reset computes them, and where the reset's frame
  // shows them when the reference moves them after its last mj_forward.
  if (full_first_reset_model_) {
    ResetModel();
  } else {
    MoveBody(DrawPlacement());
  }
  mj_resetData(model_.get(), data_.get());
  ResetModel();
  // The reset's observation: the frame twice (not clipped).
  CurrentFrame(obs_.data());
  std::copy(obs_.begin(), obs_.begin() + kFrameDim, obs_.begin() + kFrameDim);
  std::copy(obs_.begin(), obs_.begin() + kFrameDim, prev_frame_.begin());
  for (int k = 0; k < 3; ++k) {
    obs_[2 * kFrameDim + k] = partially_observable_ ? 0.0 : target_pos_[k];
  }
  info_ = TaskInfo{};
}

void SawyerEnv::ResetModel() {
  mjModel* m = model_.get();
  mjData* d = data_.get();
  ResetHand();
  const std::vector<double> vec = DrawPlacement();
  switch (task_->kind) {
    case TaskKind::kPickPlace:
      init_tcp_ = TcpCenter();
      [[fallthrough]];
    case TaskKind::kReach:
    case TaskKind::kReachWall:
    case TaskKind::kPickPlaceWall:
    case TaskKind::kCoffeePush:
    case TaskKind::kCoffeePull:
    case TaskKind::kPlateSlide:
    case TaskKind::kPlateSlideSide:
      target_pos_ = {vec[3], vec[4], vec[5]};
      obj_init_pos_ = {vec[0], vec[1], vec[2]};
      break;
    case TaskKind::kButtonPress:
    case TaskKind::kButtonPressWall:
    case TaskKind::kButtonPressTopdown:
    case TaskKind::kButtonPressTopdownWall:
    case TaskKind::kHandlePress:
    case TaskKind::kHandlePull:
    case TaskKind::kHandlePullSide:
      obj_init_pos_ = {vec[0], vec[1], vec[2]};
      break;
    case TaskKind::kHandInsert:
      // The object's height is the one it started with (0.05), carried
      // from reset to reset by the reference.
      target_pos_ = {vec[3], vec[4], vec[5]};
      obj_init_pos_ = {vec[0], vec[1], 0.05};
      break;
    case TaskKind::kDoorLock:
    case TaskKind::kDoorUnlock:
      break;  // below, from the lock's place
    case TaskKind::kLeverPull:
      // The lever's start (handle_init_) and goal, LEVER_RADIUS 0.2 apart.
      obj_init_pos_ = {vec[0], vec[1], vec[2]};
      handle_init_ = {vec[0] + 0.12, vec[1] + -0.2, vec[2] + 0.25};
      target_pos_ = {vec[0] + 0.12, vec[1] + 0.0, vec[2] + (0.25 + 0.2)};
      break;
    case TaskKind::kCoffeeButton:
      obj_init_pos_ = {vec[0], vec[1], vec[2]};
      // The button (0, -0.22, 0.3) from the machine, pressed by max_dist.
      target_pos_ = {(vec[0] + 0.0) + 0.0, (vec[1] + -0.22) + 0.03,
                     (vec[2] + 0.3) + 0.0};
      break;
    case TaskKind::kDrawerOpen:
      // The drawer's handle, closed, minus maxDist (0.2) in y.
      obj_init_pos_ = {vec[0], vec[1], vec[2]};
      target_pos_ = {vec[0] + 0.0, vec[1] + (-0.16 - 0.2), vec[2] + 0.09};
      break;
    case TaskKind::kWindowOpen:
      obj_init_pos_ = {vec[0], vec[1], vec[2]};
      target_pos_ = {vec[0] + 0.2, vec[1] + 0.0, vec[2] + 0.0};
      break;
    case TaskKind::kShelfPlace:
      // adjust_initObjPos: the object's height is its geom's, where the
      // hand's reset left it; the goal below, from the shelf's place.
      obj_init_pos_ = {vec[0] - 0.0, vec[1] - 0.0,
                       d->geom_xpos[3 * obj_geom_ + 2]};
      break;
    case TaskKind::kSoccer:
      // The ball's height is the one init_config gives it, carried from
      // reset to reset by the reference.
      target_pos_ = {vec[3], vec[4], vec[5]};
      obj_init_pos_ = {vec[0], vec[1], 0.03};
      break;
    case TaskKind::kSweep:
      // The goal off the table's edge at the object's y; the object at
      // the height init_config gives it.
      target_pos_ = {0.5, vec[1], 0.01};
      obj_init_pos_ = {vec[0], vec[1], 0.02};
      break;
    case TaskKind::kSweepInto:
      // The goal is the fixed self.goal; the object's height the body's,
      // where the hand's reset left it.
      target_pos_ = {0.0, 0.84, 0.02};
      obj_init_pos_ = {vec[0], vec[1], d->xpos[3 * obj_body_ + 2]};
      break;
    case TaskKind::kPushWall:
    case TaskKind::kPushBack: {
      // adjust_initObjPos: the object's height is its geom's, where the
      // hand's reset left it.
      const double height = d->geom_xpos[3 * obj_geom_ + 2];
      target_pos_ = {vec[3], vec[4], height};
      obj_init_pos_ = {vec[0], vec[1], height};
      if (task_->kind == TaskKind::kPushWall) {
        // push-wall places the goal marker before the object (and its
        // mj_forward): the reset's frame shows it there.
        PlaceGoalSite();
      }
      break;
    }
    case TaskKind::kHammer:
    case TaskKind::kDisassemble:
    case TaskKind::kAssembly:
    case TaskKind::kBinPicking:
    case TaskKind::kBoxClose:
    case TaskKind::kPegUnplugSide:
    case TaskKind::kBasketball:
    case TaskKind::kPegInsertSide:
    case TaskKind::kStickPush:
    case TaskKind::kStickPull:
      break;  // ResetTool, below
    case TaskKind::kPush: {
      // fix_extreme_obj_pos: the object's height where the hand's reset
      // left it.
      const double height = d->xpos[3 * obj_body_ + 2];
      target_pos_ = {vec[3], vec[4], height};
      obj_init_pos_ = {vec[0], vec[1], height};
      break;
    }
    case TaskKind::kWindowClose:
    case TaskKind::kDrawerClose:
    case TaskKind::kFaucetOpen:
    case TaskKind::kFaucetClose:
    case TaskKind::kDoorClose:
    case TaskKind::kDialTurn:
    case TaskKind::kDoorOpen:
    case TaskKind::kPickOutOfHole:
      break;  // below
  }
  if (CallsNumpyExpOrLog()) {
    PlaceGaussianTask(vec);
  } else if (IsLever()) {
    // The lever moved in the model only: the reset's observation is what
    // the hand's last step left (the reference runs no mj_forward).
    MoveBody(vec);
  } else if (IsDoorLock()) {
    // The door moved; door-lock lets frame_skip physics steps settle it
    // (no mj_forward after), door-unlock turns the lock open (1.5708) and
    // runs mj_forward. The goal is from the lock's place.
    MoveBody(vec);
    if (task_->kind == TaskKind::kDoorLock) {
      for (int s = 0; s < frame_skip_; ++s) {
        mj_step(m, d);
      }
    } else {
      d->qpos[9] = 1.5708;
      d->qvel[9] = 0.0;
      mj_forward(m, d);
    }
    const double* lock = d->xpos + 3 * lock_link_;
    obj_init_pos_ = {lock[0], lock[1], lock[2]};
    target_pos_ = task_->kind == TaskKind::kDoorLock
                      ? std::array<double, 3>{lock[0] + 0.0, lock[1] + -0.04,
                                              lock[2] + -0.1}
                      : std::array<double, 3>{lock[0] + 0.1, lock[1] + -0.04,
                                              lock[2] + 0.0};
  } else if (IsCoffee()) {
    // The machine moved; the reference's _set_obj_xyz writes the mug's
    // place into qpos[0:3] (the arm's first joints) and zeroes qvel[9:15].
    MoveBody(vec);
    d->qpos[0] = vec[0] + 0.0;
    d->qpos[1] = vec[1] + -0.22;
    d->qpos[2] = vec[2] + 0.0;
    std::fill(d->qvel + 9, d->qvel + 15, 0.0);
    mj_forward(m, d);
    obj_to_target_init_ = 0.03;  // button_pressed's margin, max_dist
  } else if (task_->kind == TaskKind::kShelfPlace) {
    // The shelf 0.3 below the drawn goal; the goal the model's site on it.
    MoveBody(vec);
    mj_forward(m, d);
    const double* shelf = m->body_pos + 3 * moved_body_;
    target_pos_ = {shelf_goal_offset_[0] + shelf[0],
                   shelf_goal_offset_[1] + shelf[1],
                   shelf_goal_offset_[2] + shelf[2]};
    SetObjectPosition(obj_init_pos_);
  } else if (task_->kind == TaskKind::kSoccer) {
    // The goal box to the goal, then the ball placed.
    MoveBody(vec);
    SetObjectPosition(obj_init_pos_);
  } else if (IsMug()) {
    // The reference's _set_obj_xyz writes the mug's place into qpos[0:3]
    // (the arm's first joints), zeroes qvel[9:15] and runs mj_forward; then
    // the machine moves in the model only.
    d->qpos[0] = vec[0];
    d->qpos[1] = vec[1];
    d->qpos[2] = vec[2];
    std::fill(d->qvel + 9, d->qvel + 15, 0.0);
    mj_forward(m, d);
    MoveBody(vec);
  } else if (IsDrawer()) {
    // The drawer moved in the model only: the reset's observation is what
    // the hand's last step left (the reference runs no mj_forward).
    MoveBody(vec);
  } else if (IsWindow()) {
    // The window moved in the model only: the handle's start and the
    // reset's observation are what the hand's last step left (the
    // reference runs no mj_forward), with the window where the first
    // reset_model() put it; the slide closed.
    MoveBody(vec);
    const double* handle = d->site_xpos + 3 * object_site_;
    handle_init_ = {handle[0], handle[1], handle[2]};
    d->qpos[m->jnt_qposadr[window_slide_]] = 0.0;
  } else if (IsHandle()) {
    // The box at the drawn position, the handle just below its top; the
    // goal at goalPress; obj_init_pos_ is where the handle starts.
    // (handle-pull: the handle pulled down to -0.1, obj_init_pos_ the
    // drawn box position; handle-pull-side: the handle's site there.)
    const bool pull = task_->kind != TaskKind::kHandlePress;
    MoveBody(vec);
    d->qpos[9] = pull ? -0.1 : -0.001;
    d->qvel[9] = 0.0;
    mj_forward(m, d);
    const double* goal = d->site_xpos + 3 * goal_press_site_;
    target_pos_ = {goal[0], goal[1], goal[2]};
    if (task_->kind != TaskKind::kHandlePull) {
      const double* handle = d->site_xpos + 3 * object_site_;
      obj_init_pos_ = {handle[0], handle[1], handle[2]};
    }
  } else if (IsButton()) {
    // The box at the drawn position, the button at rest (not the topdown
    // ones'), the goal at the hole.
    MoveBody(vec);
    if (task_->button_axis == 1) {
      d->qpos[9] = 0.0;
      d->qvel[9] = 0.0;
    }
    mj_forward(m, d);
    const double* hole = d->site_xpos + 3 * hole_site_;
    target_pos_ = {hole[0], hole[1], hole[2]};
    const int axis = task_->button_axis;
    obj_to_target_init_ = std::abs(target_pos_[axis] -
                                   d->site_xpos[3 * button_start_site_ + axis]);
  } else if (IsPlateSlide()) {
    // The goal marker, then the puck's slide joints (their velocity kept).
    MoveBody(vec);
    d->qpos[9] = task_->puck_qpos[0];
    d->qpos[10] = task_->puck_qpos[1];
    mj_forward(m, d);
  } else if (IsTool()) {
    ResetTool(vec);
  } else {
    SetObjectPosition(obj_init_pos_);
  }
  PlaceGoalSite();
}

void SawyerEnv::PlaceGoalSite() {
  // The model's goal marker; the data's follows at the next mj_forward or
  // physics step (the reference's model.site("goal").pos = _target_pos).
  if (goal_site_ >= 0) {
    std::copy(target_pos_.begin(), target_pos_.end(),
              model_->site_pos + 3 * goal_site_);
  }
}

void SawyerEnv::MoveBody(const std::vector<double>& vec) {
  // Buttons move their box to the object's position; plate-slide tasks
  // their marker to the goal or to the object's start.
  if (moved_body_ < 0) {
    return;
  }
  if (task_->kind == TaskKind::kDisassemble) {
    // The peg 0.03 above the nut's start, its top site 0.08.
    const double peg[3] = {vec[0] + 0.0, vec[1] + 0.0, vec[2] + 0.03};
    const double top[3] = {vec[0] + 0.0, vec[1] + 0.0, vec[2] + 0.08};
    std::copy(peg, peg + 3, model_->body_pos + 3 * moved_body_);
    std::copy(top, top + 3, model_->site_pos + 3 * peg_top_site_);
    return;
  }
  if (task_->kind == TaskKind::kBoxClose) {
    // The box to the goal's xy, at its height where the last step left it.
    model_->body_pos[3 * moved_body_] = vec[3];
    model_->body_pos[3 * moved_body_ + 1] = vec[4];
    model_->body_pos[3 * moved_body_ + 2] = data_->xpos[3 * moved_body_ + 2];
    return;
  }
  if (task_->kind == TaskKind::kAssembly) {
    // The peg 0.05 below the goal, its top site at the goal.
    const double peg[3] = {vec[3] - 0.0, vec[4] - 0.0, vec[5] - 0.05};
    std::copy(peg, peg + 3, model_->body_pos + 3 * moved_body_);
    std::copy(vec.begin() + 3, vec.begin() + 6,
              model_->site_pos + 3 * peg_top_site_);
    return;
  }
  if (task_->kind == TaskKind::kPegInsertSide) {
    std::copy(vec.begin() + 3, vec.begin() + 6,
              model_->body_pos + 3 * moved_body_);
    return;
  }
  if (task_->kind == TaskKind::kBasketball) {
    // The basket to the goal.
    std::copy(vec.begin() + 3, vec.begin() + 6,
              model_->body_pos + 3 * moved_body_);
    return;
  }
  const double* pos = vec.data();
  if (task_->kind == TaskKind::kShelfPlace) {
    const double base[3] = {vec[3] - 0.0, vec[4] - 0.0, vec[5] - 0.3};
    std::copy(base, base + 3, model_->body_pos + 3 * moved_body_);
    return;
  }
  if (IsMug()) {
    // The machine 0.22 behind the mug's goal (coffee-push) or start
    // (coffee-pull).
    const double* spout = task_->kind == TaskKind::kCoffeePush ? pos + 3 : pos;
    const double machine[3] = {spout[0] + 0.0, spout[1] + 0.22, spout[2] + 0.0};
    std::copy(machine, machine + 3, model_->body_pos + 3 * moved_body_);
    return;
  }
  if (task_->puck_goal == PuckGoal::kTarget ||
      task_->kind == TaskKind::kSoccer) {
    pos += 3;  // the goal's marker to the goal
  }
  std::copy(pos, pos + 3, model_->body_pos + 3 * moved_body_);
}

void SawyerEnv::ObjectQuaternion(double* quat) const {
  MatrixToQuaternion(data_->geom_xmat + 9 * obj_geom_, quat);
}

void SawyerEnv::CurrentFrame(double* frame) const {
  const mjData* d = data_.get();
  const double* hand = d->xpos + 3 * hand_body_;
  std::copy(hand, hand + 3, frame);
  const double opening =
      Norm3(d->xpos + 3 * right_claw_, d->xpos + 3 * left_claw_);
  frame[3] = Clip(opening / 0.1, 0.0, 1.0);
  std::fill(frame + 4, frame + kFrameDim, 0.0);
  if (IsTool()) {
    ToolFrame(frame);
    return;
  }
  if (CallsNumpyExpOrLog()) {
    GaussianTaskObject(frame + 4);
    return;
  }
  if (IsDrawer()) {
    // The handle: the drawer link's position moved by (0, -0.16, 0), and
    // the link's quaternion.
    const double* link = d->xpos + 3 * drawer_link_;
    frame[4] = link[0] + 0.0;
    frame[5] = link[1] + -0.16;
    frame[6] = link[2] + 0.0;
    const double* quat = d->xquat + 4 * drawer_link_;
    std::copy(quat, quat + 4, frame + 7);
    return;
  }
  if (ObservesSite()) {
    // The site; its quaternion is observed as zeros (the coffee button's
    // as the identity).
    const double* site = d->site_xpos + 3 * object_site_;
    std::copy(site, site + 3, frame + 4);
    if (IsCoffee()) {
      frame[7] = 1.0;
    }
    if (IsDoorLock()) {
      const double* quat = d->xquat + 4 * door_link_;
      std::copy(quat, quat + 4, frame + 7);
    }
    if (IsLever()) {
      ObjectQuaternion(frame + 7);
    }
    return;
  }
  if (IsButton()) {
    const double* button = d->xpos + 3 * button_body_;
    for (int k = 0; k < 3; ++k) {
      frame[4 + k] = button[k] + task_->button_offset[k];
    }
    const double* quat = d->xquat + 4 * button_body_;
    std::copy(quat, quat + 4, frame + 7);
    return;
  }
  const double* obj = task_->position_from_geom ? d->geom_xpos + 3 * obj_geom_
                                                : d->xpos + 3 * obj_body_;
  std::copy(obj, obj + 3, frame + 4);
  if (task_->kind == TaskKind::kSoccer) {
    // scipy's quaternion of the ball body's rotation.
    MatrixToQuaternion(d->xmat + 9 * obj_body_, frame + 7);
    return;
  }
  if (task_->kind == TaskKind::kHandInsert || task_->kind == TaskKind::kSweep) {
    // The body's MuJoCo quaternion.
    const double* quat = d->xquat + 4 * obj_body_;
    std::copy(quat, quat + 4, frame + 7);
    return;
  }
  ObjectQuaternion(frame + 7);
}

bool SawyerEnv::TouchingObject() const {
  // touching_object: the contact forces of each pad on the object, summed
  // in contact order; both positive.
  const mjData* d = data_.get();
  double left = 0.0;
  double right = 0.0;
  for (int c = 0; c < d->ncon; ++c) {
    const mjContact& contact = d->contact[c];
    const bool has_obj =
        contact.geom[0] == obj_geom_ || contact.geom[1] == obj_geom_;
    if (!has_obj) {
      continue;
    }
    // A contact outside the constraints (efc_address -1) reads numpy's
    // last element, as the reference indexes it.
    const int address =
        contact.efc_address >= 0 ? contact.efc_address : d->nefc - 1;
    const double force = address >= 0 ? d->efc_force[address] : 0.0;
    if (contact.geom[0] == left_pad_geom_ ||
        contact.geom[1] == left_pad_geom_) {
      left += force;
    }
    if (contact.geom[0] == right_pad_geom_ ||
        contact.geom[1] == right_pad_geom_) {
      right += force;
    }
  }
  return 0.0 < left && 0.0 < right;
}

void SawyerEnv::ClipObservation() {
  // The hands and the fingers' opening; the objects are unbounded.
  for (int frame = 0; frame < 2; ++frame) {
    double* x = obs_.data() + frame * kFrameDim;
    for (int k = 0; k < 3; ++k) {
      x[k] = Clip(x[k], kHandSpaceLow[k], kHandSpaceHigh[k]);
    }
    x[3] = Clip(x[3], -1.0, 1.0);
  }
  for (int k = 0; k < 3; ++k) {
    double& goal = obs_[2 * kFrameDim + k];
    goal = partially_observable_
               ? Clip(goal, 0.0, 0.0)
               : Clip(goal, task_->goal_low[k], task_->goal_high[k]);
  }
}

void SawyerEnv::Step(const ActionView& action) {
  const float* raw = action.Get(fields_.action);
  // The pool refuses non-finite actions before they reach an env.
  mjModel* m = model_.get();
  mjData* d = data_.get();
  // set_xyz_action: float32 deltas, float64 mocap position.
  for (int k = 0; k < 3; ++k) {
    const float delta = ClipAction(raw[k]) * static_cast<float>(kActionScale);
    double& pos = d->mocap_pos[3 * mocap_ + k];
    pos = Clip(pos + static_cast<double>(delta), task_->hand_low[k],
               task_->hand_high[k]);
  }
  const double quat[4] = {1.0, 0.0, 1.0, 0.0};
  std::copy(quat, quat + 4, d->mocap_quat + 4 * mocap_);
  d->ctrl[0] = static_cast<double>(raw[3]);
  d->ctrl[1] = static_cast<double>(-raw[3]);
  for (int s = 0; s < frame_skip_; ++s) {
    mj_step(m, d);
  }
  mj_forward(m, d);
  // _get_obs: this frame, the previous one, the goal; then clipped.
  CurrentFrame(obs_.data());
  std::copy(prev_frame_.begin(), prev_frame_.end(), obs_.begin() + kFrameDim);
  std::copy(obs_.begin(), obs_.begin() + kFrameDim, prev_frame_.begin());
  for (int k = 0; k < 3; ++k) {
    obs_[2 * kFrameDim + k] = partially_observable_ ? 0.0 : target_pos_[k];
  }
  ClipObservation();
  Evaluate(raw[3]);
  terminated_ = false;
}

Number SawyerEnv::GripperCaging(float effort, const double* obj,
                                double obj_radius, double pad_success_thresh,
                                double xz_thresh, bool high_density,
                                double desired_effort,
                                double reach_radius) const {
  const std::array<double, 3> left_pad = BodyPos(left_pad_);
  const std::array<double, 3> right_pad = BodyPos(right_pad_);
  const double pad_y[2] = {left_pad[1], right_pad[1]};
  double caging_lr[2];
  for (int i = 0; i < 2; ++i) {
    const double pad_to_obj = std::abs(pad_y[i] - obj[1]);
    const double pad_to_obj_init = std::abs(pad_y[i] - obj_init_pos_[1]);
    const double margin = std::abs(pad_to_obj_init - pad_success_thresh);
    caging_lr[i] =
        LongTailTolerance(pad_to_obj, obj_radius, pad_success_thresh, margin);
  }
  const Number caging_y = HamacherProduct(Py(caging_lr[0]), Py(caging_lr[1]));
  const std::array<double, 3> tcp = TcpCenter();
  const double init_xz[2] = {obj_init_pos_[0] - init_tcp_[0],
                             obj_init_pos_[2] - init_tcp_[2]};
  const double xz_margin = mujoco_common::NumpyNorm(init_xz, 2) - xz_thresh;
  const double tcp_xz[2] = {tcp[0] - obj[0], tcp[2] - obj[2]};
  const double caging_xz = LongTailTolerance(
      mujoco_common::NumpyNorm(tcp_xz, 2), 0.0, xz_thresh, xz_margin);
  const Number gripper_closed =
      ClampedEffort(effort, desired_effort) / Py(desired_effort);
  const Number caging = HamacherProduct(caging_y, Py(caging_xz));
  const Number gripping = caging.value > 0.97 ? gripper_closed : Py(0.0);
  Number caging_and_gripping = HamacherProduct(caging, gripping);
  if (high_density) {
    caging_and_gripping = (caging_and_gripping + caging) / Py(2.0);
  }
  if (reach_radius >= 0.0) {
    const double tcp_to_obj = Norm3(obj, tcp.data());
    const double tcp_to_obj_init =
        Norm3(obj_init_pos_.data(), init_tcp_.data());
    const double reach_margin = std::abs(tcp_to_obj_init - reach_radius);
    const double reach =
        LongTailTolerance(tcp_to_obj, 0.0, reach_radius, reach_margin);
    caging_and_gripping = (caging_and_gripping + Py(reach)) / Py(2.0);
  }
  return caging_and_gripping;
}

Number SawyerEnv::PickPlaceCaging(float effort, const double* obj) const {
  constexpr double kPadSuccessMargin = 0.05;
  constexpr double kXzSuccessMargin = 0.005;
  constexpr double kObjRadius = 0.015;
  const std::array<double, 3> tcp = TcpCenter();
  // The reference's init_left_pad and init_right_pad are views of the
  // pads' current positions.
  const std::array<double, 3> left_pad = BodyPos(left_pad_);
  const std::array<double, 3> right_pad = BodyPos(right_pad_);
  const double delta_left = left_pad[1] - obj[1];
  const double delta_right = obj[1] - right_pad[1];
  const double right_margin =
      std::abs(std::abs(obj[1] - right_pad[1]) - kPadSuccessMargin);
  const double left_margin =
      std::abs(std::abs(obj[1] - left_pad[1]) - kPadSuccessMargin);
  const double right_caging = LongTailTolerance(
      delta_right, kObjRadius, kPadSuccessMargin, right_margin);
  const double left_caging =
      LongTailTolerance(delta_left, kObjRadius, kPadSuccessMargin, left_margin);
  const Number y_caging = HamacherProduct(Py(left_caging), Py(right_caging));
  // The x-z distances: y zeroed by adding its negation.
  const double tcp_obj_xz[3] = {(tcp[0] + 0.0) - (obj[0] + 0.0),
                                (tcp[1] + -tcp[1]) - (obj[1] + -obj[1]),
                                (tcp[2] + 0.0) - (obj[2] + 0.0)};
  const double tcp_obj_norm = mujoco_common::NumpyNorm(tcp_obj_xz, 3);
  const double init_xz[3] = {
      (obj_init_pos_[0] + 0.0) - (init_tcp_[0] + 0.0),
      (obj_init_pos_[1] + -obj_init_pos_[1]) - (init_tcp_[1] + -init_tcp_[1]),
      (obj_init_pos_[2] + 0.0) - (init_tcp_[2] + 0.0)};
  const double xz_margin =
      mujoco_common::NumpyNorm(init_xz, 3) - kXzSuccessMargin;
  const double x_z_caging =
      LongTailTolerance(tcp_obj_norm, 0.0, kXzSuccessMargin, xz_margin);
  const Number gripper_closed = ClampedEffort(effort, 1.0);
  const Number caging = HamacherProduct(y_caging, Py(x_z_caging));
  const Number gripping = caging.value > 0.97 ? gripper_closed : Py(0.0);
  const Number caging_and_gripping = HamacherProduct(caging, gripping);
  return (caging_and_gripping + caging) / Py(2.0);
}

double SawyerEnv::PushBackCaging(const double* obj, double obj_radius,
                                 double grip_allowance,
                                 double xz_success_margin) const {
  constexpr double kPadSuccessMargin = 0.05;
  const double kXzSuccessMargin = xz_success_margin;
  const double kObjRadius = obj_radius;
  const double grip_success_margin = obj_radius + grip_allowance;
  const std::array<double, 3> tcp = TcpCenter();
  // init_left_pad and init_right_pad are views of the pads' current
  // positions, as for pick-place.
  const std::array<double, 3> left_pad = BodyPos(left_pad_);
  const std::array<double, 3> right_pad = BodyPos(right_pad_);
  const double delta_left = left_pad[1] - obj[1];
  const double delta_right = obj[1] - right_pad[1];
  const double right_margin =
      std::abs(std::abs(obj[1] - right_pad[1]) - kPadSuccessMargin);
  const double left_margin =
      std::abs(std::abs(obj[1] - left_pad[1]) - kPadSuccessMargin);
  const double right_caging = LongTailTolerance(
      delta_right, kObjRadius, kPadSuccessMargin, right_margin);
  const double left_caging =
      LongTailTolerance(delta_left, kObjRadius, kPadSuccessMargin, left_margin);
  const double right_gripping = LongTailTolerance(
      delta_right, kObjRadius, grip_success_margin, right_margin);
  const double left_gripping = LongTailTolerance(
      delta_left, kObjRadius, grip_success_margin, left_margin);
  const Number y_caging = HamacherProduct(Py(right_caging), Py(left_caging));
  const Number y_gripping =
      HamacherProduct(Py(right_gripping), Py(left_gripping));
  // The x-z distances: y zeroed by adding its negation.
  const double tcp_obj_xz[3] = {(tcp[0] + 0.0) - (obj[0] + 0.0),
                                (tcp[1] + -tcp[1]) - (obj[1] + -obj[1]),
                                (tcp[2] + 0.0) - (obj[2] + 0.0)};
  const double tcp_obj_norm = mujoco_common::NumpyNorm(tcp_obj_xz, 3);
  const double init_xz[3] = {
      (obj_init_pos_[0] + 0.0) - (init_tcp_[0] + 0.0),
      (obj_init_pos_[1] + -obj_init_pos_[1]) - (init_tcp_[1] + -init_tcp_[1]),
      (obj_init_pos_[2] + 0.0) - (init_tcp_[2] + 0.0)};
  const double xz_margin =
      mujoco_common::NumpyNorm(init_xz, 3) - kXzSuccessMargin;
  const double x_z_caging =
      LongTailTolerance(tcp_obj_norm, 0.0, kXzSuccessMargin, xz_margin);
  const Number caging = HamacherProduct(y_caging, Py(x_z_caging));
  const Number gripping = caging.value > 0.95 ? y_gripping : Py(0.0);
  return ((caging + gripping) / Py(2.0)).value;
}

void SawyerEnv::Evaluate(float effort) {
  const double* obj = obs_.data() + 4;
  const double tcp_opened = obs_[3];
  const std::array<double, 3> tcp = TcpCenter();
  TaskInfo info;
  Number reward;
  switch (task_->kind) {
    case TaskKind::kReach: {
      const double tcp_to_target = Norm3(tcp.data(), target_pos_.data());
      const double margin =
          Norm3(task_->hand_init_pos.data(), target_pos_.data());
      const double in_place =
          LongTailTolerance(tcp_to_target, 0.0, kTargetRadius, margin);
      reward = Py(10.0 * in_place);
      info.success = tcp_to_target <= 0.05 ? 1.0 : 0.0;
      info.near_object = tcp_to_target;
      info.grasp_success = 1.0;
      info.grasp_reward = tcp_to_target;
      info.in_place_reward = in_place;
      info.obj_to_target = tcp_to_target;
      break;
    }
    case TaskKind::kReachWall: {
      const double tcp_to_target = Norm3(tcp.data(), target_pos_.data());
      const double margin =
          Norm3(task_->hand_init_pos.data(), target_pos_.data());
      const double in_place =
          LongTailTolerance(tcp_to_target, 0.0, kTargetRadius, margin);
      reward = Py(10.0 * in_place);
      info.success = tcp_to_target <= 0.05 ? 1.0 : 0.0;
      info.in_place_reward = in_place;
      info.obj_to_target = tcp_to_target;
      break;
    }
    case TaskKind::kButtonPress:
    case TaskKind::kButtonPressWall:
    case TaskKind::kButtonPressTopdown:
    case TaskKind::kButtonPressTopdownWall:
    case TaskKind::kCoffeeButton: {
      const TaskKind kind = task_->kind == TaskKind::kCoffeeButton
                                ? TaskKind::kButtonPress
                                : task_->kind;
      const double tcp_to_obj = Norm3(obj, tcp.data());
      const double tcp_to_obj_init = Norm3(obj, init_tcp_.data());
      const int axis = task_->button_axis;
      const double obj_to_target = std::abs(target_pos_[axis] - obj[axis]);
      const double near_bound = kind == TaskKind::kButtonPress ? 0.05 : 0.01;
      const double near_button =
          LongTailTolerance(tcp_to_obj, 0.0, near_bound, tcp_to_obj_init);
      const double button_pressed =
          LongTailTolerance(obj_to_target, 0.0, 0.005, obj_to_target_init_);
      // max(obs[3], 0.0), as Python's max picks.
      const double tcp_closed = 0.0 > tcp_opened ? 0.0 : tcp_opened;
      switch (kind) {
        case TaskKind::kButtonPress:
          reward = Py(2.0) * HamacherProduct(Py(tcp_closed), Py(near_button));
          if (tcp_to_obj <= 0.05) {
            reward = reward + Py(8.0 * button_pressed);
          }
          break;
        case TaskKind::kButtonPressWall:
          if (tcp_to_obj > 0.07) {
            const double tcp_status = (1.0 - tcp_opened) / 2.0;
            reward = Py(2.0) * HamacherProduct(Py(tcp_status), Py(near_button));
          } else {
            reward = Py(2.0 + 2.0 * (1.0 + tcp_opened) +
                        4.0 * ScalarSquare(button_pressed));
          }
          break;
        default: {
          const double closed = kind == TaskKind::kButtonPressTopdown
                                    ? 1.0 - tcp_opened
                                    : tcp_closed;
          reward = Py(5.0) * HamacherProduct(Py(closed), Py(near_button));
          if (tcp_to_obj <= 0.03) {
            reward = reward + Py(5.0 * button_pressed);
          }
          break;
        }
      }
      info.success = obj_to_target <= task_->success_threshold ? 1.0 : 0.0;
      info.near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
      info.grasp_success = tcp_opened > 0.0 ? 1.0 : 0.0;
      info.grasp_reward = near_button;
      info.in_place_reward = button_pressed;
      info.obj_to_target = obj_to_target;
      break;
    }
    case TaskKind::kHandlePress: {
      const double radius = task_->target_radius;
      const double* handle = data_->site_xpos + 3 * object_site_;
      // np.linalg.norm of one number: the square root of its square.
      const double height = handle[2] - target_pos_[2];
      const double target_to_obj = mujoco_common::NumpyNorm(&height, 1);
      const double init_height = obj_init_pos_[2] - target_pos_[2];
      const double target_to_obj_init =
          mujoco_common::NumpyNorm(&init_height, 1);
      const double in_place = LongTailTolerance(
          target_to_obj, 0.0, radius, std::abs(target_to_obj_init - radius));
      constexpr double kHandleRadius = 0.02;
      const double tcp_to_obj = Norm3(handle, tcp.data());
      const double tcp_to_obj_init =
          Norm3(obj_init_pos_.data(), init_tcp_.data());
      const double reach =
          LongTailTolerance(tcp_to_obj, 0.0, kHandleRadius,
                            std::abs(tcp_to_obj_init - kHandleRadius));
      reward = target_to_obj <= radius
                   ? Py(1.0)
                   : HamacherProduct(Py(reach), Py(in_place));
      reward = reward * Py(10.0);
      info.success = target_to_obj <= radius ? 1.0 : 0.0;
      info.near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
      info.grasp_success = 1.0;
      info.grasp_reward = reach;
      info.in_place_reward = in_place;
      info.obj_to_target = target_to_obj;
      break;
    }
    case TaskKind::kDoorLock: {
      // The left pad's distance, scaled; the reference's init_left_pad is
      // a view of the pad's current position, so the margin is the
      // distance itself.
      constexpr double kLockLength = 0.1;
      const double scale[3] = {0.25, 1.0, 0.5};
      const double* pad = data_->xpos + 3 * left_pad_;
      double scaled[3];
      for (int k = 0; k < 3; ++k) {
        scaled[k] = (obj[k] - pad[k]) * scale[k];
      }
      const double tcp_to_obj = mujoco_common::NumpyNorm(scaled, 3);
      const double obj_to_target = std::abs(target_pos_[2] - obj[2]);
      const double opened = 0.0 > tcp_opened ? 0.0 : tcp_opened;
      const double near_lock =
          LongTailTolerance(tcp_to_obj, 0.0, 0.01, tcp_to_obj);
      const double lock_pressed =
          LongTailTolerance(obj_to_target, 0.0, 0.005, kLockLength);
      reward = Py(2.0) * HamacherProduct(Py(opened), Py(near_lock));
      reward = reward + Py(8.0 * lock_pressed);
      info.success = obj_to_target <= 0.02 ? 1.0 : 0.0;
      info.near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
      info.grasp_success = tcp_opened > 0.0 ? 1.0 : 0.0;
      info.grasp_reward = near_lock;
      info.in_place_reward = lock_pressed;
      info.obj_to_target = obj_to_target;
      break;
    }
    case TaskKind::kDoorUnlock: {
      // The reference's obj_init_pos is a view of the lock's current
      // position.
      constexpr double kLockLength = 0.1;
      const double scale[3] = {0.25, 1.0, 0.5};
      const double offset[3] = {0.0, 0.055, 0.07};
      const double* gripper = obs_.data();
      const double* lock_now = data_->xpos + 3 * lock_link_;
      double shoulder[3];
      double shoulder_init[3];
      for (int k = 0; k < 3; ++k) {
        shoulder[k] = (gripper[k] + offset[k] - obj[k]) * scale[k];
        shoulder_init[k] = (init_tcp_[k] + offset[k] - lock_now[k]) * scale[k];
      }
      const double tcp_to_obj = mujoco_common::NumpyNorm(shoulder, 3);
      const double ready = LongTailTolerance(
          tcp_to_obj, 0.0, 0.02, mujoco_common::NumpyNorm(shoulder_init, 3));
      const double obj_to_target = std::abs(target_pos_[0] - obj[0]);
      const double pushed =
          LongTailTolerance(obj_to_target, 0.0, 0.005, kLockLength);
      reward = Py(2.0 * ready + 8.0 * pushed);
      info.success = obj_to_target <= 0.02 ? 1.0 : 0.0;
      info.near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
      info.grasp_success = tcp_opened > 0.0 ? 1.0 : 0.0;
      info.grasp_reward = ready;
      info.in_place_reward = pushed;
      info.obj_to_target = obj_to_target;
      break;
    }
    case TaskKind::kHandlePull:
    case TaskKind::kHandlePullSide: {
      const bool side = task_->kind == TaskKind::kHandlePullSide;
      double target_to_obj;
      double target_to_obj_init;
      if (side) {
        // The 3-d distances, scaled by ones.
        double diff[3];
        double diff_init[3];
        for (int k = 0; k < 3; ++k) {
          diff[k] = (obj[k] - target_pos_[k]) * 1.0;
          diff_init[k] = (obj_init_pos_[k] - target_pos_[k]) * 1.0;
        }
        target_to_obj = mujoco_common::NumpyNorm(diff, 3);
        target_to_obj_init = mujoco_common::NumpyNorm(diff_init, 3);
      } else {
        target_to_obj = std::abs(target_pos_[2] - obj[2]);
        target_to_obj_init = std::abs(target_pos_[2] - obj_init_pos_[2]);
      }
      const double in_place = LongTailTolerance(
          target_to_obj, 0.0, kTargetRadius, target_to_obj_init);
      const Number object_grasped =
          side ? GripperCaging(effort, obj, 0.032, 0.06, 0.01, true)
               : GripperCaging(effort, obj, 0.022, 0.05, 0.01, true);
      reward = HamacherProduct(object_grasped, Py(in_place));
      const double tcp_to_obj = Norm3(obj, tcp.data());
      // (handle-pull compares the handle's y with the start's z.)
      const double lifted = side ? obj[2] : obj[1];
      if (tcp_to_obj < 0.035 && tcp_opened > 0.0 &&
          lifted - 0.01 > obj_init_pos_[2]) {
        reward = reward + Py(1.0 + 5.0 * in_place);
      }
      if (target_to_obj < kTargetRadius) {
        reward = Py(10.0);
      }
      info.success = target_to_obj <= (side ? 0.08 : kTargetRadius) ? 1.0 : 0.0;
      info.near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
      info.grasp_success =
          tcp_opened > 0.0 && obj[2] - 0.03 > obj_init_pos_[2] ? 1.0 : 0.0;
      info.grasp_reward = object_grasped.value;
      info.in_place_reward = in_place;
      info.obj_to_target = target_to_obj;
      break;
    }
    case TaskKind::kLeverPull: {
      const double* gripper = obs_.data();
      const double* lever = obj;
      const double scale[3] = {4.0, 1.0, 4.0};
      const double offset[3] = {0.0, 0.055, 0.07};
      double shoulder[3];
      double shoulder_init[3];
      for (int k = 0; k < 3; ++k) {
        shoulder[k] = (gripper[k] + offset[k] - lever[k]) * scale[k];
        shoulder_init[k] =
            (init_tcp_[k] + offset[k] - handle_init_[k]) * scale[k];
      }
      const double shoulder_to_lever = mujoco_common::NumpyNorm(shoulder, 3);
      const double ready =
          LongTailTolerance(shoulder_to_lever, 0.0, 0.02,
                            mujoco_common::NumpyNorm(shoulder_init, 3));
      const double lever_angle = -data_->qpos[model_->jnt_qposadr[lever_axis_]];
      const double lever_error = std::abs(lever_angle - M_PI / 2.0);
      const double engagement = LongTailTolerance(lever_error, 0.0, M_PI / 48.0,
                                                  (M_PI / 2.0) - (M_PI / 12.0));
      const double obj_to_target = Norm3(lever, target_pos_.data());
      const double in_place_margin =
          Norm3(handle_init_.data(), target_pos_.data());
      const double in_place =
          LongTailTolerance(obj_to_target, 0.0, 0.04, in_place_margin);
      reward = Py(10.0) * HamacherProduct(Py(ready), Py(in_place));
      info.success = lever_error <= M_PI / 24 ? 1.0 : 0.0;
      info.near_object = shoulder_to_lever < 0.03 ? 1.0 : 0.0;
      info.grasp_success = ready > 0.9 ? 1.0 : 0.0;
      info.grasp_reward = ready;
      info.in_place_reward = engagement;
      info.obj_to_target = shoulder_to_lever;
      break;
    }
    case TaskKind::kDrawerOpen: {
      constexpr double kMaxDist = 0.2;
      const double* gripper = obs_.data();
      const double* handle = obj;
      const double handle_error = Norm3(handle, target_pos_.data());
      const double opening =
          LongTailTolerance(handle_error, 0.0, 0.02, kMaxDist);
      const double handle_init[3] = {target_pos_[0] + 0.0,
                                     target_pos_[1] + kMaxDist,
                                     target_pos_[2] + 0.0};
      const double scale[3] = {3.0, 3.0, 1.0};
      double gripper_error[3];
      double gripper_error_init[3];
      for (int k = 0; k < 3; ++k) {
        gripper_error[k] = (handle[k] - gripper[k]) * scale[k];
        gripper_error_init[k] = (handle_init[k] - init_tcp_[k]) * scale[k];
      }
      const double caging = LongTailTolerance(
          mujoco_common::NumpyNorm(gripper_error, 3), 0.0, 0.01,
          mujoco_common::NumpyNorm(gripper_error_init, 3));
      reward = Py((caging + opening) * 5.0);
      info.success = handle_error <= 0.03 ? 1.0 : 0.0;
      info.near_object = Norm3(handle, gripper) <= 0.03 ? 1.0 : 0.0;
      info.grasp_success = tcp_opened > 0.0 ? 1.0 : 0.0;
      info.grasp_reward = caging;
      info.in_place_reward = opening;
      info.obj_to_target = handle_error;
      break;
    }
    case TaskKind::kWindowOpen: {
      const double* handle = data_->site_xpos + 3 * object_site_;
      const double dx = handle[0] - target_pos_[0];
      const double target_to_obj = mujoco_common::NumpyNorm(&dx, 1);
      const double init_dx = obj_init_pos_[0] - target_pos_[0];
      const double target_to_obj_init = mujoco_common::NumpyNorm(&init_dx, 1);
      const double in_place =
          LongTailTolerance(target_to_obj, 0.0, kTargetRadius,
                            std::abs(target_to_obj_init - kTargetRadius));
      constexpr double kHandleRadius = 0.02;
      const double tcp_to_obj = Norm3(handle, tcp.data());
      const double tcp_to_obj_init =
          Norm3(handle_init_.data(), init_tcp_.data());
      const double reach =
          LongTailTolerance(tcp_to_obj, 0.0, kHandleRadius,
                            std::abs(tcp_to_obj_init - kHandleRadius));
      reward = Py(10.0) * HamacherProduct(Py(reach), Py(in_place));
      info.success = target_to_obj <= kTargetRadius ? 1.0 : 0.0;
      info.near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
      info.grasp_success = 1.0;
      info.grasp_reward = reach;
      info.in_place_reward = in_place;
      info.obj_to_target = target_to_obj;
      break;
    }
    case TaskKind::kPlateSlide:
    case TaskKind::kPlateSlideSide: {
      const bool side = task_->kind == TaskKind::kPlateSlideSide;
      const double obj_to_target = Norm3(obj, target_pos_.data());
      const double in_place_margin =
          Norm3(obj_init_pos_.data(), target_pos_.data());
      const double in_place = LongTailTolerance(
          obj_to_target, 0.0, kTargetRadius,
          side ? in_place_margin - kTargetRadius : in_place_margin);
      const double tcp_to_obj = Norm3(tcp.data(), obj);
      const double grasp_margin = Norm3(init_tcp_.data(), obj_init_pos_.data());
      const double object_grasped =
          LongTailTolerance(tcp_to_obj, 0.0, kTargetRadius,
                            side ? grasp_margin - kTargetRadius : grasp_margin);
      if (side) {
        reward = Py(1.5 * object_grasped);
        if (tcp[2] <= 0.03 && tcp_to_obj < 0.07) {
          reward = Py(2.0 + 7.0 * in_place);
        }
      } else {
        reward = Py(8.0) * HamacherProduct(Py(object_grasped), Py(in_place));
      }
      if (obj_to_target < kTargetRadius) {
        reward = Py(10.0);
      }
      info.success = obj_to_target <= 0.07 ? 1.0 : 0.0;
      info.near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
      info.grasp_reward = object_grasped;
      info.in_place_reward = in_place;
      info.obj_to_target = obj_to_target;
      break;
    }
    case TaskKind::kPush: {
      const double tcp_to_obj = Norm3(obj, tcp.data());
      const double target_to_obj = Norm3(obj, target_pos_.data());
      const double target_to_obj_init =
          Norm3(obj_init_pos_.data(), target_pos_.data());
      const double in_place = LongTailTolerance(
          target_to_obj, 0.0, kTargetRadius, target_to_obj_init);
      const Number object_grasped =
          GripperCaging(effort, obj, 0.015, 0.05, 0.005, true);
      reward = Py(2.0) * object_grasped;
      if (tcp_to_obj < 0.02 && tcp_opened > 0.0) {
        reward = reward + (Py(1.0) + reward + Py(5.0 * in_place));
      }
      if (target_to_obj < kTargetRadius) {
        reward = Py(10.0);
      }
      info.success = target_to_obj <= kTargetRadius ? 1.0 : 0.0;
      info.near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
      info.grasp_success = TouchingObject() && tcp_opened > 0.0 &&
                                   obj[2] - 0.02 > obj_init_pos_[2]
                               ? 1.0
                               : 0.0;
      info.grasp_reward = object_grasped.value;
      info.in_place_reward = in_place;
      info.obj_to_target = target_to_obj;
      break;
    }
    case TaskKind::kPushWall: {
      const double tcp_to_obj = Norm3(obj, tcp.data());
      // The distance to a midpoint beside the wall, x weighted 3.
      const double midpoint[3] = {-0.05, 0.77, obj[2]};
      const double to_midpoint[3] = {(obj[0] - midpoint[0]) * 3.0,
                                     (obj[1] - midpoint[1]) * 1.0,
                                     (obj[2] - midpoint[2]) * 1.0};
      const double init_to_midpoint[3] = {
          (obj_init_pos_[0] - midpoint[0]) * 3.0,
          (obj_init_pos_[1] - midpoint[1]) * 1.0,
          (obj_init_pos_[2] - midpoint[2]) * 1.0};
      const double obj_to_midpoint = mujoco_common::NumpyNorm(to_midpoint, 3);
      const double obj_to_midpoint_init =
          mujoco_common::NumpyNorm(init_to_midpoint, 3);
      const double obj_to_target = Norm3(obj, target_pos_.data());
      const double obj_to_target_init =
          Norm3(obj_init_pos_.data(), target_pos_.data());
      const double in_place_part1 = LongTailTolerance(
          obj_to_midpoint, 0.0, kTargetRadius, obj_to_midpoint_init);
      const double in_place_part2 = LongTailTolerance(
          obj_to_target, 0.0, kTargetRadius, obj_to_target_init);
      const Number object_grasped =
          GripperCaging(effort, obj, 0.015, 0.05, 0.005, true);
      reward = Py(2.0) * object_grasped;
      if (tcp_to_obj < 0.02 && tcp_opened > 0.0) {
        reward = Py(2.0) * object_grasped + Py(1.0) + Py(4.0 * in_place_part1);
        if (obj[1] > 0.75) {
          reward = Py(2.0) * object_grasped + Py(1.0) + Py(4.0) +
                   Py(3.0 * in_place_part2);
        }
      }
      if (obj_to_target < kTargetRadius) {
        reward = Py(10.0);
      }
      info.success = obj_to_target <= 0.07 ? 1.0 : 0.0;
      info.near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
      info.grasp_success = TouchingObject() && tcp_opened > 0.0 &&
                                   obj[2] - 0.02 > obj_init_pos_[2]
                               ? 1.0
                               : 0.0;
      info.grasp_reward = object_grasped.value;
      info.in_place_reward = in_place_part2;
      info.obj_to_target = obj_to_target;
      break;
    }
    case TaskKind::kPushBack: {
      const double tcp_to_obj = Norm3(obj, tcp.data());
      const double target_to_obj = Norm3(obj, target_pos_.data());
      const double target_to_obj_init =
          Norm3(obj_init_pos_.data(), target_pos_.data());
      const double in_place = LongTailTolerance(
          target_to_obj, 0.0, kTargetRadius, target_to_obj_init);
      const double object_grasped = PushBackCaging(obj, 0.007, 0.003);
      reward = HamacherProduct(Py(object_grasped), Py(in_place));
      if (tcp_to_obj < 0.01 && 0.0 < tcp_opened && tcp_opened < 0.55 &&
          target_to_obj_init - target_to_obj > 0.01) {
        reward = reward + Py(1.0 + 5.0 * in_place);
      }
      if (target_to_obj < kTargetRadius) {
        reward = Py(10.0);
      }
      info.success = target_to_obj <= 0.07 ? 1.0 : 0.0;
      info.near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
      info.grasp_success = TouchingObject() && tcp_opened > 0.0 &&
                                   obj[2] - 0.02 > obj_init_pos_[2]
                               ? 1.0
                               : 0.0;
      info.grasp_reward = object_grasped;
      info.in_place_reward = in_place;
      info.obj_to_target = target_to_obj;
      break;
    }
    case TaskKind::kPickPlaceWall: {
      const double tcp_to_obj = Norm3(obj, tcp.data());
      // The distance to a midpoint above the wall, z weighted 3.
      const double midpoint[3] = {target_pos_[0], 0.77, 0.25};
      const double to_midpoint[3] = {(obj[0] - midpoint[0]) * 1.0,
                                     (obj[1] - midpoint[1]) * 1.0,
                                     (obj[2] - midpoint[2]) * 3.0};
      const double init_to_midpoint[3] = {
          (obj_init_pos_[0] - midpoint[0]) * 1.0,
          (obj_init_pos_[1] - midpoint[1]) * 1.0,
          (obj_init_pos_[2] - midpoint[2]) * 3.0};
      const double obj_to_midpoint = mujoco_common::NumpyNorm(to_midpoint, 3);
      const double obj_to_midpoint_init =
          mujoco_common::NumpyNorm(init_to_midpoint, 3);
      const double obj_to_target = Norm3(obj, target_pos_.data());
      const double obj_to_target_init =
          Norm3(obj_init_pos_.data(), target_pos_.data());
      const double in_place_part1 = LongTailTolerance(
          obj_to_midpoint, 0.0, kTargetRadius, obj_to_midpoint_init);
      const double in_place_part2 = LongTailTolerance(
          obj_to_target, 0.0, kTargetRadius, obj_to_target_init);
      const Number object_grasped =
          GripperCaging(effort, obj, 0.015, 0.05, 0.005, false);
      const Number grasped_in_place =
          HamacherProduct(object_grasped, Py(in_place_part1));
      reward = grasped_in_place;
      if (tcp_to_obj < 0.02 && tcp_opened > 0.0 &&
          obj[2] - 0.015 > obj_init_pos_[2]) {
        reward = grasped_in_place + Py(1.0) + Py(4.0 * in_place_part1);
        if (obj[1] > 0.75) {
          reward =
              grasped_in_place + Py(1.0) + Py(4.0) + Py(3.0 * in_place_part2);
        }
      }
      if (obj_to_target < kTargetRadius) {
        reward = Py(10.0);
      }
      info.success = obj_to_target <= 0.07 ? 1.0 : 0.0;
      info.near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
      info.grasp_success = TouchingObject() && tcp_opened > 0.0 &&
                                   obj[2] - 0.02 > obj_init_pos_[2]
                               ? 1.0
                               : 0.0;
      info.grasp_reward = object_grasped.value;
      info.in_place_reward = in_place_part2;
      info.obj_to_target = obj_to_target;
      break;
    }
    case TaskKind::kShelfPlace: {
      const double obj_to_target = Norm3(obj, target_pos_.data());
      const double tcp_to_obj = Norm3(obj, tcp.data());
      const double in_place_margin =
          Norm3(obj_init_pos_.data(), target_pos_.data());
      double in_place =
          LongTailTolerance(obj_to_target, 0.0, kTargetRadius, in_place_margin);
      const Number object_grasped =
          GripperCaging(effort, obj, 0.02, 0.05, 0.01, false);
      reward = HamacherProduct(object_grasped, Py(in_place));
      const double* target = target_pos_.data();
      const bool below_shelf_top = 0.0 < obj[2] && obj[2] < 0.24 &&
                                   target[0] - 0.15 < obj[0] &&
                                   obj[0] < target[0] + 0.15;
      const double front = target[1] - 3.0 * kTargetRadius;
      if (below_shelf_top && front < obj[1] && obj[1] < target[1]) {
        const double z_scaling = (0.24 - obj[2]) / 0.24;
        const double y_scaling = (obj[1] - front) / (3.0 * kTargetRadius);
        const double bound_loss =
            HamacherProduct(Py(y_scaling), Py(z_scaling)).value;
        in_place = Clip(in_place - bound_loss, 0.0, 1.0);
      }
      if (below_shelf_top && obj[1] > target[1]) {
        in_place = 0.0;
      }
      if (tcp_to_obj < 0.025 && tcp_opened > 0.0 &&
          obj[2] - 0.01 > obj_init_pos_[2]) {
        reward = reward + Py(1.0 + 5.0 * in_place);
      }
      if (obj_to_target < kTargetRadius) {
        reward = Py(10.0);
      }
      info.success = obj_to_target <= 0.07 ? 1.0 : 0.0;
      info.near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
      info.grasp_success = TouchingObject() && tcp_opened > 0.0 &&
                                   obj[2] - 0.02 > obj_init_pos_[2]
                               ? 1.0
                               : 0.0;
      info.grasp_reward = object_grasped.value;
      info.in_place_reward = in_place;
      info.obj_to_target = obj_to_target;
      break;
    }
    case TaskKind::kSoccer: {
      constexpr double kSoccerTargetRadius = 0.07;
      // x weighted 3; the margin is from the object's current place.
      const double to_target[3] = {(obj[0] - target_pos_[0]) * 3.0,
                                   (obj[1] - target_pos_[1]) * 1.0,
                                   (obj[2] - target_pos_[2]) * 1.0};
      const double to_init[3] = {(obj[0] - obj_init_pos_[0]) * 3.0,
                                 (obj[1] - obj_init_pos_[1]) * 1.0,
                                 (obj[2] - obj_init_pos_[2]) * 1.0};
      const double tcp_to_obj = Norm3(obj, tcp.data());
      const double target_to_obj = mujoco_common::NumpyNorm(to_target, 3);
      const double target_to_obj_init = mujoco_common::NumpyNorm(to_init, 3);
      double in_place = LongTailTolerance(
          target_to_obj, 0.0, kSoccerTargetRadius, target_to_obj_init);
      const double goal_line = target_pos_[1] - 0.1;
      if (obj[1] > goal_line && std::abs(obj[0] - target_pos_[0]) > 0.10) {
        in_place =
            Clip(in_place - 2.0 * ((obj[1] - goal_line) / (1.0 - goal_line)),
                 0.0, 1.0);
      }
      const double object_grasped = PushBackCaging(obj, 0.013, 0.01, 0.005);
      reward = Py(3.0 * object_grasped) + Py(6.5 * in_place);
      if (target_to_obj < kSoccerTargetRadius) {
        reward = Py(10.0);
      }
      const double obj_to_target = Norm3(obj, target_pos_.data());
      info.success = obj_to_target <= 0.07 ? 1.0 : 0.0;
      info.near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
      info.grasp_success = TouchingObject() && tcp_opened > 0.0 &&
                                   obj[2] - 0.02 > obj_init_pos_[2]
                               ? 1.0
                               : 0.0;
      info.grasp_reward = object_grasped;
      info.in_place_reward = in_place;
      info.obj_to_target = obj_to_target;
      break;
    }
    case TaskKind::kSweep:
    case TaskKind::kSweepInto: {
      // sweep-into's target is at the object's height.
      const bool into = task_->kind == TaskKind::kSweepInto;
      const double target[3] = {target_pos_[0], target_pos_[1],
                                into ? obj[2] : target_pos_[2]};
      const double obj_to_target = Norm3(obj, target);
      const double tcp_to_obj = Norm3(obj, tcp.data());
      const double in_place_margin = Norm3(obj_init_pos_.data(), target);
      const double in_place =
          LongTailTolerance(obj_to_target, 0.0, kTargetRadius, in_place_margin);
      const double object_grasped =
          into ? PushBackCaging(obj, 0.02, 0.005)
               : PushBackCaging(obj, 0.02, 0.01, 0.005);
      const Number grasped_in_place =
          HamacherProduct(Py(object_grasped), Py(in_place));
      reward = Py(2.0 * object_grasped) + Py(6.0) * grasped_in_place;
      if (obj_to_target < kTargetRadius) {
        reward = Py(10.0);
      }
      info.success = obj_to_target <= 0.05 ? 1.0 : 0.0;
      info.near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
      info.grasp_success = TouchingObject() && tcp_opened > 0.0 ? 1.0 : 0.0;
      info.grasp_reward = object_grasped;
      info.in_place_reward = in_place;
      info.obj_to_target = obj_to_target;
      break;
    }
    case TaskKind::kCoffeePush:
    case TaskKind::kCoffeePull: {
      // x and y weighted 2.
      const double to_target[3] = {(obj[0] - target_pos_[0]) * 2.0,
                                   (obj[1] - target_pos_[1]) * 2.0,
                                   (obj[2] - target_pos_[2]) * 1.0};
      const double init_to_target[3] = {
          (obj_init_pos_[0] - target_pos_[0]) * 2.0,
          (obj_init_pos_[1] - target_pos_[1]) * 2.0,
          (obj_init_pos_[2] - target_pos_[2]) * 1.0};
      const double target_to_obj = mujoco_common::NumpyNorm(to_target, 3);
      const double target_to_obj_init =
          mujoco_common::NumpyNorm(init_to_target, 3);
      const double in_place =
          LongTailTolerance(target_to_obj, 0.0, 0.05, target_to_obj_init);
      const double tcp_to_obj = Norm3(obj, tcp.data());
      const Number object_grasped =
          GripperCaging(effort, obj, 0.02, 0.05, 0.05, false, 0.7, 0.04);
      reward = HamacherProduct(object_grasped, Py(in_place));
      if (tcp_to_obj < 0.04 && tcp_opened > 0.0) {
        reward = reward + Py(1.0 + 5.0 * in_place);
      }
      if (target_to_obj < 0.05) {
        reward = Py(10.0);
      }
      const double obj_to_target = Norm3(obj, target_pos_.data());
      info.success = obj_to_target <= 0.07 ? 1.0 : 0.0;
      info.near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
      info.grasp_success = TouchingObject() && tcp_opened > 0.0 ? 1.0 : 0.0;
      info.grasp_reward = object_grasped.value;
      info.in_place_reward = in_place;
      info.obj_to_target = obj_to_target;
      break;
    }
    case TaskKind::kHandInsert: {
      const double target_to_obj = Norm3(obj, target_pos_.data());
      const double target_to_obj_init =
          Norm3(obj_init_pos_.data(), target_pos_.data());
      const double in_place = LongTailTolerance(
          target_to_obj, 0.0, kTargetRadius, target_to_obj_init);
      const Number object_grasped =
          GripperCaging(effort, obj, 0.015, 0.05, 0.005, true);
      reward = HamacherProduct(object_grasped, Py(in_place));
      const double tcp_to_obj = Norm3(obj, tcp.data());
      if (tcp_to_obj < 0.02 && tcp_opened > 0.0) {
        reward = reward + Py(1.0 + 7.0 * in_place);
      }
      if (target_to_obj < kTargetRadius) {
        reward = Py(10.0);
      }
      info.success = target_to_obj <= 0.05 ? 1.0 : 0.0;
      info.near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
      info.grasp_success = TouchingObject() && tcp_opened > 0.0 &&
                                   obj[2] - 0.02 > obj_init_pos_[2]
                               ? 1.0
                               : 0.0;
      info.grasp_reward = object_grasped.value;
      info.in_place_reward = in_place;
      info.obj_to_target = target_to_obj;
      break;
    }
    case TaskKind::kHammer:
    case TaskKind::kDisassemble:
    case TaskKind::kAssembly:
    case TaskKind::kBoxClose:
    case TaskKind::kPegUnplugSide:
    case TaskKind::kBasketball:
    case TaskKind::kPegInsertSide:
    case TaskKind::kStickPush:
    case TaskKind::kStickPull:
      EvaluateTool(effort, &info, &reward);
      break;
    case TaskKind::kBinPicking:
      reward = EvaluateBinPicking(effort, &info);
      break;
    case TaskKind::kPickPlace: {
      const double obj_to_target = Norm3(obj, target_pos_.data());
      const double tcp_to_obj = Norm3(obj, tcp.data());
      const double margin = Norm3(obj_init_pos_.data(), target_pos_.data());
      const double in_place =
          LongTailTolerance(obj_to_target, 0.0, kTargetRadius, margin);
      const Number object_grasped = PickPlaceCaging(effort, obj);
      reward = HamacherProduct(object_grasped, Py(in_place));
      if (tcp_to_obj < 0.02 && tcp_opened > 0.0 &&
          obj[2] - 0.01 > obj_init_pos_[2]) {
        reward = reward + Py(1.0 + 5.0 * in_place);
      }
      if (obj_to_target < kTargetRadius) {
        reward = Py(10.0);
      }
      info.success = obj_to_target <= 0.07 ? 1.0 : 0.0;
      info.near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
      info.grasp_success = TouchingObject() && tcp_opened > 0.0 &&
                                   obj[2] - 0.02 > obj_init_pos_[2]
                               ? 1.0
                               : 0.0;
      info.grasp_reward = object_grasped.value;
      info.in_place_reward = in_place;
      info.obj_to_target = obj_to_target;
      break;
    }
    case TaskKind::kWindowClose:
    case TaskKind::kDrawerClose:
    case TaskKind::kFaucetOpen:
    case TaskKind::kFaucetClose:
    case TaskKind::kDoorClose:
    case TaskKind::kDialTurn:
    case TaskKind::kDoorOpen:
    case TaskKind::kPickOutOfHole:
      reward = EvaluateGaussianTask(effort, &info);
      break;
  }
  info.unscaled_reward = reward.value;
  info_ = info;
  reward_ = reward.value;
}

void SawyerEnv::SetUpTool() {
  mjModel* m = model_.get();
  using mujoco_common::ObjectId;
  switch (task_->kind) {
    case TaskKind::kHammer:
      // The hammer and the nail, each a body's position and quaternion.
      tool_body_ = ObjectId(m, mjOBJ_BODY, "hammer");
      tool_quat_body_ = tool_body_;
      tool_second_body_ = ObjectId(m, mjOBJ_BODY, "nail_link");
      nail_qpos_ = m->jnt_qposadr[ObjectId(m, mjOBJ_JOINT, "NailSlideJoint")];
      box_goal_site_ = ObjectId(m, mjOBJ_SITE, "goal");
      break;
    case TaskKind::kDisassemble:
    case TaskKind::kAssembly:
      // The wrench's handle end (a site) and the nut's quaternion.
      object_site_ = ObjectId(m, mjOBJ_SITE, task_->object_site);
      tool_quat_body_ = ObjectId(m, mjOBJ_BODY, "RoundNut");
      wrench_center_site_ = ObjectId(m, mjOBJ_SITE, "RoundNut");
      moved_body_ = ObjectId(m, mjOBJ_BODY, "peg");
      peg_top_site_ = ObjectId(m, mjOBJ_SITE, "pegTop");
      break;
    case TaskKind::kBinPicking:
      // The object, a body's position and quaternion; the goal is the
      // target bin's body (which does not move).
      tool_body_ = ObjectId(m, mjOBJ_BODY, "obj");
      tool_quat_body_ = tool_body_;
      bin_goal_body_ = ObjectId(m, mjOBJ_BODY, "bin_goal");
      break;
    case TaskKind::kBoxClose:
      // The lid, a body's position and quaternion; the box moves to the
      // goal.
      tool_body_ = ObjectId(m, mjOBJ_BODY, "top_link");
      tool_quat_body_ = tool_body_;
      moved_body_ = ObjectId(m, mjOBJ_BODY, "boxbody");
      break;
    case TaskKind::kPegUnplugSide:
      // The plug's end (a site) and the plug's quaternion.
      object_site_ = ObjectId(m, mjOBJ_SITE, task_->object_site);
      tool_quat_body_ = ObjectId(m, mjOBJ_BODY, "plug1");
      moved_body_ = ObjectId(m, mjOBJ_BODY, "box");
      break;
    case TaskKind::kBasketball:
      tool_body_ = ObjectId(m, mjOBJ_BODY, "bsktball");
      tool_quat_body_ = tool_body_;
      moved_body_ = ObjectId(m, mjOBJ_BODY, "basket_goal");
      hoop_goal_site_ = ObjectId(m, mjOBJ_SITE, "goal");
      break;
    case TaskKind::kPegInsertSide:
      // The peg's grasp site, its position and scipy's quaternion of its
      // rotation; the head goes into the box's hole.
      object_site_ = ObjectId(m, mjOBJ_SITE, task_->object_site);
      peg_head_site_ = ObjectId(m, mjOBJ_SITE, "pegHead");
      moved_body_ = ObjectId(m, mjOBJ_BODY, "box");
      collision_corner_sites_ = {
          ObjectId(m, mjOBJ_SITE, "bottom_right_corner_collision_box_1"),
          ObjectId(m, mjOBJ_SITE, "top_left_corner_collision_box_1"),
          ObjectId(m, mjOBJ_SITE, "bottom_right_corner_collision_box_2"),
          ObjectId(m, mjOBJ_SITE, "top_left_corner_collision_box_2")};
      break;
    case TaskKind::kStickPush:
    case TaskKind::kStickPull:
      // The stick (a body, scipy's quaternion of its rotation) and the
      // thermos's insertion site (no quaternion); the stick is the object
      // touched.
      tool_body_ = ObjectId(m, mjOBJ_BODY, "stick");
      obj_body_ = ObjectId(m, mjOBJ_BODY, "object");
      obj_geom_ = ObjectId(m, mjOBJ_GEOM, task_->object_geom);
      insertion_site_ = ObjectId(m, mjOBJ_SITE, "insertion");
      stick_end_site_ = ObjectId(m, mjOBJ_SITE, "stick_end");
      break;
    default:
      break;
  }
}

void SawyerEnv::FindGaussianTaskElements() {
  const mjModel* m = model_.get();
  using mujoco_common::ObjectId;
  switch (task_->kind) {
    case TaskKind::kWindowClose:
      moved_body_ = ObjectId(m, mjOBJ_BODY, "window");
      object_site_ = ObjectId(m, mjOBJ_SITE, task_->object_site);
      window_slide_ = ObjectId(m, mjOBJ_JOINT, "window_slide");
      break;
    case TaskKind::kDrawerClose:
      moved_body_ = ObjectId(m, mjOBJ_BODY, "drawer");
      drawer_link_ = ObjectId(m, mjOBJ_BODY, "drawer_link");
      break;
    case TaskKind::kFaucetOpen:
    case TaskKind::kFaucetClose:
      // The faucet's base is moved and observed (its quaternion).
      moved_body_ = ObjectId(m, mjOBJ_BODY, "faucetBase");
      object_site_ = ObjectId(m, mjOBJ_SITE, task_->object_site);
      break;
    case TaskKind::kPickOutOfHole:
      obj_body_ = ObjectId(m, mjOBJ_BODY, "obj");
      break;
    case TaskKind::kDoorOpen:
    case TaskKind::kDoorClose:
      moved_body_ = ObjectId(m, mjOBJ_BODY, "door");
      obj_geom_ = ObjectId(m, mjOBJ_GEOM, task_->object_geom);
      reset_joint_ = ObjectId(m, mjOBJ_JOINT, "doorjoint");
      break;
    default:  // dial-turn; the dial's body is moved and observed
      moved_body_ = ObjectId(m, mjOBJ_BODY, "dial");
      reset_joint_ = ObjectId(m, mjOBJ_JOINT, "knob_Joint_1");
      break;
  }
}

void SawyerEnv::ResetTool(const std::vector<double>& vec) {
  mjModel* m = model_.get();
  mjData* d = data_.get();
  switch (task_->kind) {
    case TaskKind::kHammer: {
      // The goal is the box's goal site where the hand's reset left it
      // (the box does not move); the hammer at the drawn place.
      const double* goal = d->site_xpos + 3 * box_goal_site_;
      target_pos_ = {goal[0], goal[1], goal[2]};
      obj_init_pos_ = {vec[0], vec[1], vec[2]};
      SetObjectPosition(obj_init_pos_);
      break;
    }
    case TaskKind::kDisassemble:
      // The nut at the drawn place, the peg under it; the goal 0.15 above.
      obj_init_pos_ = {vec[0], vec[1], vec[2]};
      target_pos_ = {vec[0] + 0.0, vec[1] + 0.0, vec[2] + 0.15};
      MoveBody(vec);
      mj_forward(m, d);
      SetObjectPosition(obj_init_pos_);
      break;
    case TaskKind::kAssembly:
      // The nut at its start, then the peg under the goal (in the model
      // only: the reference runs no mj_forward after).
      obj_init_pos_ = {vec[0], vec[1], vec[2]};
      target_pos_ = {vec[3], vec[4], vec[5]};
      SetObjectPosition(obj_init_pos_);
      MoveBody(vec);
      break;
    case TaskKind::kBinPicking: {
      // The object at the drawn xy, at its height where the hand's reset
      // left it; the goal is the bin's body. The in-place margin is the
      // first step's distance (the reference's _target_to_obj_init).
      obj_init_pos_ = {vec[0], vec[1], d->xpos[3 * tool_body_ + 2]};
      SetObjectPosition(obj_init_pos_);
      const double* bin = d->xpos + 3 * bin_goal_body_;
      target_pos_ = {bin[0], bin[1], bin[2]};
      obj_to_target_init_ = -1.0;
      break;
    }
    case TaskKind::kBoxClose:
      // The box to the goal, frame_skip physics steps (no mj_forward
      // before), then the lid at the drawn xy and init_config's float32
      // height.
      obj_init_pos_ = {vec[0], vec[1], static_cast<double>(0.02F)};
      target_pos_ = {vec[3], vec[4], vec[5]};
      MoveBody(vec);
      for (int s = 0; s < frame_skip_; ++s) {
        mj_step(m, d);
      }
      SetObjectPosition(obj_init_pos_);
      break;
    case TaskKind::kPegUnplugSide: {
      // The box at the drawn place, the plug in it (upright, its linear
      // velocity zeroed); the plug's end is the object's start.
      MoveBody(vec);
      const double plug[3] = {vec[0] + 0.044, vec[1] + 0.0, vec[2] + 0.131};
      std::copy(plug, plug + 3, d->qpos + 9);
      const double upright[4] = {1.0, 0.0, 0.0, 0.0};
      std::copy(upright, upright + 4, d->qpos + 12);
      std::fill(d->qvel + 9, d->qvel + 12, 0.0);
      mj_forward(m, d);
      const double* end = d->site_xpos + 3 * object_site_;
      obj_init_pos_ = {end[0], end[1], end[2]};
      target_pos_ = {plug[0] + 0.15, plug[1] + 0.0, plug[2] + 0.0};
      break;
    }
    case TaskKind::kPegInsertSide: {
      // The peg's head where the hand's reset left it (the peg not placed
      // yet) is the margin's start; the peg placed, then the box moved in
      // the model (no mj_forward after); the goal is the hole.
      const double* head = d->site_xpos + 3 * peg_head_site_;
      handle_init_ = {head[0], head[1], head[2]};
      obj_init_pos_ = {vec[0], vec[1], vec[2]};
      SetObjectPosition(obj_init_pos_);
      MoveBody(vec);
      target_pos_ = {vec[3] + 0.03, vec[4] + 0.0, vec[5] + 0.13};
      break;
    }
    case TaskKind::kStickPush:
    case TaskKind::kStickPull: {
      // The stick at the drawn place (its height init_config's 0.02), the
      // thermos's slides at their start; the goal's height is the
      // insertion site's where the hand's reset left it (stick-push) or
      // the stick's (stick-pull). Stick-push's caging measures from the
      // stick's start, stick-pull's from the thermos's: obj_init_pos_
      // holds that one, handle_init_ the other.
      const bool push = task_->kind == TaskKind::kStickPush;
      const std::array<double, 3> stick_init{vec[0], vec[1], 0.02};
      target_pos_ = {vec[3], vec[4],
                     push ? d->site_xpos[3 * insertion_site_ + 2] : 0.02};
      SetObjectPosition(stick_init);
      d->qpos[16] = 0.0;
      d->qpos[17] = push ? 0.0 : 0.09;
      d->qvel[16] = 0.0;
      d->qvel[17] = 0.0;
      mj_forward(m, d);
      const std::array<double, 3> thermos = BodyPos(obj_body_);
      obj_init_pos_ = push ? stick_init : thermos;
      handle_init_ = push ? thermos : stick_init;
      break;
    }
    default: {  // basketball
      // The basket moved in the model, the ball placed (its height the one
      // init_config gives it, a float32, carried from reset to reset); the
      // goal is the hoop's goal site. (The reference then writes the site's
      // world position into its model position, which changes nothing:
      // the site sits at its body's origin, and MuJoCo places such a site
      // at the body's position whatever its model position says.)
      MoveBody(vec);
      obj_init_pos_ = {vec[0], vec[1], static_cast<double>(0.03F)};
      SetObjectPosition(obj_init_pos_);
      const double* goal = d->site_xpos + 3 * hoop_goal_site_;
      target_pos_ = {goal[0], goal[1], goal[2]};
      break;
    }
  }
}

std::array<double, 3> SawyerEnv::DialPosition() const {
  const double* center = data_->xpos + 3 * moved_body_;
  const double angle = data_->qpos[model_->jnt_qposadr[reset_joint_]];
  const double offset[3] = {numpy_kernels::Sin(angle) * 0.05,
                            -numpy_kernels::Cos(angle) * 0.05, 0.0 * 0.05};
  return {center[0] + offset[0], center[1] + offset[1], center[2] + offset[2]};
}

void SawyerEnv::PlaceGaussianTask(const std::vector<double>& vec) {
  mjModel* m = model_.get();
  mjData* d = data_.get();
  obj_init_pos_ = {vec[0], vec[1], vec[2]};
  MoveBody(vec);
  switch (task_->kind) {
    case TaskKind::kWindowClose: {
      // The window moved in the model only (no mj_forward, as the
      // reference): the handle's start 0.2 beside where the hand's last
      // step left the site, the slide opened to 0.2.
      target_pos_ = obj_init_pos_;
      const double* handle = d->site_xpos + 3 * object_site_;
      handle_init_ = {handle[0] + 0.2, handle[1] + 0.0, handle[2] + 0.0};
      d->qpos[m->jnt_qposadr[window_slide_]] = 0.2;
      break;
    }
    case TaskKind::kDrawerClose: {
      // The drawer pulled out by maxDist (0.15); the handle's start is
      // observed after mj_forward.
      target_pos_ = {vec[0] + 0.0, vec[1] + -0.16, vec[2] + 0.09};
      d->qpos[9] = -0.15;
      mj_forward(m, d);
      const double* link = d->xpos + 3 * drawer_link_;
      obj_init_pos_ = {link[0] + 0.0, link[1] + -0.16, link[2] + 0.05};
      break;
    }
    case TaskKind::kFaucetOpen:
    case TaskKind::kFaucetClose: {
      // The handle's goal beside the faucet (handle_length 0.175); only
      // faucet-close runs mj_forward after moving the faucet.
      const bool open = task_->kind == TaskKind::kFaucetOpen;
      target_pos_ = {vec[0] + (open ? 0.175 : -0.175), vec[1] + 0.0,
                     vec[2] + 0.125};
      if (!open) {
        mj_forward(m, d);
      }
      break;
    }
    case TaskKind::kPickOutOfHole:
      target_pos_ = {vec[3], vec[4], vec[5]};
      SetObjectPosition(obj_init_pos_);
      break;
    case TaskKind::kDoorOpen:
    case TaskKind::kDoorClose: {
      // door-close's door opened to -1.5708, door-open's closed (0); the
      // hinge's velocity zeroed, mj_forward.
      const bool close = task_->kind == TaskKind::kDoorClose;
      target_pos_ = close ? std::array<double, 3>{vec[0] + 0.2, vec[1] + -0.2,
                                                  vec[2] + 0.0}
                          : std::array<double, 3>{vec[0] + -0.3, vec[1] + -0.45,
                                                  vec[2] + 0.0};
      // Their references place the goal marker before the mj_forward (the
      // reset's frame shows it there), the others after their last one.
      PlaceGoalSite();
      d->qpos[m->jnt_qposadr[reset_joint_]] = close ? -1.5708 : 0.0;
      d->qvel[m->jnt_dofadr[reset_joint_]] = 0.0;
      mj_forward(m, d);
      break;
    }
    default: {
      // dial-turn: no mj_forward; the push position is from the dial's
      // body where the hand's last step left it (handle_init_).
      target_pos_ = {vec[0] + 0.0, vec[1] + 0.03, vec[2] + 0.03};
      const std::array<double, 3> dial = DialPosition();
      handle_init_ = {dial[0] + 0.05, dial[1] + 0.02, dial[2] + 0.09};
      break;
    }
  }
}

void SawyerEnv::ToolFrame(double* frame) const {
  const mjData* d = data_.get();
  if (task_->kind == TaskKind::kPegInsertSide) {
    const double* grasp = d->site_xpos + 3 * object_site_;
    std::copy(grasp, grasp + 3, frame + 4);
    MatrixToQuaternion(d->site_xmat + 9 * object_site_, frame + 7);
    return;
  }
  if (IsStick()) {
    // The insertion site (stick-push's moved 0.09 in y); its quaternion
    // zeros.
    const double* stick = d->xpos + 3 * tool_body_;
    std::copy(stick, stick + 3, frame + 4);
    MatrixToQuaternion(d->xmat + 9 * tool_body_, frame + 7);
    const double* insertion = d->site_xpos + 3 * insertion_site_;
    if (task_->kind == TaskKind::kStickPush) {
      frame[11] = insertion[0] + 0.0;
      frame[12] = insertion[1] + 0.09;
      frame[13] = insertion[2] + 0.0;
    } else {
      std::copy(insertion, insertion + 3, frame + 11);
    }
    return;
  }
  const double* pos = object_site_ >= 0 ? d->site_xpos + 3 * object_site_
                                        : d->xpos + 3 * tool_body_;
  std::copy(pos, pos + 3, frame + 4);
  const double* quat = d->xquat + 4 * tool_quat_body_;
  std::copy(quat, quat + 4, frame + 7);
  if (tool_second_body_ >= 0) {
    const double* second = d->xpos + 3 * tool_second_body_;
    std::copy(second, second + 3, frame + 11);
    const double* second_quat = d->xquat + 4 * tool_second_body_;
    std::copy(second_quat, second_quat + 4, frame + 14);
  }
}

Number SawyerEnv::EvaluateBinPicking(float effort, TaskInfo* info) {
  const double* hand = obs_.data();
  const double* obj = obs_.data() + 4;
  const double target_to_obj = Norm3(obj, target_pos_.data());
  if (obj_to_target_init_ < 0.0) {
    obj_to_target_init_ = target_to_obj;  // the episode's first step
  }
  const double in_place =
      LongTailTolerance(target_to_obj, 0.0, kTargetRadius, obj_to_target_init_);
  // The floor: two funnels (np.log), around the object's start and around
  // the goal; the lower one counts (Python's min keeps the first of equals).
  constexpr double kThreshold = 0.03;
  const double to_start[2] = {hand[0] - obj_init_pos_[0],
                              hand[1] - obj_init_pos_[1]};
  const double to_goal[2] = {hand[0] - target_pos_[0],
                             hand[1] - target_pos_[1]};
  const double radii[2] = {mujoco_common::NumpyNorm(to_start, 2),
                           mujoco_common::NumpyNorm(to_goal, 2)};
  double floors[2];
  for (int k = 0; k < 2; ++k) {
    floors[k] = radii[k] > kThreshold
                    ? 0.02 * numpy_kernels::Log(radii[k] - kThreshold) + 0.2
                    : 0.0;
  }
  const double floor = floors[1] < floors[0] ? floors[1] : floors[0];
  // max(floor - hand_z, 0.0): the difference unless 0.0 is larger.
  const double below = floor - hand[2];
  const double above_floor =
      hand[2] >= floor
          ? 1.0
          : LongTailTolerance(0.0 > below ? 0.0 : below, 0.0, 0.01, 0.05);
  const Number grasped =
      GripperCaging(effort, obj, 0.015, 0.05, 0.01, true, 0.7);
  Number reward = HamacherProduct(grasped, Py(in_place));
  const bool near_object = Norm3(obj, hand) < 0.04;
  const bool pinched_without_object = obs_[3] < 0.43;
  const bool lifted = obj[2] - 0.02 > obj_init_pos_[2];
  const bool grasp_success = near_object && lifted && !pinched_without_object;
  if (grasp_success) {
    reward =
        reward +
        Py(1.0 + 5.0 * HamacherProduct(Py(above_floor), Py(in_place)).value);
  }
  if (target_to_obj < kTargetRadius) {
    reward = Py(10.0);
  }
  info->success = target_to_obj <= 0.05 ? 1.0 : 0.0;
  info->near_object = near_object ? 1.0 : 0.0;
  info->grasp_success = grasp_success ? 1.0 : 0.0;
  info->grasp_reward = grasped.value;
  info->in_place_reward = in_place;
  info->obj_to_target = target_to_obj;
  return reward;
}

void SawyerEnv::EvaluateTool(float effort, TaskInfo* info,
                             Number* reward) const {
  const double* hand = obs_.data();
  const double* obj = obs_.data() + 4;
  const double tcp_opened = obs_[3];
  const std::array<double, 3> tcp = TcpCenter();
  switch (task_->kind) {
    case TaskKind::kHammer:
    case TaskKind::kDisassemble: {
      // The handle's x snapped to the hand's within half its length, so
      // that the caging reward sees a sphere.
      const bool hammer = task_->kind == TaskKind::kHammer;
      const double threshold = (hammer ? 0.14 : 0.02) / 2.0;
      double threshed[3] = {obj[0], obj[1], obj[2]};
      if (std::abs(obj[0] - hand[0]) < threshold) {
        threshed[0] = hand[0];
      }
      // The pose: 1 at the ideal quaternion, 0 from 0.4 away.
      const double ideal[4] = {hammer ? 1.0 : 0.707, 0.0, 0.0,
                               hammer ? 0.0 : 0.707};
      double quat_error[4];
      for (int k = 0; k < 4; ++k) {
        quat_error[k] = obs_[7 + k] - ideal[k];
      }
      const double quat_reward_raw =
          1.0 - mujoco_common::NumpyNorm(quat_error, 4) / 0.4;
      // max(x, 0.0): x unless 0.0 is larger.
      const double quat_reward = 0.0 > quat_reward_raw ? 0.0 : quat_reward_raw;
      const Number grab =
          GripperCaging(effort, threshed, 0.015, 0.02, 0.01, true);
      // The hammer's head (0.16, 0.06, 0) from its body to the nail; the
      // wrench's centre to 0.1 above the goal.
      double head[3];
      double pos_error[3];
      if (hammer) {
        const double offset[3] = {0.16, 0.06, 0.0};
        for (int k = 0; k < 3; ++k) {
          head[k] = obj[k] + offset[k];
          pos_error[k] = target_pos_[k] - head[k];
        }
      } else {
        const double* center = data_->site_xpos + 3 * wrench_center_site_;
        const double offset[3] = {0.0, 0.0, 0.1};
        for (int k = 0; k < 3; ++k) {
          head[k] = center[k];
          pos_error[k] = target_pos_[k] + offset[k] - head[k];
        }
      }
      const double lifted = head[2] > 0.02 ? 1.0 : 0.0;
      const double in_place =
          0.1 * lifted +
          0.9 * LongTailTolerance(mujoco_common::NumpyNorm(pos_error, 3), 0.0,
                                  0.02, 0.2);
      *reward = (Py(2.0) * grab + Py(6.0 * in_place)) * Py(quat_reward);
      const bool success =
          hammer ? data_->qpos[nail_qpos_] > 0.09 : obs_[6] > target_pos_[2];
      if (success && (!hammer || reward->value > 5.0)) {
        *reward = Py(10.0);
      }
      info->success = success ? 1.0 : 0.0;
      info->near_object = quat_reward;
      info->grasp_success = grab.value >= 0.5 ? 1.0 : 0.0;
      info->grasp_reward = grab.value;
      info->in_place_reward = in_place;
      info->obj_to_target = 0.0;
      break;
    }
    case TaskKind::kAssembly: {
      // disassemble's snapped handle and pose reward; the caging reward's
      // medium density.
      double threshed[3] = {obj[0], obj[1], obj[2]};
      if (std::abs(obj[0] - hand[0]) < 0.02 / 2.0) {
        threshed[0] = hand[0];
      }
      const double ideal[4] = {0.707, 0.0, 0.0, 0.707};
      double quat_error[4];
      for (int k = 0; k < 4; ++k) {
        quat_error[k] = obs_[7 + k] - ideal[k];
      }
      const double quat_reward_raw =
          1.0 - mujoco_common::NumpyNorm(quat_error, 4) / 0.4;
      const double quat_reward = 0.0 > quat_reward_raw ? 0.0 : quat_reward_raw;
      const Number grab =
          GripperCaging(effort, threshed, 0.015, 0.02, 0.01, false, 1.0, 0.01);
      // _reward_pos: the wrench's centre over the peg (within 0.02 in xy)
      // and below the goal succeeds; its height is measured from a funnel
      // around the peg whose floor is np.log of the xy distance, widened
      // once it succeeds.
      const double* center = data_->site_xpos + 3 * wrench_center_site_;
      double pos_error[3] = {target_pos_[0] - center[0],
                             target_pos_[1] - center[1],
                             target_pos_[2] - center[2]};
      const double radius = mujoco_common::NumpyNorm(pos_error, 2);
      const bool success = radius < 0.02 && pos_error[2] > 0.0;
      const double threshold = success ? 0.02 : 0.01;
      const double target_height =
          radius > threshold
              ? 0.02 * numpy_kernels::Log(radius - threshold) + 0.2
              : 0.0;
      pos_error[2] = target_height - center[2];
      const double scaled[3] = {pos_error[0] * 1.0, pos_error[1] * 1.0,
                                pos_error[2] * 3.0};
      const double lifted = center[2] > 0.02 || radius < threshold ? 1.0 : 0.0;
      const double in_place =
          0.1 * lifted +
          0.9 * LongTailTolerance(mujoco_common::NumpyNorm(scaled, 3), 0.0,
                                  0.02, 0.4);
      *reward = (Py(2.0) * grab + Py(6.0 * in_place)) * Py(quat_reward);
      if (success) {
        *reward = Py(10.0);
      }
      info->success = success ? 1.0 : 0.0;
      info->near_object = quat_reward;
      info->grasp_success = grab.value >= 0.5 ? 1.0 : 0.0;
      info->grasp_reward = grab.value;
      info->in_place_reward = in_place;
      info->obj_to_target = 0.0;
      break;
    }
    case TaskKind::kBoxClose: {
      // _reward_grab_effort: (clip(effort, -1, 1) + 1) / 2 in float32.
      const float clipped = ClipAction(effort);
      const double grab = static_cast<double>((clipped + 1.0F) / 2.0F);
      // The lid upright: 1 at the ideal quaternion, 0 from 0.2 away.
      const double ideal[4] = {0.707, 0.0, 0.0, 0.707};
      double quat_error[4];
      for (int k = 0; k < 4; ++k) {
        quat_error[k] = obs_[7 + k] - ideal[k];
      }
      const double quat_reward_raw =
          1.0 - mujoco_common::NumpyNorm(quat_error, 4) / 0.2;
      const double quat_reward = 0.0 > quat_reward_raw ? 0.0 : quat_reward_raw;
      // _reward_pos: the hand above a funnel around the lid's handle
      // (np.log), at the handle, then the lid onto the box.
      const double lid[3] = {obj[0] + 0.0, obj[1] + 0.0, obj[2] + 0.02};
      constexpr double kThreshold = 0.02;
      const double hand_lid_xy[2] = {hand[0] - lid[0], hand[1] - lid[1]};
      const double radius = mujoco_common::NumpyNorm(hand_lid_xy, 2);
      const double floor =
          radius <= kThreshold
              ? 0.0
              : 0.04 * numpy_kernels::Log(radius - kThreshold) + 0.4;
      const double above_floor =
          hand[2] >= floor
              ? 1.0
              : LongTailTolerance(floor - hand[2], 0.0, 0.01, floor / 2.0);
      const double in_place =
          LongTailTolerance(Norm3(hand, lid), 0.0, 0.02, 0.5);
      const double ready = HamacherProduct(Py(above_floor), Py(in_place)).value;
      const double pos_error[3] = {(target_pos_[0] - lid[0]) * 1.0,
                                   (target_pos_[1] - lid[1]) * 1.0,
                                   (target_pos_[2] - lid[2]) * 3.0};
      const double lifted =
          0.2 * (lid[2] > 0.04 ? 1.0 : 0.0) +
          0.8 * LongTailTolerance(mujoco_common::NumpyNorm(pos_error, 3), 0.0,
                                  0.05, 0.25);
      *reward = Py(2.0 * HamacherProduct(Py(grab), Py(ready)).value) +
                Py(8.0 * lifted);
      const bool success = Norm3(obj, target_pos_.data()) < 0.08;
      if (success) {
        *reward = Py(10.0);
      }
      *reward = *reward * Py(quat_reward);
      info->success = success ? 1.0 : 0.0;
      info->near_object = ready;
      info->grasp_success = grab >= 0.5 ? 1.0 : 0.0;
      info->grasp_reward = grab;
      info->in_place_reward = lifted;
      info->obj_to_target = 0.0;
      break;
    }
    case TaskKind::kPegUnplugSide: {
      const double tcp_to_obj = Norm3(obj, tcp.data());
      const double obj_to_target = Norm3(obj, target_pos_.data());
      const Number grasped =
          GripperCaging(effort, obj, 0.025, 0.05, 0.005, true, 0.8);
      const double in_place_margin =
          Norm3(obj_init_pos_.data(), target_pos_.data());
      const double in_place =
          LongTailTolerance(obj_to_target, 0.0, 0.05, in_place_margin);
      const bool grasp_success =
          tcp_opened > 0.5 && obj[0] - obj_init_pos_[0] > 0.015;
      *reward = Py(2.0) * grasped;
      if (grasp_success && tcp_to_obj < 0.035) {
        *reward = Py(1.0) + Py(2.0) * grasped + Py(5.0 * in_place);
      }
      if (obj_to_target <= 0.05) {
        *reward = Py(10.0);
      }
      info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
      info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
      info->grasp_success = grasp_success ? 1.0 : 0.0;
      info->grasp_reward = grasped.value;
      info->in_place_reward = in_place;
      info->obj_to_target = obj_to_target;
      break;
    }
    case TaskKind::kPegInsertSide:
      EvaluatePegInsert(effort, info, reward);
      break;
    case TaskKind::kStickPush:
    case TaskKind::kStickPull:
      EvaluateStick(effort, info, reward);
      break;
    default: {  // basketball
      constexpr double kBasketRadius = 0.08;
      // The hoop's height taken as 0.3; z weighted 2.
      const double target[3] = {target_pos_[0], target_pos_[1], 0.3};
      const double scale[3] = {1.0, 1.0, 2.0};
      double to_target[3];
      double init_to_target[3];
      for (int k = 0; k < 3; ++k) {
        to_target[k] = (obj[k] - target[k]) * scale[k];
        init_to_target[k] = (obj_init_pos_[k] - target[k]) * scale[k];
      }
      const double target_to_obj = mujoco_common::NumpyNorm(to_target, 3);
      const double target_to_obj_init =
          mujoco_common::NumpyNorm(init_to_target, 3);
      const double in_place = LongTailTolerance(
          target_to_obj, 0.0, kBasketRadius, target_to_obj_init);
      const double tcp_to_obj = Norm3(obj, tcp.data());
      Number grasped = GripperCaging(effort, obj, 0.025, 0.06, 0.005, true);
      const bool lifted = tcp_to_obj < 0.035 && tcp_opened > 0.0 &&
                          obj[2] - 0.01 > obj_init_pos_[2];
      if (lifted) {
        grasped = Py(1.0);
      }
      *reward = HamacherProduct(grasped, Py(in_place));
      if (lifted) {
        *reward = *reward + Py(1.0 + 5.0 * in_place);
      }
      if (target_to_obj < kBasketRadius) {
        *reward = Py(10.0);
      }
      info->success = target_to_obj <= kBasketRadius ? 1.0 : 0.0;
      info->near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
      info->grasp_success =
          tcp_opened > 0.0 && obj[2] - 0.03 > obj_init_pos_[2] ? 1.0 : 0.0;
      info->grasp_reward = grasped.value;
      info->in_place_reward = in_place;
      info->obj_to_target = target_to_obj;
      break;
    }
  }
}

namespace {

// reward_utils.rect_prism_tolerance: inside the prism from `zero` to `one`,
// the product of the relative coordinates; 1 outside.
double RectPrismTolerance(const double* curr, const double* zero,
                          const double* one) {
  const auto in_range = [](double a, double b, double c) {
    return c >= b ? (b <= a && a <= c) : (c <= a && a <= b);
  };
  if (in_range(curr[0], zero[0], one[0]) &&
      in_range(curr[1], zero[1], one[1]) &&
      in_range(curr[2], zero[2], one[2])) {
    const double diff[3] = {one[0] - zero[0], one[1] - zero[1],
                            one[2] - zero[2]};
    const double x_scale = (curr[0] - zero[0]) / diff[0];
    const double y_scale = (curr[1] - zero[1]) / diff[1];
    const double z_scale = (curr[2] - zero[2]) / diff[2];
    return x_scale * y_scale * z_scale;
  }
  return 1.0;
}

}  // namespace

void SawyerEnv::EvaluatePegInsert(float effort, TaskInfo* info,
                                  Number* reward) const {
  constexpr double kPegTargetRadius = 0.07;
  const double* obj = obs_.data() + 4;
  const double tcp_opened = obs_[3];
  const std::array<double, 3> tcp = TcpCenter();
  const double* head = data_->site_xpos + 3 * peg_head_site_;
  const double tcp_to_obj = Norm3(obj, tcp.data());
  // y and z weighted 2; the margin from the head's place before the peg
  // was placed (handle_init_).
  const double scale[3] = {1.0, 2.0, 2.0};
  double to_target[3];
  double init_to_target[3];
  for (int k = 0; k < 3; ++k) {
    to_target[k] = (head[k] - target_pos_[k]) * scale[k];
    init_to_target[k] = (handle_init_[k] - target_pos_[k]) * scale[k];
  }
  const double obj_to_target = mujoco_common::NumpyNorm(to_target, 3);
  const double in_place_margin = mujoco_common::NumpyNorm(init_to_target, 3);
  double in_place =
      LongTailTolerance(obj_to_target, 0.0, kPegTargetRadius, in_place_margin);
  const auto site = [this](int k) {
    return data_->site_xpos + 3 * collision_corner_sites_[k];
  };
  const double box_1 = RectPrismTolerance(head, site(0), site(1));
  const double box_2 = RectPrismTolerance(head, site(2), site(3));
  const Number collision_boxes = HamacherProduct(Py(box_2), Py(box_1));
  in_place = HamacherProduct(Py(in_place), collision_boxes).value;
  Number grasped = GripperCaging(effort, obj, 0.0075, 0.03, 0.005, true);
  const bool lifted =
      tcp_to_obj < 0.08 && tcp_opened > 0.0 && obj[2] - 0.01 > obj_init_pos_[2];
  if (lifted) {
    grasped = Py(1.0);
  }
  *reward = HamacherProduct(grasped, Py(in_place));
  if (lifted) {
    *reward = *reward + Py(1.0 + 5.0 * in_place);
  }
  if (obj_to_target <= kPegTargetRadius) {
    *reward = Py(10.0);
  }
  info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
  info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
  info->grasp_success =
      tcp_to_obj < 0.02 && tcp_opened > 0.0 && obj[2] - 0.01 > obj_init_pos_[2]
          ? 1.0
          : 0.0;
  info->grasp_reward = grasped.value;
  info->in_place_reward = in_place;
  info->obj_to_target = obj_to_target;
}

void SawyerEnv::EvaluateStick(float effort, TaskInfo* info,
                              Number* reward) const {
  const bool push = task_->kind == TaskKind::kStickPush;
  const double* stick_init = push ? obj_init_pos_.data() : handle_init_.data();
  const double* thermos_init =
      push ? handle_init_.data() : obj_init_pos_.data();
  const double* target = target_pos_.data();
  const double tcp_opened = obs_[3];
  const std::array<double, 3> tcp = TcpCenter();
  const double* observed_stick = obs_.data() + 4;
  const double* handle = obs_.data() + 11;
  if (push) {
    constexpr double kRadius = 0.12;
    const double stick[3] = {observed_stick[0] + 0.015, observed_stick[1] + 0.0,
                             observed_stick[2] + 0.0};
    const double tcp_to_stick = Norm3(stick, tcp.data());
    const double stick_to_target = Norm3(stick, target);
    const double stick_in_place = LongTailTolerance(
        stick_to_target, 0.0, kRadius, Norm3(stick_init, target) - kRadius);
    const double container_to_target = Norm3(handle, target);
    const double container_in_place =
        LongTailTolerance(container_to_target, 0.0, kRadius,
                          Norm3(thermos_init, target) - kRadius);
    // Its own caging reward, from the stick's start: GripperCaging with
    // obj_init_pos_ the stick's.
    Number grasped = GripperCaging(effort, stick, 0.04, 0.05, 0.01, true);
    *reward = grasped;
    if (tcp_to_stick < 0.02 && tcp_opened > 0.0 &&
        stick[2] - 0.01 > stick_init[2]) {
      grasped = Py(1.0);
      *reward = Py(2.0 + 5.0 * stick_in_place + 3.0 * container_in_place);
      if (container_to_target <= kRadius) {
        *reward = Py(10.0);
      }
    }
    const bool grasp_success = TouchingObject() && tcp_opened > 0.0 &&
                               observed_stick[2] - 0.01 > stick_init[2];
    info->success =
        grasp_success && Norm3(handle, target) <= kRadius ? 1.0 : 0.0;
    info->near_object = tcp_to_stick <= 0.03 ? 1.0 : 0.0;
    info->grasp_success = grasp_success ? 1.0 : 0.0;
    info->grasp_reward = grasped.value;
    info->in_place_reward = stick_in_place;
    info->obj_to_target = container_to_target;
    return;
  }
  constexpr double kRadius = 0.05;
  const double* stick = observed_stick;
  const double* end = data_->site_xpos + 3 * stick_end_site_;
  // The thermos's handle and its container, 0.05 further in x.
  const double container[3] = {handle[0] + 0.05, handle[1] + 0.0,
                               handle[2] + 0.0};
  const double container_init[3] = {
      thermos_init[0] + 0.05, thermos_init[1] + 0.0, thermos_init[2] + 0.0};
  const double tcp_to_stick = Norm3(stick, tcp.data());
  const double handle_to_target = Norm3(handle, target);
  // z weighted 2.
  const double scale[3] = {1.0, 1.0, 2.0};
  double to_container[3];
  double init_to_container[3];
  for (int k = 0; k < 3; ++k) {
    to_container[k] = (stick[k] - container[k]) * scale[k];
    init_to_container[k] = (stick_init[k] - container_init[k]) * scale[k];
  }
  const double stick_in_place =
      LongTailTolerance(mujoco_common::NumpyNorm(to_container, 3), 0.0, kRadius,
                        mujoco_common::NumpyNorm(init_to_container, 3));
  const double stick_in_place_2 = LongTailTolerance(
      Norm3(stick, target), 0.0, kRadius, Norm3(stick_init, target));
  const double container_in_place = LongTailTolerance(
      Norm3(container, target), 0.0, kRadius, Norm3(thermos_init, target));
  // The caging reward from the thermos's start (obj_init_pos_).
  Number grasped = GripperCaging(effort, stick, 0.014, 0.05, 0.01, true);
  const bool grasp_success = tcp_to_stick < 0.02 && tcp_opened > 0.0 &&
                             stick[2] - 0.01 > stick_init[2];
  if (grasp_success) {
    grasped = Py(1.0);
  }
  const Number in_place_and_grasped =
      HamacherProduct(grasped, Py(stick_in_place));
  const bool inserted = end[0] >= handle[0] &&
                        std::abs(end[1] - handle[1]) <= 0.040 &&
                        std::abs(end[2] - handle[2]) <= 0.060;
  *reward = in_place_and_grasped;
  if (grasp_success) {
    *reward = Py(1.0) + in_place_and_grasped + Py(5.0 * stick_in_place);
    if (inserted) {
      *reward = Py(1.0) + in_place_and_grasped + Py(5.0) +
                Py(2.0 * stick_in_place_2) + Py(1.0 * container_in_place);
      if (handle_to_target <= 0.12) {
        *reward = Py(10.0);
      }
    }
  }
  info->success = handle_to_target <= 0.12 && inserted ? 1.0 : 0.0;
  info->near_object = tcp_to_stick <= 0.03 ? 1.0 : 0.0;
  info->grasp_success =
      TouchingObject() && tcp_opened > 0.0 && stick[2] - 0.02 > thermos_init[2]
          ? 1.0
          : 0.0;
  info->grasp_reward = grasped.value;
  info->in_place_reward = stick_in_place;
  info->obj_to_target = handle_to_target;
}

void SawyerEnv::GaussianTaskObject(double* pos_and_quat) const {
  const mjData* d = data_.get();
  double* quat = pos_and_quat + 3;
  switch (task_->kind) {
    case TaskKind::kWindowClose: {
      const double* handle = d->site_xpos + 3 * object_site_;
      std::copy(handle, handle + 3, pos_and_quat);
      break;  // a zero quaternion
    }
    case TaskKind::kDrawerClose: {
      const double* link = d->xpos + 3 * drawer_link_;
      pos_and_quat[0] = link[0] + 0.0;
      pos_and_quat[1] = link[1] + -0.16;
      pos_and_quat[2] = link[2] + 0.05;
      break;  // a zero quaternion
    }
    case TaskKind::kFaucetOpen:
    case TaskKind::kFaucetClose: {
      const double* handle = d->site_xpos + 3 * object_site_;
      pos_and_quat[0] = handle[0] + 0.0;
      pos_and_quat[1] = handle[1] + 0.0;
      pos_and_quat[2] = handle[2] + -0.01;
      const double* base = d->xquat + 4 * moved_body_;
      std::copy(base, base + 4, quat);
      break;
    }
    case TaskKind::kPickOutOfHole: {
      // The body's position and MuJoCo quaternion.
      const double* body = d->xpos + 3 * obj_body_;
      std::copy(body, body + 3, pos_and_quat);
      const double* body_quat = d->xquat + 4 * obj_body_;
      std::copy(body_quat, body_quat + 4, quat);
      break;
    }
    case TaskKind::kDoorOpen:
    case TaskKind::kDoorClose: {
      const double* handle = d->geom_xpos + 3 * obj_geom_;
      std::copy(handle, handle + 3, pos_and_quat);
      ObjectQuaternion(quat);
      break;
    }
    default: {
      const std::array<double, 3> dial = DialPosition();
      std::copy(dial.begin(), dial.end(), pos_and_quat);
      const double* dial_quat = d->xquat + 4 * moved_body_;
      std::copy(dial_quat, dial_quat + 4, quat);
      break;
    }
  }
}

Number SawyerEnv::EvaluateGaussianTask(float effort, TaskInfo* info) const {
  const double* obj = obs_.data() + 4;
  const std::array<double, 3> tcp = TcpCenter();
  Number reward;
  switch (task_->kind) {
    case TaskKind::kWindowClose: {
      const double* handle = data_->site_xpos + 3 * object_site_;
      const double dx = handle[0] - target_pos_[0];
      const double target_to_obj = mujoco_common::NumpyNorm(&dx, 1);
      const double init_dx = handle_init_[0] - target_pos_[0];
      const double target_to_obj_init = mujoco_common::NumpyNorm(&init_dx, 1);
      const double in_place =
          LongTailTolerance(target_to_obj, 0.0, kTargetRadius,
                            std::abs(target_to_obj_init - kTargetRadius));
      constexpr double kHandleRadius = 0.02;
      const double tcp_to_obj = Norm3(handle, tcp.data());
      const double tcp_to_obj_init =
          Norm3(handle_init_.data(), init_tcp_.data());
      const double reach =
          GaussianTolerance(tcp_to_obj, 0.0, kHandleRadius,
                            std::abs(tcp_to_obj_init - kHandleRadius));
      reward = Py(10.0) * HamacherProduct(Py(reach), Py(in_place));
      info->success = target_to_obj <= kTargetRadius ? 1.0 : 0.0;
      info->near_object = tcp_to_obj <= 0.05 ? 1.0 : 0.0;
      info->grasp_success = 1.0;
      info->grasp_reward = reach;
      info->in_place_reward = in_place;
      info->obj_to_target = target_to_obj;
      break;
    }
    case TaskKind::kDrawerClose:
    case TaskKind::kDialTurn: {
      // The reach, gated by the gripper's effort (float32), Hamacher'd
      // with the place.
      const bool dial = task_->kind == TaskKind::kDialTurn;
      // dial-turn's TARGET_RADIUS; drawer-close's _TARGET_RADIUS (0.04) is
      // not the one it reads: self.TARGET_RADIUS is SawyerXYZEnv's 0.05.
      const double radius = dial ? 0.07 : kTargetRadius;
      const double reach_radius = 0.005;
      std::array<double, 3> dial_pos{};
      std::array<double, 3> push{};
      if (dial) {
        dial_pos = DialPosition();
        push = {dial_pos[0] + 0.05, dial_pos[1] + 0.02, dial_pos[2] + 0.09};
      }
      const double* object = dial ? dial_pos.data() : obj;
      const double* reached = dial ? push.data() : obj;
      const double* object_init =
          dial ? handle_init_.data() : obj_init_pos_.data();
      const double target_to_obj = Norm3(object, target_pos_.data());
      const double target_to_obj_init = Norm3(object_init, target_pos_.data());
      const double in_place = LongTailTolerance(
          target_to_obj, 0.0, radius, std::abs(target_to_obj_init - radius));
      const double tcp_to_obj = Norm3(reached, tcp.data());
      const double tcp_to_obj_init = Norm3(object_init, init_tcp_.data());
      const double reach_alone =
          GaussianTolerance(tcp_to_obj, 0.0, reach_radius,
                            std::abs(tcp_to_obj_init - reach_radius));
      const Number reach =
          HamacherProduct(Py(reach_alone), ClampedEffort(effort, 1.0));
      if (dial) {
        reward = Py(10.0) * HamacherProduct(reach, Py(in_place));
        info->success = target_to_obj <= radius ? 1.0 : 0.0;
      } else {
        reward = HamacherProduct(reach, Py(in_place));
        if (target_to_obj <= radius + 0.015) {
          reward = Py(1.0);
        }
        reward = reward * Py(10.0);
        info->success = target_to_obj <= radius + 0.015 ? 1.0 : 0.0;
      }
      info->near_object = tcp_to_obj <= 0.01 ? 1.0 : 0.0;
      info->grasp_success = 1.0;
      info->grasp_reward = reach.value;
      info->in_place_reward = in_place;
      info->obj_to_target = target_to_obj;
      break;
    }
    case TaskKind::kFaucetOpen:
    case TaskKind::kFaucetClose: {
      constexpr double kFaucetRadius = 0.07;
      constexpr double kFaucetReachRadius = 0.01;
      const bool open = task_->kind == TaskKind::kFaucetOpen;
      const double handle[3] = {obj[0] + (open ? -0.04 : 0.0), obj[1] + 0.0,
                                obj[2] + (open ? 0.03 : 0.0)};
      const double* object = open ? handle : obj;
      const double target_to_obj = Norm3(object, target_pos_.data());
      const double target_to_obj_init =
          Norm3(obj_init_pos_.data(), target_pos_.data());
      const double in_place =
          LongTailTolerance(target_to_obj, 0.0, kFaucetRadius,
                            std::abs(target_to_obj_init - kFaucetRadius));
      const double tcp_to_obj = Norm3(object, tcp.data());
      const double tcp_to_obj_init =
          Norm3(obj_init_pos_.data(), init_tcp_.data());
      const double reach =
          GaussianTolerance(tcp_to_obj, 0.0, kFaucetReachRadius,
                            std::abs(tcp_to_obj_init - kFaucetReachRadius));
      reward = Py((2.0 * reach + 3.0 * in_place) * 2.0);
      if (target_to_obj <= kFaucetRadius) {
        reward = Py(10.0);
      }
      info->success = target_to_obj <= 0.07 ? 1.0 : 0.0;
      info->near_object = tcp_to_obj <= 0.01 ? 1.0 : 0.0;
      info->grasp_success = 1.0;
      info->grasp_reward = reach;
      info->in_place_reward = in_place;
      info->obj_to_target = target_to_obj;
      break;
    }
    case TaskKind::kDoorOpen: {
      // _reward_grab_effort: (clip(effort, -1, 1) + 1) / 2 in float32.
      const float clipped = ClipAction(effort);
      const double grab = static_cast<double>((clipped + 1.0F) / 2.0F);
      // _reward_pos: the hand above a funnel around the handle (np.log),
      // between the handle and the door, then the door opened.
      const double* hand = obs_.data();
      const double door[3] = {obj[0] + -0.05, obj[1] + 0.0, obj[2] + 0.0};
      constexpr double kThreshold = 0.12;
      const double hand_door_xy[2] = {hand[0] - door[0], hand[1] - door[1]};
      const double radius = mujoco_common::NumpyNorm(hand_door_xy, 2);
      const double floor =
          radius <= kThreshold
              ? 0.0
              : 0.04 * numpy_kernels::Log(radius - kThreshold) + 0.4;
      const double above_floor =
          hand[2] >= floor
              ? 1.0
              : LongTailTolerance(floor - hand[2], 0.0, 0.01, floor / 2.0);
      const double between[3] = {(hand[0] - door[0]) - 0.05,
                                 (hand[1] - door[1]) - 0.03,
                                 (hand[2] - door[2]) - -0.01};
      const double in_place = LongTailTolerance(
          mujoco_common::NumpyNorm(between, 3), 0.0, kThreshold / 2.0, 0.5);
      const double ready = HamacherProduct(Py(above_floor), Py(in_place)).value;
      const double theta = data_->qpos[model_->jnt_qposadr[reset_joint_]];
      const double door_angle = -theta;
      const double opened =
          0.2 * (theta < -M_PI / 90.0 ? 1.0 : 0.0) +
          0.8 * LongTailTolerance(M_PI / 2.0 + M_PI / 6 - door_angle, 0.0, 0.5,
                                  M_PI / 3.0);
      // sum((a, b)): 0 + a + b.
      reward = Py((0.0 + 2.0 * HamacherProduct(Py(ready), Py(grab)).value) +
                  8.0 * opened);
      const bool success = std::abs(obj[0] - target_pos_[0]) <= 0.08;
      if (success) {
        reward = Py(10.0);
      }
      info->success = success ? 1.0 : 0.0;
      info->near_object = ready;
      info->grasp_success = grab >= 0.5 ? 1.0 : 0.0;
      info->grasp_reward = grab;
      info->in_place_reward = opened;
      info->obj_to_target = 0.0;
      break;
    }
    case TaskKind::kPickOutOfHole: {
      const double obj_to_target = Norm3(obj, target_pos_.data());
      const double tcp_to_obj = Norm3(obj, tcp.data());
      const double in_place_margin =
          Norm3(obj_init_pos_.data(), target_pos_.data());
      // The hand above a funnel around the hole (np.log).
      constexpr double kThreshold = 0.03;
      const double tcp_init_xy[2] = {tcp[0] - obj_init_pos_[0],
                                     tcp[1] - obj_init_pos_[1]};
      const double radius = mujoco_common::NumpyNorm(tcp_init_xy, 2);
      const double floor =
          radius <= kThreshold
              ? 0.0
              : 0.015 * numpy_kernels::Log(radius - kThreshold) + 0.15;
      // (Python's max(floor - z, 0.0): floor - z, positive here.)
      const double above_floor =
          tcp[2] >= floor ? 1.0
                          : LongTailTolerance(std::max(floor - tcp[2], 0.0),
                                              0.0, 0.01, 0.02);
      const Number object_grasped =
          GripperCaging(effort, obj, 0.015, 0.02, 0.03, true, 0.1);
      const double in_place =
          LongTailTolerance(obj_to_target, 0.0, 0.02, in_place_margin);
      reward = HamacherProduct(object_grasped, Py(in_place));
      const bool grasp_success = tcp_to_obj < 0.04 &&
                                 obj[2] - 0.02 > obj_init_pos_[2] &&
                                 !(obs_[3] < 0.33);
      if (grasp_success) {
        reward = reward +
                 Py(1.0 +
                    5.0 * HamacherProduct(Py(in_place), Py(above_floor)).value);
      }
      // self.TARGET_RADIUS: SawyerXYZEnv's 0.05 (not the class's 0.02).
      if (obj_to_target < kTargetRadius) {
        reward = Py(10.0);
      }
      info->success = obj_to_target <= 0.07 ? 1.0 : 0.0;
      info->near_object = tcp_to_obj <= 0.03 ? 1.0 : 0.0;
      info->grasp_success = grasp_success ? 1.0 : 0.0;
      info->grasp_reward = object_grasped.value;
      info->in_place_reward = in_place;
      info->obj_to_target = obj_to_target;
      break;
    }
    default: {  // door-close
      const double tcp_to_target = Norm3(tcp.data(), target_pos_.data());
      const double obj_to_target = Norm3(obj, target_pos_.data());
      const double in_place_margin =
          Norm3(obj_init_pos_.data(), target_pos_.data());
      const double in_place =
          GaussianTolerance(obj_to_target, 0.0, kTargetRadius, in_place_margin);
      const double hand_margin = Norm3(task_->hand_init_pos.data(), obj) + 0.1;
      const double hand_in_place = GaussianTolerance(
          tcp_to_target, 0.0, 0.25 * kTargetRadius, hand_margin);
      reward = Py(3.0 * hand_in_place + 6.0 * in_place);
      if (obj_to_target < kTargetRadius) {
        reward = Py(10.0);
      }
      info->success = obj_to_target <= 0.08 ? 1.0 : 0.0;
      info->near_object = 0.0;
      info->grasp_success = 1.0;
      info->grasp_reward = 1.0;
      info->in_place_reward = hand_in_place;
      info->obj_to_target = obj_to_target;
      break;
    }
  }
  return reward;
}

void SawyerEnv::Write(const Output& out) {
  std::copy(obs_.begin(), obs_.end(), out.Get(fields_.obs));
  *out.Get(fields_.success) = info_.success;
  *out.Get(fields_.near_object) = info_.near_object;
  *out.Get(fields_.grasp_success) = info_.grasp_success;
  *out.Get(fields_.grasp_reward) = info_.grasp_reward;
  *out.Get(fields_.in_place_reward) = info_.in_place_reward;
  *out.Get(fields_.obj_to_target) = info_.obj_to_target;
  *out.Get(fields_.unscaled_reward) = info_.unscaled_reward;
  *out.Get(fields_.task_id) = task_->task_id;
}

void SawyerEnv::Render(int width, int height, int camera_id, uint8_t* rgb) {
  if (!has_camera_) {
    // Meta-World names no camera and no DEFAULT_CAMERA_CONFIG: gymnasium's
    // free camera, looking at the geoms' median from model.stat.extent.
    camera_ = render::InitialCamera(model_.get(), data_.get(),
                                    render::NoCameraConfig());
    has_camera_ = true;
  }
  // Drawing reads this env's view of the model (its own body_pos, site_pos
  // and eq_data, the rest the shared model's) and writes none of it; the
  // renderer's GPU resources come from the shared model.
  render::RenderFrame(model_.shared(), model_.get(), data_.get(), camera_,
                      camera_id, width, height, render::SceneSettings{}, rgb);
}

void SawyerEnv::SaveState(StateWriter* writer) const {
  std::vector<double> physics;
  mujoco_common::GetIntegrationState(model_.get(), data_.get(), &physics);
  std::array<double, 3> moved{};
  if (moved_body_ >= 0) {
    std::copy(model_->body_pos + 3 * moved_body_,
              model_->body_pos + 3 * moved_body_ + 3, moved.begin());
  }
  writer->Put(physics, target_pos_, obj_init_pos_, init_tcp_, prev_frame_, obs_,
              info_, obj_to_target_init_, moved, handle_init_);
  if (task_sampler_) {
    task_sampler_->Save(writer);
  }
}

void SawyerEnv::LoadState(StateReader* reader) {
  std::vector<double> physics;
  std::array<double, 3> moved{};
  reader->Get(&physics, &target_pos_, &obj_init_pos_, &init_tcp_, &prev_frame_,
              &obs_, &info_, &obj_to_target_init_, &moved, &handle_init_);
  if (task_sampler_) {
    task_vector_ = &task_sampler_->Load(reader);
  }
  if (moved_body_ >= 0) {
    std::copy(moved.begin(), moved.end(), model_->body_pos + 3 * moved_body_);
  }
  mujoco_common::SetIntegrationState(model_.get(), data_.get(), physics);
  if (goal_site_ >= 0) {
    std::copy(target_pos_.begin(), target_pos_.end(),
              model_->site_pos + 3 * goal_site_);
  }
  mj_forward(model_.get(), data_.get());
}

}  // namespace envpool::metaworld
