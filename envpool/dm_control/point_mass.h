// Point mass (dm_control suite/point_mass.py): drive a mass to the target;
// in the hard task each control moves a random direction.
#ifndef ENVPOOL_DM_CONTROL_POINT_MASS_H_
#define ENVPOOL_DM_CONTROL_POINT_MASS_H_

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "envpool/dm_control/dmc_env.h"

namespace envpool::dm_control {

class PointMassEnv : public DmcEnv {
 public:
  using Fields = DmcFields;

  static Options DefaultOptions() { return DmcOptions("easy", 1); }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    CheckTask("point_mass", options.Get<std::string>("task_name"),
              {"easy", "hard"});
    auto model = LoadModel("point_mass.xml");
    DeclareDmc(options, "point_mass.xml",
               {{"position", {model->nq}}, {"velocity", {model->nv}}}, spec,
               fields);
  }

  PointMassEnv(const Options& options, const Fields& fields)
      : DmcEnv(options, fields, "point_mass.xml"),
        randomize_gains_(options.Get<std::string>("task_name") == "hard"),
        target_(Id(mjOBJ_GEOM, "target")),
        pointmass_(Id(mjOBJ_GEOM, "pointmass")) {}

 protected:
  void InitializeEpisode() override {
    RandomizeLimitedAndRotationalJoints();
    if (randomize_gains_) {
      double dir1[2];
      double dir2[2];
      RandomDirection(dir1);
      bool parallel = true;
      while (parallel) {
        RandomDirection(dir2);
        parallel = std::abs(mujoco_common::NumpyDot(dir1, dir2, 2)) > 0.9;
      }
      model_->wrap_prm[0] = dir1[0];
      model_->wrap_prm[1] = dir1[1];
      model_->wrap_prm[2] = dir2[0];
      model_->wrap_prm[3] = dir2[1];
    }
  }

  double GetReward() override {
    const double target_size = model_->geom_size[3 * target_];
    double d[3];
    for (int i = 0; i < 3; ++i) {
      d[i] = data_->geom_xpos[3 * target_ + i] -
             data_->geom_xpos[3 * pointmass_ + i];
    }
    const double near_target =
        Tolerance(Norm(d, 3), 0.0, target_size, target_size);
    std::vector<double> control(model_->nu);
    for (int i = 0; i < model_->nu; ++i) {
      control[i] =
          Tolerance(data_->ctrl[i], 0.0, 0.0, 1.0, Sigmoid::kQuadratic, 0.0);
    }
    const double small_control =
        (NumpyMean(control.data(), model_->nu) + 4) / 5;
    return near_target * small_control;
  }

  void Observe(const std::vector<double*>& obs) const override {
    std::copy(data_->qpos, data_->qpos + model_->nq, obs[0]);
    std::copy(data_->qvel, data_->qvel + model_->nv, obs[1]);
  }

 private:
  void RandomDirection(double* dir) {
    dir[0] = random_.StandardNormal();
    dir[1] = random_.StandardNormal();
    const double norm = Norm(dir, 2);
    dir[0] /= norm;
    dir[1] /= norm;
  }

  bool randomize_gains_;
  int target_;
  int pointmass_;
};

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_POINT_MASS_H_
