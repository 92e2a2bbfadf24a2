// Swimmer: a three-link snake in a viscous fluid rewarded for swimming
// along +x.
//
// v3 (gym), v4 and v5 (gymnasium) share the equations; v5 names the forward
// term reward_forward where v3/v4 name it reward_fwd (info has both).
#ifndef ENVPOOL_MUJOCO_SWIMMER_H_
#define ENVPOOL_MUJOCO_SWIMMER_H_

#include <algorithm>
#include <string>

#include "envpool/mujoco/mujoco_env.h"

namespace envpool::mujoco {

class SwimmerEnv : public MujocoEnv {
 public:
  using Fields = MujocoFields;

  static Options DefaultOptions() {
    Options options = CommonOptions("swimmer.xml", 4, 1000);
    options.Define("forward_reward_weight", 1.0);
    options.Define("ctrl_cost_weight", 1e-4);
    options.Define("reset_noise_scale", 0.1);
    options.Define("exclude_current_positions_from_observation", true);
    return options;
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    auto model = LoadModel(options.Get<std::string>("xml_file"));
    int obs_dim = model->nq + model->nv;
    if (options.Get<bool>("exclude_current_positions_from_observation")) {
      obs_dim -= 2;
    }
    DeclareSpec(options, *model, obs_dim,
                {"reward_fwd", "reward_forward", "reward_ctrl", "x_position",
                 "y_position", "distance_from_origin", "x_velocity",
                 "y_velocity", "forward_reward"},
                false, spec, fields);
  }

  SwimmerEnv(const Options& options, const Fields& fields)
      : MujocoEnv(options, fields),
        forward_reward_weight_(options.Get<double>("forward_reward_weight")),
        ctrl_cost_weight_(options.Get<double>("ctrl_cost_weight")),
        reset_noise_scale_(options.Get<double>("reset_noise_scale")),
        exclude_positions_(
            options.Get<bool>("exclude_current_positions_from_observation")) {}

  void Reset() override {
    ResetWithNoise(reset_noise_scale_, VelocityNoise::kUniform);
  }

  void Step(const ActionView& action) override {
    const double* act = action.Get(fields_.action);
    const double x_before = data_->qpos[0];
    const double y_before = data_->qpos[1];
    DoSimulation(act);
    const double position[2] = {data_->qpos[0], data_->qpos[1]};
    const double x_velocity = (position[0] - x_before) / dt();
    const double y_velocity = (position[1] - y_before) / dt();
    const double forward_reward = forward_reward_weight_ * x_velocity;
    const double ctrl_cost = ctrl_cost_weight_ * SumOfSquares(act, model_->nu);
    reward_ = forward_reward - ctrl_cost;
    terminated_ = false;
    info_ = {forward_reward, forward_reward, -ctrl_cost,
             position[0],    position[1],    Norm(position, 2),
             x_velocity,     y_velocity,     forward_reward};
    FinishStep();
  }

 protected:
  void Observe(double* obs) const override {
    const int skip = exclude_positions_ ? 2 : 0;
    obs = std::copy(data_->qpos + skip, data_->qpos + model_->nq, obs);
    std::copy(data_->qvel, data_->qvel + model_->nv, obs);
  }

  void ResetInfo() override {
    const double position[2] = {data_->qpos[0], data_->qpos[1]};
    info_[3] = position[0];
    info_[4] = position[1];
    info_[5] = Norm(position, 2);
  }

 private:
  double forward_reward_weight_;
  double ctrl_cost_weight_;
  double reset_noise_scale_;
  bool exclude_positions_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_SWIMMER_H_
