// Ant: a four-legged walker rewarded for running along +x.
//
// Ant-v3 is gym's ant_v3.py (contact forces in the observation and the
// reward, read without mj_rnePostConstraint as mujoco-py did: zeros),
// Ant-v4 is gymnasium's ant_v4.py (no contact forces), Ant-v5 is
// gymnasium's ant_v5.py (contact forces of every body but the world,
// healthy reward only while healthy, positions in info read from qpos).
#ifndef ENVPOOL_MUJOCO_ANT_H_
#define ENVPOOL_MUJOCO_ANT_H_

#include <algorithm>
#include <string>
#include <vector>

#include "envpool/mujoco/mujoco_env.h"

namespace envpool::mujoco {

class AntEnv : public MujocoEnv {
 public:
  using Fields = MujocoFields;

  static Options DefaultOptions() {
    Options options = CommonOptions("ant.xml", 5, 1000);
    options.Define("forward_reward_weight", 1.0);
    options.Define("ctrl_cost_weight", 0.5);
    options.Define("contact_cost_weight", 5e-4);
    options.Define("healthy_reward", 1.0);
    options.Define("terminate_when_unhealthy", true);
    options.Define("healthy_z_min", 0.2);
    options.Define("healthy_z_max", 1.0);
    options.Define("contact_force_min", -1.0);
    options.Define("contact_force_max", 1.0);
    options.Define("reset_noise_scale", 0.1);
    options.Define("exclude_current_positions_from_observation", true);
    // Contact forces in the observation and their cost in the reward.
    options.Define("use_contact_force", false);
    // Leave the world body's (always zero) contact forces out of the
    // observation, as v5 does.
    options.Define("exclude_worldbody_contact_forces", false);
    // v3/v4: the healthy reward is paid on every step while
    // terminate_when_unhealthy is set; v5: only while healthy.
    options.Define("legacy_healthy_reward", true);
    // v5: info's x_position, y_position and distance_from_origin read qpos;
    // v3/v4: the torso's position after the step.
    options.Define("position_info_from_qpos", false);
    return options;
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    auto model = LoadModel(options.Get<std::string>("xml_file"));
    int obs_dim = model->nq + model->nv;
    if (options.Get<bool>("exclude_current_positions_from_observation")) {
      obs_dim -= 2;
    }
    if (options.Get<bool>("use_contact_force")) {
      int bodies = model->nbody;
      if (options.Get<bool>("exclude_worldbody_contact_forces")) {
        bodies -= 1;
      }
      obs_dim += 6 * bodies;
    }
    DeclareSpec(
        options, *model, obs_dim,
        {"reward_forward", "reward_ctrl", "reward_contact", "reward_survive",
         "x_position", "y_position", "distance_from_origin", "x_velocity",
         "y_velocity", "forward_reward"},
        false, spec, fields);
  }

  AntEnv(const Options& options, const Fields& fields)
      : MujocoEnv(options, fields),
        forward_reward_weight_(options.Get<double>("forward_reward_weight")),
        ctrl_cost_weight_(options.Get<double>("ctrl_cost_weight")),
        contact_cost_weight_(options.Get<double>("contact_cost_weight")),
        healthy_reward_(options.Get<double>("healthy_reward")),
        terminate_when_unhealthy_(
            options.Get<bool>("terminate_when_unhealthy")),
        healthy_z_min_(options.Get<double>("healthy_z_min")),
        healthy_z_max_(options.Get<double>("healthy_z_max")),
        contact_force_min_(options.Get<double>("contact_force_min")),
        contact_force_max_(options.Get<double>("contact_force_max")),
        reset_noise_scale_(options.Get<double>("reset_noise_scale")),
        exclude_positions_(
            options.Get<bool>("exclude_current_positions_from_observation")),
        use_contact_force_(options.Get<bool>("use_contact_force")),
        exclude_worldbody_(
            options.Get<bool>("exclude_worldbody_contact_forces")),
        legacy_healthy_reward_(options.Get<bool>("legacy_healthy_reward")),
        position_info_from_qpos_(options.Get<bool>("position_info_from_qpos")),
        torso_(BodyId("torso")),
        contact_forces_(6 * model_->nbody) {}

  void Reset() override {
    ResetWithNoise(reset_noise_scale_, VelocityNoise::kNormal);
  }

  void Step(const ActionView& action) override {
    const double* act = action.Get(fields_.action);
    const double* torso = data_->xpos + 3 * torso_;
    const double x_before = torso[0];
    const double y_before = torso[1];
    DoSimulation(act);
    const double x_after = torso[0];
    const double y_after = torso[1];
    const double x_velocity = (x_after - x_before) / dt();
    const double y_velocity = (y_after - y_before) / dt();

    const bool healthy = IsHealthy();
    const double forward_reward = x_velocity * forward_reward_weight_;
    const double healthy_reward =
        HealthyReward(healthy_reward_, healthy, terminate_when_unhealthy_,
                      legacy_healthy_reward_);
    const double ctrl_cost = ctrl_cost_weight_ * SumOfSquares(act, model_->nu);
    double contact_cost = 0.0;
    if (use_contact_force_) {
      ClipContactForces();
      contact_cost = contact_cost_weight_ *
                     SumOfSquares(contact_forces_.data(),
                                  static_cast<int>(contact_forces_.size()));
    }
    reward_ = (forward_reward + healthy_reward) - (ctrl_cost + contact_cost);
    terminated_ = terminate_when_unhealthy_ && !healthy;

    double position[2] = {x_after, y_after};
    if (position_info_from_qpos_) {
      position[0] = data_->qpos[0];
      position[1] = data_->qpos[1];
    }
    info_ = {forward_reward, -ctrl_cost,    -contact_cost,     healthy_reward,
             position[0],    position[1],   Norm(position, 2), x_velocity,
             y_velocity,     forward_reward};
    FinishStep();
  }

 protected:
  void Observe(double* obs) const override {
    const int skip = exclude_positions_ ? 2 : 0;
    obs = std::copy(data_->qpos + skip, data_->qpos + model_->nq, obs);
    obs = std::copy(data_->qvel, data_->qvel + model_->nv, obs);
    if (use_contact_force_) {
      const int first = exclude_worldbody_ ? 6 : 0;
      for (int i = first; i < 6 * model_->nbody; ++i) {
        *obs++ =
            Clip(data_->cfrc_ext[i], contact_force_min_, contact_force_max_);
      }
    }
  }

  void ResetInfo() override {
    const double position[2] = {data_->qpos[0], data_->qpos[1]};
    info_[4] = position[0];
    info_[5] = position[1];
    info_[6] = Norm(position, 2);
  }

  // gymnasium's DEFAULT_CAMERA_CONFIG for this task.
  CameraConfig DefaultCamera() const override {
    CameraConfig c = NoCameraConfig();
    c.distance = 4.0;
    return c;
  }

 private:
  bool IsHealthy() const {
    const double z = data_->qpos[2];
    return StateIsFinite() && healthy_z_min_ <= z && z <= healthy_z_max_;
  }

  void ClipContactForces() {
    for (int i = 0; i < 6 * model_->nbody; ++i) {
      contact_forces_[i] =
          Clip(data_->cfrc_ext[i], contact_force_min_, contact_force_max_);
    }
  }

  double forward_reward_weight_;
  double ctrl_cost_weight_;
  double contact_cost_weight_;
  double healthy_reward_;
  bool terminate_when_unhealthy_;
  double healthy_z_min_;
  double healthy_z_max_;
  double contact_force_min_;
  double contact_force_max_;
  double reset_noise_scale_;
  bool exclude_positions_;
  bool use_contact_force_;
  bool exclude_worldbody_;
  bool legacy_healthy_reward_;
  bool position_info_from_qpos_;
  int torso_;
  std::vector<double> contact_forces_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_ANT_H_
