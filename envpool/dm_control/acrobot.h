// Acrobot (dm_control suite/acrobot.py): swing a two-link underactuated arm
// so that its tip reaches the target above; dense or sparse reward.
#ifndef ENVPOOL_DM_CONTROL_ACROBOT_H_
#define ENVPOOL_DM_CONTROL_ACROBOT_H_

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "envpool/dm_control/dmc_env.h"

namespace envpool::dm_control {

class AcrobotEnv : public DmcEnv {
 public:
  using Fields = DmcFields;

  static Options DefaultOptions() { return DmcOptions("swingup", 1); }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    CheckTask("acrobot", options.Get<std::string>("task_name"),
              {"swingup", "swingup_sparse"});
    auto model = LoadModel("acrobot.xml");
    DeclareDmc(options, "acrobot.xml",
               {{"orientations", {4}}, {"velocity", {model->nv}}}, spec,
               fields);
  }

  AcrobotEnv(const Options& options, const Fields& fields)
      : DmcEnv(options, fields, "acrobot.xml"),
        sparse_(options.Get<std::string>("task_name") == "swingup_sparse"),
        upper_(Id(mjOBJ_BODY, "upper_arm")),
        lower_(Id(mjOBJ_BODY, "lower_arm")),
        shoulder_(QposAdr("shoulder")),
        elbow_(QposAdr("elbow")),
        target_(Id(mjOBJ_SITE, "target")),
        tip_(Id(mjOBJ_SITE, "tip")) {}

 protected:
  void InitializeEpisode() override {
    data_->qpos[shoulder_] = random_.Uniform(-M_PI, M_PI);
    data_->qpos[elbow_] = random_.Uniform(-M_PI, M_PI);
  }

  double GetReward() override {
    double d[3];
    for (int i = 0; i < 3; ++i) {
      d[i] = data_->site_xpos[3 * target_ + i] - data_->site_xpos[3 * tip_ + i];
    }
    const double radius = model_->site_size[3 * target_];
    return Tolerance(Norm(d, 3), 0.0, radius, sparse_ ? 0.0 : 1.0);
  }

  void Observe(const std::vector<double*>& obs) const override {
    obs[0][0] = Xmat(upper_, 2);
    obs[0][1] = Xmat(lower_, 2);
    obs[0][2] = Xmat(upper_, 8);
    obs[0][3] = Xmat(lower_, 8);
    std::copy(data_->qvel, data_->qvel + model_->nv, obs[1]);
  }

 private:
  bool sparse_;
  int upper_;
  int lower_;
  int shoulder_;
  int elbow_;
  int target_;
  int tip_;
};

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_ACROBOT_H_
