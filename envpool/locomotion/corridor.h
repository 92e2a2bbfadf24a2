// dm_control 1.0.50's basic_cmu_2019.cmu_humanoid_run_walls and
// cmu_humanoid_run_gaps: the position-controlled CMU humanoid (2019) running
// down a 100 m corridor (corr_tasks.RunThroughCorridor), obstructed by walls
// (corr_arenas.WallsCorridor) or made of platforms separated by gaps
// (corr_arenas.GapsCorridor), seen through its egocentric camera.
//
// - a reset draws the corridor (the arena's regenerate, the task's
//   initialize_episode_mjcf: one draw per wall, two per platform), compiles
//   the episode's model as Composer does, and puts the walker upright at
//   qpos0 shifted to (0.5, 0, 0) (no draws);
// - a step sets the 56 controls, runs 6 physics steps of 5 ms (dm_control's
//   legacy step), fails the episode when a geom of the walker but its feet
//   touches the ground or an end effector is below -0.5 m, and rewards the
//   root's forward velocity (rewards.tolerance around 3 m/s, linear, margin
//   3 m/s);
// - randomness from numpy's RandomState(seed), the env's random_state.
#ifndef ENVPOOL_LOCOMOTION_CORRIDOR_H_
#define ENVPOOL_LOCOMOTION_CORRIDOR_H_

#include <mujoco/mujoco.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/core/random.h"
#include "envpool/core/snapshot.h"
#include "envpool/locomotion/cmu_walker.h"
#include "envpool/mujoco_common/model.h"
#include "envpool/render/mujoco_egl.h"

namespace envpool::locomotion {

enum class CorridorKind { kWalls, kGaps };

// The corridor of one episode: what the arena's regenerate drew, in draw
// order (WallsCorridor: each wall's width; GapsCorridor: each platform's
// length then the gap after it).
struct CorridorLayout {
  CorridorKind kind = CorridorKind::kWalls;
  std::vector<double> draws;
};

// Draws an episode's corridor from `random` as the arena's regenerate does.
CorridorLayout DrawCorridor(CorridorKind kind, random::RandomState* random);

// The MJCF text Composer compiles for the episode's corridor.
std::string CorridorXml(const CorridorLayout& layout);

// A GapsCorridor as a task's factory builds it (corridors.py's arguments):
// the corridor's width and length, platforms of length
// Uniform(platform_low, platform_high) separated by gaps of
// Uniform(gap_low, gap_high) after the 6 m starting platform until x
// reaches the length; `textured` is aesthetic='outdoor_natural' (the
// platforms take the arena's aesthetic_material), else the default grey.
struct GapsCorridorSizes {
  double width;
  double length;
  double platform_low, platform_high;
  double gap_low, gap_high;
  bool textured;
};

// basic_rodent_2020.rodent_run_gaps' corridor: 2 m by 40 m, platforms of
// Uniform(.4, .8), gaps of Uniform(.05, .2), outdoor_natural.
inline constexpr GapsCorridorSizes kRodentGapsCorridor{2.0, 40.0, .4,  .8,
                                                       .05, .2,   true};

// What the arena's regenerate draws, in draw order: each platform's length
// then the gap after it.
std::vector<double> DrawGaps(const GapsCorridorSizes& sizes,
                             random::RandomState* random);

// The world body's elements of a GapsCorridor before the walker, as
// Composer writes them: the (empty) body "walls", the perimeter planes (the
// ground 10 m down and invisible) and the platforms of the body "ground".
std::string GapsCorridorWorldbody(const GapsCorridorSizes& sizes,
                                  const std::vector<double>& draws);

// RunThroughCorridor's reward: rewards.tolerance of the root's forward
// velocity around `target` (linear, margin `target`, 0 at the margin).
double CorridorVelocityReward(double x_velocity, double target);

class CorridorEnv : public Env {
 public:
  using Fields = CmuTaskFields;

  static Options DefaultOptions();
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields);
  CorridorEnv(const Options& options, const Fields& fields);

  void Reset() override;
  void Step(const ActionView& action) override;
  void Write(const Output& out) override;
  // render_mode="rgb_array": dm_control's Physics.render
  // (physics_render.h).
  void Render(int width, int height, int camera_id, uint8_t* rgb) override;

  // Test hooks: qpos, qvel, act and qacc_warmstart.
  std::vector<double> GetState() const override;

  // Snapshots: the RandomState, the episode's corridor (another corridor
  // than the env's rebuilds the model), MuJoCo's integration state, the
  // sensor readings and the failure flag; LoadState runs mj_step1.
  void SaveState(StateWriter* writer) const override;
  void LoadState(StateReader* reader) override;

 private:
  // The frames of render(): the env's own render context, and a stamp for
  // each model it makes.
  std::unique_ptr<render::ModelRenderer> frame_renderer_;
  uint64_t model_stamp_ = 0;
  void OnSeed(uint64_t seed) override;
  void Build(const CorridorLayout& layout);
  void AfterReset();
  bool Failed() const;
  double* Obs(const Output& out, const char* key) const;

  CorridorKind kind_;
  double time_limit_;
  Fields fields_;
  std::map<std::string, int> obs_index_;
  random::RandomState random_{uint32_t{0}};
  CorridorLayout layout_;
  mujoco_common::ModelPtr model_;
  mujoco_common::DataPtr data_;
  bool has_episode_ = false;
  bool failed_ = false;
  // The walker's elements in the episode's model, the camera's id, and the
  // ground's geoms (the plane; with gaps also the platforms).
  std::unique_ptr<CmuWalker> walker_;
  int camera_ = -1;
  std::vector<bool> ground_geom_;
};

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_CORRIDOR_H_
