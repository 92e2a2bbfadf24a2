// Pendulum: the inverted pendulum swing-up of gymnasium's
// classic_control/pendulum.py, float64 state [theta, theta_dot].
//
// The arithmetic follows the numpy reference step by step: the action is a
// float32 scalar, so the terms that involve it (`0.001 * u ** 2`, `3.0 * u`)
// are evaluated in float32 before they join the float64 sums, and scalar
// `x ** 2` is libm's pow, as numpy computes it.
//
// `version` 1 is Pendulum-v1.  `version` 0 is gym's original Pendulum-v0
// (changed by gym pull request 2423): the angular acceleration is written
// -3g/(2l) sin(theta + pi) and the angle advances with the angular velocity
// before it is clipped to [-8, 8].  Everything else is the same.
#ifndef ENVPOOL_CLASSIC_CONTROL_PENDULUM_H_
#define ENVPOOL_CLASSIC_CONTROL_PENDULUM_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/classic_control/render.h"
#include "envpool/core/env.h"

namespace envpool::classic_control {

class PendulumEnv : public Env {
 public:
  struct Fields {
    Field<float> obs;
    Field<float> action;
  };

  static Options DefaultOptions() {
    return Options{{"max_episode_steps", int64_t{200}},
                   {"version", int64_t{1}}};
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;
    const auto version = options.Get<int64_t>("version");
    if (version != 0 && version != 1) {
      throw std::invalid_argument("Pendulum option 'version' is " +
                                  std::to_string(version) +
                                  ", but only 0 (Pendulum-v0) and 1 "
                                  "(Pendulum-v1) exist");
    }
    fields->obs = spec->state.Add<float>("obs", {3}, {-1.0, -1.0, -kMaxSpeed},
                                         {1.0, 1.0, kMaxSpeed});
    fields->action =
        spec->action.Add<float>("action", {1}, {-kMaxTorque}, {kMaxTorque});
    // gymnasium's render(): 500x500 pygame frames at 30 fps.
    DeclareRendering(options, spec, {"rgb_array"}, kPendulumScreen,
                     kPendulumScreen, 30);
  }

  // The arrow of the last torque is missing right after a reset, as in
  // gymnasium (last_u is None there).
  void Render(int width, int height, int /*camera_id*/, uint8_t* rgb) override {
    DrawPendulum(theta_, has_last_u_, last_u_, width, height, rgb);
  }

  PendulumEnv(const Options& options, const Fields& fields)
      : version_(options.Get<int>("version")) {
    fields_ = fields;
  }

  void Reset() override {
    // gymnasium: np_random.uniform(low=-high, high=high) with high =
    // [np.pi, 1.0], one draw per element in order: [theta, theta_dot] in
    // [-pi, pi) x [-1, 1).
    theta_ = np_random_.Uniform(-M_PI, M_PI);
    theta_dot_ = np_random_.Uniform(-1.0, 1.0);
    reward_ = 0.0;
    terminated_ = false;
    has_last_u_ = false;
  }

  void Step(const ActionView& action) override {
    constexpr auto kTorque = static_cast<float>(kMaxTorque);
    const float u =
        std::min(std::max(action.Get(fields_.action)[0], -kTorque), kTorque);
    const double th = theta_;
    const double thdot = theta_dot_;
    const double costs =
        Square(NormalizeAngle(th)) + 0.1 * Square(thdot) +
        static_cast<double>(static_cast<float>(0.001) * Square(u));
    // 3 / (m l^2) multiplies the float32 torque in float32.
    const auto torque_gain =
        static_cast<float>(3.0 / (kMass * kLength * kLength));
    const double torque_term = static_cast<double>(torque_gain * u);
    double new_theta_dot;
    double new_theta;
    if (version_ == 0) {
      new_theta_dot =
          thdot +
          (-3 * kGravity / (2 * kLength) * std::sin(th + M_PI) + torque_term) *
              kDt;
      new_theta = th + new_theta_dot * kDt;
      new_theta_dot = std::min(std::max(new_theta_dot, -kMaxSpeed), kMaxSpeed);
    } else {
      new_theta_dot =
          thdot +
          (3 * kGravity / (2 * kLength) * std::sin(th) + torque_term) * kDt;
      new_theta_dot = std::min(std::max(new_theta_dot, -kMaxSpeed), kMaxSpeed);
      new_theta = th + new_theta_dot * kDt;
    }
    theta_ = new_theta;
    theta_dot_ = new_theta_dot;
    last_u_ = u;
    has_last_u_ = true;
    reward_ = -costs;
    terminated_ = false;  // only the time limit ends an episode
  }

  void Write(const Output& out) override {
    float* obs = out.Get(fields_.obs);
    obs[0] = static_cast<float>(std::cos(theta_));
    obs[1] = static_cast<float>(std::sin(theta_));
    obs[2] = static_cast<float>(theta_dot_);
  }

  // [theta, theta_dot], as gymnasium's `state`.
  std::vector<double> GetState() const override { return {theta_, theta_dot_}; }
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 2) {
      throw std::invalid_argument("Pendulum state is [theta, theta_dot], got " +
                                  std::to_string(state.size()) + " numbers");
    }
    theta_ = state[0];
    theta_dot_ = state[1];
  }

  void SaveState(StateWriter* writer) const override {
    writer->Put(theta_, theta_dot_, last_u_, has_last_u_);
  }
  void LoadState(StateReader* reader) override {
    reader->Get(&theta_, &theta_dot_, &last_u_, &has_last_u_);
  }

 private:
  static constexpr double kMaxSpeed = 8.0;
  static constexpr double kMaxTorque = 2.0;
  static constexpr double kDt = 0.05;
  static constexpr double kGravity = 10.0;
  static constexpr double kMass = 1.0;
  static constexpr double kLength = 1.0;

  // numpy evaluates `x ** 2` on a scalar with libm's pow (powf for float32),
  // which is not always the correctly rounded x * x.  The exponent is hidden
  // from the compiler, which would otherwise fold pow(x, 2) into x * x.
  static double Square(double x) {
    volatile double two = 2.0;
    return std::pow(x, static_cast<double>(two));
  }
  static float Square(float x) {
    volatile float two = 2.0F;
    return std::pow(x, static_cast<float>(two));
  }

  // ((x + pi) % (2 pi)) - pi with Python's floored modulo.
  static double NormalizeAngle(double x) {
    constexpr double kTwoPi = 2 * M_PI;
    double mod = std::fmod(x + M_PI, kTwoPi);
    if (mod != 0.0) {
      if (mod < 0) {
        mod += kTwoPi;
      }
    } else {
      mod = 0.0;
    }
    return mod - M_PI;
  }

  int version_;
  Fields fields_;
  double theta_ = 0.0;
  double theta_dot_ = 0.0;
  float last_u_ = 0.0F;  // the clipped torque of the last step (render)
  bool has_last_u_ = false;
};

}  // namespace envpool::classic_control

#endif  // ENVPOOL_CLASSIC_CONTROL_PENDULUM_H_
