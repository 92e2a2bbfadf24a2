#include "envpool/robotics/goal_env.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace envpool::robotics {

const mujoco_common::ModelFolder& RoboticsModels() {
  static const mujoco_common::ModelFolder folder{
      "robotics", /*accepts_paths=*/false,
      [](const std::string& name, const std::string& path) {
        if (path.empty()) {
          return "gymnasium-robotics model '" + name +
                 "' not found: the robotics family's asset folder is "
                 "missing (reinstall envpool, or pip install "
                 "gymnasium-robotics==1.4.2 and point ASSET_DIR at its "
                 "envs/assets folder)";
        }
        return "gymnasium-robotics model '" + name + "' not found at " + path +
               " (the models ship with envpool in robotics/assets; "
               "reinstall envpool, or pip install gymnasium-robotics==1.4.2)";
      }};
  return folder;
}

void DeclareGoalSpaces(int obs_dim, int goal_dim, int action_dim, EnvSpec* spec,
                       GoalFields* fields) {
  fields->observation =
      spec->state.Add<double>("obs:observation", {obs_dim}, {-kInf}, {kInf});
  fields->achieved_goal =
      spec->state.Add<double>("obs:achieved_goal", {goal_dim}, {-kInf}, {kInf});
  fields->desired_goal =
      spec->state.Add<double>("obs:desired_goal", {goal_dim}, {-kInf}, {kInf});
  fields->action =
      spec->action.Add<float>("action", {action_dim}, {-1.0}, {1.0});
}

bool DenseReward(const Options& options) {
  const auto reward_type = options.Get<std::string>("reward_type");
  if (reward_type == "dense") {
    return true;
  }
  if (reward_type == "sparse") {
    return false;
  }
  throw std::invalid_argument(
      "option 'reward_type' must be 'sparse' or 'dense', got '" + reward_type +
      "'");
}

void CheckFrameStack(const Options& options) {
  const auto frame_stack = options.Get<int64_t>("frame_stack");
  if (frame_stack != 1) {
    throw std::invalid_argument(
        "option 'frame_stack' must be 1 (dict observations are not stacked), "
        "got " +
        std::to_string(frame_stack));
  }
}

float ClipAction(float x) {
  if (std::isnan(x)) {
    return x;
  }
  return x < -1.0F ? -1.0F : (x > 1.0F ? 1.0F : x);
}

mujoco_common::ModelPtr CopyModel(const mjModel* model) {
  mujoco_common::ModelPtr copy(mj_copyModel(nullptr, model));
  if (copy == nullptr) {
    throw std::runtime_error("cannot copy the MuJoCo model");
  }
  return copy;
}

void SavePhysics(const mjModel* model, const mjData* data,
                 StateWriter* writer) {
  std::vector<double> state(
      static_cast<std::size_t>(mj_stateSize(model, mjSTATE_INTEGRATION)));
  mj_getState(model, data, state.data(), mjSTATE_INTEGRATION);
  const auto bodies = static_cast<std::size_t>(model->nbody);
  writer->Put(state, std::vector<double>(data->xpos, data->xpos + 3 * bodies),
              std::vector<double>(data->xquat, data->xquat + 4 * bodies));
}

void LoadPhysics(const mjModel* model, mjData* data, StateReader* reader) {
  std::vector<double> state;
  std::vector<double> xpos;
  std::vector<double> xquat;
  reader->Get(&state, &xpos, &xquat);
  const auto bodies = static_cast<std::size_t>(model->nbody);
  if (state.size() !=
          static_cast<std::size_t>(mj_stateSize(model, mjSTATE_INTEGRATION)) ||
      xpos.size() != 3 * bodies || xquat.size() != 4 * bodies) {
    throw SnapshotError("the MuJoCo state of this snapshot has other sizes");
  }
  mj_setState(model, data, state.data(), mjSTATE_INTEGRATION);
  mj_forward(model, data);
  std::copy(xpos.begin(), xpos.end(), data->xpos);
  std::copy(xquat.begin(), xquat.end(), data->xquat);
}

std::string FloatText(double x) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", x);
  return text;
}

}  // namespace envpool::robotics
