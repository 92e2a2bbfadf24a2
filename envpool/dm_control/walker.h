// Walker (dm_control suite/walker.py): a planar biped; stand, walk (1 m/s)
// and run (8 m/s).
#ifndef ENVPOOL_DM_CONTROL_WALKER_H_
#define ENVPOOL_DM_CONTROL_WALKER_H_

#include <algorithm>
#include <string>
#include <vector>

#include "envpool/dm_control/dmc_env.h"

namespace envpool::dm_control {

class WalkerEnv : public DmcEnv {
 public:
  using Fields = DmcFields;

  static Options DefaultOptions() { return DmcOptions("walk", 10); }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    CheckTask("walker", options.Get<std::string>("task_name"),
              {"stand", "walk", "run"});
    auto model = LoadModel("walker.xml");
    DeclareDmc(options, "walker.xml",
               {{"orientations", {2 * (model->nbody - 1)}},
                {"height", {}},
                {"velocity", {model->nv}}},
               spec, fields);
  }

  WalkerEnv(const Options& options, const Fields& fields)
      : DmcEnv(options, fields, "walker.xml"),
        torso_(Id(mjOBJ_BODY, "torso")),
        speed_sensor_(
            model_->sensor_adr[Id(mjOBJ_SENSOR, "torso_subtreelinvel")]) {
    const std::string task = options.Get<std::string>("task_name");
    move_speed_ = task == "stand" ? 0.0 : task == "walk" ? 1.0 : 8.0;
  }

 protected:
  void InitializeEpisode() override { RandomizeLimitedAndRotationalJoints(); }

  double GetReward() override {
    const double stand_height = 1.2;
    const double standing = Tolerance(data_->xpos[3 * torso_ + 2], stand_height,
                                      kInf, stand_height / 2);
    const double upright = (1 + Xmat(torso_, 8)) / 2;
    const double stand_reward = (3 * standing + upright) / 4;
    if (move_speed_ == 0.0) {
      return stand_reward;
    }
    const double move_reward =
        Tolerance(data_->sensordata[speed_sensor_], move_speed_, kInf,
                  move_speed_ / 2, Sigmoid::kLinear, 0.5);
    return stand_reward * (5 * move_reward + 1) / 6;
  }

  void Observe(const std::vector<double*>& obs) const override {
    for (int b = 1; b < model_->nbody; ++b) {
      obs[0][2 * (b - 1)] = Xmat(b, 0);
      obs[0][2 * (b - 1) + 1] = Xmat(b, 2);
    }
    obs[1][0] = data_->xpos[3 * torso_ + 2];
    std::copy(data_->qvel, data_->qvel + model_->nv, obs[2]);
  }

 private:
  int torso_;
  int speed_sensor_;
  double move_speed_;
};

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_WALKER_H_
