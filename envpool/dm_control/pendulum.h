// Pendulum (dm_control suite/pendulum.py): swing a pole up and keep it
// within 8 degrees of vertical.
#ifndef ENVPOOL_DM_CONTROL_PENDULUM_H_
#define ENVPOOL_DM_CONTROL_PENDULUM_H_

#include <cmath>
#include <string>
#include <vector>

#include "envpool/dm_control/dmc_env.h"

namespace envpool::dm_control {

class PendulumEnv : public DmcEnv {
 public:
  using Fields = DmcFields;

  static Options DefaultOptions() { return DmcOptions("swingup", 1); }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    CheckTask("pendulum", options.Get<std::string>("task_name"), {"swingup"});
    DeclareDmc(options, "pendulum.xml",
               {{"orientation", {2}}, {"velocity", {1}}}, spec, fields);
  }

  PendulumEnv(const Options& options, const Fields& fields)
      : DmcEnv(options, fields, "pendulum.xml"),
        pole_(Id(mjOBJ_BODY, "pole")),
        hinge_(QposAdr("hinge")),
        hinge_dof_(QvelAdr("hinge")) {}

 protected:
  void InitializeEpisode() override {
    data_->qpos[hinge_] = random_.Uniform(-M_PI, M_PI);
  }

  double GetReward() override {
    // np.cos(np.deg2rad(8)): deg2rad is x * (pi / 180).
    static const double cosine_bound = std::cos(8.0 * (M_PI / 180.0));
    return Tolerance(Xmat(pole_, 8), cosine_bound, 1.0);
  }

  void Observe(const std::vector<double*>& obs) const override {
    obs[0][0] = Xmat(pole_, 8);
    obs[0][1] = Xmat(pole_, 2);
    obs[1][0] = data_->qvel[hinge_dof_];
  }

 private:
  int pole_;
  int hinge_;
  int hinge_dof_;
};

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_PENDULUM_H_
