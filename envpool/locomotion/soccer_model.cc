#include "envpool/locomotion/soccer_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "envpool/core/env.h"
#include "envpool/core/numpy_kernels.h"
#include "envpool/locomotion/mjcf_reader.h"
#include "envpool/locomotion/soccer_humanoid.h"

namespace envpool::locomotion {

const mujoco_common::ModelFolder& LocomotionAssets() {
  static const mujoco_common::ModelFolder folder{
      "locomotion", /*accepts_paths=*/false,
      [](const std::string& name, const std::string& path) {
        return "locomotion asset '" + name + "' not found" +
               (path.empty() ? std::string() : " at " + path) +
               ": envpool's wheel ships dm_control's locomotion assets in "
               "envpool/locomotion/assets; reinstall envpool (pip install "
               "--force-reinstall envpool)";
      }};
  return folder;
}

namespace {

// dm_control/locomotion/soccer/pitch.py's constants.
constexpr double kSideWidth = 32.0 / 6.0;
constexpr double kGroundGridRatio = 1.0 / 100;
constexpr double kGoalLengthRatio = 0.33;
constexpr double kGoalpostRelativeSize = 0.07;
constexpr double kSupportPostRatio = 0.75;
constexpr double kTopCameraDistance = 95.0;
constexpr double kTopCameraPadding = 1.1;
constexpr int kNumHoarding = 30;
constexpr int kFieldBoxContactBit = 1 << 7;

// team.py's colours.
constexpr std::array<double, 4> kBlue{.1, .1, .8, 1.};
constexpr std::array<double, 4> kRed{.8, .1, .1, 1.};

// Goalposts in the unit box, facing +x (pitch.py's _GOALPOSTS, in order).
struct Goalpost {
  const char* name;
  std::array<double, 6> fromto;
};
constexpr std::array<Goalpost, 10> kGoalposts{{
    {"right_post", {1, -1, -1, 1, -1, 1}},
    {"left_post", {1, 1, -1, 1, 1, 1}},
    {"top_post", {1, -1, 1, 1, 1, 1}},
    {"right_base", {1, -1, -1, -1, -1, -1}},
    {"left_base", {1, 1, -1, -1, 1, -1}},
    {"back_base", {-1, -1, -1, -1, 1, -1}},
    {"right_support", {-1, -1, -1, .2, -1, 1}},
    {"right_top_support", {.2, -1, 1, 1, -1, 1}},
    {"left_support", {-1, 1, -1, .2, 1, 1}},
    {"left_top_support", {.2, 1, 1, 1, 1, 1}},
}};

// The asset files, relative to the family's asset folder.
const char* const kPitchTexture = "soccer/pitch/pitch_nologo_l.png";
const char* const kBallTextureDir = "soccer/soccer_ball/";
const char* const kDigitsDir = "soccer/boxhead/digits/";

std::string Join(std::initializer_list<double> values) {
  std::string out;
  for (double v : values) {
    if (!out.empty()) {
      out += ' ';
    }
    out += MjcfNumber(v);
  }
  return out;
}

template <std::size_t N>
std::string Join(const std::array<double, N>& values) {
  std::string out;
  for (double v : values) {
    if (!out.empty()) {
      out += ' ';
    }
    out += MjcfNumber(v);
  }
  return out;
}

std::string Rgb(const std::array<double, 4>& rgba) {
  return Join({rgba[0], rgba[1], rgba[2]});
}

// Python's float % 1.0.
double PyMod1(double x) {
  double r = std::fmod(x, 1.0);
  if (r != 0.0) {
    if (r < 0.0) {
      r += 1.0;
    }
  } else {
    r = std::copysign(0.0, 1.0);
  }
  return r;
}

// colorsys.hsv_to_rgb.
std::array<double, 3> HsvToRgb(double h, double s, double v) {
  if (s == 0.0) {
    return {v, v, v};
  }
  int i = static_cast<int>(h * 6.0);
  const double f = (h * 6.0) - i;
  const double p = v * (1.0 - s);
  const double q = v * (1.0 - s * f);
  const double t = v * (1.0 - s * (1.0 - f));
  i = ((i % 6) + 6) % 6;
  switch (i) {
    case 0:
      return {v, t, p};
    case 1:
      return {q, v, p};
    case 2:
      return {p, v, t};
    case 3:
      return {p, q, v};
    case 4:
      return {t, p, v};
    default:
      return {v, p, q};
  }
}

double PostRadius(const std::string& name, double goalpost_radius) {
  double radius = goalpost_radius;
  if (name.find("top") != std::string::npos) {
    radius *= 1.01;
  }
  if (name.find("support") != std::string::npos) {
    radius *= kSupportPostRatio;
  }
  return radius;
}

// A goal's detection sites and posts (pitch.py's Goal, without its net).
void AppendGoal(const std::string& name, int direction,
                const std::array<double, 3>& pos,
                const std::array<double, 3>& size,
                const std::array<double, 3>& lower,
                const std::array<double, 3>& upper,
                const std::array<double, 4>& rgba, std::string* xml) {
  const std::string cls = name + "/";
  std::array<double, 3> mid;
  for (int i = 0; i < 3; ++i) {
    mid[i] = (lower[i] + upper[i]) / 2.;
  }
  const std::string site_rgba = Join(rgba);
  *xml += "    <body name=\"" + cls + "\">\n";
  *xml += "      <site name=\"" + cls + "detection_zone\" class=\"" + cls +
          "\" type=\"box\" group=\"4\" pos=\"" + Join(pos) + "\" size=\"" +
          Join(size) + "\" rgba=\"" + site_rgba + "\"/>\n";
  const std::pair<const char*, const std::array<double, 3>*> sites[] = {
      {"lower", &lower}, {"mid", &mid}, {"upper", &upper}};
  for (const auto& [site, at] : sites) {
    *xml += "      <site name=\"" + cls + site + "\" class=\"" + cls +
            "\" group=\"4\" pos=\"" + Join(*at) +
            "\" size=\"0.050000000000000003\" rgba=\"" + site_rgba + "\"/>\n";
  }
  const double goalpost_radius =
      kGoalpostRelativeSize * (size[0] + size[1] + size[2]) / 3.;
  const std::array<double, 3> dir{static_cast<double>(direction),
                                  static_cast<double>(direction), 1.0};
  const std::string post_rgba = Join({rgba[0], rgba[1], rgba[2], 1.0});
  for (const Goalpost& post : kGoalposts) {
    std::array<double, 6> fromto;
    for (int i = 0; i < 6; ++i) {
      fromto[i] = (post.fromto[i] * dir[i % 3]) * size[i % 3] + pos[i % 3];
    }
    *xml += "      <geom name=\"" + cls + post.name + "\" class=\"" + cls +
            "\" type=\"capsule\" size=\"" +
            MjcfNumber(PostRadius(post.name, goalpost_radius)) +
            "\" fromto=\"" + Join(fromto) + "\" rgba=\"" + post_rgba + "\"/>\n";
  }
  *xml += "    </body>\n";
}

// One BoxHead walker's body (boxhead.xml as soccer attaches it: root slide
// joints, no camera joints, the team colour on the marker geoms).
void AppendWalkerBody(const std::string& name,
                      const std::array<double, 4>& marker,
                      bool disable_contacts, std::string* xml) {
  const std::string p = name + "/";
  const std::string rgba = Join(marker);
  const std::string off = disable_contacts ? " contype=\"0\"" : "";
  *xml += "    <body name=\"" + p + "\">\n";
  for (const char* axis : {"x", "y", "z"}) {
    const std::string a = axis;
    const char* vec = a == "x" ? "1 0 0" : (a == "y" ? "0 1 0" : "0 0 1");
    *xml += "      <joint name=\"" + p + "root_" + a + "/\" class=\"" + p +
            "root\" type=\"slide\" axis=\"" + vec + "\"/>\n";
  }
  *xml += "      <body name=\"" + p +
          "head_body\" pos=\"0 0 1\" quat=\"1 0 0 -1\">\n"
          "        <camera name=\"" +
          p + "float_far\" class=\"" + p +
          "\" fovy=\"90\" pos=\"-4 0 2\" xyaxes=\"0 -1 0 0.5 0 1\"/>\n"
          "        <body name=\"" +
          p +
          "egocentric_camera\" pos=\"0 0 0.40000000000000002\" "
          "xyaxes=\"0 -1 0 0 0 1\">\n"
          "          <inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 "
          "1\"/>\n";
  for (const char* side : {"l", "r"}) {
    const std::string s = side;
    *xml += "          <geom name=\"" + p + "eye_" + s + "\" class=\"" + p +
            "\" type=\"cylinder\" contype=\"0\" conaffinity=\"0\" "
            "size=\"0.059999999999999998 0.20000000000000001\" mass=\"0\" "
            "pos=\"" +
            (s == "l" ? "-" : "") +
            "0.14000000000000001 -0.40000000000000002 "
            "-0.17100000000000001\" rgba=\"" +
            rgba + "\"/>\n";
  }
  *xml += "          <camera name=\"" + p + "egocentric\" class=\"" + p +
          "\" fovy=\"80\"/>\n"
          "        </body>\n"
          "        <camera name=\"" +
          p + "tracking\" class=\"" + p +
          "\" pos=\"1.5 1.5 0.69999999999999996\" xyaxes=\"-1 1 0 -1 -1 4\" "
          "mode=\"trackcom\"/>\n"
          "        <joint name=\"" +
          p + "steer\" class=\"" + p +
          "root\" type=\"hinge\" axis=\"0 0 -1\" damping=\"4\"/>\n"
          "        <geom name=\"" +
          p + "top_down_cam_box\" class=\"" + p +
          "\" type=\"box\" contype=\"0\" conaffinity=\"0\" group=\"5\" "
          "size=\"1 1 0.10000000000000001\" material=\"" +
          p + "head_material\" mass=\"0\" pos=\"0 0 2\"/>\n" +
          "        <geom name=\"" + p + "head\" class=\"" + p +
          "\" type=\"box\" contype=\"" + (disable_contacts ? "0" : "1") +
          "\" conaffinity=\"1\" size=\"0.20000000000000001 "
          "0.20000000000000001 0.10000000000000001\" material=\"" +
          p + "head_material\" mass=\"20\" pos=\"0 0 0\"/>\n" +
          "        <site name=\"" + p + "torso_site\" class=\"" + p +
          "\" group=\"4\" pos=\"0 0 0\" size=\"0.050000000000000003\" "
          "rgba=\"1 0 0 1\"/>\n"
          "        <body name=\"" +
          p +
          "torso\" pos=\"0 0 0.050000000000000003\">\n"
          "          <joint name=\"" +
          p + "kick\" class=\"" + p +
          "\" type=\"slide\" axis=\"0 0 -1\" limited=\"true\" "
          "solimplimit=\"0.94999999999999996 0.98999999999999999 0.001\" "
          "stiffness=\"0\" range=\"0 0.40000000000000002\" "
          "springref=\"-0.40000000000000002\" damping=\"100\"/>\n";
  for (const char* side : {"l", "r"}) {
    const std::string s = side;
    const std::string sign = s == "l" ? "" : "-";
    *xml += "          <geom name=\"" + p + "arm_" + s + "\" class=\"" + p +
            "\" type=\"capsule\"" + off +
            " size=\"0.10000000000000001\" density=\"10\" fromto=\"0 " + sign +
            "0.34999999999999998 -0.69999999999999996 0.029999999999999999 " +
            sign + "0.80000000000000004 -0.69999999999999996\" rgba=\"" + rgba +
            "\"/>\n";
  }
  *xml += "          <body name=\"" + p +
          "ball\" pos=\"0 0 -0.69999999999999996\">\n"
          "            <joint name=\"" +
          p + "roll\" class=\"" + p +
          "\" type=\"hinge\" axis=\"0 1 0\" damping=\"2\"/>\n"
          "            <geom name=\"" +
          p + "shell\" class=\"" + p + "\" type=\"sphere\"" + off +
          " condim=\"4\" size=\"0.34999999999999998\" material=\"" + p +
          "ball_body\" friction=\"0.5 0.02 0.02\" density=\"100\"/>\n"
          "          </body>\n"
          "        </body>\n"
          "      </body>\n"
          "    </body>\n";
}

std::string BodyPairSensor(const std::string& type, const std::string& name,
                           const std::string& obj, const std::string& ref) {
  return "    <" + type + " name=\"" + name + "\" objtype=\"body\" objname=\"" +
         obj + "\" reftype=\"body\" refname=\"" + ref + "\"/>\n";
}

bool IsHome(const std::string& player) { return player.rfind("home", 0) == 0; }

std::string DigitFile(int walker_id) {
  char name[8];
  std::snprintf(name, sizeof(name), "%02d.png", walker_id);
  return std::string(kDigitsDir) + name;
}

const mujoco_common::ModelFolder& Assets() { return LocomotionAssets(); }

// The digit image as RGBA bytes (64x64x4), read by MuJoCo once per process.
const std::vector<uint8_t>& DigitRgba(int walker_id) {
  static std::mutex mutex;
  static std::map<int, std::vector<uint8_t>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(walker_id);
  if (it != cache.end()) {
    return it->second;
  }
  const std::string path =
      mujoco_common::ResolveModelPath(Assets(), DigitFile(walker_id));
  const std::string xml =
      "<mujoco><asset><texture name=\"digit\" type=\"2d\" file=\"" + path +
      "\" nchannel=\"4\"/></asset></mujoco>";
  const mujoco_common::ModelPtr model =
      mujoco_common::CompileText("digit.xml", xml, "the texture " + path);
  std::vector<uint8_t> rgba(model->tex_data, model->tex_data + model->ntexdata);
  return cache.emplace(walker_id, std::move(rgba)).first->second;
}

// --- The Ant walker, read from the wheel's ant.xml -------------------------

const char* const kAntModel = "ant/ant.xml";

struct AntDescription {
  MjcfElement root;
  WalkerInfo info;
};

void CollectBodies(const MjcfElement& element, std::vector<std::string>* out) {
  for (const MjcfElement& child : element.children) {
    if (child.tag == "body") {
      out->push_back(child.Get("name"));
      CollectBodies(child, out);
    }
  }
}

const AntDescription& Ant() {
  static const AntDescription ant = [] {
    AntDescription out;
    out.root =
        ParseMjcf(mujoco_common::ReadModelText(Assets(), kAntModel), kAntModel);
    const MjcfElement* worldbody = out.root.Child("worldbody");
    const MjcfElement* actuator = out.root.Child("actuator");
    if (worldbody == nullptr || actuator == nullptr ||
        out.root.Child("sensor") == nullptr ||
        out.root.Child("default") == nullptr) {
      throw std::runtime_error(std::string(kAntModel) +
                               " is not dm_control's Ant model");
    }
    WalkerInfo& info = out.info;
    info.root_body = "torso";
    info.end_effectors = {"front_left_foot", "front_right_foot",
                          "back_right_foot", "back_left_foot"};
    CollectBodies(*worldbody, &info.bodies);
    for (const MjcfElement& motor : actuator->children) {
      info.actuators.push_back(motor.Get("name"));
      info.joints.push_back(motor.Get("joint"));
    }
    info.velocimeter = "torso_vel";
    info.gyro = "torso_gyro";
    info.accelerometer = "torso_accel";
    info.marker_geoms = {"front_left_leg_geom", "front_right_leg_geom"};
    return out;
  }();
  return ant;
}

// Ant's geoms: contacts off (contype 0) with disable_walker_contacts, the
// marker geoms in the team colour.
PrefixRules AntBodyRules(const std::string& p,
                         const std::array<double, 4>& marker,
                         bool disable_contacts) {
  PrefixRules rules{p};
  rules.add_class = true;
  rules.edit = [marker, disable_contacts](
                   const MjcfElement& element,
                   std::vector<std::pair<std::string, std::string>>* attrs) {
    if (element.tag != "geom") {
      return;
    }
    if (disable_contacts) {
      attrs->erase(std::remove_if(attrs->begin(), attrs->end(),
                                  [](const auto& attribute) {
                                    return attribute.first == "contype";
                                  }),
                   attrs->end());
      attrs->emplace_back("contype", "0");
    }
    const auto& markers = Ant().info.marker_geoms;
    if (std::find(markers.begin(), markers.end(), element.Get("name")) !=
        markers.end()) {
      attrs->emplace_back("rgba", Join(marker));
    }
  };
  return rules;
}

// The walker's defaults as one class named after it ("home0/"), its nested
// classes under it.
void AppendAntDefaults(const std::string& p, std::string* xml) {
  const MjcfElement* defaults = Ant().root.Child("default");
  PrefixRules rules{p};
  *xml += "    <default class=\"" + p + "\">\n";
  for (const MjcfElement& child : defaults->children) {
    AppendPrefixed(child, rules, 6, xml);
  }
  *xml += "    </default>\n";
}

void AppendAntAssets(const std::string& p, std::string* xml) {
  const MjcfElement* assets = Ant().root.Child("asset");
  if (assets == nullptr) {
    return;
  }
  PrefixRules rules{p};
  rules.add_class = true;
  for (const MjcfElement& child : assets->children) {
    AppendPrefixed(child, rules, 4, xml);
  }
}

// The attachment frame: a free joint, then the walker's world body.
void AppendAntBody(const std::string& p, const std::array<double, 4>& marker,
                   bool disable_contacts, std::string* xml) {
  const PrefixRules rules = AntBodyRules(p, marker, disable_contacts);
  *xml +=
      "    <body name=\"" + p + "\">\n      <freejoint name=\"" + p + "\"/>\n";
  for (const MjcfElement& child : Ant().root.Child("worldbody")->children) {
    AppendPrefixed(child, rules, 6, xml);
  }
  *xml += "    </body>\n";
}

void AppendAntContacts(const std::string& p, std::string* xml) {
  const MjcfElement* contact = Ant().root.Child("contact");
  if (contact == nullptr) {
    return;
  }
  int counter = 0;
  for (const MjcfElement& child : contact->children) {
    MjcfElement named = child;
    if (named.Get("name").empty()) {
      // Composer names an unnamed element "/unnamed_<tag>_<k>".
      named.attributes.insert(
          named.attributes.begin(),
          {"name", "/unnamed_contact_" + std::to_string(counter++)});
    }
    AppendPrefixed(named, PrefixRules{p}, 4, xml);
  }
}

void AppendAntActuators(const std::string& p, std::string* xml) {
  PrefixRules rules{p};
  rules.add_class = true;
  for (const MjcfElement& child : Ant().root.Child("actuator")->children) {
    AppendPrefixed(child, rules, 4, xml);
  }
}

// ant.xml's sensors, then those its observables add (appendages_pos,
// bodies_pos, bodies_quats: in the torso's frame).
void AppendAntSensors(const std::string& p, std::string* xml) {
  for (const MjcfElement& child : Ant().root.Child("sensor")->children) {
    AppendPrefixed(child, PrefixRules{p}, 4, xml);
  }
  const WalkerInfo& info = Ant().info;
  const std::string root = p + info.root_body;
  auto sensor = [&](const char* type, const std::string& body,
                    const char* suffix) {
    *xml += std::string("    <") + type + " name=\"" + p + body + suffix +
            "\" objtype=\"xbody\" objname=\"" + p + body +
            "\" reftype=\"xbody\" refname=\"" + root + "\"/>\n";
  };
  for (const std::string& foot : info.end_effectors) {
    sensor("framepos", foot, "_appendage");
  }
  for (const std::string& body : info.bodies) {
    sensor("framepos", body, "_ego_body_pos");
  }
  for (const std::string& body : info.bodies) {
    sensor("framequat", body, "_ego_body_quat");
  }
}

const WalkerInfo& BoxHeadInfo() {
  static const WalkerInfo info = [] {
    WalkerInfo out;
    out.root_body = "head_body";
    out.end_effectors = {"head_body"};
    out.joints = {"kick"};
    out.actuators = {"roll", "steer", "kick"};
    out.velocimeter = "sensor_torso_vel";
    out.gyro = "sensor_torso_gyro";
    out.accelerometer = "sensor_torso_accel";
    return out;
  }();
  return info;
}

}  // namespace

const WalkerInfo& GetWalkerInfo(WalkerType walker) {
  if (walker == WalkerType::kHumanoid) {
    return HumanoidInfo();
  }
  return walker == WalkerType::kAnt ? Ant().info : BoxHeadInfo();
}

std::string MjcfNumber(double x) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", x);
  return text;
}

std::vector<std::string> PlayerNames(int team_size) {
  std::vector<std::string> names;
  for (int i = 0; i < team_size; ++i) {
    names.push_back("home" + std::to_string(i));
  }
  for (int i = 0; i < team_size; ++i) {
    names.push_back("away" + std::to_string(i));
  }
  return names;
}

PitchLayout MakePitchLayout(double length, double width) {
  return MakePitchLayout(
      length, width,
      {kSideWidth / 2, width * kGoalLengthRatio, kSideWidth / 2});
}

PitchLayout MakePitchLayout(double length, double width,
                            const std::array<double, 3>& goal_size) {
  PitchLayout layout;
  layout.size = {length, width};
  layout.goal_size = goal_size;
  const auto& g = layout.goal_size;
  const std::array<double, 3> home_pos{-length + g[0] + 0.0, 0.0, g[2]};
  const std::array<double, 3> away_pos{length - g[0] - 0.0, 0.0, g[2]};
  for (int i = 0; i < 3; ++i) {
    layout.home_lower[i] = home_pos[i] - g[i];
    layout.home_upper[i] = home_pos[i] + g[i];
    layout.away_lower[i] = away_pos[i] - g[i];
    layout.away_upper[i] = away_pos[i] + g[i];
  }
  const std::array<double, 2> field{length - 2 * g[0], width - 2 * g[0]};
  for (int i = 0; i < 2; ++i) {
    layout.field_lower[i] = 0.0 - field[i];
    layout.field_upper[i] = 0.0 + field[i];
  }
  return layout;
}

std::string SoccerXml(const SoccerConfig& config, const PitchLayout& layout) {
  const std::vector<std::string> players = PlayerNames(config.team_size);
  const auto n = static_cast<int>(players.size());
  const double len = layout.size[0];
  const double wid = layout.size[1];
  const auto& g = layout.goal_size;
  const double max_size = std::max(len, wid);
  const std::array<double, 2> field{len - 2 * g[0], wid - 2 * g[0]};
  std::string xml;
  xml.reserve(96 * 1024);
  xml +=
      "<mujoco model=\"randomized_pitch\">\n"
      "  <compiler boundmass=\"1.0000000000000001e-05\" "
      "boundinertia=\"9.9999999999999994e-12\" coordinate=\"local\" "
      "angle=\"radian\" eulerseq=\"xyz\"/>\n"
      "  <option timestep=\"0.0050000000000000001\" noslip_tolerance=\"0\" "
      "cone=\"elliptic\" noslip_iterations=\"5\"/>\n";
  xml += "  <size njmax=\"" + std::to_string(400 * n) + "\" nconmax=\"" +
         std::to_string(200 * n) + "\"/>\n";
  // The statistic and the clipping planes come from the pitch's build size
  // (the largest one, 48 x 36; the humanoids' from the area per player),
  // not the episode's.
  const bool humanoid = config.walker == WalkerType::kHumanoid;
  const auto humanoid_max = HumanoidPitchSize(config.team_size, true);
  const double extent =
      0.1 * (humanoid ? std::max(humanoid_max[0], humanoid_max[1]) : 48.0);
  xml += "  <statistic extent=\"" + MjcfNumber(extent) + "\" center=\"" +
         Join({0.0, 0.0, extent}) +
         "\"/>\n"
         "  <visual>\n"
         "    <quality shadowsize=\"8192\"/>\n"
         "    <headlight ambient=\"0.29999999999999999 0.29999999999999999 "
         "0.29999999999999999\" diffuse=\"0.59999999999999998 "
         "0.59999999999999998 0.59999999999999998\" specular=\"0 0 0\"/>\n"
         "    <map znear=\"" +
         MjcfNumber(0.1 / extent) +
         "\" zfar=\"50\"/>\n"
         "    <scale forcewidth=\"0.01\" contactwidth=\"0.059999999999999998\" "
         "contactheight=\"0.01\" jointwidth=\"0.01\" "
         "framelength=\"0.29999999999999999\" framewidth=\"0.01\"/>\n"
         "  </visual>\n"
         "  <default>\n"
         "    <default class=\"/\"/>\n"
         "    <default class=\"home_goal/\"/>\n"
         "    <default class=\"away_goal/\"/>\n"
         "    <default class=\"field/\"/>\n"
         "    <default class=\"soccer_ball/\"/>\n";
  const bool ant = config.walker == WalkerType::kAnt;
  for (const std::string& player : players) {
    const std::string p = player + "/";
    if (ant) {
      AppendAntDefaults(p, &xml);
      continue;
    }
    if (humanoid) {
      AppendHumanoidDefaults(p, &xml);
      continue;
    }
    xml += "    <default class=\"" + p +
           "\">\n"
           "      <mesh scale=\"0.01 0.01 0.01\"/>\n"
           "      <geom contype=\"1\" conaffinity=\"1\" condim=\"4\" "
           "friction=\"0.5 0.02 0.02\"/>\n"
           "      <default class=\"" +
           p +
           "root\">\n"
           "        <joint pos=\"0 0 0\" limited=\"false\" stiffness=\"0\" "
           "armature=\"0\" damping=\"0\"/>\n"
           "      </default>\n"
           "    </default>\n";
  }
  xml += "  </default>\n  <asset>\n";
  xml +=
      "    <texture name=\"skybox\" class=\"/\" type=\"skybox\" "
      "builtin=\"gradient\" rgb1=\"0.69999999999999996 0.90000000000000002 "
      "0.90000000000000002\" rgb2=\"0.029999999999999999 "
      "0.089999999999999997 0.27000000000000002\" width=\"400\" "
      "height=\"400\"/>\n";
  xml += "    <texture name=\"fieldplane\" class=\"/\" type=\"2d\" file=\"" +
         std::string(kPitchTexture) +
         "\"/>\n"
         "    <material name=\"fieldplane\" class=\"/\" "
         "texture=\"fieldplane\"/>\n";
  const std::string b = kBallTextureDir;
  xml +=
      "    <texture name=\"soccer_ball/soccer_ball\" class=\"soccer_ball/\" "
      "type=\"cube\" fileright=\"" +
      b + "right.png\" fileleft=\"" + b + "left.png\" fileup=\"" + b +
      "up.png\" filedown=\"" + b + "down.png\" filefront=\"" + b +
      "front.png\" fileback=\"" + b +
      "back.png\"/>\n"
      "    <material name=\"soccer_ball/soccer_ball\" "
      "class=\"soccer_ball/\" texture=\"soccer_ball/soccer_ball\"/>\n";
  for (int i = 0; i < n; ++i) {
    const std::string p = players[i] + "/";
    if (ant) {
      AppendAntAssets(p, &xml);
      continue;
    }
    const int walker_id = i % config.team_size;
    if (humanoid) {
      AppendHumanoidAssets(p, IsHome(players[i]), walker_id, &xml);
      continue;
    }
    const auto& marker = IsHome(players[i]) ? kBlue : kRed;
    xml += "    <texture name=\"" + p + "head_texture\" class=\"" + p +
           "\" type=\"2d\" file=\"" + DigitFile(walker_id) +
           "\"/>\n"
           "    <material name=\"" +
           p + "head_material\" class=\"" + p + "\" texture=\"" + p +
           "head_texture\"/>\n"
           "    <texture name=\"" +
           p + "ball_body\" class=\"" + p +
           "\" type=\"cube\" builtin=\"checker\" rgb1=\"" + Rgb(marker) +
           "\" rgb2=\"0.80000000000000004 0.80000000000000004 "
           "0.80000000000000004\" width=\"100\" height=\"100\"/>\n"
           "    <material name=\"" +
           p + "ball_body\" class=\"" + p + "\" texture=\"" + p +
           "ball_body\"/>\n";
  }
  xml += "  </asset>\n  <worldbody>\n";
  // Top-down camera, its field of view from the episode's size.
  const double fovy =
      (360 / M_PI) *
      numpy_kernels::Arctan2(kTopCameraPadding * max_size, kTopCameraDistance);
  xml += "    <camera name=\"top_down\" class=\"/\" fovy=\"" +
         MjcfNumber(fovy) + "\" pos=\"0 0 95\" zaxis=\"0 0 1\"/>\n";
  // Corner lights over the field's corners.
  {
    const double mean_size = 0.5 * (field[0] + field[1]);
    const double height = mean_size * 2 / 3;
    int counter = 0;
    for (double x : {-field[0], field[0]}) {
      for (double y : {-field[1], field[1]}) {
        xml += "    <light name=\"//unnamed_light_" + std::to_string(counter) +
               "\" class=\"/\" pos=\"" + Join({x, y, height}) + "\" dir=\"" +
               Join({-x, -y, -(height * 2)}) + "\" cutoff=\"60\"/>\n";
        ++counter;
      }
    }
  }
  xml += "    <geom name=\"ground\" class=\"/\" type=\"plane\" size=\"" +
         Join({field[0], field[1], max_size * kGroundGridRatio}) +
         "\" material=\"fieldplane\"/>\n";
  // Walls (the pitch.py's _wall_pos_xyaxes, in order).
  {
    const std::pair<std::array<double, 3>, const char*> walls[] = {
        {{0., -wid, 0.}, "-1 0 0 0 0 1"},
        {{0., wid, 0.}, "1 0 0 0 0 1"},
        {{-len, 0., 0.}, "0 1 0 0 0 1"},
        {{len, 0., 0.}, "0 -1 0 0 0 1"},
    };
    int counter = 1;
    for (const auto& [pos, xyaxes] : walls) {
      xml += "    <geom name=\"//unnamed_geom_" + std::to_string(counter++) +
             "\" class=\"/\" type=\"plane\" size=\"9.9999999999999995e-08 "
             "9.9999999999999995e-08 9.9999999999999995e-08\" pos=\"" +
             Join(pos) + "\" xyaxes=\"" + xyaxes +
             "\" rgba=\"0.10000000000000001 0.10000000000000001 "
             "0.10000000000000001 0.80000000000000004\"/>\n";
    }
  }
  const std::array<double, 3> home_pos{-len + g[0] + 0.0, 0.0, g[2]};
  const std::array<double, 3> away_pos{len - g[0] - 0.0, 0.0, g[2]};
  AppendGoal("home_goal", 1, home_pos, g, layout.home_lower, layout.home_upper,
             {.2, .2, 1, 0.5}, &xml);
  AppendGoal("away_goal", -1, away_pos, g, layout.away_lower, layout.away_upper,
             {1, .2, .2, 0.5}, &xml);
  // The inverted field detector (2D).
  xml +=
      "    <body name=\"field/\">\n"
      "      <site name=\"field/detection_zone\" class=\"field/\" "
      "type=\"box\" group=\"4\" pos=\"0 0 0\" size=\"" +
      Join({field[0], field[1], 0.01}) +
      "\" rgba=\"1 1 1 1\"/>\n"
      "      <site name=\"field/lower\" class=\"field/\" group=\"4\" "
      "pos=\"" +
      Join({layout.field_lower[0], layout.field_lower[1], 0.}) +
      "\" size=\"0.050000000000000003\" rgba=\"1 1 1 1\"/>\n"
      "      <site name=\"field/mid\" class=\"field/\" group=\"4\" pos=\"" +
      Join({(layout.field_lower[0] + layout.field_upper[0]) / 2.,
            (layout.field_lower[1] + layout.field_upper[1]) / 2., 0.}) +
      "\" size=\"0.050000000000000003\" rgba=\"1 1 1 1\"/>\n"
      "      <site name=\"field/upper\" class=\"field/\" group=\"4\" "
      "pos=\"" +
      Join({layout.field_upper[0], layout.field_upper[1], 0.}) +
      "\" size=\"0.050000000000000003\" rgba=\"1 1 1 1\"/>\n"
      "    </body>\n";
  int geom_counter = 5;
  // Perimeter planes around the field.
  {
    const double w = g[0];
    for (int x : {-1, 0, 1}) {
      for (int y : {-1, 0, 1}) {
        if (x == 0 && y == 0) {
          continue;
        }
        const double size0 = x == 0 ? len - 2 * w : w;
        const double size1 = y == 0 ? wid - 2 * w : w;
        xml += "    <geom name=\"//unnamed_geom_" +
               std::to_string(geom_counter++) +
               "\" class=\"/\" type=\"plane\" contype=\"0\" "
               "conaffinity=\"0\" size=\"" +
               Join({size0, size1, max_size * kGroundGridRatio}) + "\" pos=\"" +
               Join({x * (len - w), y * (wid - w), 0.}) +
               "\" rgba=\"0.30599999999999999 0.68200000000000005 0.223 "
               "1\"/>\n";
      }
    }
  }
  if (config.enable_field_box) {
    // pitch.py's _fieldbox_pos_size of the field's half size.
    const double box_half_height = 20.;
    const double corner_pos_y = 0.5 * (field[1] + g[1]);
    const double corner_size_y = 0.5 * (field[1] - g[1]);
    const double thickness = 1.0;
    const double top_pos_z = box_half_height + g[2];
    const double top_size_z = box_half_height - g[2];
    const double wall_x = field[0] + thickness;
    const double wall_y = field[1] + thickness;
    const std::array<std::array<double, 6>, 8> boxes{{
        {0., -wall_y, box_half_height, field[0], thickness, box_half_height},
        {0., wall_y, box_half_height, field[0], thickness, box_half_height},
        {-wall_x, -corner_pos_y, box_half_height, thickness, corner_size_y,
         box_half_height},
        {-wall_x, 0., top_pos_z, thickness, g[1], top_size_z},
        {-wall_x, corner_pos_y, box_half_height, thickness, corner_size_y,
         box_half_height},
        {wall_x, -corner_pos_y, box_half_height, thickness, corner_size_y,
         box_half_height},
        {wall_x, 0., top_pos_z, thickness, g[1], top_size_z},
        {wall_x, corner_pos_y, box_half_height, thickness, corner_size_y,
         box_half_height},
    }};
    for (const auto& box : boxes) {
      xml += "    <geom name=\"//unnamed_geom_" +
             std::to_string(geom_counter++) +
             "\" class=\"/\" type=\"box\" contype=\"" +
             std::to_string(kFieldBoxContactBit) + "\" conaffinity=\"" +
             std::to_string(kFieldBoxContactBit) + "\" size=\"" +
             Join({box[3], box[4], box[5]}) + "\" pos=\"" +
             Join({box[0], box[1], box[2]}) +
             "\" rgba=\"0.29999999999999999 0.29999999999999999 "
             "0.29999999999999999 0\"/>\n";
    }
  }
  // Hoarding boxes (pitch.py's _update_hoarding, colour scheme 0).
  {
    int counter = 0;
    for (int dim : {0, 1}) {
      const double width = g[2] / 8;
      const double height = g[2] / 2;
      double length = layout.size[dim];
      if (dim == 1) {
        length += 2 * width;
      }
      std::array<double, 3> box_size{height, height, height};
      box_size[dim] = length / kNumHoarding;
      box_size[1 - dim] = width;
      const double step = (length - (-length)) / kNumHoarding;
      for (int sign : {-1, 1}) {
        const double alt = sign * (layout.size[1 - dim] * 1.0 + width);
        for (int box = 0; box < kNumHoarding; ++box) {
          const double along = box * step + (-length) + length / kNumHoarding;
          std::array<double, 3> box_pos{};
          box_pos[dim] = along;
          box_pos[1 - dim] = alt;
          box_pos[2] = width;
          const double angle =
              M_PI + numpy_kernels::Arctan2(box_pos[0], -std::abs(box_pos[1]));
          double hue = 0.5 + angle / (2 * M_PI);
          hue = PyMod1(hue - .25);
          const auto rgb = HsvToRgb(hue, .7, 1.0);
          xml += "    <site name=\"//unnamed_site_" +
                 std::to_string(counter++) +
                 "\" class=\"/\" type=\"box\" pos=\"" + Join(box_pos) +
                 "\" size=\"" + Join(box_size) + "\" rgba=\"" +
                 Join({rgb[0], rgb[1], rgb[2], 1.}) + "\"/>\n";
        }
      }
    }
  }
  // The ball (the humanoids': regulation_soccer_ball()).
  const std::string ball_geom =
      humanoid ? " condim=\"6\" priority=\"1\" size=\"" + MjcfNumber(0.117) +
                     "\" material=\"soccer_ball/soccer_ball\" friction=\"" +
                     Join({0.7, 0.05, 0.04}) + "\" mass=\"" + MjcfNumber(0.45) +
                     "\" solref=\"" + Join({0.02, 0.4}) + "\" pos=\"" +
                     Join({0., 0., 0.117}) + "\"/>\n"
               : " condim=\"6\" priority=\"1\" size=\"0.34999999999999998\" "
                 "material=\"soccer_ball/soccer_ball\" "
                 "friction=\"0.69999999999999996 "
                 "0.074999999999999997 0.074999999999999997\" "
                 "mass=\"0.044999999999999998\" solref=\"0.02 1\" "
                 "pos=\"0 0 0.34999999999999998\"/>\n";
  xml +=
      "    <body name=\"soccer_ball/\">\n"
      "      <freejoint name=\"soccer_ball/\"/>\n"
      "      <geom name=\"soccer_ball/geom\" class=\"soccer_ball/\" "
      "type=\"sphere\"" +
      std::string(config.enable_field_box
                      ? " contype=\"" +
                            std::to_string(1 | kFieldBoxContactBit) + "\""
                      : "") +
      ball_geom;
  const std::pair<const char*, const char*> ball_cameras[] = {
      {"ball_cam_near", "0 -2 2"},
      {"ball_cam", "0 -7 7"},
      {"ball_cam_far", "0 -10 10"}};
  for (const auto& [camera, pos] : ball_cameras) {
    xml += std::string("      <camera name=\"soccer_ball/") + camera +
           "\" class=\"soccer_ball/\" fovy=\"70\" pos=\"" + pos +
           "\" zaxis=\"0 -1 1\" mode=\"trackcom\"/>\n";
  }
  xml += "    </body>\n";
  for (const std::string& player : players) {
    if (ant) {
      AppendAntBody(player + "/", IsHome(player) ? kBlue : kRed,
                    config.disable_walker_contacts, &xml);
    } else if (humanoid) {
      AppendHumanoidBody(player + "/", config.disable_walker_contacts, &xml);
    } else {
      AppendWalkerBody(player, IsHome(player) ? kBlue : kRed,
                       config.disable_walker_contacts, &xml);
    }
  }
  xml += "  </worldbody>\n";
  if (ant || humanoid) {
    xml += "  <contact>\n";
    for (const std::string& player : players) {
      if (humanoid) {
        AppendHumanoidContacts(player + "/", &xml);
        continue;
      }
      AppendAntContacts(player + "/", &xml);
    }
    xml += "  </contact>\n";
  }
  xml += "  <actuator>\n";
  for (const std::string& player : players) {
    const std::string p = player + "/";
    if (ant) {
      AppendAntActuators(p, &xml);
      continue;
    }
    if (humanoid) {
      AppendHumanoidActuators(p, &xml);
      continue;
    }
    xml +=
        "    <general name=\"" + p + "roll\" class=\"" + p +
        "\" ctrlrange=\"-1 1\" ctrllimited=\"true\" gear=\"-60\" joint=\"" + p +
        "roll\" biastype=\"affine\" biasprm=\"0\"/>\n"
        "    <motor name=\"" +
        p + "steer\" class=\"" + p +
        "\" ctrlrange=\"-1 1\" ctrllimited=\"true\" gear=\"55\" joint=\"" + p +
        "steer\"/>\n"
        "    <general name=\"" +
        p + "kick\" class=\"" + p +
        "\" ctrlrange=\"-1 1\" ctrllimited=\"true\" gear=\"1200\" "
        "joint=\"" +
        p + "kick\" biastype=\"affine\" biasprm=\"0\"/>\n";
  }
  xml += "  </actuator>\n  <sensor>\n";
  for (const char* goal : {"home_goal", "away_goal", "field"}) {
    const std::string gname = goal;
    for (const char* site : {"lower", "mid", "upper"}) {
      xml += "    <framepos name=\"" + gname + "/" + gname + "_" + site +
             "\" objtype=\"site\" objname=\"" + gname + "/" + site + "\"/>\n";
    }
  }
  xml +=
      "    <framepos name=\"soccer_ball/position\" objtype=\"geom\" "
      "objname=\"soccer_ball/geom\"/>\n"
      "    <framequat name=\"soccer_ball/orientation\" objtype=\"geom\" "
      "objname=\"soccer_ball/geom\"/>\n"
      "    <framelinvel name=\"soccer_ball/linear_velocity\" objtype=\"geom\" "
      "objname=\"soccer_ball/geom\"/>\n"
      "    <frameangvel name=\"soccer_ball/angular_velocity\" "
      "objtype=\"geom\" objname=\"soccer_ball/geom\"/>\n";
  const WalkerInfo& walker = GetWalkerInfo(config.walker);
  for (int i = 0; i < n; ++i) {
    const std::string p = players[i] + "/";
    const std::string root = p + walker.root_body;
    if (ant) {
      AppendAntSensors(p, &xml);
    } else if (humanoid) {
      AppendHumanoidSensors(p, &xml);
    } else {
      xml += "    <velocimeter name=\"" + p + "sensor_torso_vel\" site=\"" + p +
             "torso_site\"/>\n"
             "    <gyro name=\"" +
             p + "sensor_torso_gyro\" site=\"" + p +
             "torso_site\"/>\n"
             "    <accelerometer name=\"" +
             p + "sensor_torso_accel\" site=\"" + p + "torso_site\"/>\n";
    }
    // end_effectors_pos: each end effector in the root body's frame.
    for (const std::string& effector : walker.end_effectors) {
      xml += "    <framepos name=\"" + p + effector +
             "_end_effector\" objtype=\"xbody\" objname=\"" + p + effector +
             "\" reftype=\"xbody\" refname=\"" + root + "\"/>\n";
    }
    xml += BodyPairSensor("frameangvel", p + "ball_ego_angvel", "soccer_ball/",
                          root);
    xml += BodyPairSensor("framepos", p + "ball_ego_pos", "soccer_ball/", root);
    xml += BodyPairSensor("framelinvel", p + "ball_ego_linvel", "soccer_ball/",
                          root);
    int teammate = 0;
    int opponent = 0;
    for (int j = 0; j < n; ++j) {
      if (j == i) {
        continue;
      }
      const std::string prefix = IsHome(players[j]) != IsHome(players[i])
                                     ? "opponent_" + std::to_string(opponent++)
                                     : "teammate_" + std::to_string(teammate++);
      const std::string other_p = players[j] + "/";
      const std::string other = other_p + walker.root_body;
      for (const std::string& effector : walker.end_effectors) {
        xml += BodyPairSensor("framepos",
                              p + effector + "_" + prefix + "_end_effector",
                              other_p + effector, root);
      }
      xml += BodyPairSensor("framelinvel", p + prefix + "_ego_linear_velocity",
                            other, root);
      xml +=
          BodyPairSensor("framepos", p + prefix + "_ego_position", other, root);
      for (const char* axis : {"x", "y", "z"}) {
        xml += BodyPairSensor(std::string("frame") + axis + "axis",
                              p + prefix + "_ego_orientation_" + axis, other,
                              root);
      }
    }
  }
  xml += "  </sensor>\n</mujoco>\n";
  return xml;
}

void CheckSoccerAssets(const SoccerConfig& config) {
  mujoco_common::ResolveModelPath(Assets(), kPitchTexture);
  for (const char* side : {"right", "left", "up", "down", "front", "back"}) {
    mujoco_common::ResolveModelPath(
        Assets(), std::string(kBallTextureDir) + side + ".png");
  }
  if (config.walker == WalkerType::kAnt) {
    // There in this asset folder (the folder is an option of the family),
    // then read and checked once per process.
    mujoco_common::ResolveModelPath(Assets(), kAntModel);
    Ant();
    return;
  }
  if (config.walker == WalkerType::kHumanoid) {
    CheckHumanoidAssets(config.team_size);
    return;
  }
  for (int id = 0; id < config.team_size; ++id) {
    mujoco_common::ResolveModelPath(Assets(), DigitFile(id));
  }
}

mujoco_common::ModelPtr SoccerModel(const SoccerConfig& config,
                                    const PitchLayout& layout) {
  // Checks that the wheel's assets are there (the error names the file).
  const std::string pitch_path =
      mujoco_common::ResolveModelPath(Assets(), kPitchTexture);
  const std::string folder = pitch_path.substr(
      0, pitch_path.size() - std::string(kPitchTexture).size());
  const std::string xml = SoccerXml(config, layout);
  // Each humanoid player's jersey skin, its bones named for the player.
  std::vector<mujoco_common::MemoryFile> skins;
  if (config.walker == WalkerType::kHumanoid) {
    for (const std::string& player : PlayerNames(config.team_size)) {
      const std::string p = player + "/";
      skins.push_back({folder + HumanoidSkinFile(p), HumanoidSkin(p)});
    }
  }
  mujoco_common::ModelPtr model = mujoco_common::CompileText(
      folder + "soccer.xml", xml, "the soccer model", skins);
  if (config.walker != WalkerType::kBoxHead) {
    return model;  // only BoxHead's head textures are drawn here
  }
  // The head textures: the digit alpha-blended over the team colour
  // (boxhead.py's _alpha_blend in float64, then truncated to uint8).
  const std::vector<std::string> players = PlayerNames(config.team_size);
  for (std::size_t i = 0; i < players.size(); ++i) {
    const std::string name = players[i] + "/head_texture";
    const int tex = mj_name2id(model.get(), mjOBJ_TEXTURE, name.c_str());
    const auto& marker = IsHome(players[i]) ? kBlue : kRed;
    const std::vector<uint8_t>& digit =
        DigitRgba(static_cast<int>(i) % config.team_size);
    const int pixels = model->tex_width[tex] * model->tex_height[tex];
    const int channels = model->tex_nchannel[tex];
    if (tex < 0 || static_cast<int>(digit.size()) != 4 * pixels) {
      throw std::runtime_error("soccer model: unexpected head texture " + name);
    }
    uint8_t* out = model->tex_data + model->tex_adr[tex];
    for (int k = 0; k < pixels; ++k) {
      const double fg_a = digit[4 * k + 3] / 255.;
      const double bg_a = marker[3];
      const double out_a = fg_a + bg_a * (1. - fg_a);
      double rgba[4];
      for (int c = 0; c < 3; ++c) {
        const double fg = digit[4 * k + c] / 255.;
        double v = fg * fg_a + marker[c] * bg_a * (1. - fg_a);
        if (out_a != 0.0) {
          v = v / out_a;
        }
        rgba[c] = v;
      }
      rgba[3] = out_a;
      for (int c = 0; c < channels; ++c) {
        out[channels * k + c] = static_cast<uint8_t>(255. * rgba[c]);
      }
    }
  }
  return model;
}

}  // namespace envpool::locomotion
