// basic_cmu_2019.cmu_humanoid_maze_forage's model: the position-controlled
// CMU humanoid of cmu_walker.h in the maze arena of maze_arena.h
// (CmuHumanoidMazeForageArena: cells of 3 m, labmaze's sky_03 skybox and
// style_01 floors), as Composer writes it for an episode.
#ifndef ENVPOOL_LOCOMOTION_CMU_MAZE_H_
#define ENVPOOL_LOCOMOTION_CMU_MAZE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "envpool/core/random.h"
#include "envpool/locomotion/maze_arena.h"
#include "envpool/mujoco_common/model.h"

namespace envpool::locomotion {

// The episode's MJCF text: the walker read from the wheel's
// humanoid_CMU_V2019.xml around the arena's parts, with the maze's
// headlight and near clip plane (mazes.py's MazeWithTargets).
std::string CmuMazeXml(const MazeArenaXml& arena);

// The episode's model compiled, its textures read from the family's asset
// folder.
mujoco_common::ModelPtr CompileCmuMaze(const MazeArenaXml& arena);

// The state (qpos then qvel) after each of the first `episodes` resets of
// cmu_humanoid_maze_forage after np.random.seed(seed) and
// RandomState(seed): the episode drawn and compiled, Physics.reset
// (mj_resetData, a forward pass without actuation), the walker upright
// (UprightInitializer), NullGoalMaze._respawn from the stale kinematics,
// and after_reset's forward pass. What the env's reset will do; tested
// against dm_control before the env exists.
std::vector<std::vector<double>> CmuMazeResetStates(uint32_t seed,
                                                    int episodes);

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_CMU_MAZE_H_
