// gymnasium-robotics' Shadow Dexterous Hand tasks on MuJoCo's own bindings
// (HandReach*-v3: envs/shadow_dexterous_hand/reach.py's MujocoHandReachEnv;
// HandManipulate*-v1: manipulate.py's MujocoManipulateEnv and
// manipulate_touch_sensors.py's MujocoManipulateTouchSensorsEnv), one env
// class for both tasks, its variants a table of options (registration.py).
//
// Reach: the 24 hand joints start at the reference's DEFAULT_INITIAL_QPOS;
// a reset draws one finger (`choice` of four), the meeting point's noise
// (three `normal`s) and whether all fingers go back to their start (one
// `uniform`); the goal is the five fingertips' positions.
//
// Manipulate: a reset restores the start state without mj_resetData (the
// solver's warm start and the controls stay as the last episode left them,
// as the reference's _reset_sim does), draws the object's rotation and
// position offsets, settles it for 10 x frame_skip steps under the neutral
// action and starts over (more draws) while the object is not on the palm;
// then draws the goal. The goal is the object's pose (position and
// quaternion).
//
// A step clips the action to [-1, 1], sets the controls to the actuators'
// range centre (or, with relative_control, the joints' positions) plus the
// action times half the range, clipped to the range, and steps frame_skip
// times; observations read the positions as the last mj_step left them (as
// the reference reads them).
#ifndef ENVPOOL_ROBOTICS_HAND_ENV_H_
#define ENVPOOL_ROBOTICS_HAND_ENV_H_

#include <mujoco/mujoco.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/mujoco_common/model.h"
#include "envpool/robotics/goal_env.h"

namespace envpool::robotics {

class HandEnv : public Env {
 public:
  struct Fields {
    GoalFields goal;
    Field<float> is_success;
  };
  static Options DefaultOptions();
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields);
  HandEnv(const Options& options, const Fields& fields);

  void Reset() override;
  void Step(const ActionView& action) override;
  void Write(const Output& out) override;
  void Render(int width, int height, int camera_id, uint8_t* rgb) override;

  void SaveState(StateWriter* writer) const override;
  void LoadState(StateReader* reader) override;

 private:
  enum class TargetPosition { kIgnore, kFixed, kRandom };
  enum class TargetRotation { kIgnore, kFixed, kXyz, kZ, kParallel };
  enum class Touch { kOff, kSensordata, kBoolean, kLog };

  void ReachSetup();
  void ReachSampleGoal();
  // One try of the reference's manipulate _reset_sim: false when the object
  // fell off the palm.
  bool ManipulateResetTry();
  void ManipulateSampleGoal();
  // _set_action of a clipped action; with relative_control the centres are
  // of the action's dtype (float32 for a step, float64 for the settling).
  void SetAction(const float* action, bool float32_centres);
  void Observe();
  // d_pos, d_rot of _goal_distance (manipulate) or the distance (reach).
  void GoalDistance(const double* achieved, double* d_pos, double* d_rot) const;
  bool IsSuccess(const double* achieved) const;

  Fields fields_;
  std::shared_ptr<const mjModel> shared_model_;  // the process's envs share it
  // This env's copy, made by the first Render, whose markers and site
  // colours the render callbacks change.
  mujoco_common::ModelPtr own_model_;
  const mjModel* model_;  // what the physics steps: one of the two
  mujoco_common::DataPtr data_;
  bool reach_;
  int frame_skip_;
  bool dense_;
  bool relative_control_;
  double distance_threshold_;
  double rotation_threshold_;
  TargetPosition target_position_ = TargetPosition::kIgnore;
  TargetRotation target_rotation_ = TargetRotation::kIgnore;
  std::array<double, 3> position_low_{};
  std::array<double, 3> position_high_{};
  bool randomize_position_;
  bool randomize_rotation_;
  bool ignore_z_rotation_;
  Touch touch_ = Touch::kOff;
  std::string touch_visualisation_;
  int goal_dim_;
  // Model elements.
  std::vector<int> robot_joints_;     // joints named "robot*", in id order
  std::vector<int> fingertip_sites_;  // reach
  int palm_body_ = -1;
  int object_joint_ = -1;
  int object_center_site_ = -1;
  std::vector<int> touch_sensors_;  // sensor ids, which index sensordata
  std::vector<int> touch_sites_;
  // relative_control: the joint whose position centres each actuator, and
  // the J0 joint added to the J1 actuators of the four fingers.
  std::vector<int> actuator_joint_;
  std::vector<int> actuator_extra_joint_;
  // manipulate's parallel rotations as quaternions (24).
  std::vector<std::array<double, 4>> parallel_quats_;
  // After the setup.
  double initial_time_ = 0.0;
  std::vector<double> initial_qpos_;
  std::vector<double> initial_qvel_;
  std::vector<double> initial_goal_;  // reach: the fingertips at the start
  std::array<double, 3> palm_xpos_{};
  // The episode.
  std::vector<double> goal_;
  std::vector<double> observation_;
  std::vector<double> achieved_goal_;
  float is_success_ = 0.0F;
  bool has_camera_ = false;
  mjvCamera camera_{};
};

}  // namespace envpool::robotics

#endif  // ENVPOOL_ROBOTICS_HAND_ENV_H_
