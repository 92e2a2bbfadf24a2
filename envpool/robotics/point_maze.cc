#include "envpool/robotics/point_maze.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>

#include "envpool/mujoco_common/numpy_math.h"
#include "envpool/mujoco_common/spec.h"
#include "envpool/render/mujoco_egl.h"

namespace envpool::robotics {
namespace {

// gymnasium_robotics/envs/maze/maps.py.
const std::map<std::string, std::vector<std::string>>& MazeMaps() {
  static const std::map<std::string, std::vector<std::string>> maps{
      {"U_MAZE", {"11111", "10001", "11101", "10001", "11111"}},
      {"OPEN", {"1111111", "1000001", "1000001", "1000001", "1111111"}},
      {"OPEN_DIVERSE_G",
       {"1111111", "1rgggg1", "1ggggg1", "1ggggg1", "1111111"}},
      {"OPEN_DIVERSE_GR",
       {"1111111", "1ccccc1", "1ccccc1", "1ccccc1", "1111111"}},
      {"MEDIUM_MAZE",
       {"11111111", "10011001", "10010001", "11000111", "10010001", "10100101",
        "10001001", "11111111"}},
      {"MEDIUM_MAZE_DIVERSE_G",
       {"11111111", "1r011001", "100100g1", "11000111", "10010001", "1g100101",
        "10001g01", "11111111"}},
      {"MEDIUM_MAZE_DIVERSE_GR",
       {"11111111", "1c011001", "100100c1", "11000111", "10010001", "1c100101",
        "10001c01", "11111111"}},
      {"LARGE_MAZE",
       {"111111111111", "100001000001", "101101010101", "100000010001",
        "101111011101", "100101000001", "110101010111", "100100010001",
        "111111111111"}},
      {"LARGE_MAZE_DIVERSE_G",
       {"111111111111", "1r0001g00001", "101101010101", "10000g0100g1",
        "101111011101", "10g101000001", "110101010111", "1001g0g10g01",
        "111111111111"}},
      {"LARGE_MAZE_DIVERSE_GR",
       {"111111111111", "1c0001c00001", "101101010101", "10000c0100c1",
        "101111011101", "10c101000001", "110101010111", "1001c0c10c01",
        "111111111111"}},
  };
  return maps;
}

std::string MapNames() {
  std::string names;
  for (const auto& [name, rows] : MazeMaps()) {
    names += (names.empty() ? "" : ", ") + name;
  }
  return names;
}

// The key naming one maze model among the texts compiled in this process.
std::string MazeKey(const std::string& maze_map, double scaling,
                    double height) {
  return "point/maze_" + maze_map + "_" + FloatText(scaling) + "_" +
         FloatText(height);
}

std::shared_ptr<const mjModel> LoadMaze(const std::string& maze_map,
                                        const Maze& maze) {
  return mujoco_common::LoadModelFromText(
      RoboticsModels(), MazeKey(maze_map, maze.scaling, maze.height), maze.xml);
}

}  // namespace

Maze MakeMaze(const std::string& maze_map, double scaling, double height) {
  const auto found = MazeMaps().find(maze_map);
  if (found == MazeMaps().end()) {
    throw std::invalid_argument("option 'maze_map' must be one of " +
                                MapNames() + ", got '" + maze_map + "'");
  }
  Maze maze;
  maze.rows = found->second;
  maze.scaling = scaling;
  maze.height = height;
  const auto length = static_cast<int>(maze.rows.size());
  const auto width = static_cast<int>(maze.rows[0].size());
  const double x_center = width / 2.0 * scaling;
  const double y_center = length / 2.0 * scaling;
  const double half_height = height / 2 * scaling;
  std::string bodies;
  std::vector<std::array<double, 2>> empty;
  std::vector<std::array<double, 2>> combined;
  for (int i = 0; i < length; ++i) {
    for (int j = 0; j < width; ++j) {
      const double x = (j + 0.5) * scaling - x_center;
      const double y = y_center - (i + 0.5) * scaling;
      switch (maze.rows[i][j]) {
        case '1':
          bodies += "<geom name=\"block_" + std::to_string(i) + "_" +
                    std::to_string(j) + "\" pos=\"" + FloatText(x) + " " +
                    FloatText(y) + " " + FloatText(half_height) + "\" size=\"" +
                    FloatText(0.5 * scaling) + " " + FloatText(0.5 * scaling) +
                    " " + FloatText(half_height) +
                    "\" type=\"box\" material=\"\" contype=\"1\" "
                    "conaffinity=\"1\" rgba=\"0.7 0.5 0.3 1.0\"/>\n";
          break;
        case 'r':
          maze.reset_locations.push_back({x, y});
          break;
        case 'g':
          maze.goal_locations.push_back({x, y});
          break;
        case 'c':
          combined.push_back({x, y});
          break;
        default:
          empty.push_back({x, y});
      }
    }
  }
  bodies += "<site name=\"target\" pos=\"0 0 " + FloatText(half_height) +
            "\" size=\"" + FloatText(0.2 * scaling) +
            "\" rgba=\"1 0 0 0.7\" type=\"sphere\"/>\n";
  // As make_maze: without marked cells every free cell may be either; a
  // kind without cells of its own takes the free cells.
  if (maze.goal_locations.empty() && maze.reset_locations.empty() &&
      combined.empty()) {
    combined = empty;
  } else if (maze.reset_locations.empty() && combined.empty()) {
    maze.reset_locations = empty;
  } else if (maze.goal_locations.empty() && combined.empty()) {
    maze.goal_locations = empty;
  }
  maze.goal_locations.insert(maze.goal_locations.end(), combined.begin(),
                             combined.end());
  maze.reset_locations.insert(maze.reset_locations.end(), combined.begin(),
                              combined.end());
  std::string xml = ReadModelText(RoboticsModels(), "point/point.xml");
  const auto end = xml.find("</worldbody>");
  if (end == std::string::npos) {
    throw std::invalid_argument("point/point.xml has no </worldbody>");
  }
  maze.xml = xml.insert(end, bodies);
  return maze;
}

Options PointMazeEnv::DefaultOptions() {
  return Options{
      {"max_episode_steps", int64_t{300}},
      {"frame_skip", int64_t{1}},
      {"frame_stack", int64_t{1}},
      {"maze_map", std::string("U_MAZE")},
      {"reward_type", std::string("sparse")},
      {"continuing_task", true},
      {"reset_target", false},
      {"maze_size_scaling", 1.0},
      {"maze_height", 0.4},
      {"position_noise_range", 0.25},
  };
}

void PointMazeEnv::Declare(const Options& options, EnvSpec* spec,
                           Fields* fields) {
  DenseReward(options);
  CheckFrameStack(options);
  const auto scaling = options.Get<double>("maze_size_scaling");
  if (!(scaling > 0.0) || !std::isfinite(scaling)) {
    throw std::invalid_argument(
        "option 'maze_size_scaling' must be a positive number, got " +
        FloatText(scaling));
  }
  const auto height = options.Get<double>("maze_height");
  if (!(height > 0.0) || !std::isfinite(height)) {
    throw std::invalid_argument(
        "option 'maze_height' must be a positive number, got " +
        FloatText(height));
  }
  const auto noise = options.Get<double>("position_noise_range");
  if (!(noise >= 0.0) || !std::isfinite(noise)) {
    throw std::invalid_argument(
        "option 'position_noise_range' must be a number >= 0, got " +
        FloatText(noise));
  }
  const auto maze_map = options.Get<std::string>("maze_map");
  const Maze maze = MakeMaze(maze_map, scaling, height);
  const auto model = LoadMaze(maze_map, maze);
  DeclareGoalSpaces(4, 2, model->nu, spec, &fields->goal);
  fields->success = spec->state.Add<bool>("info:success", {});
  fields->is_success = spec->state.Add<bool>("info:is_success", {});
  // PointMazeEnv's metadata says 50 frames per second (its inner PointEnv,
  // which draws, says 1 / dt = 100); the env users hold is PointMazeEnv.
  DeclareRendering(options, spec, {"rgb_array"}, 480, 480, 50,
                   /*any_size=*/true, static_cast<int>(model->ncam));
  spec->snapshots = true;
}

PointMazeEnv::PointMazeEnv(const Options& options, const Fields& fields)
    : fields_(fields),
      maze_(MakeMaze(options.Get<std::string>("maze_map"),
                     options.Get<double>("maze_size_scaling"),
                     options.Get<double>("maze_height"))),
      model_(LoadMaze(options.Get<std::string>("maze_map"), maze_),
             {{&mjModel::site_pos, &mjModel::nsite, 3}}),
      data_(mj_makeData(model_.get())),
      frame_skip_(static_cast<int>(mujoco_common::FrameSkip(options))),
      dense_(DenseReward(options)),
      continuing_task_(options.Get<bool>("continuing_task")),
      reset_target_(options.Get<bool>("reset_target")),
      position_noise_range_(options.Get<double>("position_noise_range")) {
  if (data_ == nullptr) {
    throw std::runtime_error("cannot allocate MuJoCo data for PointMaze");
  }
  target_site_ = mujoco_common::ObjectId(model_.get(), mjOBJ_SITE, "target");
}

std::array<double, 2> PointMazeEnv::GenerateTargetGoal() {
  const auto n = static_cast<int64_t>(maze_.goal_locations.size());
  return maze_.goal_locations[np_random_.Integers<int64_t>(0, n)];
}

std::array<double, 2> PointMazeEnv::GenerateResetPos() {
  const auto n = static_cast<int64_t>(maze_.reset_locations.size());
  std::array<double, 2> reset_pos = goal_;
  for (;;) {
    const double diff[2] = {reset_pos[0] - goal_[0], reset_pos[1] - goal_[1]};
    if (mujoco_common::NumpyNorm(diff, 2) > 0.5 * maze_.scaling) {
      return reset_pos;
    }
    reset_pos = maze_.reset_locations[np_random_.Integers<int64_t>(0, n)];
  }
}

void PointMazeEnv::AddPositionNoise(std::array<double, 2>* xy) {
  const double r = position_noise_range_;
  const double noise_x = np_random_.Uniform(-r, r) * maze_.scaling;
  const double noise_y = np_random_.Uniform(-r, r) * maze_.scaling;
  (*xy)[0] += noise_x;
  (*xy)[1] += noise_y;
}

void PointMazeEnv::UpdateTargetSitePos() {
  double* pos = model_->site_pos + 3 * target_site_;
  pos[0] = goal_[0];
  pos[1] = goal_[1];
  pos[2] = maze_.height / 2 * maze_.scaling;
}

double PointMazeEnv::GoalDistance() const {
  const double diff[2] = {observation_[0] - goal_[0],
                          observation_[1] - goal_[1]};
  return mujoco_common::NumpyNorm(diff, 2);
}

void PointMazeEnv::Observe() {
  observation_ = {data_->qpos[0], data_->qpos[1], data_->qvel[0],
                  data_->qvel[1]};
}

void PointMazeEnv::Reset() {
  goal_ = GenerateTargetGoal();
  AddPositionNoise(&goal_);
  std::array<double, 2> reset_pos = GenerateResetPos();
  AddPositionNoise(&reset_pos);
  UpdateTargetSitePos();
  // PointEnv.reset: mj_resetData, then set_state(init_qpos with the reset
  // position, init_qvel) and mj_forward.
  mj_resetData(model_.get(), data_.get());
  std::copy(model_->qpos0, model_->qpos0 + model_->nq, data_->qpos);
  data_->qpos[0] = reset_pos[0];
  data_->qpos[1] = reset_pos[1];
  std::fill(data_->qvel, data_->qvel + model_->nv, 0.0);
  mj_forward(model_.get(), data_.get());
  Observe();
  desired_goal_ = goal_;
  success_ = GoalDistance() <= 0.45;
}

void PointMazeEnv::Step(const ActionView& action) {
  const float* a = action.Get(fields_.goal.action);
  // _clip_velocity: set_state(qpos, clip(qvel, -5, 5)), with its mj_forward.
  for (int i = 0; i < model_->nv; ++i) {
    data_->qvel[i] = std::min(std::max(data_->qvel[i], -5.0), 5.0);
  }
  mj_forward(model_.get(), data_.get());
  for (int i = 0; i < model_->nu; ++i) {
    data_->ctrl[i] = ClipAction(a[i]);
  }
  for (int i = 0; i < frame_skip_; ++i) {
    mj_step(model_.get(), data_.get());
  }
  Observe();
  desired_goal_ = goal_;
  // compute_reward takes norm(axis=-1) (numpy's add.reduce of the
  // squares); the success and termination tests norm() (a dot product).
  const double diff[2] = {observation_[0] - goal_[0],
                          observation_[1] - goal_[1]};
  const double reward_distance = mujoco_common::PlainNorm(diff, 2);
  reward_ = dense_ ? std::exp(-reward_distance)
                   : (reward_distance <= 0.45 ? 1.0 : 0.0);
  const bool reached = GoalDistance() <= 0.45;
  terminated_ = !continuing_task_ && reached;
  success_ = reached;
  // update_goal: a reached goal moves elsewhere (continuing_task with
  // reset_target, and more than one goal cell).
  if (continuing_task_ && reset_target_ && reached &&
      maze_.goal_locations.size() > 1) {
    while (GoalDistance() <= 0.45) {
      goal_ = GenerateTargetGoal();
      AddPositionNoise(&goal_);
    }
    UpdateTargetSitePos();
  }
}

void PointMazeEnv::Write(const Output& out) {
  std::copy(observation_.begin(), observation_.end(),
            out.Get(fields_.goal.observation));
  std::copy(observation_.begin(), observation_.begin() + 2,
            out.Get(fields_.goal.achieved_goal));
  std::copy(desired_goal_.begin(), desired_goal_.end(),
            out.Get(fields_.goal.desired_goal));
  *out.Get(fields_.success) = success_;
  *out.Get(fields_.is_success) = success_;
}

void PointMazeEnv::Render(int width, int height, int camera_id, uint8_t* rgb) {
  if (!has_camera_) {
    // PointMazeEnv's default_camera_config: only the distance.
    render::CameraConfig config = render::NoCameraConfig();
    config.distance = maze_.rows.size() > 8 ? 12.5 : 8.8;
    camera_ = render::InitialCamera(model_.get(), data_.get(), config);
    has_camera_ = true;
  }
  render::RenderFrame(model_.shared(), model_.get(), data_.get(), camera_,
                      camera_id, width, height, render::SceneSettings{}, rgb);
}

void PointMazeEnv::SaveState(StateWriter* writer) const {
  SavePhysics(model_.get(), data_.get(), writer);
  writer->Put(goal_, observation_, desired_goal_, success_);
}

void PointMazeEnv::LoadState(StateReader* reader) {
  LoadPhysics(model_.get(), data_.get(), reader);
  reader->Get(&goal_, &observation_, &desired_goal_, &success_);
  UpdateTargetSitePos();
}

std::vector<double> PointMazeEnv::GetState() const {
  std::vector<double> state(data_->qpos, data_->qpos + model_->nq);
  state.insert(state.end(), data_->qvel, data_->qvel + model_->nv);
  state.insert(state.end(), data_->qacc_warmstart,
               data_->qacc_warmstart + model_->nv);
  state.insert(state.end(), goal_.begin(), goal_.end());
  return state;
}

void PointMazeEnv::SetState(const std::vector<double>& state) {
  const int nq = model_->nq;
  const int nv = model_->nv;
  if (static_cast<int>(state.size()) != nq + 2 * nv + 2) {
    throw std::invalid_argument(
        "the state of a PointMaze env is qpos (" + std::to_string(nq) +
        "), qvel (" + std::to_string(nv) + "), qacc_warmstart (" +
        std::to_string(nv) + ") and the goal (2), got " +
        std::to_string(state.size()) + " numbers");
  }
  std::copy(state.begin(), state.begin() + nq, data_->qpos);
  std::copy(state.begin() + nq, state.begin() + nq + nv, data_->qvel);
  std::copy(state.begin() + nq + nv, state.begin() + nq + 2 * nv,
            data_->qacc_warmstart);
  goal_ = {state[nq + 2 * nv], state[nq + 2 * nv + 1]};
  UpdateTargetSitePos();
  mj_forward(model_.get(), data_.get());
  Observe();
  desired_goal_ = goal_;
  success_ = GoalDistance() <= 0.45;
}

}  // namespace envpool::robotics
