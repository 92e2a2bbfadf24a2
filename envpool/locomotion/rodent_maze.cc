#include "envpool/locomotion/rodent_maze.h"

#include <mujoco/mujoco.h>

#include <string>

#include "envpool/locomotion/mjcf_reader.h"
#include "envpool/locomotion/rodent.h"

namespace envpool::locomotion {

std::string RodentMazeXml(const MazeArenaXml& arena) {
  std::string xml =
      "<mujoco model=\"" + arena.model + "\">\n" + kRodentCompilerAndOption +
      RodentWalkerSizes() + "  <visual>\n" + RodentWalkerVisual() +
      "    <headlight ambient=\"0.29999999999999999 0.29999999999999999 "
      "0.29999999999999999\" diffuse=\"0.59999999999999998 "
      "0.59999999999999998 0.59999999999999998\" specular=\"0 0 0\"/>\n"
      "    <map znear=\"0.00050000000000000001\"/>\n"
      "    <scale forcewidth=\"0.01\" contactwidth=\"0.059999999999999998\" "
      "contactheight=\"0.01\" jointwidth=\"0.01\" "
      "framelength=\"0.29999999999999999\" framewidth=\"0.01\"/>\n"
      "  </visual>\n"
      "  <default>\n" +
      arena.defaults_before + RodentWalkerDefaults() + arena.defaults_after +
      "  </default>\n" + "  <asset>\n" + arena.assets_before +
      RodentWalkerAssets() + arena.assets_after +
      "  </asset>\n  <worldbody>\n" + arena.worldbody_before +
      RodentWalkerBody() + arena.worldbody_after + "  </worldbody>\n" +
      RodentWalkerSections() + "</mujoco>\n";
  return xml;
}

mujoco_common::SharedModel CompileRodentMaze(const MazeArenaXml& arena) {
  return mujoco_common::SharedModel(
      CompileWithRodentSkin(RodentMazeXml(arena), "rodent_maze_forage.xml",
                            "the rodent maze's"),
      mj_deleteModel);
}

}  // namespace envpool::locomotion
