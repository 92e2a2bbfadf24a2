// gymnasium-robotics' Fetch tasks on MuJoCo's own bindings (Fetch*-v4:
// envs/fetch/fetch_env.py's MujocoFetchEnv, envs/robot_env.py's
// MujocoRobotEnv): a 7-DoF arm moved by a mocap body welded to its gripper,
// reaching, pushing, sliding or picking and placing a block.
//
// Setup, once per env (the model is this env's copy, since the mocap welds'
// eq_data is changed): the initial joint positions, the welds' relative
// poses cleared, the mocap moved above the table and 10 x frame_skip
// physics steps; the resulting time, qpos and qvel are every episode's
// start. A reset draws, from np_random_ in the reference's order, the
// object's xy offset (until 0.1 from the gripper) and the goal. A step clips
// the action to [-1, 1], moves the mocap by 0.05 x action[:3] (float32, as
// the reference multiplies its float32 action) from the gripper's current
// pose, sets the fingers' position targets, steps frame_skip times, and
// (block_gripper) closes the fingers again.
#ifndef ENVPOOL_ROBOTICS_FETCH_H_
#define ENVPOOL_ROBOTICS_FETCH_H_

#include <mujoco/mujoco.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/mujoco_common/model.h"
#include "envpool/mujoco_common/model_view.h"
#include "envpool/robotics/goal_env.h"

namespace envpool::robotics {

class FetchEnv : public Env {
 public:
  struct Fields {
    GoalFields goal;
    Field<float> is_success;
  };
  static Options DefaultOptions();
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields);
  FetchEnv(const Options& options, const Fields& fields);

  void Reset() override;
  void Step(const ActionView& action) override;
  void Write(const Output& out) override;
  void Render(int width, int height, int camera_id, uint8_t* rgb) override;

  void SaveState(StateWriter* writer) const override;
  void LoadState(StateReader* reader) override;

  // Test hooks: qpos (nq), qvel (nv), qacc_warmstart (nv), mocap_pos (3),
  // mocap_quat (4), then the goal (3).
  std::vector<double> GetState() const override;
  void SetState(const std::vector<double>& state) override;

 private:
  void EnvSetup();
  void SampleGoal();
  void Observe();
  // jacp or jacr of `site` times qvel, times dt.
  void SiteVelocity(int site, bool rotational, double* out) const;

  Fields fields_;
  // Shared by the process's envs of this model but for eq_data (the reset
  // sets the mocap welds) and site_pos (a frame moves the target marker),
  // which this env writes.
  mujoco_common::ModelView model_;
  mujoco_common::DataPtr data_;
  int frame_skip_;
  bool dense_;
  bool has_object_;
  bool block_gripper_;
  bool target_in_the_air_;
  double gripper_extra_height_;
  std::array<double, 3> target_offset_{};
  double obj_range_;
  double target_range_;
  double distance_threshold_;
  std::array<double, 3> initial_slide_{};
  std::array<double, 3> initial_object_{};
  // Model elements.
  int grip_site_ = -1;
  int object_site_ = -1;
  int object_joint_ = -1;
  int mocap_body_ = -1;
  int left_finger_joint_ = -1;
  int right_finger_joint_ = -1;
  std::vector<int> gripper_joints_;  // the last two "robot" joints
  // After the setup.
  double initial_time_ = 0.0;
  std::vector<double> initial_qpos_;
  std::vector<double> initial_qvel_;
  std::array<double, 3> initial_gripper_xpos_{};
  double height_offset_ = 0.0;
  // The episode.
  std::array<double, 3> goal_{};
  std::vector<double> observation_;
  std::array<double, 3> achieved_goal_{};
  float is_success_ = 0.0F;
  std::vector<double> jacobian_;  // 3 x nv scratch
  bool has_camera_ = false;
  mjvCamera camera_{};
};

}  // namespace envpool::robotics

#endif  // ENVPOOL_ROBOTICS_FETCH_H_
