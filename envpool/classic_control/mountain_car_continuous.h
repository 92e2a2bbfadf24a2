// MountainCarContinuous: gymnasium's
// classic_control/continuous_mountain_car.py, a car in a valley driven by a
// force in [-1, 1].
//
// gymnasium keeps this env's state as a float32 array after the first step
// (the reset state is float64), and numpy evaluates a float32 scalar combined
// with a Python float in float32, comparisons included.  So a step computes
// in float32 exactly where the reference does: `single_` records whether the
// state is float32, and each intermediate value carries whether it is a
// float32 scalar or a double.
#ifndef ENVPOOL_CLASSIC_CONTROL_MOUNTAIN_CAR_CONTINUOUS_H_
#define ENVPOOL_CLASSIC_CONTROL_MOUNTAIN_CAR_CONTINUOUS_H_

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/classic_control/render.h"
#include "envpool/core/env.h"

namespace envpool::classic_control {

class MountainCarContinuousEnv : public Env {
 public:
  struct Fields {
    Field<float> obs;
    Field<float> action;
  };

  static Options DefaultOptions() {
    return Options{{"max_episode_steps", int64_t{999}},
                   {"reward_threshold", 90.0}};
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;
    fields->obs = spec->state.Add<float>(
        "obs", {2},
        {static_cast<float>(kMinPosition), static_cast<float>(-kMaxSpeed)},
        {static_cast<float>(kMaxPosition), static_cast<float>(kMaxSpeed)});
    fields->action =
        spec->action.Add<float>("action", {1}, {kMinAction}, {kMaxAction});
    // gymnasium's render(): 600x400 pygame frames at 30 fps.
    DeclareRendering(options, spec, {"rgb_array"}, kMountainCarScreen[0],
                     kMountainCarScreen[1], 30);
  }

  MountainCarContinuousEnv(const Options& /*options*/, const Fields& fields) {
    fields_ = fields;
  }

  void Reset() override {
    // gymnasium: np.array([np_random.uniform(low=-0.6, high=-0.4), 0]).
    position_ = np_random_.Uniform(-0.6, -0.4);
    velocity_ = 0.0;
    single_ = false;
    reward_ = 0.0;
    terminated_ = false;
  }

  void Step(const ActionView& action) override {
    const float a = action.Get(fields_.action)[0];
    // min(max(a, -1.0), 1.0) keeps the float32 action unless it is out of
    // range, where it becomes the Python float bound.
    Scalar force = Scalar::F32(a);
    if (a < static_cast<float>(kMinAction)) {
      force = Scalar::F64(kMinAction);
    } else if (a > static_cast<float>(kMaxAction)) {
      force = Scalar::F64(kMaxAction);
    }
    // velocity += force * power - 0.0025 * cos(3 * position)
    const double three_position =
        single_ ? static_cast<double>(3.0F * static_cast<float>(position_))
                : 3 * position_;
    const double slope = 0.0025 * std::cos(three_position);
    const Scalar accel = force.Times(kPower).Minus(slope);
    Scalar velocity = (single_ ? Scalar::F32(static_cast<float>(velocity_))
                               : Scalar::F64(velocity_))
                          .Plus(accel);
    if (velocity.Greater(kMaxSpeed)) {
      velocity = Scalar::F64(kMaxSpeed);
    }
    if (velocity.Less(-kMaxSpeed)) {
      velocity = Scalar::F64(-kMaxSpeed);
    }
    Scalar position = (single_ ? Scalar::F32(static_cast<float>(position_))
                               : Scalar::F64(position_))
                          .Plus(velocity);
    if (position.Greater(kMaxPosition)) {
      position = Scalar::F64(kMaxPosition);
    }
    if (position.Less(kMinPosition)) {
      position = Scalar::F64(kMinPosition);
    }
    // The left wall is inelastic.
    if (position.Equal(kMinPosition) && velocity.Less(0.0)) {
      velocity = Scalar::F64(0.0);
    }
    terminated_ = position.GreaterEqual(kGoalPosition) &&
                  velocity.GreaterEqual(kGoalVelocity);
    // The penalty uses the unclipped action.
    const double penalty = std::pow(static_cast<double>(a), 2.0) * 0.1;
    reward_ = (terminated_ ? 100.0 : 0.0) - penalty;
    // The new state is stored as float32.
    position_ = static_cast<float>(position.value);
    velocity_ = static_cast<float>(velocity.value);
    single_ = true;
  }

  void Render(int width, int height, int /*camera_id*/, uint8_t* rgb) override {
    DrawMountainCar(position_, kGoalPosition, single_, width, height, rgb);
  }

  void Write(const Output& out) override {
    float* obs = out.Get(fields_.obs);
    obs[0] = static_cast<float>(position_);
    obs[1] = static_cast<float>(velocity_);
  }

  // [position, velocity, 1 if the state is float32 (after a step) else 0].
  std::vector<double> GetState() const override {
    return {position_, velocity_, single_ ? 1.0 : 0.0};
  }
  // Takes the three numbers of GetState, or [position, velocity] as float64
  // (the state right after a reset).
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 2 && state.size() != 3) {
      throw std::invalid_argument(
          "MountainCarContinuous state is [position, velocity] or [position, "
          "velocity, is_float32], got " +
          std::to_string(state.size()) + " numbers");
    }
    single_ = state.size() == 3 && state[2] != 0.0;
    position_ = single_ ? static_cast<float>(state[0]) : state[0];
    velocity_ = single_ ? static_cast<float>(state[1]) : state[1];
  }

  void SaveState(StateWriter* writer) const override {
    writer->Put(position_, velocity_, single_);
  }
  void LoadState(StateReader* reader) override {
    reader->Get(&position_, &velocity_, &single_);
  }

 private:
  static constexpr double kMinAction = -1.0;
  static constexpr double kMaxAction = 1.0;
  static constexpr double kMinPosition = -1.2;
  static constexpr double kMaxPosition = 0.6;
  static constexpr double kMaxSpeed = 0.07;
  static constexpr double kGoalPosition = 0.45;
  static constexpr double kGoalVelocity = 0.0;
  static constexpr double kPower = 0.0015;

  // A scalar of the reference computation: a numpy float32 or a double
  // (numpy float64 or Python float).  Combined with a Python float, a float32
  // rounds the Python float to float32 and stays float32; a float64 operand
  // makes the result float64.
  struct Scalar {
    double value;
    bool f32;

    static Scalar F32(float v) { return {static_cast<double>(v), true}; }
    static Scalar F64(double v) { return {v, false}; }

    // this * (Python float)
    Scalar Times(double py) const {
      if (f32) {
        return F32(static_cast<float>(value) * static_cast<float>(py));
      }
      return F64(value * py);
    }
    // this - (Python float)
    Scalar Minus(double py) const {
      if (f32) {
        return F32(static_cast<float>(value) - static_cast<float>(py));
      }
      return F64(value - py);
    }
    // this + other, where a double `other` may be a Python float (weak, when
    // this is float32) or this is a float64 (the result is float64).
    Scalar Plus(const Scalar& other) const {
      if (f32) {
        return F32(static_cast<float>(value) + static_cast<float>(other.value));
      }
      return F64(value + other.value);
    }
    // Comparisons with a Python float.
    bool Greater(double py) const {
      return f32 ? static_cast<float>(value) > static_cast<float>(py)
                 : value > py;
    }
    bool Less(double py) const {
      return f32 ? static_cast<float>(value) < static_cast<float>(py)
                 : value < py;
    }
    bool GreaterEqual(double py) const {
      return f32 ? static_cast<float>(value) >= static_cast<float>(py)
                 : value >= py;
    }
    bool Equal(double py) const {
      return f32 ? static_cast<float>(value) == static_cast<float>(py)
                 : value == py;
    }
  };

  Fields fields_;
  double position_ = 0.0;
  double velocity_ = 0.0;
  bool single_ = false;  // whether the state is float32 (after any step)
};

}  // namespace envpool::classic_control

#endif  // ENVPOOL_CLASSIC_CONTROL_MOUNTAIN_CAR_CONTINUOUS_H_
