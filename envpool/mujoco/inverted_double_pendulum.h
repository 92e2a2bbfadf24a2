// InvertedDoublePendulum: a cart balancing two stacked poles; the episode
// ends when the tip falls to healthy_z_max (1 m) or below.
//
// v2 (gym) and v4 (gymnasium) pay the alive bonus on every step and observe
// three constraint forces; v5 pays it only on steps that do not end the
// episode (reward_if_not_terminated) and observes one (constraint_obs_dim).
#ifndef ENVPOOL_MUJOCO_INVERTED_DOUBLE_PENDULUM_H_
#define ENVPOOL_MUJOCO_INVERTED_DOUBLE_PENDULUM_H_

#include <cmath>
#include <stdexcept>
#include <string>

#include "envpool/mujoco/mujoco_env.h"

namespace envpool::mujoco {

class InvertedDoublePendulumEnv : public MujocoEnv {
 public:
  using Fields = MujocoFields;

  static Options DefaultOptions() {
    Options options = CommonOptions("inverted_double_pendulum.xml", 5, 1000);
    options.Define("healthy_reward", 10.0);
    // The episode ends when the tip's height is at most this.
    options.Define("healthy_z_max", 1.0);
    // Velocities and constraint forces are clipped to this range.
    options.Define("observation_min", -10.0);
    options.Define("observation_max", 10.0);
    // How many of qfrc_constraint's numbers the observation holds.
    options.Define("constraint_obs_dim", int64_t{3});
    options.Define("reward_if_not_terminated", false);
    options.Define("reset_noise_scale", 0.1);
    return options;
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    auto model = LoadModel(options.Get<std::string>("xml_file"));
    const auto constraint_dim = options.Get<int64_t>("constraint_obs_dim");
    if (constraint_dim < 0 || constraint_dim > model->nv) {
      throw std::invalid_argument("option 'constraint_obs_dim' must be in 0.." +
                                  std::to_string(model->nv) + ", got " +
                                  std::to_string(constraint_dim));
    }
    const int obs_dim =
        1 + 2 * (model->nq - 1) + model->nv + static_cast<int>(constraint_dim);
    DeclareSpec(options, *model, obs_dim,
                {"reward_survive", "distance_penalty", "velocity_penalty"},
                false, spec, fields);
  }

  InvertedDoublePendulumEnv(const Options& options, const Fields& fields)
      : MujocoEnv(options, fields),
        healthy_reward_(options.Get<double>("healthy_reward")),
        healthy_z_max_(options.Get<double>("healthy_z_max")),
        observation_min_(options.Get<double>("observation_min")),
        observation_max_(options.Get<double>("observation_max")),
        constraint_obs_dim_(options.Get<int>("constraint_obs_dim")),
        reward_if_not_terminated_(
            options.Get<bool>("reward_if_not_terminated")),
        reset_noise_scale_(options.Get<double>("reset_noise_scale")),
        v5_camera_(options.Get<bool>("gymnasium_v5_render_camera")) {}

  void Reset() override {
    ResetWithNoise(reset_noise_scale_, VelocityNoise::kNormal);
  }

  void Step(const ActionView& action) override {
    DoSimulation(action.Get(fields_.action));
    const double x = data_->site_xpos[0];
    const double y = data_->site_xpos[2];
    terminated_ = y <= healthy_z_max_;
    const double v1 = data_->qvel[1];
    const double v2 = data_->qvel[2];
    const double distance_penalty = 0.01 * Square(x) + Square(y - 2);
    const double velocity_penalty = 0.001 * Square(v1) + 0.005 * Square(v2);
    const double alive_bonus =
        reward_if_not_terminated_ && terminated_ ? 0.0 : healthy_reward_;
    reward_ = (alive_bonus - distance_penalty) - velocity_penalty;
    info_ = {alive_bonus, -distance_penalty, -velocity_penalty};
    FinishStep();
  }

 protected:
  void Observe(double* obs) const override {
    const int nq = model_->nq;
    *obs++ = data_->qpos[0];
    for (int i = 1; i < nq; ++i) {
      *obs++ = std::sin(data_->qpos[i]);
    }
    for (int i = 1; i < nq; ++i) {
      *obs++ = std::cos(data_->qpos[i]);
    }
    for (int i = 0; i < model_->nv; ++i) {
      *obs++ = Clip(data_->qvel[i], observation_min_, observation_max_);
    }
    for (int i = 0; i < constraint_obs_dim_; ++i) {
      *obs++ =
          Clip(data_->qfrc_constraint[i], observation_min_, observation_max_);
    }
  }

  // gymnasium's DEFAULT_CAMERA_CONFIG for this task (v2/v4; v5 passes none
  // and keeps the default free camera).
  CameraConfig DefaultCamera() const override {
    CameraConfig c = NoCameraConfig();
    if (v5_camera_) {
      return c;
    }
    c.distance = 4.1225;
    c.has_lookat = true;
    c.lookat[2] = 0.12250000000000005;
    return c;
  }

 private:
  static double Square(double x) { return NumpyScalarSquare(x); }

  double healthy_reward_;
  double healthy_z_max_;
  double observation_min_;
  double observation_max_;
  int constraint_obs_dim_;
  bool reward_if_not_terminated_;
  double reset_noise_scale_;
  bool v5_camera_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_INVERTED_DOUBLE_PENDULUM_H_
