// gymnasium-robotics' Adroit hand tasks (envs/adroit_hand/adroit_*.py, v1 on
// gymnasium's MujocoEnv): a 24-DoF Shadow-like hand on an arm opening a door,
// hammering a nail, turning a pen to a target orientation, or moving a ball
// to a target. Not goal-conditioned: a flat float64 observation.
//
// Setup, once per env (the model is this env's copy, since a reset moves a
// body or a site of it): the wrist actuators' gains become 10 and biases -10,
// the fingers' 1 and -1, as the reference sets them after loading. A reset
// (mj_resetData, then the task's reset_model) draws, from np_random_ in the
// reference's order, the door's place (3 uniforms), the nail board's height
// (1), the pen target's two Euler angles (2) or the ball's xy and the
// target's xyz (2 + 3), then sets qpos0 and zero velocities and runs
// mj_forward. A step clips the float32 action to [-1, 1], maps it to the
// actuators' control ranges (mean + a x half-range, in float64), steps
// frame_skip times and runs mj_rnePostConstraint, as MujocoEnv.do_simulation
// does.
#ifndef ENVPOOL_ROBOTICS_ADROIT_ENV_H_
#define ENVPOOL_ROBOTICS_ADROIT_ENV_H_

#include <mujoco/mujoco.h>

#include <memory>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/mujoco_common/model.h"
#include "envpool/mujoco_common/model_view.h"

namespace envpool::robotics {

class AdroitHandEnv : public Env {
 public:
  enum class Task { kDoor, kHammer, kPen, kRelocate };

  struct Fields {
    Field<double> obs;
    Field<float> action;
    Field<double> success;   // the reference's info["success"] (as 1.0/0.0)
    Field<double> distance;  // the goal distance the success is judged on
  };
  static Options DefaultOptions();
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields);
  AdroitHandEnv(const Options& options, const Fields& fields);

  void Reset() override;
  void Step(const ActionView& action) override;
  void Write(const Output& out) override;
  void Render(int width, int height, int camera_id, uint8_t* rgb) override;

  void SaveState(StateWriter* writer) const override;
  void LoadState(StateReader* reader) override;

  // Test hooks: qpos (nq), qvel (nv), then the reset's draws (the door's
  // place: 3; the board's height: 1; the pen target's two Euler angles: 2;
  // the ball's xy and the target's xyz: 5). SetState puts them in place as
  // the reference's set_state does (mj_forward) and observes.
  std::vector<double> GetState() const override;
  void SetState(const std::vector<double>& state) override;

 private:
  // The reset's draws, written into this env's model.
  void ApplyResetParameters();
  void Observe();
  // The reward and success of the state after a step.
  void Judge();

  Fields fields_;
  Task task_;
  // Shared by the process's envs of this model but for the arrays this env
  // writes: the servos' gains and biases (set once, here), and body_pos,
  // body_quat and site_pos (a reset moves a body or the target).
  mujoco_common::ModelView model_;
  mujoco_common::DataPtr data_;
  int frame_skip_;
  bool dense_;
  std::vector<double> act_mean_;
  std::vector<double> act_half_range_;
  // Model elements (-1 where the task has none).
  int grasp_site_ = -1;
  int moved_body_ = -1;  // door frame, nail board, pen target or ball
  int target_site_ = -1;
  int handle_site_ = -1;
  int door_hinge_ = -1;  // the hinge's address (jnt_dofadr, as the reference)
  int tool_site_ = -1;
  int goal_site_ = -1;
  int nail_sensor_ = -1;  // a sensor id, read as a sensordata index
  int object_body_ = -1;
  int object_top_site_ = -1;
  int object_bottom_site_ = -1;
  int target_top_site_ = -1;
  int target_bottom_site_ = -1;
  // The episode: the reset's draws (3, 1, 2 or 5 numbers), the pen's
  // lengths, and what the last reset or step left.
  std::vector<double> reset_parameters_;
  double pen_length_ = 1.0;
  double target_length_ = 1.0;
  std::vector<double> observation_;
  double success_ = 0.0;
  double distance_ = 0.0;
  bool has_camera_ = false;
  mjvCamera camera_{};
};

}  // namespace envpool::robotics

#endif  // ENVPOOL_ROBOTICS_ADROIT_ENV_H_
