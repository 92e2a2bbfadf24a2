// HumanoidStandup: the Humanoid lying on the ground, rewarded for raising
// its torso (the reward is its height over the simulation timestep).
//
// v2 (gym) and v4 (gymnasium) share the equations; v5 leaves the world body
// and the root's actuator forces out of the observation and adds positions
// and tendons to info.  The impact cost reads cfrc_ext, which holds the
// contact forces only with post_constraint (v5).
#ifndef ENVPOOL_MUJOCO_HUMANOID_STANDUP_H_
#define ENVPOOL_MUJOCO_HUMANOID_STANDUP_H_

#include <algorithm>
#include <string>

#include "envpool/mujoco/humanoid.h"
#include "envpool/mujoco/mujoco_env.h"

namespace envpool::mujoco {

class HumanoidStandupEnv : public MujocoEnv {
 public:
  using Fields = MujocoFields;

  static Options DefaultOptions() {
    Options options = CommonOptions("humanoidstandup.xml", 5, 1000);
    // The weight of the height term (gymnasium's uph_cost).
    options.Define("forward_reward_weight", 1.0);
    options.Define("ctrl_cost_weight", 0.1);
    options.Define("contact_cost_weight", 5e-7);
    options.Define("contact_cost_max", 10.0);
    // Paid on every step.
    options.Define("healthy_reward", 1.0);
    options.Define("reset_noise_scale", 1e-2);
    DefineHumanoidObservationOptions(&options);
    return options;
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    auto model = LoadModel(options.Get<std::string>("xml_file"));
    DeclareSpec(options, *model, HumanoidObservation(options).Size(*model),
                {"reward_linup", "reward_quadctrl", "reward_impact",
                 "x_position", "y_position", "z_distance_from_origin"},
                true, spec, fields);
  }

  HumanoidStandupEnv(const Options& options, const Fields& fields)
      : MujocoEnv(options, fields),
        observation_(options),
        forward_reward_weight_(options.Get<double>("forward_reward_weight")),
        ctrl_cost_weight_(options.Get<double>("ctrl_cost_weight")),
        contact_cost_weight_(options.Get<double>("contact_cost_weight")),
        contact_cost_max_(options.Get<double>("contact_cost_max")),
        healthy_reward_(options.Get<double>("healthy_reward")),
        reset_noise_scale_(options.Get<double>("reset_noise_scale")) {}

  void Reset() override {
    ResetWithNoise(reset_noise_scale_, VelocityNoise::kUniform);
  }

  void Step(const ActionView& action) override {
    DoSimulation(action.Get(fields_.action));
    const double height = data_->qpos[2];
    const double uph_cost =
        forward_reward_weight_ * ((height - 0) / model_->opt.timestep);
    const double ctrl_cost =
        ctrl_cost_weight_ * SumOfSquares(data_->ctrl, model_->nu);
    const double impact_cost = std::min(
        contact_cost_weight_ * SumOfSquares(data_->cfrc_ext, 6 * model_->nbody),
        contact_cost_max_);
    reward_ = ((uph_cost - ctrl_cost) - impact_cost) + healthy_reward_;
    terminated_ = false;
    info_ = {uph_cost,       -ctrl_cost,     -impact_cost,
             data_->qpos[0], data_->qpos[1], height - model_->qpos0[2]};
    FinishStep();
  }

 protected:
  void Observe(double* obs) const override {
    observation_.Write(*model_, *data_, obs);
  }

  void ResetInfo() override {
    info_[3] = data_->qpos[0];
    info_[4] = data_->qpos[1];
    info_[5] = data_->qpos[2] - model_->qpos0[2];
  }

  // gymnasium's DEFAULT_CAMERA_CONFIG for this task.
  CameraConfig DefaultCamera() const override {
    CameraConfig c = NoCameraConfig();
    c.distance = 4.0;
    c.elevation = -20.0;
    c.has_lookat = true;
    c.lookat[2] = 0.8925;
    return c;
  }

 private:
  HumanoidObservation observation_;
  double forward_reward_weight_;
  double ctrl_cost_weight_;
  double contact_cost_weight_;
  double contact_cost_max_;
  double healthy_reward_;
  double reset_noise_scale_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_HUMANOID_STANDUP_H_
