// The MJCF text that dm_control 1.0.50's soccer (dm_control.locomotion.soccer
// .load with BoxHead walkers) compiles at each episode, written here element
// for element as Composer's to_xml_string() writes it: the same element
// order, names, classes and attribute values (each number the same double,
// so that MuJoCo compiles the same model). The asset files are the wheel's
// own (the pitch and ball textures); the head textures, which dm_control
// draws with PIL (a digit blended over the team colour), are written into
// the compiled model (SoccerModel).
#ifndef ENVPOOL_LOCOMOTION_SOCCER_MODEL_H_
#define ENVPOOL_LOCOMOTION_SOCCER_MODEL_H_

#include <mujoco/mujoco.h>

#include <array>
#include <string>
#include <vector>

#include "envpool/mujoco_common/model.h"

namespace envpool::locomotion {

// The family's asset folder (the wheel's dm_control files): a missing file
// is a std::invalid_argument naming it and the fix.
const mujoco_common::ModelFolder& LocomotionAssets();

// soccer.WalkerType: BOXHEAD (written here element for element), ANT
// (read from the wheel's ant.xml and prefixed as Composer attaches it) and
// HUMANOID (soccer_humanoid.h).
enum class WalkerType { kBoxHead, kAnt, kHumanoid };

// What the env needs to know of a walker's model, the names unprefixed.
struct WalkerInfo {
  std::string root_body;                   // the observations' egocentric frame
  std::vector<std::string> end_effectors;  // bodies, in dm_control's order
  std::vector<std::string> bodies;         // all bodies (the Ant's bodies_*)
  std::vector<std::string> joints;         // observable joints (joints_pos)
  std::vector<std::string> actuators;      // in action order
  std::string velocimeter, gyro, accelerometer;  // sensor names
  std::vector<std::string> marker_geoms;  // coloured in the team's colour
};

// The walker's description (the Ant's read from its file: throws
// std::invalid_argument naming the file when it is not there).
const WalkerInfo& GetWalkerInfo(WalkerType walker);

// What soccer.load's options change in the model.
struct SoccerConfig {
  int team_size = 2;
  bool disable_walker_contacts = false;
  bool enable_field_box = false;
  WalkerType walker = WalkerType::kBoxHead;
};

// The pitch of one episode, as RandomizedPitch computes it from its size
// (length, width: half extents): the goals' and the field's detection
// boxes, which the task and the observations read.
struct PitchLayout {
  std::array<double, 2> size{};
  std::array<double, 3> goal_size{};
  // PositionDetector lower/upper corners (3D for the goals, 2D for the
  // field, as dm_control keeps them).
  std::array<double, 3> home_lower{}, home_upper{};
  std::array<double, 3> away_lower{}, away_upper{};
  std::array<double, 2> field_lower{}, field_upper{};
};

PitchLayout MakePitchLayout(double length, double width);
// The same with a fixed goal size (soccer.load's humanoid pitch).
PitchLayout MakePitchLayout(double length, double width,
                            const std::array<double, 3>& goal_size);

// Player names in dm_control's order: home0 .. home{n-1}, away0 ...
std::vector<std::string> PlayerNames(int team_size);

// The MJCF text of the episode whose pitch is `layout`, the asset files
// named relative to the family's asset folder.
std::string SoccerXml(const SoccerConfig& config, const PitchLayout& layout);

// The compiled model of that text, head textures included. Throws
// std::invalid_argument naming the missing file when the wheel's assets are
// not there.
mujoco_common::ModelPtr SoccerModel(const SoccerConfig& config,
                                    const PitchLayout& layout);

// Throws std::invalid_argument naming the first missing asset file and the
// fix when the wheel's soccer assets are not in the family's asset folder.
void CheckSoccerAssets(const SoccerConfig& config);

// A double as Composer writes it ("%.17g").
std::string MjcfNumber(double x);

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_SOCCER_MODEL_H_
