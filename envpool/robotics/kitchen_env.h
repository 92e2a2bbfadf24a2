// gymnasium-robotics' FrankaKitchen-v1 (envs/franka_kitchen/kitchen_env.py's
// KitchenEnv on franka_env.py's FrankaRobot): a Franka arm in a kitchen
// with seven tasks (burners, light switch, cabinets, microwave, kettle).
//
// A reset (mj_resetData, then the reference's fixed initial qpos and zero
// velocities, mj_forward) observes with noise, drawn from np_random_ in the
// reference's order: the robot's 9 positions and 9 velocities (uniform in
// [-1, 1] times robot_noise_ratio times franka_config.xml's amplitudes),
// then the objects' 21 positions and 20 velocities (object_noise_ratio; the
// positions' amplitudes taken from index 8 on, the velocities' from 9, as
// the reference indexes them). A step clips the float64 action to [-1, 1],
// turns it into joint velocities (x 2, clipped to the velocity bounds),
// into position targets from the last noisy robot positions (+ velocity x
// dt, clipped to the position bounds), steps frame_skip times, runs
// mj_rnePostConstraint and observes. The reward counts the tasks still to
// complete whose elements are within 0.3 of their goal (the noiseless
// positions); those are then removed (remove_task_when_completed) and the
// episode ends once every task was completed (terminate_on_tasks_completed).
#ifndef ENVPOOL_ROBOTICS_KITCHEN_ENV_H_
#define ENVPOOL_ROBOTICS_KITCHEN_ENV_H_

#include <mujoco/mujoco.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/mujoco_common/model.h"

namespace envpool::robotics {

// The seven tasks, in the reference's OBS_ELEMENT_GOALS order.
constexpr int kKitchenTasks = 7;

class FrankaKitchenEnv : public Env {
 public:
  struct Fields {
    Field<double> observation;
    std::vector<Field<double>> achieved_goal;  // per task of the option
    std::vector<Field<double>> desired_goal;
    Field<double> action;
    // One flag per task of the seven, in OBS_ELEMENT_GOALS order: the
    // reference's lists of task names as masks.
    Field<bool> tasks_to_complete;
    Field<bool> step_task_completions;
    Field<bool> episode_task_completions;
  };
  static Options DefaultOptions();
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields);
  FrankaKitchenEnv(const Options& options, const Fields& fields);

  void Reset() override;
  void Step(const ActionView& action) override;
  void Write(const Output& out) override;
  void Render(int width, int height, int camera_id, uint8_t* rgb) override;

  void SaveState(StateWriter* writer) const override;
  void LoadState(StateReader* reader) override;

  // Test hooks: qpos (30) and qvel (29). SetState puts them in place as the
  // reference's set_state does (mj_forward); the next step still moves
  // from the last observed robot positions, as the reference's does.
  std::vector<double> GetState() const override;
  void SetState(const std::vector<double>& state) override;

 private:
  void Observe();

  Fields fields_;
  std::shared_ptr<const mjModel> model_;  // shared: the envs never change it
  mujoco_common::DataPtr data_;
  int frame_skip_;
  double robot_noise_ratio_;
  double object_noise_ratio_;
  bool remove_task_when_completed_;
  bool terminate_on_tasks_completed_;
  std::vector<int> goal_tasks_;  // the option's tasks, in its order
  // The episode.
  std::array<double, 9> last_robot_qpos_{};  // noisy, as last observed
  std::vector<double> observation_;
  std::array<bool, kKitchenTasks> to_complete_{};
  std::array<bool, kKitchenTasks> step_completions_{};
  std::array<bool, kKitchenTasks> episode_completions_{};
  bool has_camera_ = false;
  mjvCamera camera_{};
};

}  // namespace envpool::robotics

#endif  // ENVPOOL_ROBOTICS_KITCHEN_ENV_H_
