// ViZDoom's game variables by name: the names our info keys and the
// reward_config option use, and the set of variables every env reports.
//
// ViZDoom 1.3.2's own gameVariableToString misses some names (e.g.
// DAMAGECOUNT), so the names are ours, in the order of its GameVariable
// enum.
#ifndef ENVPOOL_VIZDOOM_GAME_VARIABLES_H_
#define ENVPOOL_VIZDOOM_GAME_VARIABLES_H_

#include <string>
#include <vector>

#include "ViZDoom.h"

namespace envpool::vizdoom {

// The game variables every env reports in its info, besides those its cfg
// lists (EnvPool 1.2.5's layout: D1Basic-v1 reports USER2, which its cfg
// does not list).
const std::vector<std::string>& CommonGameVariables();

// The name of a game variable: the enum's name (KILLCOUNT, ...,
// PLAYER1_FRAGCOUNT, ..., USER60).
std::string GameVariableName(::vizdoom::GameVariable variable);

// The game variable of that name; std::invalid_argument when there is none.
::vizdoom::GameVariable GameVariableNamed(const std::string& name);

}  // namespace envpool::vizdoom

#endif  // ENVPOOL_VIZDOOM_GAME_VARIABLES_H_
