// What random_goal_maze's maze tasks do with the walker and the targets,
// shared by the rodent's and the CMU humanoid's mazes: NullGoalMaze._respawn
// and TargetSphere._update_activation.
#ifndef ENVPOOL_LOCOMOTION_MAZE_TASK_H_
#define ENVPOOL_LOCOMOTION_MAZE_TASK_H_

#include <mujoco/mujoco.h>

#include <array>
#include <vector>

#include "envpool/core/random.h"

namespace envpool::locomotion {

// NullGoalMaze._respawn after walker.reinitialize_pose left the walker's
// free joint (qpos at `free_qpos`, qvel at `free_qvel`) at its initial pose:
// a spawn cell drawn from `random` (`spawns` not empty); with `rotate`
// (randomize_spawn_rotation) the walker lifted 100 m and ten rays cast from
// the cell (through the data's stale kinematics: nothing runs a forward
// pass in between), a heading drawn around the first farthest ray's, and
// the walker lowered; then moved to the cell (and turned, shift_pose with
// rotate_velocity).
void RespawnWalkerInMaze(const mjModel* model, mjData* data, int free_qpos,
                         int free_qvel,
                         const std::vector<std::array<double, 3>>& spawns,
                         random::RandomState* random, bool rotate = true);

// TargetSphere._update_activation of each target not yet `activated`: any
// contact of its geom in `data` activates it and makes its material
// transparent in `model`.
void ActivateTouchedTargets(mjModel* model, const mjData* data,
                            const std::vector<int>& target_geoms,
                            const std::vector<int>& target_materials,
                            std::vector<bool>* activated);

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_MAZE_TASK_H_
