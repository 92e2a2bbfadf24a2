// Hopper (dm_control suite/hopper.py): a planar one-legged hopper; stand
// with small controls, or hop forward at 2 m/s.
#ifndef ENVPOOL_DM_CONTROL_HOPPER_H_
#define ENVPOOL_DM_CONTROL_HOPPER_H_

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "envpool/dm_control/dmc_env.h"

namespace envpool::dm_control {

class HopperEnv : public DmcEnv {
 public:
  using Fields = DmcFields;

  static Options DefaultOptions() { return DmcOptions("hop", 4); }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    CheckTask("hopper", options.Get<std::string>("task_name"),
              {"stand", "hop"});
    auto model = LoadModel("hopper.xml");
    DeclareDmc(options, "hopper.xml",
               {{"position", {model->nq - 1}},
                {"velocity", {model->nv}},
                {"touch", {2}}},
               spec, fields);
  }

  HopperEnv(const Options& options, const Fields& fields)
      : DmcEnv(options, fields, "hopper.xml"),
        hopping_(options.Get<std::string>("task_name") == "hop"),
        torso_(Id(mjOBJ_BODY, "torso")),
        foot_(Id(mjOBJ_BODY, "foot")),
        speed_sensor_(
            model_->sensor_adr[Id(mjOBJ_SENSOR, "torso_subtreelinvel")]),
        toe_(model_->sensor_adr[Id(mjOBJ_SENSOR, "touch_toe")]),
        heel_(model_->sensor_adr[Id(mjOBJ_SENSOR, "touch_heel")]) {}

 protected:
  void InitializeEpisode() override { RandomizeLimitedAndRotationalJoints(); }

  double GetReward() override {
    const double height =
        data_->xipos[3 * torso_ + 2] - data_->xipos[3 * foot_ + 2];
    const double standing = Tolerance(height, 0.6, 2.0);
    if (hopping_) {
      const double hopping = Tolerance(data_->sensordata[speed_sensor_], 2.0,
                                       kInf, 1.0, Sigmoid::kLinear, 0.5);
      return standing * hopping;
    }
    std::vector<double> small(model_->nu);
    for (int i = 0; i < model_->nu; ++i) {
      small[i] =
          Tolerance(data_->ctrl[i], 0.0, 0.0, 1.0, Sigmoid::kQuadratic, 0.0);
    }
    const double small_control = (NumpyMean(small.data(), model_->nu) + 4) / 5;
    return standing * small_control;
  }

  void Observe(const std::vector<double*>& obs) const override {
    std::copy(data_->qpos + 1, data_->qpos + model_->nq, obs[0]);
    std::copy(data_->qvel, data_->qvel + model_->nv, obs[1]);
    obs[2][0] = std::log1p(data_->sensordata[toe_]);
    obs[2][1] = std::log1p(data_->sensordata[heel_]);
  }

 private:
  bool hopping_;
  int torso_;
  int foot_;
  int speed_sensor_;
  int toe_;
  int heel_;
};

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_HOPPER_H_
