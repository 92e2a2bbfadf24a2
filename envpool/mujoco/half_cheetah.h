// HalfCheetah: a planar two-legged runner rewarded for speed along +x.
//
// v3 (gym), v4 and v5 (gymnasium) share the equations; v5 names the forward
// term reward_forward where v3/v4 name it reward_run (info has both).
#ifndef ENVPOOL_MUJOCO_HALF_CHEETAH_H_
#define ENVPOOL_MUJOCO_HALF_CHEETAH_H_

#include <algorithm>
#include <string>

#include "envpool/mujoco/mujoco_env.h"

namespace envpool::mujoco {

class HalfCheetahEnv : public MujocoEnv {
 public:
  using Fields = MujocoFields;

  static Options DefaultOptions() {
    Options options = CommonOptions("half_cheetah.xml", 5, 1000);
    options.Define("forward_reward_weight", 1.0);
    options.Define("ctrl_cost_weight", 0.1);
    options.Define("reset_noise_scale", 0.1);
    options.Define("exclude_current_positions_from_observation", true);
    return options;
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    auto model = LoadModel(options.Get<std::string>("xml_file"));
    int obs_dim = model->nq + model->nv;
    if (options.Get<bool>("exclude_current_positions_from_observation")) {
      obs_dim -= 1;
    }
    DeclareSpec(options, *model, obs_dim,
                {"x_position", "x_velocity", "reward_run", "reward_forward",
                 "reward_ctrl"},
                false, spec, fields);
  }

  HalfCheetahEnv(const Options& options, const Fields& fields)
      : MujocoEnv(options, fields),
        forward_reward_weight_(options.Get<double>("forward_reward_weight")),
        ctrl_cost_weight_(options.Get<double>("ctrl_cost_weight")),
        reset_noise_scale_(options.Get<double>("reset_noise_scale")),
        exclude_positions_(
            options.Get<bool>("exclude_current_positions_from_observation")) {}

  void Reset() override {
    ResetWithNoise(reset_noise_scale_, VelocityNoise::kNormal);
  }

  void Step(const ActionView& action) override {
    const double* act = action.Get(fields_.action);
    const double x_before = data_->qpos[0];
    DoSimulation(act);
    const double x_after = data_->qpos[0];
    const double x_velocity = (x_after - x_before) / dt();
    const double forward_reward = forward_reward_weight_ * x_velocity;
    const double ctrl_cost = ctrl_cost_weight_ * SumOfSquares(act, model_->nu);
    reward_ = forward_reward - ctrl_cost;
    terminated_ = false;
    info_ = {x_after, x_velocity, forward_reward, forward_reward, -ctrl_cost};
    FinishStep();
  }

 protected:
  void Observe(double* obs) const override {
    const int skip = exclude_positions_ ? 1 : 0;
    obs = std::copy(data_->qpos + skip, data_->qpos + model_->nq, obs);
    std::copy(data_->qvel, data_->qvel + model_->nv, obs);
  }

  void ResetInfo() override { info_[0] = data_->qpos[0]; }

  // gymnasium's DEFAULT_CAMERA_CONFIG for this task.
  CameraConfig DefaultCamera() const override {
    CameraConfig c = NoCameraConfig();
    c.distance = 4.0;
    return c;
  }

 private:
  double forward_reward_weight_;
  double ctrl_cost_weight_;
  double reset_noise_scale_;
  bool exclude_positions_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_HALF_CHEETAH_H_
