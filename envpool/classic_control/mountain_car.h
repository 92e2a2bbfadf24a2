// MountainCar: gymnasium's classic_control/mountain_car.py (Moore, 1990), a
// car in a valley pushed left (0), not at all (1) or right (2); float64 state
// [position, velocity].
#ifndef ENVPOOL_CLASSIC_CONTROL_MOUNTAIN_CAR_H_
#define ENVPOOL_CLASSIC_CONTROL_MOUNTAIN_CAR_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/classic_control/render.h"
#include "envpool/core/env.h"

namespace envpool::classic_control {

class MountainCarEnv : public Env {
 public:
  struct Fields {
    Field<float> obs;
    Field<int64_t> action;
  };

  static Options DefaultOptions() {
    return Options{{"max_episode_steps", int64_t{200}},
                   {"reward_threshold", -110.0}};
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    spec->snapshots = true;
    // gymnasium builds the bounds as float32 arrays.
    fields->obs = spec->state.Add<float>(
        "obs", {2},
        {static_cast<float>(kMinPosition), static_cast<float>(-kMaxSpeed)},
        {static_cast<float>(kMaxPosition), static_cast<float>(kMaxSpeed)});
    fields->action = spec->action.AddDiscrete<int64_t>("action", 3);
    // gymnasium's render(): 600x400 pygame frames at 30 fps.
    DeclareRendering(options, spec, {"rgb_array"}, kMountainCarScreen[0],
                     kMountainCarScreen[1], 30);
  }

  MountainCarEnv(const Options& /*options*/, const Fields& fields) {
    fields_ = fields;
  }

  void Reset() override {
    // gymnasium: np.array([np_random.uniform(low=-0.6, high=-0.4), 0]).
    position_ = np_random_.Uniform(-0.6, -0.4);
    velocity_ = 0.0;
    reward_ = 0.0;
    terminated_ = false;
  }

  void Step(const ActionView& action) override {
    const int64_t push = action.Scalar(fields_.action) - 1;
    double velocity = velocity_ + (static_cast<double>(push) * kForce +
                                   std::cos(3 * position_) * (-kGravity));
    velocity = std::min(std::max(velocity, -kMaxSpeed), kMaxSpeed);
    double position = position_ + velocity;
    position = std::min(std::max(position, kMinPosition), kMaxPosition);
    // The left wall is inelastic.
    if (position == kMinPosition && velocity < 0) {
      velocity = 0.0;
    }
    position_ = position;
    velocity_ = velocity;
    terminated_ = position >= kGoalPosition && velocity >= kGoalVelocity;
    reward_ = -1.0;
  }

  void Render(int width, int height, int /*camera_id*/, uint8_t* rgb) override {
    DrawMountainCar(position_, kGoalPosition, false, width, height, rgb);
  }

  void Write(const Output& out) override {
    float* obs = out.Get(fields_.obs);
    obs[0] = static_cast<float>(position_);
    obs[1] = static_cast<float>(velocity_);
  }

  // [position, velocity], as gymnasium's `state`.
  std::vector<double> GetState() const override {
    return {position_, velocity_};
  }
  void SetState(const std::vector<double>& state) override {
    if (state.size() != 2) {
      throw std::invalid_argument(
          "MountainCar state is [position, velocity], got " +
          std::to_string(state.size()) + " numbers");
    }
    position_ = state[0];
    velocity_ = state[1];
  }

  void SaveState(StateWriter* writer) const override {
    writer->Put(position_, velocity_);
  }
  void LoadState(StateReader* reader) override {
    reader->Get(&position_, &velocity_);
  }

 private:
  static constexpr double kMinPosition = -1.2;
  static constexpr double kMaxPosition = 0.6;
  static constexpr double kMaxSpeed = 0.07;
  static constexpr double kGoalPosition = 0.5;
  static constexpr double kGoalVelocity = 0.0;
  static constexpr double kForce = 0.001;
  static constexpr double kGravity = 0.0025;

  Fields fields_;
  double position_ = 0.0;
  double velocity_ = 0.0;
};

}  // namespace envpool::classic_control

#endif  // ENVPOOL_CLASSIC_CONTROL_MOUNTAIN_CAR_H_
