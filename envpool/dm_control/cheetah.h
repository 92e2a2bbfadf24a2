// Cheetah (dm_control suite/cheetah.py): a planar runner rewarded for
// forward speed of at least 10 m/s.
#ifndef ENVPOOL_DM_CONTROL_CHEETAH_H_
#define ENVPOOL_DM_CONTROL_CHEETAH_H_

#include <algorithm>
#include <string>
#include <vector>

#include "envpool/dm_control/dmc_env.h"

namespace envpool::dm_control {

class CheetahEnv : public DmcEnv {
 public:
  using Fields = DmcFields;

  static Options DefaultOptions() { return DmcOptions("run", 1); }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    CheckTask("cheetah", options.Get<std::string>("task_name"), {"run"});
    auto model = LoadModel("cheetah.xml");
    DeclareDmc(options, "cheetah.xml",
               {{"position", {model->nq - 1}}, {"velocity", {model->nv}}}, spec,
               fields);
  }

  CheetahEnv(const Options& options, const Fields& fields)
      : DmcEnv(options, fields, "cheetah.xml"),
        speed_sensor_(
            model_->sensor_adr[Id(mjOBJ_SENSOR, "torso_subtreelinvel")]) {}

 protected:
  void InitializeEpisode() override {
    // qpos[limited] = uniform(lower, upper) over the limited joints (every
    // joint is a one-dof joint here), then 200 physics steps at rest.
    for (int j = 0; j < model_->njnt; ++j) {
      if (model_->jnt_limited[j] != 0) {
        data_->qpos[model_->jnt_qposadr[j]] = random_.Uniform(
            model_->jnt_range[2 * j], model_->jnt_range[2 * j + 1]);
      }
    }
    PhysicsStep(200);
    data_->time = 0.0;
  }

  double GetReward() override {
    return Tolerance(data_->sensordata[speed_sensor_], 10.0, kInf, 10.0,
                     Sigmoid::kLinear, 0.0);
  }

  void Observe(const std::vector<double*>& obs) const override {
    std::copy(data_->qpos + 1, data_->qpos + model_->nq, obs[0]);
    std::copy(data_->qvel, data_->qvel + model_->nv, obs[1]);
  }

 private:
  int speed_sensor_;
};

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_CHEETAH_H_
