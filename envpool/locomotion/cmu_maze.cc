#include "envpool/locomotion/cmu_maze.h"

#include <string>

#include "envpool/locomotion/go_to_target.h"

namespace envpool::locomotion {

std::string CmuMazeXml(const MazeArenaXml& arena) {
  CmuArenaXml cmu;
  cmu.model = "random_maze";
  // MazeWithTargets sets the headlight and the near clip plane.
  cmu.headlight =
      "ambient=\"0.29999999999999999 0.29999999999999999 "
      "0.29999999999999999\" diffuse=\"0.59999999999999998 "
      "0.59999999999999998 0.59999999999999998\" specular=\"0 0 0\"";
  cmu.map = "znear=\"0.00050000000000000001\"";
  cmu.defaults_before = arena.defaults_before;
  cmu.defaults_after = arena.defaults_after;
  cmu.assets = arena.assets_before;
  cmu.assets_after = arena.assets_after;
  cmu.before_walker = arena.worldbody_before;
  cmu.after_walker = arena.worldbody_after;
  return CmuHumanoidTaskXml(cmu);
}

}  // namespace envpool::locomotion
