// dm_control 1.0.50's basic_cmu_2019.cmu_humanoid_go_to_target: the
// position-controlled CMU humanoid (2019) on the plain floor, rewarded while
// within 1 m of a target, failing when anything but its feet touches the
// ground. Composer compiles the model at every reset because the target
// site moves; here the model is compiled once per env and the target's
// site_pos written per episode (the other arrays do not depend on it).
//
// - a reset draws the target (two draws), puts the walker upright at
//   qpos0 (UprightInitializer) and shifts it by two more draws;
// - a step sets the 56 controls and runs 6 physics steps of 5 ms
//   (dm_control's legacy step), then looks at the contacts;
// - randomness from numpy's RandomState(seed), the env's random_state.
#ifndef ENVPOOL_LOCOMOTION_GO_TO_TARGET_H_
#define ENVPOOL_LOCOMOTION_GO_TO_TARGET_H_

#include <mujoco/mujoco.h>

#include <array>
#include <cmath>
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

// The MJCF text of the task's model with the target at (x, y, 0), the
// walker read from the wheel's humanoid_CMU_V2019.xml.
std::string GoToTargetXml(double target_x, double target_y);

// What an arena puts into the MJCF text of a task with the position-
// controlled CMU humanoid (basic_cmu_2019's walker), as Composer writes it:
// the model's name, the physics timestep (the task's), the attributes of
// <visual><map>, the arena's assets
// (before the walker's) and its worldbody elements before and after the
// walker's body; the headlight's attributes and the defaults before the
// walker's (Arena's), the defaults and assets after the walker's (the
// entities attached after it) where an arena has others.
struct CmuArenaXml {
  std::string model;
  double timestep = 0.005;
  std::string map;
  std::string assets;
  std::string before_walker;
  std::string after_walker;
  std::string headlight =
      "ambient=\"0.4 0.4 0.4\" diffuse=\"0.8 0.8 0.8\" "
      "specular=\"0.1 0.1 0.1\"";
  std::string defaults_before = "    <default class=\"/\"/>\n";
  std::string defaults_after;
  std::string assets_after;
};
std::string CmuHumanoidTaskXml(const CmuArenaXml& arena);

class GoToTargetEnv : public Env {
 public:
  using Fields = CmuTaskFields;

  static Options DefaultOptions();
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields);
  GoToTargetEnv(const Options& options, const Fields& fields);

  void Reset() override;
  void Step(const ActionView& action) override;
  void Write(const Output& out) override;
  // render_mode="rgb_array": dm_control's Physics.render
  // (physics_render.h).
  void Render(int width, int height, int camera_id, uint8_t* rgb) override;

  // Test hooks: qpos, qvel, act and qacc_warmstart.
  std::vector<double> GetState() const override;

  // Snapshots: the RandomState, the target, MuJoCo's integration state,
  // the sensor readings and the failure flag; LoadState runs mj_step1.
  void SaveState(StateWriter* writer) const override;
  void LoadState(StateReader* reader) override;

 private:
  // The frames of render(): the env's own render context, and a stamp for
  // each model it makes.
  std::unique_ptr<render::ModelRenderer> frame_renderer_;
  uint64_t model_stamp_ = 0;
  // The target position whose compile's statistics the model has (NaN:
  // the base model's).
  std::array<double, 2> stat_target_{std::nan(""), std::nan("")};
  void OnSeed(uint64_t seed) override;
  void AfterReset();
  double* Obs(const Output& out, const char* key) const;

  double time_limit_;
  Fields fields_;
  std::map<std::string, int> obs_index_;
  random::RandomState random_{uint32_t{0}};
  mujoco_common::ModelPtr model_;
  mujoco_common::DataPtr data_;
  bool has_episode_ = false;
  bool failed_ = false;
  // The walker's elements, the target site's id, and the ground's geoms
  // (with the target site's id, as dm_control counts it).
  std::unique_ptr<CmuWalker> walker_;
  int target_site_ = -1;
  std::vector<bool> ground_geom_;
};

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_GO_TO_TARGET_H_
