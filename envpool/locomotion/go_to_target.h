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
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/core/random.h"
#include "envpool/core/snapshot.h"
#include "envpool/mujoco_common/model.h"

namespace envpool::locomotion {

// The MJCF text of the task's model with the target at (x, y, 0), the
// walker read from the wheel's humanoid_CMU_V2019.xml.
std::string GoToTargetXml(double target_x, double target_y);

// What an arena puts into the MJCF text of a task with the position-
// controlled CMU humanoid (basic_cmu_2019's walker), as Composer writes it:
// the model's name, the attributes of <visual><map>, the arena's assets
// (before the walker's) and its worldbody elements before and after the
// walker's body.
struct CmuArenaXml {
  std::string model;
  std::string map;
  std::string assets;
  std::string before_walker;
  std::string after_walker;
};
std::string CmuHumanoidTaskXml(const CmuArenaXml& arena);

class GoToTargetEnv : public Env {
 public:
  struct Fields {
    std::vector<Field<double>> obs;  // in the order of the keys
    Field<double> action;
  };

  static Options DefaultOptions();
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields);
  GoToTargetEnv(const Options& options, const Fields& fields);

  void Reset() override;
  void Step(const ActionView& action) override;
  void Write(const Output& out) override;

  // Test hooks: qpos, qvel, act and qacc_warmstart.
  std::vector<double> GetState() const override;

  // Snapshots: the RandomState, the target, MuJoCo's integration state,
  // the sensor readings and the failure flag; LoadState runs mj_step1.
  void SaveState(StateWriter* writer) const override;
  void LoadState(StateReader* reader) override;

 private:
  void OnSeed(uint64_t seed) override;
  void AfterReset();
  bool DisallowedContact() const;
  double* Obs(const Output& out, const char* key) const;

  double time_limit_;
  Fields fields_;
  std::map<std::string, int> obs_index_;
  random::RandomState random_{uint32_t{0}};
  mujoco_common::ModelPtr model_;
  mujoco_common::DataPtr data_;
  bool has_episode_ = false;
  bool failed_ = false;
  // Element ids and addresses.
  int target_site_ = -1, root_body_ = -1, head_body_ = -1;
  int free_qpos_ = -1, free_qvel_ = -1;
  std::vector<int> joint_qpos_, joint_qvel_, walker_joint_qpos_;
  std::vector<int> end_effector_bodies_;  // rradius, lradius, rfoot, lfoot
  std::vector<int> end_effector_sensors_, touch_sensors_, torque_sensors_;
  int velocimeter_ = -1, gyro_ = -1, accelerometer_ = -1;
  // Geoms whose contact with the ground fails the episode (the walker's
  // but the feet's), and the ground's (with the target site's id, as
  // dm_control counts it).
  std::vector<bool> nonfoot_geom_, ground_geom_;
};

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_GO_TO_TARGET_H_
