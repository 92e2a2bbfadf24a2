// Walker2d: a two-legged planar walker rewarded for moving along +x while it
// stays upright (planar_walker.h has the shared dynamics and reward). v5
// loads walker2d_v5.xml (both feet with friction 1.9).
#ifndef ENVPOOL_MUJOCO_WALKER2D_H_
#define ENVPOOL_MUJOCO_WALKER2D_H_

#include "envpool/mujoco/planar_walker.h"

namespace envpool::mujoco {

class Walker2dEnv : public PlanarWalkerEnv {
 public:
  static Options DefaultOptions() {
    Options options = WalkerOptions("walker2d.xml", 0.8, 1.0);
    options.Define("healthy_z_max", 2.0);
    return options;
  }

  Walker2dEnv(const Options& options, const Fields& fields)
      : PlanarWalkerEnv(options, fields),
        healthy_z_max_(options.Get<double>("healthy_z_max")) {}

 protected:
  bool IsHealthy() const override { return TorsoUpright(healthy_z_max_); }

  // gymnasium's DEFAULT_CAMERA_CONFIG for this task.
  CameraConfig DefaultCamera() const override {
    CameraConfig c = NoCameraConfig();
    c.distance = 4.0;
    c.elevation = -20.0;
    c.has_lookat = true;
    c.lookat[2] = 1.15;
    return c;
  }

 private:
  double healthy_z_max_;
};

}  // namespace envpool::mujoco

#endif  // ENVPOOL_MUJOCO_WALKER2D_H_
