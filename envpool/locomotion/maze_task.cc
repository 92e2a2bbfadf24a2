#include "envpool/locomotion/maze_task.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "envpool/core/numpy_kernels.h"
#include "envpool/mujoco_common/numpy_math.h"

namespace envpool::locomotion {

namespace {

// NullGoalMaze's rays (_NUM_RAYS) and the height it lifts the walker by
// while casting them.
constexpr int kMazeRays = 10;
constexpr double kMazeLift = 100.0;

}  // namespace

void RespawnWalkerInMaze(const mjModel* model, mjData* data, int free_qpos,
                         int free_qvel,
                         const std::vector<std::array<double, 3>>& spawns,
                         random::RandomState* random, bool rotate) {
  double* root = data->qpos + free_qpos;
  const std::array<double, 3> spawn = spawns[static_cast<std::size_t>(
      random->Randint<int64_t>(0, static_cast<int64_t>(spawns.size())))];
  if (!rotate) {
    // shift_pose to the spawn, no quaternion: the position alone.
    const double shift[3] = {spawn[0], spawn[1], 0.0};
    for (int k = 0; k < 3; ++k) {
      root[k] = root[k] + shift[k];
    }
    return;
  }
  // shift_pose by (0, 0, 100): a qpos write through a binding, and mj_ray
  // reads the raw data: the rays see the kinematics of the reset's forward
  // pass, not the lifted walker.
  const double lift[3] = {0.0, 0.0, kMazeLift};
  for (int k = 0; k < 3; ++k) {
    root[k] = root[k] + lift[k];
  }
  int max_ray = 0;
  double max_distance = 0;
  for (int i = 0; i < kMazeRays; ++i) {
    // theta = 2 * np.pi * i / _NUM_RAYS, left to right.
    const double theta = 2 * M_PI * i / kMazeRays;
    const double pos[3] = {spawn[0], spawn[1], 0.1};
    const double vec[3] = {numpy_kernels::Cos(theta), numpy_kernels::Sin(theta),
                           0};
    int geom = -1;
    const double distance =
        mj_ray(model, data, pos, vec, nullptr, 1, -1, &geom, nullptr);
    // np.argmax: the first of the largest.
    if (i == 0 || distance > max_distance) {
      max_distance = distance;
      max_ray = i;
    }
  }
  const double max_theta = 2 * M_PI * max_ray / kMazeRays;
  // remap_with_bias with rotation_bias_factor 0: tanh((1 + 0) * arctanh(u))
  // in numpy's float64 loops (not always u).
  const double u = random->Uniform(-1, 1);
  const double remapped = numpy_kernels::Tanh(numpy_kernels::Arctanh(u));
  const double rotation = max_theta + M_PI * (1 + remapped);
  const double turn[4] = {numpy_kernels::Cos(rotation / 2), 0, 0,
                          numpy_kernels::Sin(rotation / 2)};
  // shift_pose by (0, 0, -100): back down.
  for (int k = 0; k < 3; ++k) {
    root[k] = root[k] + (-lift[k]);
  }
  // shift_pose to the spawn with the turn, rotate_velocity=True: the turn
  // premultiplied (mju_mulQuat), the linear velocity rotated by it, then the
  // position and the quaternion divided by numpy's norm written.
  const double shift[3] = {spawn[0], spawn[1], 0.0};
  double position[3];
  for (int k = 0; k < 3; ++k) {
    position[k] = root[k] + shift[k];
  }
  double quat[4];
  mju_mulQuat(quat, turn, root + 3);
  double velocity[3];
  mju_rotVecQuat(velocity, data->qvel + free_qvel, turn);
  std::copy(velocity, velocity + 3, data->qvel + free_qvel);
  std::copy(position, position + 3, root);
  const double norm = mujoco_common::NumpyNorm(quat, 4);
  for (int k = 0; k < 4; ++k) {
    root[3 + k] = quat[k] / norm;
  }
}

void ActivateTouchedTargets(mjModel* model, const mjData* data,
                            const std::vector<int>& target_geoms,
                            const std::vector<int>& target_materials,
                            std::vector<bool>* activated) {
  // TargetSphere._update_activation of each target (no specific geoms): a
  // contact of its geom with any geom activates it for the episode and
  // makes its material transparent (an rgba write: it does not mark
  // dm_control's Physics dirty, so no forward pass follows).
  for (std::size_t i = 0; i < target_geoms.size(); ++i) {
    if ((*activated)[i]) {
      continue;
    }
    const int geom = target_geoms[i];
    for (int c = 0; c < data->ncon; ++c) {
      if (data->contact[c].geom[0] == geom ||
          data->contact[c].geom[1] == geom) {
        (*activated)[i] = true;
        model->mat_rgba[4 * target_materials[i] + 3] = 0.0f;
      }
    }
  }
}

}  // namespace envpool::locomotion
