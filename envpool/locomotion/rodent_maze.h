// dm_control 1.0.50's basic_rodent_2020.rodent_maze_forage model: the
// position-controlled rat of rodent.h (rodent.xml, its skin, the
// end-effector sensors) attached to the maze arena of maze_arena.h
// (RandomMazeWithTargets, outdoor_natural, labmaze's style_01 walls) with
// the episode's TargetSpheres, as Composer writes and compiles it at every
// reset (the maze, and so the model, changes with each episode).
#ifndef ENVPOOL_LOCOMOTION_RODENT_MAZE_H_
#define ENVPOOL_LOCOMOTION_RODENT_MAZE_H_

#include <string>

#include "envpool/locomotion/maze_arena.h"
#include "envpool/mujoco_common/model.h"

namespace envpool::locomotion {

// The episode's MJCF text: the walker read from the wheel's rodent.xml
// around the arena's parts.
std::string RodentMazeXml(const MazeArenaXml& arena);

// The episode's compiled model (the text and the walker's prefixed skin
// given to MuJoCo in memory, the textures read from the asset folder).
mujoco_common::SharedModel CompileRodentMaze(const MazeArenaXml& arena);

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_RODENT_MAZE_H_
