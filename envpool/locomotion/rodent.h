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
//
// Composer recompiles the model at every reset; the model does not depend
// on anything drawn, so each env copies one compiled model and rewrites the
// heightfield per episode.
#ifndef ENVPOOL_LOCOMOTION_RODENT_H_
#define ENVPOOL_LOCOMOTION_RODENT_H_

#include <mujoco/mujoco.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/core/random.h"
#include "envpool/core/snapshot.h"
#include "envpool/mujoco_common/model.h"

namespace envpool::locomotion {

enum class RodentTask { kEscapeBowl };

// The MJCF text of the task's model, the walker read from the wheel's
// rodent.xml.
std::string RodentXml(RodentTask task);

// The walker's skin file as the model reads it: rodent_walker_skin.skn with
// its bones' body names prefixed "walker/", as Composer writes it (the text
// names it walkers/rodent_walker_skin_walker.skn).
std::string RodentSkin();

class RodentEnv : public Env {
 public:
  struct Fields {
    std::vector<Field<double>> obs;  // in the order of the keys
    Field<uint8_t> camera;
    Field<double> action;
  };

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields);
  RodentEnv(const Options& options, const Fields& fields);

  void Reset() override;
  void Step(const ActionView& action) override;
  void Write(const Output& out) override;

  // Test hooks: qpos, qvel, act and qacc_warmstart.
  std::vector<double> GetState() const override;

  // Snapshots: the RandomState, the episode's heightfield, MuJoCo's
  // integration state and the sensor readings; LoadState runs mj_step1.
  void SaveState(StateWriter* writer) const override;
  void LoadState(StateReader* reader) override;

 protected:
  static Options TaskOptions(const std::string& task_name, double time_limit);

 private:
  void OnSeed(uint64_t seed) override;
  void AfterReset();
  void FindNonContactingHeight(const double orientation[4]);
  double* Obs(const Output& out, const char* key) const;
  void RenderCamera(uint8_t* rgb);

  RodentTask task_;
  double time_limit_;
  Fields fields_;
  std::map<std::string, int> obs_index_;
  random::RandomState random_{uint32_t{0}};
  mujoco_common::ModelPtr model_;
  mujoco_common::DataPtr data_;
  bool has_episode_ = false;
  uint64_t hfield_stamp_ = 0;
  // Element ids and addresses.
  int torso_body_ = -1, pelvis_body_ = -1, skull_body_ = -1;
  int head_site_ = -1, camera_ = -1, terrain_hfield_ = -1;
  int free_qpos_ = -1;
  std::vector<int> joint_qpos_, joint_qvel_;  // the actuated joints
  std::vector<int> end_effector_bodies_;      // lower arms R, L, feet R, L
  std::vector<int> end_effector_sensors_, touch_sensors_;
  int velocimeter_ = -1, gyro_ = -1, accelerometer_ = -1;
};

// The ids' env classes: the task and its time limit (EnvPool 1.2.7's
// default) are the class's.
class RodentEscapeBowlEnv : public RodentEnv {
 public:
  using RodentEnv::RodentEnv;
  static Options DefaultOptions() {
    return TaskOptions("rodent_escape_bowl", 20.0);
  }
};

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_RODENT_H_
