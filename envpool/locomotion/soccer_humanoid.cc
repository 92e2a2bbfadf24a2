#include "envpool/locomotion/soccer_humanoid.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <utility>

#include "envpool/locomotion/go_to_target.h"
#include "envpool/locomotion/mjcf_reader.h"
#include "envpool/mujoco_common/model.h"

namespace envpool::locomotion {
namespace {

// The prefix go_to_target's model gives the walker, replaced by the
// player's.
const char* const kTemplatePrefix = "walker/";
const char* const kSkinFile = "soccer/humanoid/jersey.skn";
const char* const kShirtDir = "soccer/humanoid/";
// CMUMocapInitializer's defaults.
const char* const kMocapKey = "CMU_077_02";
// pitch.py's mini-football constants and soccer.load's _area_to_size.
constexpr double kGoalLength = 3.66;
constexpr double kGoalSide = 1.22;
constexpr double kMinAreaPerHumanoid = 100.0;
constexpr double kMaxAreaPerHumanoid = 350.0;
constexpr double kAspectRatio = 0.75;
// soccer/humanoid.py's _INTERIOR_GEOMS, hidden under the jersey.
const char* const kInteriorGeoms[] = {
    "lhipjoint", "rhipjoint", "lfemur", "lowerback", "upperback",
    "rclavicle", "lclavicle", "thorax", "lhumerus",  "root_geom",
    "lowerneck", "rhumerus",  "rfemur"};
const char* const kEndEffectors[] = {"rradius", "lradius", "rfoot", "lfoot"};

std::string Number(double x) { return MjcfNumber(x); }

// The shirt of player `walker_id` (0-based) of a team: the blue home
// team's B_01.png ..., the red away team's R_01.png ...
std::string ShirtFile(bool home, int walker_id) {
  const std::string number = std::to_string(walker_id + 1);
  return std::string(kShirtDir) + (home ? "B_" : "R_") +
         (number.size() < 2 ? "0" : "") + number + ".png";
}

std::string Join(std::initializer_list<double> values) {
  std::string out;
  for (double v : values) {
    out += (out.empty() ? "" : " ") + Number(v);
  }
  return out;
}

std::vector<double> Numbers(const std::string& text) {
  std::vector<double> out;
  const char* at = text.c_str();
  char* end = nullptr;
  for (double v = std::strtod(at, &end); end != at; v = std::strtod(at, &end)) {
    out.push_back(v);
    at = end;
  }
  return out;
}

void Set(MjcfElement* element, const std::string& key,
         const std::string& value) {
  for (auto& [name, old] : element->attributes) {
    if (name == key) {
      old = value;
      return;
    }
  }
  element->attributes.emplace_back(key, value);
}

MjcfElement* FindNamed(MjcfElement* element, const std::string& tag,
                       const std::string& name) {
  for (MjcfElement& child : element->children) {
    if (child.tag == tag && child.Get("name") == name) {
      return &child;
    }
    if (MjcfElement* found = FindNamed(&child, tag, name)) {
      return found;
    }
  }
  return nullptr;
}

MjcfElement Geom(std::vector<std::pair<std::string, std::string>> attributes) {
  MjcfElement geom;
  geom.tag = "geom";
  geom.attributes = std::move(attributes);
  return geom;
}

// Humanoid._build's hands: each geom of the hand hidden, and a larger
// visual-only copy added to its body (after the body's other children).
void EnlargeHand(MjcfElement* body, bool palm) {
  std::vector<MjcfElement> visuals;
  for (MjcfElement& child : body->children) {
    if (child.tag != "geom") {
      continue;
    }
    const double factor = palm ? 1.3 : 1.5;  // the palm, the fingers
    std::vector<std::pair<std::string, std::string>> attributes = {
        {"name", child.Get("name") + "_visual"}};
    if (!child.Get("type").empty()) {
      attributes.emplace_back("type", child.Get("type"));
    }
    if (!child.Get("quat").empty()) {
      attributes.emplace_back("quat", child.Get("quat"));
    }
    attributes.emplace_back("mass", "0");
    attributes.emplace_back("contype", "0");
    attributes.emplace_back("conaffinity", "0");
    std::string size, pos;
    for (double v : Numbers(child.Get("size"))) {
      size += (size.empty() ? "" : " ") + Number(v * factor);
    }
    for (double v : Numbers(child.Get("pos"))) {
      pos += (pos.empty() ? "" : " ") + Number(v * 1.5);
    }
    attributes.emplace_back("size", size);
    attributes.emplace_back("pos", pos);
    visuals.push_back(Geom(std::move(attributes)));
    Set(&child, "rgba", "0 0 0 0");
  }
  for (MjcfElement& child : body->children) {
    if (child.tag == "body") {
      EnlargeHand(&child, false);
    }
  }
  for (MjcfElement& visual : visuals) {
    body->children.push_back(std::move(visual));
  }
}

// One visual-only geom of _add_visual_only_geoms.
MjcfElement VisualGeom(const std::string& name, double radius, double half,
                       std::initializer_list<double> pos,
                       std::initializer_list<double> quat) {
  return Geom({{"name", name},
               {"size", Join({radius, half})},
               {"pos", Join(pos)},
               {"quat", Join(quat)},
               {"mass", "0"},
               {"contype", "0"},
               {"conaffinity", "0"},
               {"rgba", Join({.7, .5, .3, 1})}});
}

struct Template {
  MjcfElement defaults;  // <default class="walker/">
  std::vector<MjcfElement> assets, contacts, actuators, sensors;
  MjcfElement body;  // the attachment frame
};

MjcfElement* Body(MjcfElement* root, const char* name) {
  MjcfElement* body =
      FindNamed(root, "body", std::string(kTemplatePrefix) + name);
  if (body == nullptr) {
    throw std::runtime_error(std::string("the CMU humanoid has no body ") +
                             name);
  }
  return body;
}

// The soccer Humanoid's elements, named as go_to_target names the walker.
const Template& HumanoidTemplate() {
  static const Template walker = [] {
    const std::string p = kTemplatePrefix;
    const MjcfElement task =
        ParseMjcf(GoToTargetXml(0.0, 0.0), "the CMU humanoid's model");
    auto prefixed = [&p](const MjcfElement& element) {
      return element.Get("name").rfind(p, 0) == 0;
    };
    Template out;
    for (const MjcfElement& section : task.children) {
      for (const MjcfElement& child : section.children) {
        if (section.tag == "default" && child.Get("class") == p) {
          out.defaults = child;
        } else if (section.tag == "asset" && prefixed(child)) {
          out.assets.push_back(child);
        } else if (section.tag == "worldbody" && child.tag == "body" &&
                   child.Get("name") == p) {
          out.body = child;
        } else if (section.tag == "contact") {
          out.contacts.push_back(child);
        } else if (section.tag == "actuator") {
          out.actuators.push_back(child);
        } else if (section.tag == "sensor" && prefixed(child)) {
          // The end effectors' sensors the soccer model writes itself.
          const std::string name = child.Get("name");
          const std::string suffix = "_end_effector";
          if (name.size() < suffix.size() ||
              name.compare(name.size() - suffix.size(), suffix.size(),
                           suffix) != 0) {
            out.sensors.push_back(child);
          }
        }
      }
    }
    MjcfElement* root = &out.body;
    // CMUHumanoid._build(include_face=True): a face geom on the head and a
    // nose in a body of its own.
    MjcfElement* head = Body(root, "head");
    const MjcfElement* head_geom = FindNamed(head, "geom", p + "head");
    if (head_geom == nullptr) {
      throw std::runtime_error("the CMU humanoid has no head geom");
    }
    const double face_forwardness = Numbers(head->Get("pos")).at(1) - .02;
    const double nose_size = Numbers(head_geom->Get("size")).at(0) / 4.75;
    head->children.push_back(
        Geom({{"name", p + "face"},
              {"type", "capsule"},
              {"size", Join({0.065, 0.014})},
              {"pos", Join({0.000341465, 0.048184, 0.01})},
              {"quat", Join({0.717887, 0.696142, -0.00493334, 0})},
              {"mass", "0"},
              {"contype", "0"},
              {"conaffinity", "0"}}));
    MjcfElement face;
    face.tag = "body";
    face.attributes = {{"name", p + "face"},
                       {"pos", Join({0.0, 0.039, face_forwardness})}};
    face.children.push_back(Geom({{"name", p + "nose"},
                                  {"type", "capsule"},
                                  {"size", Join({nose_size, 0.01})},
                                  {"pos", Join({0.0, 0.0, 0.0})},
                                  {"quat", Join({1, 0.7, 0, 0})},
                                  {"mass", "0"},
                                  {"contype", "0"},
                                  {"conaffinity", "0"},
                                  {"group", "1"}}));
    head->children.push_back(std::move(face));
    // Humanoid._build: larger visual hands, no tracking light.
    EnlargeHand(Body(root, "lhand"), true);
    EnlargeHand(Body(root, "rhand"), true);
    std::function<bool(MjcfElement*)> remove_light = [&](MjcfElement* at) {
      auto& children = at->children;
      for (auto it = children.begin(); it != children.end(); ++it) {
        if (it->tag == "light" && it->Get("name") == p + "tracking_light") {
          children.erase(it);
          return true;
        }
        if (remove_light(&*it)) {
          return true;
        }
      }
      return false;
    };
    if (!remove_light(root)) {
      throw std::runtime_error("the CMU humanoid has no tracking light");
    }
    // The JERSEY visual: the interior geoms hidden, visual-only geoms where
    // the jersey's joints would show.
    for (const char* name : kInteriorGeoms) {
      MjcfElement* geom = FindNamed(root, "geom", p + name);
      if (geom == nullptr) {
        throw std::runtime_error(std::string("the CMU humanoid has no geom ") +
                                 name);
      }
      Set(geom, "rgba", "0 0 0 0");
    }
    const double neck_offset = 0.066 - 0.0452401;
    Body(root, "lowerneck")
        ->children.push_back(
            VisualGeom(p + "halfneck", 0.05, 0.02279225 - neck_offset,
                       {-0.00165071, 0.0452401 + neck_offset, 0.00534359},
                       {0.66437, 0.746906, 0.027253, 0}));
    const double humerus_offset = 0.20 - 0.138421;
    Body(root, "lhumerus")
        ->children.push_back(
            VisualGeom(p + "lelbow", 0.035, 0.1245789 - humerus_offset,
                       {0.0, -0.138421 - humerus_offset, 0.0},
                       {0.612372, -0.612372, 0.353553, 0.353553}));
    Body(root, "rhumerus")
        ->children.push_back(
            VisualGeom(p + "relbow", 0.035, 0.1245789 - humerus_offset,
                       {0.0, -0.138421 - humerus_offset, 0.0},
                       {0.612372, -0.612372, -0.353553, -0.353553}));
    const double femur_offset = 0.384 - 0.202473;
    Body(root, "lfemur")
        ->children.push_back(
            VisualGeom(p + "lknee", 0.055, 0.1822257 - femur_offset,
                       {-5.0684e-08, -0.202473 - femur_offset, 0},
                       {0.696364, -0.696364, -0.122788, -0.122788}));
    Body(root, "rfemur")
        ->children.push_back(
            VisualGeom(p + "rknee", 0.055, 0.1822257 - femur_offset,
                       {-5.0684e-08, -0.202473 - femur_offset, 0},
                       {0.696364, -0.696364, 0.122788, 0.122788}));
    return out;
  }();
  return walker;
}

// Writes `element` with the template's prefix replaced by `p` in every
// name and reference.
void AppendRenamed(const MjcfElement& element, const std::string& p,
                   bool disable_contacts, int indent, std::string* xml) {
  PrefixRules rules{""};
  rules.edit = [&p, disable_contacts](const MjcfElement& at, auto* attributes) {
    const std::string from = kTemplatePrefix;
    for (auto& [key, value] : *attributes) {
      if (value.rfind(from, 0) == 0) {
        value = p + value.substr(from.size());
      }
    }
    if (disable_contacts && at.tag == "geom") {
      bool found = false;
      for (auto& [key, value] : *attributes) {
        if (key == "contype") {
          value = "0";
          found = true;
        }
      }
      if (!found) {
        attributes->emplace_back("contype", "0");
      }
    }
  };
  AppendPrefixed(element, rules, indent, xml);
}

}  // namespace

const std::array<double, 3> kMiniFootballGoalSize = {
    kGoalSide / 2, kGoalLength / 2, kGoalSide / 2};

std::array<double, 2> HumanoidPitchSize(int team_size, bool max) {
  const double area =
      (max ? kMaxAreaPerHumanoid : kMinAreaPerHumanoid) * (team_size * 2);
  return {std::sqrt(area / kAspectRatio) / 2.,
          std::sqrt(area * kAspectRatio) / 2.};
}

const WalkerInfo& HumanoidInfo() {
  static const WalkerInfo info = [] {
    WalkerInfo out;
    out.root_body = "root";
    out.end_effectors.assign(std::begin(kEndEffectors),
                             std::end(kEndEffectors));
    for (const MjcfElement& actuator : HumanoidTemplate().actuators) {
      const std::string p = kTemplatePrefix;
      out.actuators.push_back(actuator.Get("name").substr(p.size()));
      out.joints.push_back(actuator.Get("joint").substr(p.size()));
    }
    out.velocimeter = "sensor_root_veloc";
    out.gyro = "sensor_root_gyro";
    out.accelerometer = "sensor_root_accel";
    return out;
  }();
  return info;
}

void AppendHumanoidDefaults(const std::string& p, std::string* xml) {
  *xml += "    <default class=\"" + p + "\">\n";
  for (const MjcfElement& child : HumanoidTemplate().defaults.children) {
    AppendRenamed(child, p, false, 6, xml);
  }
  *xml += "    </default>\n";
}

void AppendHumanoidAssets(const std::string& p, bool home, int walker_id,
                          std::string* xml) {
  for (const MjcfElement& child : HumanoidTemplate().assets) {
    AppendRenamed(child, p, false, 4, xml);
  }
  *xml += "    <texture name=\"" + p + "skin\" class=\"" + p +
          "\" type=\"2d\" file=\"" + ShirtFile(home, walker_id) +
          "\"/>\n"
          "    <material name=\"" +
          p + "skin\" class=\"" + p + "\" texture=\"" + p +
          "skin\"/>\n"
          "    <skin name=\"" +
          p + "skin\" file=\"" + HumanoidSkinFile(p) + "\" material=\"" + p +
          "skin\"/>\n";
}

void AppendHumanoidBody(const std::string& p, bool disable_contacts,
                        std::string* xml) {
  AppendRenamed(HumanoidTemplate().body, p, disable_contacts, 4, xml);
}

void AppendHumanoidContacts(const std::string& p, std::string* xml) {
  for (const MjcfElement& child : HumanoidTemplate().contacts) {
    AppendRenamed(child, p, false, 4, xml);
  }
}

void AppendHumanoidActuators(const std::string& p, std::string* xml) {
  for (const MjcfElement& child : HumanoidTemplate().actuators) {
    AppendRenamed(child, p, false, 4, xml);
  }
}

void AppendHumanoidSensors(const std::string& p, std::string* xml) {
  for (const MjcfElement& child : HumanoidTemplate().sensors) {
    AppendRenamed(child, p, false, 4, xml);
  }
}

std::string HumanoidSkinFile(const std::string& p) {
  return std::string(kShirtDir) + "jersey_" + p.substr(0, p.size() - 1) +
         ".skn";
}

std::string HumanoidSkin(const std::string& p) {
  static const std::string skin =
      mujoco_common::ReadModelText(LocomotionAssets(), kSkinFile);
  return PrefixedSkin(skin, kSkinFile, p);
}

void CheckHumanoidAssets(int team_size) {
  mujoco_common::ResolveModelPath(LocomotionAssets(), kSkinFile);
  for (int id = 0; id < team_size; ++id) {
    for (bool home : {true, false}) {
      mujoco_common::ResolveModelPath(LocomotionAssets(), ShirtFile(home, id));
    }
  }
  // There in this asset folder (the folder is an option of the family),
  // then read and parsed once per process.
  mujoco_common::ResolveModelPath(LocomotionAssets(), kMocapClipFile);
  HumanoidMocapClip();
  HumanoidTemplate();
}

const MocapClip& HumanoidMocapClip() { return FamilyMocapClip(kMocapKey); }

const std::vector<std::string>& HumanoidMocapJoints() {
  static const std::vector<std::string> joints = {
      "lfemurrz",    "lfemurry",    "lfemurrx",    "ltibiarx",    "lfootrz",
      "lfootrx",     "ltoesrx",     "rfemurrz",    "rfemurry",    "rfemurrx",
      "rtibiarx",    "rfootrz",     "rfootrx",     "rtoesrx",     "lowerbackrz",
      "lowerbackry", "lowerbackrx", "upperbackrz", "upperbackry", "upperbackrx",
      "thoraxrz",    "thoraxry",    "thoraxrx",    "lowerneckrz", "lowerneckry",
      "lowerneckrx", "upperneckrz", "upperneckry", "upperneckrx", "headrz",
      "headry",      "headrx",      "lclaviclerz", "lclaviclery", "lhumerusrz",
      "lhumerusry",  "lhumerusrx",  "lradiusrx",   "lwristry",    "lhandrz",
      "lhandrx",     "lfingersrx",  "lthumbrz",    "lthumbrx",    "rclaviclerz",
      "rclaviclery", "rhumerusrz",  "rhumerusry",  "rhumerusrx",  "rradiusrx",
      "rwristry",    "rhandrz",     "rhandrx",     "rfingersrx",  "rthumbrz",
      "rthumbrx"};
  return joints;
}

}  // namespace envpool::locomotion
