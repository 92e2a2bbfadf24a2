// InvertedPendulum: a cart balancing a pole; the episode ends when the pole
// leans past healthy_z_min..healthy_z_max radians.
//
// v2 (gym) and v4 (gymnasium) reward every step with healthy_reward; v5
// (reward_if_not_terminated) only steps that do not end the episode.
#ifndef ENVPOOL_MUJOCO_INVERTED_PENDULUM_H_
#define ENVPOOL_MUJOCO_INVERTED_PENDULUM_H_

#include <algorithm>
#include <string>

#include "envpool/mujoco/mujoco_env.h"

namespace envpool::mujoco {

class InvertedPendulumEnv : public MujocoEnv {
 public:
  using Fields = MujocoFields;

  static Options DefaultOptions() {
    Options options = CommonOptions("inverted_pendulum.xml", 2, 1000);
    options.Define("healthy_reward", 1.0);
    // The pole's angle (obs[1]) must stay within this range.
    options.Define("healthy_z_min", -0.2);
    options.Define("healthy_z_max", 0.2);
    options.Define("reset_noise_scale", 1e-2);
    options.Define("reward_if_not_terminated", false);
    return options;
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    auto model = LoadModel(options.Get<std::string>("xml_file"));
    DeclareSpec(options, *model, model->nq + model->nv, {"reward_survive"},
                false, spec, fields);
  }

  InvertedPendulumEnv(const Options& options, const Fields& fields)
      : MujocoEnv(options, fields),
        healthy_reward_(options.Get<double>("healthy_reward")),
        healthy_z_min_(options.Get<double>("healthy_z_min")),
        healthy_z_max_(options.Get<double>("healthy_z_max")),
        reset_noise_scale_(options.Get<double>("reset_noise_scale")),
        reward_if_not_terminated_(
            options.Get<bool>("reward_if_not_terminated")) {}

  void Reset() override {
    ResetWithNoise(reset_noise_scale_, VelocityNoise::kUniform);
  }

  void Step(const ActionView& action) override {
    DoSimulation(action.Get(fields_.action));
    const double angle = data_->qpos[1];
    terminated_ = !StateIsFinite() ||
                  !(healthy_z_min_ <= angle && angle <= healthy_z_max_);
    reward_ = reward_if_not_terminated_ && terminated_ ? 0.0 : healthy_reward_;
    info_ = {reward_};
    FinishStep();
  }

 protected:
  void Observe(double* obs) const override {
    obs = std::copy(data_->qpos, data_->qpos + model_->nq, obs);
    std::copy(data_->qvel, data_->qvel + model_->nv, obs);
  }

  // gymnasium's DEFAULT_CAMERA_CONFIG for this task.
  CameraConfig DefaultCamera() const override {
    CameraConfig c = NoCameraConfig();
    c.distance = 2.04;
    return c;
  }

 private:
  double healthy_reward_;
  double healthy_z_min_;
  double healthy_z_max_;
  double reset_noise_scale_;
  bool reward_if_not_terminated_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_INVERTED_PENDULUM_H_
