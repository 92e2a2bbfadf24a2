// dm_control 1.0.50's basic_cmu_2019 maze tasks: the position-controlled
// CMU humanoid of cmu_walker.h in a maze arena of maze_arena.h (labmaze's
// sky_03 skybox, style_01 walls and floors, a new maze or new goals with new
// textures at every reset), seen through its egocentric camera.
//
// - cmu_humanoid_maze_forage: labmaze's random maze of 11 x 11 cells of
//   3 m, respawned at a random spawn cell facing away from the farthest wall
//   (NullGoalMaze._respawn); 50 for each target sphere touched (ManyGoals-
//   Maze), 6 physics steps of 5 ms a step, 30 s;
// - cmu_humanoid_heterogeneous_forage: a fixed room of 5 x 5 cells of 3 m
//   (FixedMazeWithRandomGoals: the spawn and six targets drawn from the
//   global np.random), no random heading; three targets worth 30 and three
//   worth -10 in colours drawn at each episode, 0.01 a step for being alive
//   (ManyHeterogeneousGoalsMaze), 30 physics steps of 1 ms a step, 25 s.
//
// A reset draws the episode (the maze regenerated, its textures from the
// global np.random, the targets shuffled with the env's random_state),
// compiles its model as Composer does and respawns the walker; a step sets
// the 56 controls and runs the physics steps, each followed by the targets'
// activation (TargetSphere, radius 0.4 m), then rewards the targets
// activated since the last step; all activated ends the episode (done), and
// a geom of the walker but its feet's touching the ground plane ends it as a
// fall (contact_termination). Randomness from numpy's RandomState(seed)
// (random_state) and a second one of the same seed (the global np.random).
#ifndef ENVPOOL_LOCOMOTION_CMU_MAZE_H_
#define ENVPOOL_LOCOMOTION_CMU_MAZE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/core/random.h"
#include "envpool/core/snapshot.h"
#include "envpool/locomotion/cmu_walker.h"
#include "envpool/locomotion/maze_arena.h"
#include "envpool/mujoco_common/model.h"
#include "envpool/render/mujoco_egl.h"

namespace envpool::locomotion {

// What tells the maze tasks apart.
struct CmuMazeTask {
  std::string name;   // task_name
  double time_limit;  // composer.Environment's, seconds
  const MazeArenaSpec& (*arena)();
  std::vector<double> target_rewards;  // per target type
  double aliveness_reward;
  bool randomize_spawn_rotation;
  double physics_timestep;  // of a control step of 0.03 s
  int substeps;
};
const CmuMazeTask& CmuMazeForageTask();
const CmuMazeTask& CmuHeterogeneousForageTask();

// The episode's MJCF text: the walker read from the wheel's
// humanoid_CMU_V2019.xml around the arena's parts, with the maze's
// headlight and near clip plane (mazes.py's MazeWithTargets) and the task's
// physics timestep.
std::string CmuMazeXml(const MazeArenaXml& arena, double physics_timestep);

// The episode's model compiled, its textures read from the family's asset
// folder.
mujoco_common::ModelPtr CompileCmuMaze(const MazeArenaXml& arena,
                                       double physics_timestep);

class CmuMazeEnv : public Env {
 public:
  using Fields = CmuTaskFields;

  static Options TaskOptions(const CmuMazeTask& task);
  static void DeclareTask(const CmuMazeTask& task, const Options& options,
                          EnvSpec* spec, Fields* fields);
  CmuMazeEnv(const Options& options, const Fields& fields);

  void Reset() override;
  void Step(const ActionView& action) override;
  void Write(const Output& out) override;
  // render_mode="rgb_array": dm_control's Physics.render
  // (physics_render.h).
  void Render(int width, int height, int camera_id, uint8_t* rgb) override;

  // Test hooks: qpos, qvel, act and qacc_warmstart.
  std::vector<double> GetState() const override;

  // Snapshots: the task, both RandomStates, labmaze's generator (its seed
  // and how many mazes it made), the episode (another episode than the env's
  // rebuilds the model), the targets' state, MuJoCo's integration state and
  // the sensor readings; LoadState runs mj_step1.
  void SaveState(StateWriter* writer) const override;
  void LoadState(StateReader* reader) override;

 private:
  void OnSeed(uint64_t seed) override;
  // The episode's model compiled, then adopted: the env's model and data,
  // and where its elements are.
  void UseModel(MazeEpisode episode);
  void Adopt(mujoco_common::ModelPtr model, mujoco_common::DataPtr data,
             MazeEpisode episode);
  void UpdateTargets();
  double* Obs(const Output& out, const char* key) const;

  const CmuMazeTask& task_;
  const MazeArenaSpec& arena_;
  double time_limit_;
  Fields fields_;
  std::map<std::string, int> obs_index_;
  random::RandomState random_{uint32_t{0}};
  random::RandomState global_random_{uint32_t{0}};
  // labmaze's generator (a random maze) or the fixed maze.
  std::unique_ptr<LabMaze> maze_;
  std::unique_ptr<FixedMaze> fixed_maze_;
  MazeEpisode episode_;
  mujoco_common::ModelPtr model_;
  mujoco_common::DataPtr data_;
  uint64_t model_stamp_ = 0;
  bool has_episode_ = false;
  // The walker's elements, its free joint, the camera, the ground plane's
  // geoms (those named with "ground": MazeWithTargets.ground_geoms), the
  // targets' geoms, materials and types (target_0_0, ..., target_1_0, ...
  // in Composer's order), which are activated and which rewarded.
  std::unique_ptr<CmuWalker> walker_;
  int free_qpos_ = -1, free_qvel_ = -1;
  int camera_ = -1;
  std::vector<bool> ground_geom_;
  std::vector<int> target_geoms_, target_materials_, target_types_;
  std::vector<bool> target_activated_, target_rewarded_;
  // The env's own render context (each episode's model has walls, floor
  // tiles and textures of its own).
  std::unique_ptr<render::ModelRenderer> renderer_;
  // The frames of render() (another size than the camera's): a context of
  // their own.
  std::unique_ptr<render::ModelRenderer> frame_renderer_;
};

class CmuMazeForageEnv : public CmuMazeEnv {
 public:
  using CmuMazeEnv::CmuMazeEnv;
  static Options DefaultOptions() { return TaskOptions(CmuMazeForageTask()); }
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    DeclareTask(CmuMazeForageTask(), options, spec, fields);
  }
};

class CmuHeterogeneousForageEnv : public CmuMazeEnv {
 public:
  using CmuMazeEnv::CmuMazeEnv;
  static Options DefaultOptions() {
    return TaskOptions(CmuHeterogeneousForageTask());
  }
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    DeclareTask(CmuHeterogeneousForageTask(), options, spec, fields);
  }
};

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_CMU_MAZE_H_
