// dm_control 1.0.50's rodent tasks (locomotion/examples/basic_rodent_2020):
// the position-controlled rat (walkers/rodent.py: rodent.xml with its skin,
// 38 actuators filtering their controls, 1 ms physics steps, 20 ms control
// steps) and its egocentric camera (64 x 64 x 3, rendered at every step).
//
// - DmcRodentEscapeBowl-v1 (rodent_escape_bowl): the bowl arena of
//   bowl.py, its heightfield drawn at every reset (bowl_terrain.h); a reset
//   draws the walker's orientation (randn(4), divided by numpy's norm),
//   lifts it 1 cm at a time from the floor until it touches nothing (on the
//   flat heightfield of a freshly compiled model, as Composer's reset
//   does), then draws the terrain; the reward is escape.py's (the head away
//   from the origin, times the torso and pelvis upright).
// - DmcRodentTwoTouch-v1 (rodent_two_touch): floors.Floor and one
//   TargetSphereTwoTouch; a reset turns the upright walker by 2 pi
//   uniform() and places the target (1.5 uniform(-1, 1), twice), both drawn
//   from the global np.random (env i: a private RandomState(seed + i));
//   after every physics step the target looks for a hand touching it; the
//   reward and task_logic are reach.TwoTouch's state machine.
// - DmcRodentRunGaps-v1 (rodent_run_gaps): corridors.py's GapsCorridor
//   (kRodentGapsCorridor) in corr_tasks.RunThroughCorridor: a reset draws
//   the platforms and gaps and compiles the episode's model (their number
//   changes), then puts the walker upright at (5, 0, 0); a step fails the
//   episode when an end effector is below -0.3 m and rewards the torso's
//   forward velocity around 1 m/s.
// - DmcRodentMazeForage-v1 (rodent_maze_forage): mazes.py's
//   RandomMazeWithTargets (maze_arena.h: labmaze's maze regenerated and its
//   textures drawn from the global np.random at every reset, the targets
//   shuffled with the env's random_state) compiled per episode
//   (rodent_maze.h); random_goal_maze.ManyGoalsMaze: the walker respawned by
//   NullGoalMaze._respawn (a spawn cell, ten rays from the stale state, a
//   random heading), a TargetSphere activated by its first contact after
//   any physics step (50 each), the episode ending when all are.
//
// Composer recompiles the model at every reset; but for RunGaps' corridor
// the model does not depend on anything drawn, so each env of the other
// tasks copies one compiled model and rewrites the heightfield or moves the
// target per episode.
#ifndef ENVPOOL_LOCOMOTION_RODENT_H_
#define ENVPOOL_LOCOMOTION_RODENT_H_

#include <mujoco/mujoco.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/core/random.h"
#include "envpool/core/snapshot.h"
#include "envpool/locomotion/maze_arena.h"
#include "envpool/locomotion/mjcf_reader.h"
#include "envpool/mujoco_common/model.h"
#include "envpool/render/mujoco_egl.h"

namespace envpool::locomotion {

enum class RodentTask { kEscapeBowl, kTwoTouch, kRunGaps, kMazeForage };

// The MJCF text of the task's model, the walker read from the wheel's
// rodent.xml; RunGaps' corridor is the one of `gaps` (DrawGaps' draws).
std::string RodentXml(RodentTask task, const std::vector<double>& gaps = {});

// The walker's skin file as the model reads it: rodent_walker_skin.skn with
// its bones' body names prefixed "walker/", as Composer writes it (the text
// names it walkers/rodent_walker_skin_walker.skn).
std::string RodentSkin();

// The walker's namespace in the task models, as Composer attaches it.
inline constexpr const char* kRodentPrefix = "walker/";
// The name the model text gives the prefixed skin (RodentSkin()), which
// MuJoCo reads from memory.
inline constexpr const char* kRodentPrefixedSkinFile =
    "walkers/rodent_walker_skin_walker.skn";
// The end effectors' bodies, whose positions the model's sensors give.
inline constexpr const char* kRodentEndEffectors[] = {
    "lower_arm_R", "lower_arm_L", "foot_R", "foot_L"};

// The wheel's rodent.xml, read and parsed once per process.
const MjcfElement& RodentWalker();
// Its top-level element `tag` ("default", "worldbody", ...); throws
// std::runtime_error when the file has none (not dm_control's rodent).
const MjcfElement& RodentWalkerSection(const char* tag);

// The head of every rodent model's text: Composer's <compiler> and the
// tasks' <option> (1 ms physics steps, elliptic cones, 5 noslip iterations).
inline constexpr const char* kRodentCompilerAndOption =
    "  <compiler boundmass=\"1.0000000000000001e-05\" "
    "boundinertia=\"9.9999999999999994e-12\" coordinate=\"local\" "
    "angle=\"radian\" eulerseq=\"xyz\"/>\n"
    "  <option timestep=\"0.001\" noslip_tolerance=\"0\" "
    "cone=\"elliptic\" noslip_iterations=\"5\"/>\n";

// The walker's parts of a task model's text, as Composer attaches it under
// kRodentPrefix (every task model and the maze's write them alike):
// - its file's <size> and <statistic> (2 spaces in) and <visual> children
//   (4 spaces), which Composer merges into the arena's;
// - its <default class="walker/"> (4 spaces);
// - its <asset> children, the skin named kRodentPrefixedSkinFile (4 spaces);
// - its body with the free joint (4 spaces);
// - the model's <contact>, <tendon>, <actuator> and <sensor> sections (2
//   spaces): the walker's elements, then the end effectors' framepos
//   sensors.
std::string RodentWalkerSizes();
std::string RodentWalkerVisual();
std::string RodentWalkerDefaults();
std::string RodentWalkerAssets();
std::string RodentWalkerBody();
std::string RodentWalkerSections();

// The model text `xml` compiled as the asset folder's file `file_name`, with
// RodentSkin() beside it under kRodentPrefixedSkinFile (both in memory), so
// that MuJoCo finds the textures in the folder; owned by the caller. Throws
// std::invalid_argument "cannot build <whose> MuJoCo model: <MuJoCo's
// error>".
mjModel* CompileWithRodentSkin(const std::string& xml,
                               const std::string& file_name,
                               const std::string& whose);

class RodentEnv : public Env {
 public:
  struct Fields {
    std::vector<Field<double>> obs;  // in the order of the keys
    Field<uint8_t> camera;
    Field<int64_t> task_logic;  // TwoTouch's
    Field<double> action;
  };

  RodentEnv(const Options& options, const Fields& fields);

  void Reset() override;
  void Step(const ActionView& action) override;
  void Write(const Output& out) override;
  // render_mode="rgb_array": dm_control's Physics.render
  // (physics_render.h).
  void Render(int width, int height, int camera_id, uint8_t* rgb) override;

  // Test hooks: qpos, qvel, act and qacc_warmstart.
  std::vector<double> GetState() const override;

  // Snapshots: the RandomStates, the episode's heightfield (EscapeBowl),
  // the target and the task's state (TwoTouch) or the corridor (RunGaps:
  // another corridor than the env's compiles its model), MuJoCo's
  // integration state and the sensor readings; LoadState runs mj_step1.
  void SaveState(StateWriter* writer) const override;
  void LoadState(StateReader* reader) override;

 protected:
  static Options TaskOptions(const std::string& task_name, double time_limit);
  static void DeclareTask(RodentTask task, const Options& options,
                          EnvSpec* spec, Fields* fields);

 private:
  void OnSeed(uint64_t seed) override;
  void AfterReset();
  void FindNonContactingHeight(const double orientation[4]);
  void ResetEscapeBowl();
  void ResetTwoTouch();
  void ResetRunGaps();
  // MazeForage: the episode's model (its maze, textures and targets)
  // compiled and made the env's; the walker respawned
  // (NullGoalMaze._respawn); the targets' contacts looked for.
  void UseMazeModel(const MazeEpisode& episode);
  void ResetMazeForage();
  void RespawnInMaze();
  void UpdateMazeTargets();
  // The element ids and addresses of the env's model (every maze episode
  // compiles a model of its own).
  void FindElements();
  // TwoTouch: the target placed anew (_randomize_targets), its touches
  // (TargetSphereTwoTouch._update_activation) and the reward's state
  // machine (TwoTouch.get_reward).
  void RandomizeTarget();
  bool UpdateTargetActivation();  // whether it retextured the target
  double TwoTouchReward();
  void SetTargetTexture(int texture);
  double* Obs(const Output& out, const char* key) const;
  void RenderCamera(uint8_t* rgb);

  RodentTask task_;
  double time_limit_;
  Fields fields_;
  std::map<std::string, int> obs_index_;
  random::RandomState random_{uint32_t{0}};
  // dm_control's global np.random, which TwoTouch draws from.
  random::RandomState global_random_{uint32_t{0}};
  mujoco_common::ModelPtr model_;
  mujoco_common::DataPtr data_;
  // RunGaps: the episode's corridor (DrawGaps' draws; empty before the
  // first reset, when the model is the task's shared one).
  std::vector<double> gaps_;
  bool has_episode_ = false;
  uint64_t hfield_stamp_ = 0;
  // Element ids and addresses.
  int torso_body_ = -1, pelvis_body_ = -1, skull_body_ = -1;
  int head_site_ = -1, camera_ = -1, terrain_hfield_ = -1;
  int free_qpos_ = -1, free_qvel_ = -1;
  std::vector<int> joint_qpos_, joint_qvel_;  // the actuated joints
  std::vector<int> end_effector_bodies_;      // lower arms R, L, feet R, L
  std::vector<int> end_effector_sensors_, touch_sensors_;
  // TwoTouch's target and hands.
  int target_geom_ = -1, target_material_ = -1, hand_l_body_ = -1,
      hand_r_body_ = -1;
  int texture_init_ = -1, texture_interval_ = -1, texture_final_ = -1;
  std::vector<bool> hand_geom_;
  // TwoTouch's state: the target's touches, the task's state machine and
  // the task_logic observed (the state before this step's reward).
  struct TwoTouchState {
    bool touched_once = false, touched_twice = false;
    double touch_time = 0;
    int64_t logic = 0;  // TwoTouchState: PRE_TOUCH .. NO_SECOND_TOUCH
    int64_t observed_logic = 0;
    bool rewarded_once = false, rewarded_twice = false;
    double first_touch_time = 0, second_touch_time = 0;
    bool do_time_out = false, must_randomize = false;
  } two_touch_;
  int velocimeter_ = -1, gyro_ = -1, accelerometer_ = -1;
  // MazeForage: labmaze's generator (seeded from the global np.random when
  // the env is seeded, as RandomMazeWithTargets is when it is built), the
  // episode's maze, textures and target positions, and its targets: their
  // geoms and materials, which are activated and which were rewarded.
  std::unique_ptr<LabMaze> maze_;
  MazeEpisode maze_episode_;
  std::vector<int> target_geoms_, target_materials_;
  std::vector<bool> target_activated_, target_rewarded_;
  // The maze's and the bowl's camera render context and the stamp of the
  // env's model (another for each model compiled), which remakes it.
  std::unique_ptr<render::ModelRenderer> maze_renderer_;
  uint64_t model_stamp_ = 0;
  // The frames of render() (another size than the camera's): a context of
  // their own.
  std::unique_ptr<render::ModelRenderer> frame_renderer_;
};

// The ids' env classes: the task and its time limit (EnvPool 1.2.7's
// default) are the class's.
class RodentEscapeBowlEnv : public RodentEnv {
 public:
  using RodentEnv::RodentEnv;
  static Options DefaultOptions() {
    return TaskOptions("rodent_escape_bowl", 20.0);
  }
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    DeclareTask(RodentTask::kEscapeBowl, options, spec, fields);
  }
};

class RodentTwoTouchEnv : public RodentEnv {
 public:
  using RodentEnv::RodentEnv;
  static Options DefaultOptions() {
    return TaskOptions("rodent_two_touch", 30.0);
  }
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    DeclareTask(RodentTask::kTwoTouch, options, spec, fields);
  }
};

class RodentRunGapsEnv : public RodentEnv {
 public:
  using RodentEnv::RodentEnv;
  static Options DefaultOptions() {
    return TaskOptions("rodent_run_gaps", 30.0);
  }
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    DeclareTask(RodentTask::kRunGaps, options, spec, fields);
  }
};

class RodentMazeForageEnv : public RodentEnv {
 public:
  using RodentEnv::RodentEnv;
  static Options DefaultOptions() {
    return TaskOptions("rodent_maze_forage", 30.0);
  }
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    DeclareTask(RodentTask::kMazeForage, options, spec, fields);
  }
};

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_RODENT_H_
