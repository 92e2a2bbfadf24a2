// Reacher: a two-joint arm reaching for a random target in the plane.
//
// v2 (gym) and v4 (gymnasium) compute the reward before the step and
// observe the fingertip-to-target vector in 3D; v5 computes it after the
// step (reward_after_step) and drops the z component
// (obs_include_z_distance).
#ifndef ENVPOOL_MUJOCO_REACHER_H_
#define ENVPOOL_MUJOCO_REACHER_H_

#include <cmath>
#include <string>

#include "envpool/mujoco/mujoco_env.h"

namespace envpool::mujoco {

class ReacherEnv : public MujocoEnv {
 public:
  using Fields = MujocoFields;

  static Options DefaultOptions() {
    Options options = CommonOptions("reacher.xml", 2, 50);
    options.Define("ctrl_cost_weight", 1.0);
    options.Define("dist_cost_weight", 1.0);
    options.Define("obs_include_z_distance", true);
    options.Define("reward_after_step", false);
    // The arm's joints start within +-reset_qpos_scale, its velocities
    // within +-reset_qvel_scale; the target is uniform in the disc of
    // radius reset_goal_scale.
    options.Define("reset_qpos_scale", 0.1);
    options.Define("reset_qvel_scale", 5e-3);
    options.Define("reset_goal_scale", 0.2);
    return options;
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    auto model = LoadModel(options.Get<std::string>("xml_file"));
    const int obs_dim = 2 + 2 + (model->nq - 2) + 2 +
                        (options.Get<bool>("obs_include_z_distance") ? 3 : 2);
    DeclareSpec(options, *model, obs_dim, {"reward_dist", "reward_ctrl"}, false,
                spec, fields);
  }

  ReacherEnv(const Options& options, const Fields& fields)
      : MujocoEnv(options, fields),
        ctrl_cost_weight_(options.Get<double>("ctrl_cost_weight")),
        dist_cost_weight_(options.Get<double>("dist_cost_weight")),
        obs_include_z_distance_(options.Get<bool>("obs_include_z_distance")),
        reward_after_step_(options.Get<bool>("reward_after_step")),
        reset_qpos_scale_(options.Get<double>("reset_qpos_scale")),
        reset_qvel_scale_(options.Get<double>("reset_qvel_scale")),
        reset_goal_scale_(options.Get<double>("reset_goal_scale")),
        fingertip_(BodyId("fingertip")),
        target_(BodyId("target")) {}

  // gymnasium's reset_model, draw for draw from np_random: qpos noise
  // (uniform, size=nq), then goals (uniform, size=2) until one lies inside
  // the disc, then qvel noise (uniform, size=nv); the target's qpos takes
  // the goal and its qvel is zero.
  void Reset() override {
    ResetData();
    const int nq = model_->nq;
    const int nv = model_->nv;
    for (int i = 0; i < nq; ++i) {
      data_->qpos[i] += Uniform(-reset_qpos_scale_, reset_qpos_scale_);
    }
    const double g = reset_goal_scale_;
    double goal[2];
    do {
      goal[0] = Uniform(-g, g);
      goal[1] = Uniform(-g, g);
    } while (!(Norm(goal, 2) < g));
    data_->qpos[nq - 2] = goal[0];
    data_->qpos[nq - 1] = goal[1];
    for (int i = 0; i < nv; ++i) {
      data_->qvel[i] += Uniform(-reset_qvel_scale_, reset_qvel_scale_);
    }
    data_->qvel[nv - 2] = 0.0;
    data_->qvel[nv - 1] = 0.0;
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
    const double* qpos = data_->qpos;
    *obs++ = std::cos(qpos[0]);
    *obs++ = std::cos(qpos[1]);
    *obs++ = std::sin(qpos[0]);
    *obs++ = std::sin(qpos[1]);
    for (int i = 2; i < model_->nq; ++i) {
      *obs++ = qpos[i];
    }
    *obs++ = data_->qvel[0];
    *obs++ = data_->qvel[1];
    const int dims = obs_include_z_distance_ ? 3 : 2;
    for (int k = 0; k < dims; ++k) {
      *obs++ = data_->xpos[3 * fingertip_ + k] - data_->xpos[3 * target_ + k];
    }
  }

 private:
  void ComputeReward(const double* act) {
    double vec[3];
    for (int k = 0; k < 3; ++k) {
      vec[k] = data_->xpos[3 * fingertip_ + k] - data_->xpos[3 * target_ + k];
    }
    const double reward_dist = -Norm(vec, 3) * dist_cost_weight_;
    const double reward_ctrl =
        -SumOfSquares(act, model_->nu) * ctrl_cost_weight_;
    reward_ = reward_dist + reward_ctrl;
    info_ = {reward_dist, reward_ctrl};
  }

  double ctrl_cost_weight_;
  double dist_cost_weight_;
  bool obs_include_z_distance_;
  bool reward_after_step_;
  double reset_qpos_scale_;
  double reset_qvel_scale_;
  double reset_goal_scale_;
  int fingertip_;
  int target_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_REACHER_H_
