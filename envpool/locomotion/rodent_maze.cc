#include "envpool/locomotion/rodent_maze.h"

#include <mujoco/mujoco.h>

#include <stdexcept>
#include <string>

#include "envpool/core/env.h"
#include "envpool/locomotion/mjcf_reader.h"
#include "envpool/locomotion/rodent.h"
#include "envpool/locomotion/soccer_model.h"

namespace envpool::locomotion {
namespace {

// The walker's files and namespace, as rodent.cc names them.
const char* const kWalkerModel = "walkers/rodent.xml";
const char* const kPrefixedSkinFile = "walkers/rodent_walker_skin_walker.skn";
const char* const kPrefix = "walker/";
const char* const kEndEffectors[] = {"lower_arm_R", "lower_arm_L", "foot_R",
                                     "foot_L"};

const MjcfElement& Walker() {
  static const MjcfElement walker =
      ParseMjcf(mujoco_common::ReadModelText(LocomotionAssets(), kWalkerModel),
                kWalkerModel);
  return walker;
}

const MjcfElement& Section(const char* tag) {
  const MjcfElement* section = Walker().Child(tag);
  if (section == nullptr) {
    throw std::runtime_error(std::string(kWalkerModel) + " has no <" + tag +
                             ">: not dm_control's rodent");
  }
  return *section;
}

void AppendChildren(const MjcfElement& element, const PrefixRules& rules,
                    int indent, std::string* xml) {
  for (const MjcfElement& child : element.children) {
    AppendPrefixed(child, rules, indent, xml);
  }
}

}  // namespace

std::string RodentMazeXml(const MazeArenaXml& arena) {
  const std::string p = kPrefix;
  std::string xml =
      "<mujoco model=\"random_maze\">\n"
      "  <compiler boundmass=\"1.0000000000000001e-05\" "
      "boundinertia=\"9.9999999999999994e-12\" coordinate=\"local\" "
      "angle=\"radian\" eulerseq=\"xyz\"/>\n"
      "  <option timestep=\"0.001\" noslip_tolerance=\"0\" "
      "cone=\"elliptic\" noslip_iterations=\"5\"/>\n";
  // The walker's <size> and <statistic>, and its <visual> children, merged
  // into the arena's.
  for (const char* tag : {"size", "statistic"}) {
    if (const MjcfElement* element = Walker().Child(tag)) {
      AppendPrefixed(*element, PrefixRules{""}, 2, &xml);
    }
  }
  xml += "  <visual>\n";
  if (const MjcfElement* visual = Walker().Child("visual")) {
    AppendChildren(*visual, PrefixRules{""}, 4, &xml);
  }
  xml +=
      "    <headlight ambient=\"0.29999999999999999 0.29999999999999999 "
      "0.29999999999999999\" diffuse=\"0.59999999999999998 "
      "0.59999999999999998 0.59999999999999998\" specular=\"0 0 0\"/>\n"
      "    <map znear=\"0.00050000000000000001\"/>\n"
      "    <scale forcewidth=\"0.01\" contactwidth=\"0.059999999999999998\" "
      "contactheight=\"0.01\" jointwidth=\"0.01\" "
      "framelength=\"0.29999999999999999\" framewidth=\"0.01\"/>\n"
      "  </visual>\n"
      "  <default>\n" +
      arena.defaults_before + "    <default class=\"" + p + "\">\n";
  AppendChildren(Section("default"), PrefixRules{p}, 6, &xml);
  xml += "    </default>\n" + arena.defaults_after + "  </default>\n" +
         "  <asset>\n" + arena.assets_before;
  PrefixRules asset_rules{p};
  asset_rules.edit = [](const MjcfElement& element, auto* attributes) {
    for (auto& [key, value] : *attributes) {
      if (element.tag == "skin" && key == "file") {
        value = kPrefixedSkinFile;
      }
    }
  };
  AppendChildren(Section("asset"), asset_rules, 4, &xml);
  xml += arena.assets_after + "  </asset>\n  <worldbody>\n" +
         arena.worldbody_before + "    <body name=\"" + p +
         "\">\n      <freejoint name=\"" + p + "\"/>\n";
  const PrefixRules walker_rules{p, /*add_class=*/true};
  AppendChildren(Section("worldbody"), walker_rules, 6, &xml);
  xml += "    </body>\n" + arena.worldbody_after + "  </worldbody>\n" +
         "  <contact>\n";
  AppendChildren(Section("contact"), PrefixRules{p}, 4, &xml);
  xml += "  </contact>\n  <tendon>\n";
  AppendChildren(Section("tendon"), PrefixRules{p}, 4, &xml);
  xml += "  </tendon>\n  <actuator>\n";
  AppendChildren(Section("actuator"), walker_rules, 4, &xml);
  xml += "  </actuator>\n  <sensor>\n";
  AppendChildren(Section("sensor"), PrefixRules{p}, 4, &xml);
  for (const char* body : kEndEffectors) {
    xml += "    <framepos name=\"" + p + body +
           "_end_effector\" objtype=\"xbody\" objname=\"" + p + body +
           "\" reftype=\"xbody\" refname=\"" + p + "torso\"/>\n";
  }
  xml += "  </sensor>\n</mujoco>\n";
  return xml;
}

mujoco_common::SharedModel CompileRodentMaze(const MazeArenaXml& arena) {
  const std::string folder = envpool::FamilyAssetDir(LocomotionAssets().family);
  const std::string path = folder + "/rodent_maze_forage.xml";
  const std::string xml = RodentMazeXml(arena);
  const std::string skin = RodentSkin();
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  mj_addBufferVFS(&vfs, path.c_str(), xml.data(), static_cast<int>(xml.size()));
  const std::string skin_path = folder + "/" + kPrefixedSkinFile;
  mj_addBufferVFS(&vfs, skin_path.c_str(), skin.data(),
                  static_cast<int>(skin.size()));
  char error[1000] = "";
  mjModel* compiled = mj_loadXML(path.c_str(), &vfs, error, sizeof(error));
  mj_deleteVFS(&vfs);
  if (compiled == nullptr) {
    throw std::invalid_argument(
        std::string("cannot build the rodent maze's MuJoCo model: ") + error);
  }
  return mujoco_common::SharedModel(compiled, mj_deleteModel);
}

}  // namespace envpool::locomotion
