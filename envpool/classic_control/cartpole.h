// CartPole: gymnasium's classic_control/cartpole.py dynamics (Barto, Sutton
// and Anderson, 1983), explicit Euler integration, float64 state.
#ifndef ENVPOOL_CLASSIC_CONTROL_CARTPOLE_H_
#define ENVPOOL_CLASSIC_CONTROL_CARTPOLE_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "envpool/classic_control/render.h"
#include "envpool/core/env.h"

namespace envpool::classic_control {

class CartPoleEnv : public Env {
 public:
  struct Fields {
    Field<float> obs;
    Field<int64_t> action;
  };

  static Options DefaultOptions() {
    return Options{{"max_episode_steps", int64_t{500}}};
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;
    constexpr double kInf = std::numeric_limits<double>::infinity();
    // gymnasium 1.4: high = [2 * x_threshold, inf, 2 * theta_threshold, inf]
    // computed in float32.
    double x_high = static_cast<float>(kXThreshold * 2);
    double theta_high = static_cast<float>(kThetaThreshold * 2);
    fields->obs =
        spec->state.Add<float>("obs", {4}, {-x_high, -kInf, -theta_high, -kInf},
                               {x_high, kInf, theta_high, kInf});
    fields->action = spec->action.AddDiscrete<int64_t>("action", 2);
    // gymnasium's render(): 600x400 pygame frames at 50 fps.
    DeclareRendering(options, spec, {"rgb_array"}, kCartPoleScreen[0],
                     kCartPoleScreen[1], 50);
  }

  void Render(int width, int height, int /*camera_id*/, uint8_t* rgb) override {
    DrawCartPole(state_, width, height, rgb);
  }

  CartPoleEnv(const Options& /*options*/, const Fields& fields) {
    fields_ = fields;
  }

  void Reset() override {
    // gymnasium: np_random.uniform(low=-0.05, high=0.05, size=(4,)).
    for (double& v : state_) {
      v = np_random_.Uniform(-0.05, 0.05);
    }
    reward_ = 0.0;
    terminated_ = false;
  }

  void Step(const ActionView& action) override {
    double force = action.Scalar(fields_.action) == 1 ? kForceMag : -kForceMag;
    double& x = state_[0];
    double& x_dot = state_[1];
    double& theta = state_[2];
    double& theta_dot = state_[3];
    double costheta = std::cos(theta);
    double sintheta = std::sin(theta);
    double temp =
        (force + kPoleMassLength * (theta_dot * theta_dot) * sintheta) /
        kTotalMass;
    double thetaacc =
        (kGravity * sintheta - costheta * temp) /
        (kLength *
         (4.0 / 3.0 - kMassPole * (costheta * costheta) / kTotalMass));
    double xacc = temp - kPoleMassLength * thetaacc * costheta / kTotalMass;
    x = x + kTau * x_dot;
    x_dot = x_dot + kTau * xacc;
    theta = theta + kTau * theta_dot;
    theta_dot = theta_dot + kTau * thetaacc;
    terminated_ = x < -kXThreshold || x > kXThreshold ||
                  theta < -kThetaThreshold || theta > kThetaThreshold;
    reward_ = 1.0;
  }

  void Write(const Output& out) override {
    float* obs = out.Get(fields_.obs);
    for (int i = 0; i < 4; ++i) {
      obs[i] = static_cast<float>(state_[i]);
    }
  }

  std::vector<double> GetState() const override { return {state_, state_ + 4}; }
  void SetState(const std::vector<double>& state) override {
    std::copy(state.begin(), state.begin() + 4, state_);
  }

  void SaveState(StateWriter* writer) const override { writer->Put(state_); }
  void LoadState(StateReader* reader) override { reader->Get(&state_); }

 private:
  static constexpr double kGravity = 9.8;
  static constexpr double kMassCart = 1.0;
  static constexpr double kMassPole = 0.1;
  static constexpr double kTotalMass = kMassPole + kMassCart;
  static constexpr double kLength = 0.5;
  static constexpr double kPoleMassLength = kMassPole * kLength;
  static constexpr double kForceMag = 10.0;
  static constexpr double kTau = 0.02;
  static constexpr double kThetaThreshold = 12 * 2 * M_PI / 360;
  static constexpr double kXThreshold = 2.4;

  Fields fields_;
  double state_[4] = {0, 0, 0, 0};
};

}  // namespace envpool::classic_control

#endif  // ENVPOOL_CLASSIC_CONTROL_CARTPOLE_H_
