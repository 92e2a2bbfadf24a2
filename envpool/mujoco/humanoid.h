// Humanoid: a 3D biped rewarded for walking along +x without falling.
//
// The observation holds qpos, qvel, the bodies' inertias (cinert) and
// velocities (cvel), the actuator forces (qfrc_actuator) and the external
// contact forces (cfrc_ext).  v3 is gym's humanoid_v3.py (contact cost in
// the reward, forces read without mj_rnePostConstraint: zeros), v4 is
// gymnasium's humanoid_v4.py (no contact cost), v5 is gymnasium's
// humanoid_v5.py (the world body and the root's actuator forces left out of
// the observation, healthy reward only while healthy, positions in info read
// from qpos, tendons in info).
#ifndef ENVPOOL_MUJOCO_HUMANOID_H_
#define ENVPOOL_MUJOCO_HUMANOID_H_

#include <algorithm>
#include <string>

#include "envpool/mujoco/mujoco_env.h"

namespace envpool::mujoco {

// The observation of Humanoid and HumanoidStandup: qpos (without x and y
// when `exclude_positions`), qvel, cinert, cvel, qfrc_actuator, cfrc_ext.
class HumanoidObservation {
 public:
  explicit HumanoidObservation(const Options& options)
      : exclude_positions_(
            options.Get<bool>("exclude_current_positions_from_observation")),
        first_body_(options.Get<bool>("exclude_worldbody_observations") ? 1
                                                                        : 0),
        first_dof_(options.Get<bool>("exclude_root_actuator_forces") ? 6 : 0) {}

  int Size(const mjModel& model) const {
    const int bodies = model.nbody - first_body_;
    return model.nq - (exclude_positions_ ? 2 : 0) + model.nv + 10 * bodies +
           6 * bodies + (model.nv - first_dof_) + 6 * bodies;
  }

  void Write(const mjModel& model, const mjData& data, double* obs) const {
    const int skip = exclude_positions_ ? 2 : 0;
    obs = std::copy(data.qpos + skip, data.qpos + model.nq, obs);
    obs = std::copy(data.qvel, data.qvel + model.nv, obs);
    obs = std::copy(data.cinert + 10 * first_body_,
                    data.cinert + 10 * model.nbody, obs);
    obs = std::copy(data.cvel + 6 * first_body_, data.cvel + 6 * model.nbody,
                    obs);
    obs = std::copy(data.qfrc_actuator + first_dof_,
                    data.qfrc_actuator + model.nv, obs);
    std::copy(data.cfrc_ext + 6 * first_body_, data.cfrc_ext + 6 * model.nbody,
              obs);
  }

 private:
  bool exclude_positions_;
  int first_body_;
  int first_dof_;
};

inline void DefineHumanoidObservationOptions(Options* options) {
  options->Define("exclude_current_positions_from_observation", true);
  // v5 leaves out the world body's cinert, cvel and cfrc_ext (always zero)
  // and the root joint's actuator forces (always zero).
  options->Define("exclude_root_actuator_forces", false);
  options->Define("exclude_worldbody_observations", false);
}

class HumanoidEnv : public MujocoEnv {
 public:
  using Fields = MujocoFields;

  static Options DefaultOptions() {
    Options options = CommonOptions("humanoid.xml", 5, 1000);
    options.Define("forward_reward_weight", 1.25);
    options.Define("ctrl_cost_weight", 0.1);
    options.Define("contact_cost_weight", 5e-7);
    options.Define("contact_cost_max", 10.0);
    options.Define("healthy_reward", 5.0);
    options.Define("terminate_when_unhealthy", true);
    options.Define("healthy_z_min", 1.0);
    options.Define("healthy_z_max", 2.0);
    options.Define("reset_noise_scale", 1e-2);
    DefineHumanoidObservationOptions(&options);
    // The contact cost in the reward (v3, v5).
    options.Define("use_contact_force", false);
    options.Define("legacy_healthy_reward", true);
    // v5: info's x_position, y_position and distance_from_origin read qpos;
    // v3/v4: the centre of mass after the step.
    options.Define("position_info_from_qpos", false);
    return options;
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    auto model = LoadModel(options.Get<std::string>("xml_file"));
    DeclareSpec(
        options, *model, HumanoidObservation(options).Size(*model),
        {"reward_linvel", "reward_quadctrl", "reward_alive", "reward_impact",
         "x_position", "y_position", "distance_from_origin", "x_velocity",
         "y_velocity", "forward_reward", "reward_survive", "reward_forward",
         "reward_ctrl", "reward_contact"},
        true, spec, fields);
  }

  HumanoidEnv(const Options& options, const Fields& fields)
      : MujocoEnv(options, fields),
        observation_(options),
        forward_reward_weight_(options.Get<double>("forward_reward_weight")),
        ctrl_cost_weight_(options.Get<double>("ctrl_cost_weight")),
        contact_cost_weight_(options.Get<double>("contact_cost_weight")),
        contact_cost_max_(options.Get<double>("contact_cost_max")),
        healthy_reward_(options.Get<double>("healthy_reward")),
        terminate_when_unhealthy_(
            options.Get<bool>("terminate_when_unhealthy")),
        healthy_z_min_(options.Get<double>("healthy_z_min")),
        healthy_z_max_(options.Get<double>("healthy_z_max")),
        reset_noise_scale_(options.Get<double>("reset_noise_scale")),
        use_contact_force_(options.Get<bool>("use_contact_force")),
        legacy_healthy_reward_(options.Get<bool>("legacy_healthy_reward")),
        position_info_from_qpos_(options.Get<bool>("position_info_from_qpos")),
        total_mass_(NumpySum(model_->body_mass, model_->nbody)) {}

  void Reset() override {
    ResetWithNoise(reset_noise_scale_, VelocityNoise::kUniform);
  }

  void Step(const ActionView& action) override {
    double before[2];
    double after[2];
    MassCenter(before);
    DoSimulation(action.Get(fields_.action));
    MassCenter(after);
    const double x_velocity = (after[0] - before[0]) / dt();
    const double y_velocity = (after[1] - before[1]) / dt();

    const double z = data_->qpos[2];
    const bool healthy = healthy_z_min_ < z && z < healthy_z_max_;
    const double forward_reward = forward_reward_weight_ * x_velocity;
    const double healthy_reward =
        HealthyReward(healthy_reward_, healthy, terminate_when_unhealthy_,
                      legacy_healthy_reward_);
    const double ctrl_cost =
        ctrl_cost_weight_ * SumOfSquares(data_->ctrl, model_->nu);
    double contact_cost = 0.0;
    if (use_contact_force_) {
      contact_cost =
          std::min(contact_cost_weight_ *
                       SumOfSquares(data_->cfrc_ext, 6 * model_->nbody),
                   contact_cost_max_);
    }
    reward_ = (forward_reward + healthy_reward) - (ctrl_cost + contact_cost);
    terminated_ = terminate_when_unhealthy_ && !healthy;

    double position[2] = {after[0], after[1]};
    if (position_info_from_qpos_) {
      position[0] = data_->qpos[0];
      position[1] = data_->qpos[1];
    }
    info_ = {forward_reward, -ctrl_cost,     healthy_reward,    -contact_cost,
             position[0],    position[1],    Norm(position, 2), x_velocity,
             y_velocity,     forward_reward, healthy_reward,    forward_reward,
             -ctrl_cost,     -contact_cost};
    FinishStep();
  }

 protected:
  void Observe(double* obs) const override {
    observation_.Write(*model_, *data_, obs);
  }

  void ResetInfo() override {
    double position[2] = {data_->qpos[0], data_->qpos[1]};
    if (!position_info_from_qpos_) {
      MassCenter(position);
    }
    info_[4] = position[0];
    info_[5] = position[1];
    info_[6] = Norm(position, 2);
  }

  // gymnasium's DEFAULT_CAMERA_CONFIG for this task.
  CameraConfig DefaultCamera() const override {
    CameraConfig c = NoCameraConfig();
    c.distance = 4.0;
    c.elevation = -20.0;
    c.has_lookat = true;
    c.lookat[2] = 2.0;
    return c;
  }

 private:
  // The x and y of the centre of mass, as gymnasium's mass_center.
  void MassCenter(double* xy) const {
    double sum[3] = {0.0, 0.0, 0.0};
    for (int b = 0; b < model_->nbody; ++b) {
      for (int j = 0; j < 3; ++j) {
        sum[j] += model_->body_mass[b] * data_->xipos[3 * b + j];
      }
    }
    xy[0] = sum[0] / total_mass_;
    xy[1] = sum[1] / total_mass_;
  }

  HumanoidObservation observation_;
  double forward_reward_weight_;
  double ctrl_cost_weight_;
  double contact_cost_weight_;
  double contact_cost_max_;
  double healthy_reward_;
  bool terminate_when_unhealthy_;
  double healthy_z_min_;
  double healthy_z_max_;
  double reset_noise_scale_;
  bool use_contact_force_;
  bool legacy_healthy_reward_;
  bool position_info_from_qpos_;
  double total_mass_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_HUMANOID_H_
