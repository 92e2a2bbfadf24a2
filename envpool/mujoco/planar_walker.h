// Hopper and Walker2d: planar robots rewarded for moving along +x while they
// stay upright. They share dynamics, reward and observation, and differ in
// their model and in what counts as healthy.
//
// v3 (gym) and v4 (gymnasium) pay the healthy reward on every step while
// terminate_when_unhealthy is set (legacy_healthy_reward); v5 only while
// healthy, and adds z_distance_from_origin and the reward terms to info.
#ifndef ENVPOOL_MUJOCO_PLANAR_WALKER_H_
#define ENVPOOL_MUJOCO_PLANAR_WALKER_H_

#include <algorithm>
#include <string>

#include "envpool/mujoco/mujoco_env.h"

namespace envpool::mujoco {

class PlanarWalkerEnv : public MujocoEnv {
 public:
  using Fields = MujocoFields;

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    auto model = LoadModel(options.Get<std::string>("xml_file"));
    int obs_dim = model->nq + model->nv;
    if (options.Get<bool>("exclude_current_positions_from_observation")) {
      obs_dim -= 1;
    }
    DeclareSpec(options, *model, obs_dim,
                {"x_position", "x_velocity", "z_distance_from_origin",
                 "reward_forward", "reward_ctrl", "reward_survive"},
                false, spec, fields);
  }

  void Reset() override {
    ResetWithNoise(reset_noise_scale_, VelocityNoise::kUniform);
  }

  void Step(const ActionView& action) override {
    const double* act = action.Get(fields_.action);
    const double x_before = data_->qpos[0];
    DoSimulation(act);
    const double x_after = data_->qpos[0];
    const double x_velocity = (x_after - x_before) / dt();
    const bool healthy = IsHealthy();
    const double forward_reward = forward_reward_weight_ * x_velocity;
    const double healthy_reward =
        HealthyReward(healthy_reward_, healthy, terminate_when_unhealthy_,
                      legacy_healthy_reward_);
    const double ctrl_cost = ctrl_cost_weight_ * SumOfSquares(act, model_->nu);
    reward_ = (forward_reward + healthy_reward) - ctrl_cost;
    terminated_ = terminate_when_unhealthy_ && !healthy;
    info_ = {x_after,        x_velocity, data_->qpos[1] - model_->qpos0[1],
             forward_reward, -ctrl_cost, healthy_reward};
    FinishStep();
  }

 protected:
  // The options both robots take, with the robot's model and pose limits.
  static Options WalkerOptions(const std::string& xml_file,
                               double healthy_z_min, double healthy_angle) {
    Options options = CommonOptions(xml_file, 4, 1000);
    options.Define("forward_reward_weight", 1.0);
    options.Define("ctrl_cost_weight", 1e-3);
    options.Define("healthy_reward", 1.0);
    options.Define("terminate_when_unhealthy", true);
    options.Define("healthy_z_min", healthy_z_min);
    options.Define("healthy_angle_min", -healthy_angle);
    options.Define("healthy_angle_max", healthy_angle);
    // The velocities in the observation are clipped to this range.
    options.Define("velocity_min", -10.0);
    options.Define("velocity_max", 10.0);
    options.Define("reset_noise_scale", 5e-3);
    options.Define("exclude_current_positions_from_observation", true);
    options.Define("legacy_healthy_reward", true);
    return options;
  }

  PlanarWalkerEnv(const Options& options, const MujocoFields& fields)
      : MujocoEnv(options, fields),
        forward_reward_weight_(options.Get<double>("forward_reward_weight")),
        ctrl_cost_weight_(options.Get<double>("ctrl_cost_weight")),
        healthy_reward_(options.Get<double>("healthy_reward")),
        terminate_when_unhealthy_(
            options.Get<bool>("terminate_when_unhealthy")),
        healthy_z_min_(options.Get<double>("healthy_z_min")),
        healthy_angle_min_(options.Get<double>("healthy_angle_min")),
        healthy_angle_max_(options.Get<double>("healthy_angle_max")),
        velocity_min_(options.Get<double>("velocity_min")),
        velocity_max_(options.Get<double>("velocity_max")),
        reset_noise_scale_(options.Get<double>("reset_noise_scale")),
        exclude_positions_(
            options.Get<bool>("exclude_current_positions_from_observation")),
        legacy_healthy_reward_(options.Get<bool>("legacy_healthy_reward")) {}

  virtual bool IsHealthy() const = 0;

  // The torso's height (qpos[1]) strictly inside (healthy_z_min, z_max) and
  // its angle (qpos[2]) strictly inside the healthy angle range.
  bool TorsoUpright(double z_max) const {
    const double z = data_->qpos[1];
    const double angle = data_->qpos[2];
    return healthy_z_min_ < z && z < z_max && healthy_angle_min_ < angle &&
           angle < healthy_angle_max_;
  }

  void Observe(double* obs) const override {
    const int skip = exclude_positions_ ? 1 : 0;
    obs = std::copy(data_->qpos + skip, data_->qpos + model_->nq, obs);
    for (int i = 0; i < model_->nv; ++i) {
      *obs++ = Clip(data_->qvel[i], velocity_min_, velocity_max_);
    }
  }

  void ResetInfo() override {
    info_[0] = data_->qpos[0];
    info_[2] = data_->qpos[1] - model_->qpos0[1];
  }

 private:
  double forward_reward_weight_;
  double ctrl_cost_weight_;
  double healthy_reward_;
  bool terminate_when_unhealthy_;
  double healthy_z_min_;
  double healthy_angle_min_;
  double healthy_angle_max_;
  double velocity_min_;
  double velocity_max_;
  double reset_noise_scale_;
  bool exclude_positions_;
  bool legacy_healthy_reward_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_PLANAR_WALKER_H_
