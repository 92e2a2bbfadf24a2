// Acrobot: gymnasium's classic_control/acrobot.py (Sutton, 1996), two links
// hanging from a fixed joint with a torque of -1, 0 or +1 on the joint
// between them.  float64 state [theta1, theta2, dtheta1, dtheta2].
//
// The dynamics are the "book" equations, integrated over dt = 0.2 with one
// classic Runge-Kutta step, in the reference's order of operations; scalar
// `x ** 2` is libm's pow, as numpy computes it.  No torque noise.
//
// gymnasium keeps the reset state as float32 (a step makes it float64), so
// the first observation of an episode is numpy's float32 cos and sin of it
// (numpy_trig.h); later ones are libm's double cos and sin, rounded.
#ifndef ENVPOOL_CLASSIC_CONTROL_ACROBOT_H_
#define ENVPOOL_CLASSIC_CONTROL_ACROBOT_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/classic_control/numpy_trig.h"
#include "envpool/classic_control/render.h"
#include "envpool/core/env.h"

namespace envpool::classic_control {

class AcrobotEnv : public Env {
 public:
  struct Fields {
    Field<float> obs;
    Field<double> state;
    Field<int64_t> action;
  };

  static Options DefaultOptions() {
    return Options{{"max_episode_steps", int64_t{500}},
                   {"reward_threshold", -100.0}};
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;
    // gymnasium builds the bounds as a float32 array.
    const double vel1 = static_cast<float>(kMaxVel1);
    const double vel2 = static_cast<float>(kMaxVel2);
    fields->obs = spec->state.Add<float>("obs", {6},
                                         {-1.0, -1.0, -1.0, -1.0, -vel1, -vel2},
                                         {1.0, 1.0, 1.0, 1.0, vel1, vel2});
    // info["state"]: gymnasium's `state` [theta1, theta2, dtheta1, dtheta2],
    // the joint angles before their cos/sin encoding and the velocities, in
    // float64 so that it sets a gymnasium Acrobot to this env's exact state.
    fields->state = spec->state.Add<double>("info:state", {4});
    fields->action = spec->action.AddDiscrete<int64_t>("action", 3);
    // gymnasium's render(): 500x500 pygame frames at 15 fps.
    DeclareRendering(options, spec, {"rgb_array"}, kAcrobotScreen[0],
                     kAcrobotScreen[1], 15);
  }

  AcrobotEnv(const Options& /*options*/, const Fields& fields) {
    fields_ = fields;
  }

  void Reset() override {
    // gymnasium: np_random.uniform(low=-0.1, high=0.1, size=(4,)), kept as
    // float32 (.astype(np.float32)).  Its torque noise is 0, so a step draws
    // nothing.
    for (double& v : state_) {
      v = static_cast<float>(np_random_.Uniform(-0.1, 0.1));
    }
    single_ = true;
    reward_ = 0.0;
    terminated_ = false;
  }

  void Step(const ActionView& action) override {
    static constexpr std::array<double, 3> kTorques{-1.0, 0.0, 1.0};
    const double torque =
        kTorques.at(static_cast<std::size_t>(action.Scalar(fields_.action)));
    // One Runge-Kutta step over [0, dt] of the state augmented with the
    // torque (whose derivative is 0).
    const Vec y0{state_[0], state_[1], state_[2], state_[3], torque};
    constexpr double kHalf = kDt / 2.0;
    const Vec k1 = Derivs(y0);
    const Vec k2 = Derivs(Axpy(y0, kHalf, k1));
    const Vec k3 = Derivs(Axpy(y0, kHalf, k2));
    const Vec k4 = Derivs(Axpy(y0, kDt, k3));
    Vec y1;
    for (int i = 0; i < 5; ++i) {
      y1[i] = y0[i] + kDt / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    }
    state_[0] = Wrap(y1[0], -M_PI, M_PI);
    state_[1] = Wrap(y1[1], -M_PI, M_PI);
    state_[2] = std::min(std::max(y1[2], -kMaxVel1), kMaxVel1);
    state_[3] = std::min(std::max(y1[3], -kMaxVel2), kMaxVel2);
    single_ = false;
    terminated_ = -std::cos(state_[0]) - std::cos(state_[1] + state_[0]) > 1.0;
    reward_ = terminated_ ? 0.0 : -1.0;
  }

  void Render(int width, int height, int /*camera_id*/, uint8_t* rgb) override {
    DrawAcrobot(state_.data(), single_, width, height, rgb);
  }

  void Write(const Output& out) override {
    float* obs = out.Get(fields_.obs);
    for (int i = 0; i < 2; ++i) {
      if (single_) {  // numpy's float32 cos and sin of the float32 state
        const auto theta = static_cast<float>(state_[i]);
        obs[2 * i] = numpy_f32::Cos(theta);
        obs[2 * i + 1] = numpy_f32::Sin(theta);
      } else {
        obs[2 * i] = static_cast<float>(std::cos(state_[i]));
        obs[2 * i + 1] = static_cast<float>(std::sin(state_[i]));
      }
    }
    obs[4] = static_cast<float>(state_[2]);
    obs[5] = static_cast<float>(state_[3]);
    std::copy(state_.begin(), state_.end(), out.Get(fields_.state));
  }

  // [theta1, theta2, dtheta1, dtheta2], as gymnasium's `state`.
  std::vector<double> GetState() const override {
    return {state_.begin(), state_.end()};
  }
  // Sets a float64 state, as gymnasium's after a step.
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 4) {
      throw std::invalid_argument(
          "Acrobot state is [theta1, theta2, dtheta1, dtheta2], got " +
          std::to_string(state.size()) + " numbers");
    }
    std::copy(state.begin(), state.end(), state_.begin());
    single_ = false;
  }

  void SaveState(StateWriter* writer) const override {
    writer->Put(state_, single_);
  }
  void LoadState(StateReader* reader) override {
    reader->Get(&state_, &single_);
  }

 private:
  using Vec = std::array<double, 5>;

  static constexpr double kDt = 0.2;
  static constexpr double kLinkLength1 = 1.0;
  static constexpr double kLinkMass1 = 1.0;
  static constexpr double kLinkMass2 = 1.0;
  static constexpr double kLinkComPos1 = 0.5;
  static constexpr double kLinkComPos2 = 0.5;
  static constexpr double kLinkMoi = 1.0;
  static constexpr double kGravity = 9.8;
  static constexpr double kMaxVel1 = 4 * M_PI;
  static constexpr double kMaxVel2 = 9 * M_PI;

  // numpy evaluates `x ** 2` on a scalar with libm's pow, which is not always
  // the correctly rounded x * x; the exponent is hidden from the compiler,
  // which would otherwise fold pow(x, 2) into x * x.
  static double Square(double x) {
    volatile double two = 2.0;
    return std::pow(x, static_cast<double>(two));
  }

  // y + h * k, elementwise.
  static Vec Axpy(const Vec& y, double h, const Vec& k) {
    Vec out;
    for (int i = 0; i < 5; ++i) {
      out[i] = y[i] + h * k[i];
    }
    return out;
  }

  // The time derivative of the augmented state ("book" dynamics).
  static Vec Derivs(const Vec& s) {
    constexpr double m1 = kLinkMass1;
    constexpr double m2 = kLinkMass2;
    constexpr double l1 = kLinkLength1;
    constexpr double lc1 = kLinkComPos1;
    constexpr double lc2 = kLinkComPos2;
    constexpr double i1 = kLinkMoi;
    constexpr double i2 = kLinkMoi;
    constexpr double g = kGravity;
    // Squares of the constants are exact, so they are written as products.
    constexpr double lc1_sq = lc1 * lc1;
    constexpr double lc2_sq = lc2 * lc2;
    constexpr double l1_sq = l1 * l1;
    const double a = s[4];
    const double theta1 = s[0];
    const double theta2 = s[1];
    const double dtheta1 = s[2];
    const double dtheta2 = s[3];
    const double d1 = m1 * lc1_sq +
                      m2 * (l1_sq + lc2_sq + 2 * l1 * lc2 * std::cos(theta2)) +
                      i1 + i2;
    const double d2 = m2 * (lc2_sq + l1 * lc2 * std::cos(theta2)) + i2;
    const double phi2 = m2 * lc2 * g * std::cos(theta1 + theta2 - M_PI / 2.0);
    const double phi1 =
        -m2 * l1 * lc2 * Square(dtheta2) * std::sin(theta2) -
        2 * m2 * l1 * lc2 * dtheta2 * dtheta1 * std::sin(theta2) +
        (m1 * lc1 + m2 * l1) * g * std::cos(theta1 - M_PI / 2) + phi2;
    const double ddtheta2 =
        (a + d2 / d1 * phi1 -
         m2 * l1 * lc2 * Square(dtheta1) * std::sin(theta2) - phi2) /
        (m2 * lc2_sq + i2 - Square(d2) / d1);
    const double ddtheta1 = -(d2 * ddtheta2 + phi1) / d1;
    return {dtheta1, dtheta2, ddtheta1, ddtheta2, 0.0};
  }

  // Moves x into [low, high] by whole turns.
  static double Wrap(double x, double low, double high) {
    const double turn = high - low;
    while (x > high) {
      x = x - turn;
    }
    while (x < low) {
      x = x + turn;
    }
    return x;
  }

  Fields fields_;
  std::array<double, 4> state_{0.0, 0.0, 0.0, 0.0};
  bool single_ = false;  // whether the state is float32 (after a reset)
};

}  // namespace envpool::classic_control

#endif  // ENVPOOL_CLASSIC_CONTROL_ACROBOT_H_
