// PointNav: a point mass on the square [-1, 1]^2 pushed by a 2-D force
// toward a goal drawn at random each episode. An example of an env package
// built outside envpool (docs/custom_envs.md): the same contract as an
// in-tree env, compiled against the installed wheel's headers.
#ifndef POINT_NAV_POINT_NAV_H_
#define POINT_NAV_POINT_NAV_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/env.h"

namespace point_nav {

class PointNavEnv : public envpool::Env {
 public:
  struct Fields {
    envpool::Field<float> obs;
    envpool::Field<float> distance;  // info["distance"]
    envpool::Field<float> action;
  };

  static envpool::Options DefaultOptions() {
    return envpool::Options{{"max_episode_steps", int64_t{200}},
                            {"goal_radius", 0.1},
                            {"damping", 0.1},
                            {"ctrl_cost_weight", 0.01},
                            {"dt", 0.1}};
  }

  static void Declare(const envpool::Options& options, envpool::EnvSpec* spec,
                      Fields* fields) {
    const double radius = options.Get<double>("goal_radius");
    if (!(radius > 0.0 && radius < 1.0)) {
      throw std::invalid_argument(
          "option 'goal_radius' must be in (0, 1), got " +
          std::to_string(radius));
    }
    const double damping = options.Get<double>("damping");
    if (!(damping >= 0.0 && damping <= 1.0)) {
      throw std::invalid_argument("option 'damping' must be in [0, 1], got " +
                                  std::to_string(damping));
    }
    // [x, y, vx, vy, goal_x - x, goal_y - y]
    fields->obs = spec->state.Add<float>("obs", {6});
    fields->distance = spec->state.Add<float>("info:distance", {});
    fields->action = spec->action.Add<float>("action", {2}, {-1.0F}, {1.0F});
    const double dt = options.Get<double>("dt");
    if (!(dt > 0.0 && dt <= 1.0)) {
      throw std::invalid_argument("option 'dt' must be in (0, 1], got " +
                                  std::to_string(dt));
    }
    envpool::DeclareRendering(options, spec, {"rgb_array"}, kFrameSize,
                              kFrameSize, static_cast<int>(std::lround(1 / dt)),
                              /*any_size=*/true);
  }

  PointNavEnv(const envpool::Options& options, const Fields& fields)
      : fields_(fields),
        goal_radius_(options.Get<double>("goal_radius")),
        damping_(options.Get<double>("damping")),
        ctrl_cost_weight_(options.Get<double>("ctrl_cost_weight")),
        dt_(options.Get<double>("dt")) {}

  void Reset() override {
    for (double& p : position_) {
      p = np_random_.Uniform(-1.0, 1.0);
    }
    for (double& g : goal_) {
      g = np_random_.Uniform(-1.0, 1.0);
    }
    velocity_[0] = velocity_[1] = 0.0;
    terminated_ = false;
  }

  void Step(const envpool::ActionView& action) override {
    const float* force = action.Get(fields_.action);
    double cost = 0.0;
    for (int i = 0; i < 2; ++i) {
      const double f = std::clamp(static_cast<double>(force[i]), -1.0, 1.0);
      if (std::isnan(f)) {
        throw std::invalid_argument("PointNav: the action is NaN");
      }
      cost += f * f;
      velocity_[i] = (1.0 - damping_) * velocity_[i] + f * dt_;
      position_[i] += velocity_[i] * dt_;
      // The walls stop the mass.
      if (position_[i] < -1.0 || position_[i] > 1.0) {
        position_[i] = std::clamp(position_[i], -1.0, 1.0);
        velocity_[i] = 0.0;
      }
    }
    const double distance = Distance();
    terminated_ = distance < goal_radius_;
    reward_ = -distance - ctrl_cost_weight_ * cost + (terminated_ ? 10.0 : 0.0);
  }

  void Write(const envpool::Output& out) override {
    float* obs = out.Get(fields_.obs);
    obs[0] = static_cast<float>(position_[0]);
    obs[1] = static_cast<float>(position_[1]);
    obs[2] = static_cast<float>(velocity_[0]);
    obs[3] = static_cast<float>(velocity_[1]);
    obs[4] = static_cast<float>(goal_[0] - position_[0]);
    obs[5] = static_cast<float>(goal_[1] - position_[1]);
    *out.Get(fields_.distance) = static_cast<float>(Distance());
  }

  // A white square, the goal as a green disc, the mass as a blue one.
  void Render(int width, int height, int /*camera_id*/, uint8_t* rgb) override {
    auto to_pixel = [](double v, int size) { return (v + 1.0) / 2.0 * size; };
    const double gx = to_pixel(goal_[0], width);
    const double gy = to_pixel(-goal_[1], height);
    const double px = to_pixel(position_[0], width);
    const double py = to_pixel(-position_[1], height);
    const double goal_r = goal_radius_ / 2.0 * width;
    const double mass_r = 0.04 * width;
    for (int row = 0; row < height; ++row) {
      for (int col = 0; col < width; ++col) {
        uint8_t* pixel = rgb + (static_cast<int64_t>(row) * width + col) * 3;
        pixel[0] = pixel[1] = pixel[2] = 255;
        const double x = col + 0.5;
        const double y = row + 0.5;
        if (std::hypot(x - gx, y - gy) < goal_r) {
          pixel[0] = 40, pixel[1] = 180, pixel[2] = 60;
        }
        if (std::hypot(x - px, y - py) < mass_r) {
          pixel[0] = 30, pixel[1] = 60, pixel[2] = 220;
        }
      }
    }
  }

  // [x, y, vx, vy, goal_x, goal_y]: for tests.
  std::vector<double> GetState() const override {
    return {position_[0], position_[1], velocity_[0],
            velocity_[1], goal_[0],     goal_[1]};
  }

 private:
  static constexpr int kFrameSize = 128;

  double Distance() const {
    return std::hypot(goal_[0] - position_[0], goal_[1] - position_[1]);
  }

  Fields fields_;
  double goal_radius_;
  double damping_;
  double ctrl_cost_weight_;
  double dt_;
  double position_[2] = {0.0, 0.0};
  double velocity_[2] = {0.0, 0.0};
  double goal_[2] = {0.0, 0.0};
};

}  // namespace point_nav

#endif  // POINT_NAV_POINT_NAV_H_
