// soccer.WalkerType.HUMANOID: dm_control 1.0.50's soccer Humanoid
// (soccer/humanoid.py), the position-controlled CMU humanoid (2019) with a
// face, the JERSEY visual (a skin with the team's numbered shirt texture,
// the interior geoms hidden, visual-only neck, elbows, knees and larger
// hands) and without the tracking light, attached once per player as
// Composer attaches it; and its CMUMocapInitializer, which starts each
// player from a random frame of the CMU mocap clip CMU_077_02.
//
// The walker's elements are those of the CMU humanoid that the go-to-target
// task writes (go_to_target.h: the wheel's humanoid_CMU_V2019.xml with its
// position actuators and end-effector sensors), read back once per process,
// changed as soccer's Humanoid changes them, and renamed for each player.
#ifndef ENVPOOL_LOCOMOTION_SOCCER_HUMANOID_H_
#define ENVPOOL_LOCOMOTION_SOCCER_HUMANOID_H_

#include <array>
#include <string>
#include <vector>

#include "envpool/locomotion/mocap_clip.h"
#include "envpool/locomotion/soccer_model.h"

namespace envpool::locomotion {

// What the env and the model writer need to know of the walker.
const WalkerInfo& HumanoidInfo();

// soccer.load's pitch for humanoids: the size range from the area per
// player (MINI_FOOTBALL_{MIN,MAX}_AREA_PER_HUMANOID, aspect 3:4) and the
// mini-football goal.
std::array<double, 2> HumanoidPitchSize(int team_size, bool max);
extern const std::array<double, 3> kMiniFootballGoalSize;

// The MJCF pieces of player prefix `p` ("home0/"), in the sections of the
// soccer model: its defaults class, its assets (the shirt texture of
// `walker_id` in the team's colour, the skin), its attachment body (a free
// joint, contacts off with `disable_contacts`), its contact excludes, its 56
// position actuators and its sensors (the file's and the end effectors').
void AppendHumanoidDefaults(const std::string& p, std::string* xml);
void AppendHumanoidAssets(const std::string& p, bool home, int walker_id,
                          std::string* xml);
void AppendHumanoidBody(const std::string& p, bool disable_contacts,
                        std::string* xml);
void AppendHumanoidContacts(const std::string& p, std::string* xml);
void AppendHumanoidActuators(const std::string& p, std::string* xml);
void AppendHumanoidSensors(const std::string& p, std::string* xml);

// The jersey skin of player prefix `p`: the wheel's jersey.skn with its
// bones' body names prefixed, as Composer writes it; and the name the model
// gives it (relative to the asset folder), under which it is handed to
// MuJoCo in memory.
std::string HumanoidSkin(const std::string& p);
std::string HumanoidSkinFile(const std::string& p);

// Throws std::invalid_argument naming the first missing file and the fix
// when the shirt textures, the skin or the mocap clip are not there.
void CheckHumanoidAssets(int team_size);

// CMUMocapInitializer's clip (mocap_key 'CMU_077_02', version '2019') and
// the joints it poses, in the clip's order (cmu_humanoid.py's
// _CMU_MOCAP_JOINTS).
const MocapClip& HumanoidMocapClip();
const std::vector<std::string>& HumanoidMocapJoints();

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_SOCCER_HUMANOID_H_
