// basic_cmu_2019.cmu_humanoid_maze_forage's model: the position-controlled
// CMU humanoid of cmu_walker.h in the maze arena of maze_arena.h
// (CmuHumanoidMazeForageArena: cells of 3 m, labmaze's sky_03 skybox and
// style_01 floors), as Composer writes it for an episode.
#ifndef ENVPOOL_LOCOMOTION_CMU_MAZE_H_
#define ENVPOOL_LOCOMOTION_CMU_MAZE_H_

#include <string>

#include "envpool/locomotion/maze_arena.h"

namespace envpool::locomotion {

// The episode's MJCF text: the walker read from the wheel's
// humanoid_CMU_V2019.xml around the arena's parts, with the maze's
// headlight and near clip plane (mazes.py's MazeWithTargets).
std::string CmuMazeXml(const MazeArenaXml& arena);

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_CMU_MAZE_H_
