// Reacher (dm_control suite/reacher.py): a two-link arm reaching a random
// target, big (easy) or small (hard).
#ifndef ENVPOOL_DM_CONTROL_REACHER_H_
#define ENVPOOL_DM_CONTROL_REACHER_H_

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "envpool/dm_control/dmc_env.h"

namespace envpool::dm_control {

class ReacherEnv : public DmcEnv {
 public:
  using Fields = DmcFields;

  static Options DefaultOptions() { return DmcOptions("easy", 1); }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    CheckTask("reacher", options.Get<std::string>("task_name"),
              {"easy", "hard"});
    auto model = LoadModel("reacher.xml");
    DeclareDmc(options, "reacher.xml",
               {{"position", {model->nq}},
                {"to_target", {2}},
                {"velocity", {model->nv}}},
               spec, fields);
  }

  ReacherEnv(const Options& options, const Fields& fields)
      : DmcEnv(options, fields, "reacher.xml"),
        target_size_(options.Get<std::string>("task_name") == "easy" ? .05
                                                                     : .015),
        target_(Id(mjOBJ_GEOM, "target")),
        finger_(Id(mjOBJ_GEOM, "finger")) {}

 protected:
  void InitializeEpisode() override {
    model_->geom_size[3 * target_] = target_size_;
    RandomizeLimitedAndRotationalJoints();
    const double angle = random_.Uniform(0, 2 * M_PI);
    const double radius = random_.Uniform(.05, .20);
    model_->geom_pos[3 * target_] = radius * std::sin(angle);
    model_->geom_pos[3 * target_ + 1] = radius * std::cos(angle);
  }

  double GetReward() override {
    const double radii =
        model_->geom_size[3 * target_] + model_->geom_size[3 * finger_];
    double to_target[2];
    ToTarget(to_target);
    return Tolerance(Norm(to_target, 2), 0.0, radii);
  }

  void Observe(const std::vector<double*>& obs) const override {
    std::copy(data_->qpos, data_->qpos + model_->nq, obs[0]);
    ToTarget(obs[1]);
    std::copy(data_->qvel, data_->qvel + model_->nv, obs[2]);
  }

 private:
  void ToTarget(double* out) const {
    for (int i = 0; i < 2; ++i) {
      out[i] =
          data_->geom_xpos[3 * target_ + i] - data_->geom_xpos[3 * finger_ + i];
    }
  }

  double target_size_;
  int target_;
  int finger_;
};

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_REACHER_H_
