// Hopper: a one-legged planar robot rewarded for hopping along +x while it
// stays upright (planar_walker.h has the shared dynamics and reward).
#ifndef ENVPOOL_MUJOCO_HOPPER_H_
#define ENVPOOL_MUJOCO_HOPPER_H_

#include "envpool/mujoco/planar_walker.h"

namespace envpool::mujoco {

class HopperEnv : public PlanarWalkerEnv {
 public:
  static Options DefaultOptions() {
    Options options = WalkerOptions("hopper.xml", 0.7, 0.2);
    // Every qpos but x and z, and every qvel, strictly inside this range.
    options.Define("healthy_state_min", -100.0);
    options.Define("healthy_state_max", 100.0);
    return options;
  }

  HopperEnv(const Options& options, const Fields& fields)
      : PlanarWalkerEnv(options, fields),
        healthy_state_min_(options.Get<double>("healthy_state_min")),
        healthy_state_max_(options.Get<double>("healthy_state_max")) {}

 protected:
  // The torso above healthy_z_min (no upper bound), upright, and the rest of
  // the state inside the healthy range.
  bool IsHealthy() const override {
    for (int i = 2; i < model_->nq; ++i) {
      const double q = data_->qpos[i];
      if (!(healthy_state_min_ < q && q < healthy_state_max_)) {
        return false;
      }
    }
    for (int i = 0; i < model_->nv; ++i) {
      const double v = data_->qvel[i];
      if (!(healthy_state_min_ < v && v < healthy_state_max_)) {
        return false;
      }
    }
    return TorsoUpright(kInf);
  }

  // gymnasium's DEFAULT_CAMERA_CONFIG for this task.
  CameraConfig DefaultCamera() const override {
    CameraConfig c = NoCameraConfig();
    c.distance = 3.0;
    c.elevation = -20.0;
    c.has_lookat = true;
    c.lookat[2] = 1.15;
    return c;
  }

 private:
  double healthy_state_min_;
  double healthy_state_max_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_HOPPER_H_
