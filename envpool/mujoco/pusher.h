// Pusher: a seven-joint arm pushing a cylinder to a goal on a table.
//
// v2 (gym) and v4 (gymnasium) compute the reward before the step and report
// unweighted terms in info; v5 computes it after the step
// (reward_after_step), reports weighted terms plus reward_near
// (weighted_reward_info) and loads pusher_v5.xml (a heavier cylinder).
// gymnasium refuses Pusher-v4 on mujoco 3; on the same engine its equations
// run unchanged here.
#ifndef ENVPOOL_MUJOCO_PUSHER_H_
#define ENVPOOL_MUJOCO_PUSHER_H_

#include <stdexcept>
#include <string>

#include "envpool/mujoco/mujoco_env.h"

namespace envpool::mujoco {

class PusherEnv : public MujocoEnv {
 public:
  using Fields = MujocoFields;

  static Options DefaultOptions() {
    Options options = CommonOptions("pusher.xml", 5, 100);
    options.Define("ctrl_cost_weight", 0.1);
    options.Define("dist_cost_weight", 1.0);
    options.Define("near_cost_weight", 0.5);
    options.Define("reward_after_step", false);
    options.Define("weighted_reward_info", false);
    // The cylinder starts uniform in this rectangle, farther than
    // cylinder_dist_min from the goal at the origin.
    options.Define("cylinder_x_min", -0.3);
    options.Define("cylinder_x_max", 0.0);
    options.Define("cylinder_y_min", -0.2);
    options.Define("cylinder_y_max", 0.2);
    options.Define("cylinder_dist_min", 0.17);
    options.Define("reset_qvel_scale", 5e-3);
    return options;
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    auto model = LoadModel(options.Get<std::string>("xml_file"));
    DeclareSpec(options, *model, 7 + 7 + 3 * 3,
                {"reward_dist", "reward_ctrl", "reward_near"}, false, spec,
                fields);
  }

  PusherEnv(const Options& options, const Fields& fields)
      : MujocoEnv(options, fields),
        ctrl_cost_weight_(options.Get<double>("ctrl_cost_weight")),
        dist_cost_weight_(options.Get<double>("dist_cost_weight")),
        near_cost_weight_(options.Get<double>("near_cost_weight")),
        reward_after_step_(options.Get<bool>("reward_after_step")),
        weighted_reward_info_(options.Get<bool>("weighted_reward_info")),
        cylinder_x_min_(options.Get<double>("cylinder_x_min")),
        cylinder_x_max_(options.Get<double>("cylinder_x_max")),
        cylinder_y_min_(options.Get<double>("cylinder_y_min")),
        cylinder_y_max_(options.Get<double>("cylinder_y_max")),
        cylinder_dist_min_(options.Get<double>("cylinder_dist_min")),
        reset_qvel_scale_(options.Get<double>("reset_qvel_scale")),
        tips_arm_(BodyId("tips_arm")),
        object_(BodyId("object")),
        goal_(BodyId("goal")) {
    if (model_->nq < 11 || model_->nv < 11) {
      throw std::invalid_argument(
          "Pusher needs the arm's 7 joints and the cylinder's and goal's 2 "
          "each");
    }
  }

  // gymnasium's reset_model, draw for draw from np_random: cylinder
  // positions (uniform x, then uniform y) until one is far enough from the
  // goal, then qvel noise (uniform, size=nv), zero for the cylinder and the
  // goal; the arm starts at the model's qpos.
  void Reset() override {
    ResetData();
    const int nq = model_->nq;
    const int nv = model_->nv;
    double cylinder[2];
    do {
      cylinder[0] = Uniform(cylinder_x_min_, cylinder_x_max_);
      cylinder[1] = Uniform(cylinder_y_min_, cylinder_y_max_);
    } while (!(Norm(cylinder, 2) > cylinder_dist_min_));
    data_->qpos[nq - 4] = cylinder[0];
    data_->qpos[nq - 3] = cylinder[1];
    data_->qpos[nq - 2] = 0.0;  // the goal
    data_->qpos[nq - 1] = 0.0;
    for (int i = 0; i < nv; ++i) {
      data_->qvel[i] += Uniform(-reset_qvel_scale_, reset_qvel_scale_);
    }
    for (int i = nv - 4; i < nv; ++i) {
      data_->qvel[i] = 0.0;
    }
    Forward();
    FinishReset();
  }

  void Step(const ActionView& action) override {
    const double* act = action.Get(fields_.action);
    if (!reward_after_step_) {
      ComputeReward(act);
    }
    DoSimulation(act);
    if (reward_after_step_) {
      ComputeReward(act);
    }
    terminated_ = false;
    FinishStep();
  }

 protected:
  void Observe(double* obs) const override {
    obs = std::copy(data_->qpos, data_->qpos + 7, obs);
    obs = std::copy(data_->qvel, data_->qvel + 7, obs);
    for (int body : {tips_arm_, object_, goal_}) {
      obs = std::copy(data_->xpos + 3 * body, data_->xpos + 3 * body + 3, obs);
    }
  }

  // gymnasium's DEFAULT_CAMERA_CONFIG for this task.
  CameraConfig DefaultCamera() const override {
    CameraConfig c = NoCameraConfig();
    c.distance = 4.0;
    return c;
  }

 private:
  void ComputeReward(const double* act) {
    double to_arm[3];
    double to_goal[3];
    for (int k = 0; k < 3; ++k) {
      to_arm[k] = data_->xpos[3 * object_ + k] - data_->xpos[3 * tips_arm_ + k];
      to_goal[k] = data_->xpos[3 * object_ + k] - data_->xpos[3 * goal_ + k];
    }
    const double near = -Norm(to_arm, 3);
    const double dist = -Norm(to_goal, 3);
    const double ctrl = -SumOfSquares(act, model_->nu);
    const double weighted_near = near * near_cost_weight_;
    const double weighted_dist = dist * dist_cost_weight_;
    const double weighted_ctrl = ctrl * ctrl_cost_weight_;
    reward_ = (weighted_dist + weighted_ctrl) + weighted_near;
    if (weighted_reward_info_) {
      info_ = {weighted_dist, weighted_ctrl, weighted_near};
    } else {
      info_ = {dist, ctrl, near};
    }
  }

  double ctrl_cost_weight_;
  double dist_cost_weight_;
  double near_cost_weight_;
  bool reward_after_step_;
  bool weighted_reward_info_;
  double cylinder_x_min_;
  double cylinder_x_max_;
  double cylinder_y_min_;
  double cylinder_y_max_;
  double cylinder_dist_min_;
  double reset_qvel_scale_;
  int tips_arm_;
  int object_;
  int goal_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_PUSHER_H_
