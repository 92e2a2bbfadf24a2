#include "envpool/vizdoom/game_variables.h"

#include <stdexcept>

namespace envpool::vizdoom {
namespace {

// The name of every game variable before PLAYER1_FRAGCOUNT, in ViZDoom
// 1.3.2's enum order.
const std::vector<std::string>& NamesBeforeFragCounts() {
  static const std::vector<std::string> names = {"KILLCOUNT",
                                                 "ITEMCOUNT",
                                                 "SECRETCOUNT",
                                                 "FRAGCOUNT",
                                                 "DEATHCOUNT",
                                                 "HITCOUNT",
                                                 "HITS_TAKEN",
                                                 "DAMAGECOUNT",
                                                 "DAMAGE_TAKEN",
                                                 "HEALTH",
                                                 "ARMOR",
                                                 "DEAD",
                                                 "ON_GROUND",
                                                 "ATTACK_READY",
                                                 "ALTATTACK_READY",
                                                 "SELECTED_WEAPON",
                                                 "SELECTED_WEAPON_AMMO",
                                                 "AMMO0",
                                                 "AMMO1",
                                                 "AMMO2",
                                                 "AMMO3",
                                                 "AMMO4",
                                                 "AMMO5",
                                                 "AMMO6",
                                                 "AMMO7",
                                                 "AMMO8",
                                                 "AMMO9",
                                                 "WEAPON0",
                                                 "WEAPON1",
                                                 "WEAPON2",
                                                 "WEAPON3",
                                                 "WEAPON4",
                                                 "WEAPON5",
                                                 "WEAPON6",
                                                 "WEAPON7",
                                                 "WEAPON8",
                                                 "WEAPON9",
                                                 "POSITION_X",
                                                 "POSITION_Y",
                                                 "POSITION_Z",
                                                 "ANGLE",
                                                 "PITCH",
                                                 "ROLL",
                                                 "VIEW_HEIGHT",
                                                 "VELOCITY_X",
                                                 "VELOCITY_Y",
                                                 "VELOCITY_Z",
                                                 "CAMERA_POSITION_X",
                                                 "CAMERA_POSITION_Y",
                                                 "CAMERA_POSITION_Z",
                                                 "CAMERA_ANGLE",
                                                 "CAMERA_PITCH",
                                                 "CAMERA_ROLL",
                                                 "CAMERA_FOV",
                                                 "PLAYER_NUMBER",
                                                 "PLAYER_COUNT"};
  return names;
}

}  // namespace

const std::vector<std::string>& CommonGameVariables() {
  static const std::vector<std::string> names = {
      "AMMO2",     "AMMO3",           "AMMO4",
      "AMMO5",     "AMMO6",           "AMMO7",
      "ARMOR",     "DAMAGECOUNT",     "DEATHCOUNT",
      "FRAGCOUNT", "HEALTH",          "HITCOUNT",
      "KILLCOUNT", "SELECTED_WEAPON", "SELECTED_WEAPON_AMMO",
      "USER2"};
  return names;
}

std::string GameVariableName(::vizdoom::GameVariable variable) {
  int v = static_cast<int>(variable);
  int user1 = static_cast<int>(::vizdoom::USER1);
  int frags = static_cast<int>(::vizdoom::PLAYER1_FRAGCOUNT);
  if (v >= user1) {
    return "USER" + std::to_string(v - user1 + 1);
  }
  if (v >= frags) {
    return "PLAYER" + std::to_string(v - frags + 1) + "_FRAGCOUNT";
  }
  return NamesBeforeFragCounts().at(v);
}

::vizdoom::GameVariable GameVariableNamed(const std::string& name) {
  for (int v = 0; v <= static_cast<int>(::vizdoom::USER60); ++v) {
    auto variable = static_cast<::vizdoom::GameVariable>(v);
    if (GameVariableName(variable) == name) {
      return variable;
    }
  }
  throw std::invalid_argument("ViZDoom has no game variable named " + name);
}

}  // namespace envpool::vizdoom
