// Meta-World's Sawyer tasks (metaworld 3.1.1, sawyer_xyz_env.py's
// SawyerXYZEnv and envs/sawyer_*_v3.py) on MuJoCo's own library: a 7-DoF
// Sawyer arm whose hand follows a mocap body welded to it, and a two-finger
// gripper with position actuators.
//
// Setup, once per env: the task's model, copied (the mocap weld's eq_data
// and the goal site's position change), with reset_mocap_welds' weld data.
// A reset replays what the reference's reset() does: its first
// reset_model() (run on the previous episode's state, all of whose physics
// mj_resetData then discards) leaves only its draws of the task vector from
// np_random_; then mj_resetData, the hand held at the task's initial
// position for 50 x frame_skip physics steps with the fingers opened, the
// task vector drawn again (object and goal positions, redrawn while the two
// are closer than 0.15 in xy), the object placed, and the 39 numbers
// observed: the hand, the fingers' opening, the object's position and
// quaternion (padded to 14), the same 18 again as the previous frame, and
// the goal (zeros when partially observable). A step clips the action's xyz
// to [-1, 1], moves the mocap by 0.01 x it (float32, as numpy multiplies
// the float32 action) within the task's hand bounds, drives the fingers
// with +-action[3] (unclipped, as the reference; MuJoCo clamps the
// control), steps frame_skip times, runs mj_forward, observes, clips the
// observation to the reference's space and computes the task's reward.
#ifndef ENVPOOL_METAWORLD_SAWYER_ENV_H_
#define ENVPOOL_METAWORLD_SAWYER_ENV_H_

#include <mujoco/mujoco.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/metaworld/task_sampling.h"
#include "envpool/metaworld/tasks.h"
#include "envpool/mujoco_common/model.h"
#include "envpool/mujoco_common/model_view.h"

namespace envpool::metaworld {

inline constexpr int kObsDim = 39;
inline constexpr int kFrameDim = 18;

class SawyerEnv : public Env {
 public:
  struct Fields {
    Field<double> obs;
    Field<float> action;
    Field<double> success;
    Field<double> near_object;
    Field<double> grasp_success;
    Field<double> grasp_reward;
    Field<double> in_place_reward;
    Field<double> obj_to_target;
    Field<double> unscaled_reward;
    Field<int32_t> task_id;
  };
  static Options DefaultOptions();
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields);
  SawyerEnv(const Options& options, const Fields& fields);

  void Reset() override;
  void Step(const ActionView& action) override;
  void Write(const Output& out) override;
  // gymnasium's MujocoRenderer as Meta-World's envs make it (no camera
  // named: the free camera, gymnasium's defaults), through
  // //envpool/render:mujoco_egl.
  void Render(int width, int height, int camera_id, uint8_t* rgb) override;

  void SaveState(StateWriter* writer) const override;
  void LoadState(StateReader* reader) override;

 private:
  // One reset_model()'s task vector: a benchmark's frozen one, else drawn
  // from np_random_ (seeded_rand_vec) with the task's redraw rule.
  std::vector<double> DrawPlacement();
  bool IsPlateSlide() const {
    return task_->kind == TaskKind::kPlateSlide ||
           task_->kind == TaskKind::kPlateSlideSide;
  }
  bool IsHandle() const {
    return task_->kind == TaskKind::kHandlePress ||
           task_->kind == TaskKind::kHandlePull ||
           task_->kind == TaskKind::kHandlePullSide;
  }
  bool IsWindow() const { return task_->kind == TaskKind::kWindowOpen; }
  bool IsDrawer() const { return task_->kind == TaskKind::kDrawerOpen; }
  bool IsCoffee() const { return task_->kind == TaskKind::kCoffeeButton; }
  // coffee-push and coffee-pull: the mug is the object.
  bool IsMug() const {
    return task_->kind == TaskKind::kCoffeePush ||
           task_->kind == TaskKind::kCoffeePull;
  }
  bool IsLever() const { return task_->kind == TaskKind::kLeverPull; }
  bool IsDoorLock() const {
    return task_->kind == TaskKind::kDoorLock ||
           task_->kind == TaskKind::kDoorUnlock;
  }
  // Tasks that observe a site (and a zero quaternion) as their object.
  bool ObservesSite() const {
    return IsHandle() || IsWindow() || IsCoffee() || IsDoorLock() || IsLever();
  }
  // hammer, disassemble, assembly, bin-picking, box-close, peg-unplug-side,
  // basketball, peg-insert-side, stick-push, stick-pull.
  bool IsTool() const {
    return task_->kind == TaskKind::kHammer ||
           task_->kind == TaskKind::kDisassemble ||
           task_->kind == TaskKind::kAssembly ||
           task_->kind == TaskKind::kBinPicking ||
           task_->kind == TaskKind::kBoxClose ||
           task_->kind == TaskKind::kPegUnplugSide ||
           task_->kind == TaskKind::kBasketball ||
           task_->kind == TaskKind::kPegInsertSide || IsStick();
  }
  bool IsStick() const {
    return task_->kind == TaskKind::kStickPush ||
           task_->kind == TaskKind::kStickPull;
  }
  void SetUpTool();
  void ResetTool(const std::vector<double>& vec);
  void ToolFrame(double* frame) const;
  void EvaluateTool(float effort, TaskInfo* info, Number* reward) const;
  void EvaluatePegInsert(float effort, TaskInfo* info, Number* reward) const;
  void EvaluateStick(float effort, TaskInfo* info, Number* reward) const;
  // Sets the in-place margin at the episode's first step.
  Number EvaluateBinPicking(float effort, TaskInfo* info);
  bool IsButton() const {
    return task_->kind == TaskKind::kButtonPress ||
           task_->kind == TaskKind::kButtonPressWall ||
           task_->kind == TaskKind::kButtonPressTopdown ||
           task_->kind == TaskKind::kButtonPressTopdownWall;
  }
  // The tasks whose rewards call np.exp (the "gaussian" tolerance) or
  // np.log: their model elements, placement, observed object and reward.
  bool CallsNumpyExpOrLog() const {
    return task_->kind == TaskKind::kDoorOpen ||
           task_->kind == TaskKind::kPickOutOfHole ||
           task_->kind == TaskKind::kWindowClose ||
           task_->kind == TaskKind::kDrawerClose ||
           task_->kind == TaskKind::kFaucetOpen ||
           task_->kind == TaskKind::kFaucetClose ||
           task_->kind == TaskKind::kDoorClose ||
           task_->kind == TaskKind::kDialTurn;
  }
  void FindGaussianTaskElements();
  void PlaceGaussianTask(const std::vector<double>& vec);
  void GaussianTaskObject(double* pos_and_quat) const;
  Number EvaluateGaussianTask(float effort, TaskInfo* info) const;
  // dial-turn's _get_pos_objects: the dial's body position plus 0.05 times
  // (sin, -cos, 0) of the knob's angle.
  std::array<double, 3> DialPosition() const;
  // The model side of a placement: moves moved_body_ as the task vector
  // says.
  void MoveBody(const std::vector<double>& vec);
  void ResetHand();
  // One reset_model(): the hand's reset, the task vector drawn and the
  // task placed (the model's bodies and sites, the episode's targets).
  void ResetModel();
  void PlaceGoalSite();
  void SetObjectPosition(const std::array<double, 3>& pos);
  std::array<double, 3> TcpCenter() const;
  std::array<double, 3> BodyPos(int body) const;
  void CurrentFrame(double* frame) const;
  void ObjectQuaternion(double* quat) const;
  bool TouchingObject() const;
  void ClipObservation();
  void Evaluate(float gripper_effort);
  // sawyer_xyz_env.py's _gripper_caging_reward, and pick-place's own.
  // A reach_radius of 0 or more asks for its medium density (the mean
  // with the reach's reward).
  Number GripperCaging(float effort, const double* obj, double obj_radius,
                       double pad_success_thresh, double xz_thresh,
                       bool high_density, double desired_effort = 1.0,
                       double reach_radius = -1.0) const;
  Number PickPlaceCaging(float effort, const double* obj) const;
  // push-back's, sweep-into's and sweep's own caging reward, which ignores the
  // gripper's effort: gripping within obj_radius + grip_allowance.
  double PushBackCaging(const double* obj, double obj_radius,
                        double grip_allowance,
                        double xz_success_margin = 0.01) const;

  Fields fields_;
  const TaskConfig* task_;
  // Shared by the task's envs but for body_pos (the bodies a reset moves),
  // site_pos (the goal and the sites it places) and eq_data (the mocap
  // weld), which this env writes.
  mujoco_common::ModelView model_;
  mujoco_common::DataPtr data_;
  int frame_skip_;
  bool partially_observable_;
  // Whether a reset runs the reference's first reset_model() in full (its
  // physics included) rather than only its draws and model moves: when
  // rendering, whose reset frame shows what it placed.
  bool full_first_reset_model_;
  // Model elements.
  int hand_body_ = -1;
  int mocap_ = -1;
  int right_claw_ = -1;
  int left_claw_ = -1;
  int right_effector_ = -1;
  int left_effector_ = -1;
  int left_pad_ = -1;
  int right_pad_ = -1;
  int left_pad_geom_ = -1;
  int right_pad_geom_ = -1;
  int obj_body_ = -1;
  int obj_geom_ = -1;
  int goal_site_ = -1;
  // The body a reset moves in the model (a button's box, a plate-slide
  // marker), or -1.
  int moved_body_ = -1;
  int button_body_ = -1;
  int hole_site_ = -1;
  int button_start_site_ = -1;
  int object_site_ = -1;  // handles: the observed site
  int goal_press_site_ = -1;
  int window_slide_ = -1;
  int drawer_link_ = -1;
  int door_link_ = -1;
  int lock_link_ = -1;
  int lever_axis_ = -1;
  // The tool tasks: the observed bodies (the second is the hammer's nail),
  // the body whose quaternion is observed with a site's position, the
  // nail's slide joint, the wrench's centre site, basketball's goal site.
  int tool_body_ = -1;
  int tool_second_body_ = -1;
  int tool_quat_body_ = -1;
  int nail_qpos_ = -1;
  int wrench_center_site_ = -1;
  int hoop_goal_site_ = -1;
  int box_goal_site_ = -1;
  int peg_head_site_ = -1;  // peg-insert-side
  // Its collision boxes' corners: (bottom right, top left) of box 1, box 2.
  std::array<int, 4> collision_corner_sites_{-1, -1, -1, -1};
  int insertion_site_ = -1;  // the stick tasks' thermos
  int stick_end_site_ = -1;
  int peg_top_site_ = -1;
  int bin_goal_body_ = -1;  // bin-picking's goal
  // door-close's door hinge, dial-turn's knob.
  int reset_joint_ = -1;
  // The episode.
  std::array<double, 3> target_pos_{};
  // A benchmark's task vector per reset (task_sampling.h), or null.
  std::unique_ptr<TaskSampler> task_sampler_;
  const std::vector<double>* task_vector_ = nullptr;
  std::array<double, 3> obj_init_pos_{};
  std::array<double, 3> init_tcp_{};
  double obj_to_target_init_ = 0.0;  // buttons
  std::array<double, 3> handle_init_{};
  // shelf-place: the goal site's place on the shelf (the model's).
  std::array<double, 3> shelf_goal_offset_{};  // window-open's handle at reset
  std::array<double, kFrameDim> prev_frame_{};
  std::array<double, kObsDim> obs_{};
  TaskInfo info_{};
  // The free camera, placed at the first frame (as gymnasium's viewer is
  // made then).
  bool has_camera_ = false;
  mjvCamera camera_{};
};

}  // namespace envpool::metaworld

#endif  // ENVPOOL_METAWORLD_SAWYER_ENV_H_
