// Ball in cup (dm_control suite/ball_in_cup.py): swing a ball on a string
// into the cup; reward 1 while it is inside.
#ifndef ENVPOOL_DM_CONTROL_BALL_IN_CUP_H_
#define ENVPOOL_DM_CONTROL_BALL_IN_CUP_H_

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "envpool/dm_control/dmc_env.h"

namespace envpool::dm_control {

class BallInCupEnv : public DmcEnv {
 public:
  using Fields = DmcFields;

  static Options DefaultOptions() { return DmcOptions("catch", 10); }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    CheckTask("ball_in_cup", options.Get<std::string>("task_name"), {"catch"});
    auto model = LoadModel("ball_in_cup.xml");
    DeclareDmc(options, "ball_in_cup.xml",
               {{"position", {model->nq}}, {"velocity", {model->nv}}}, spec,
               fields);
  }

  BallInCupEnv(const Options& options, const Fields& fields)
      : DmcEnv(options, fields, "ball_in_cup.xml"),
        ball_x_(QposAdr("ball_x")),
        ball_z_(QposAdr("ball_z")),
        target_(Id(mjOBJ_SITE, "target")),
        ball_body_(Id(mjOBJ_BODY, "ball")),
        ball_geom_(Id(mjOBJ_GEOM, "ball")) {}

 protected:
  void InitializeEpisode() override {
    bool penetrating = true;
    while (penetrating) {
      data_->qpos[ball_x_] = random_.Uniform(-.2, .2);
      data_->qpos[ball_z_] = random_.Uniform(.2, .5);
      AfterReset();
      penetrating = data_->ncon > 0;
    }
  }

  double GetReward() override {
    const double ball_size = model_->geom_size[3 * ball_geom_];
    bool inside = true;
    for (int axis : {0, 2}) {
      const double d = std::abs(data_->site_xpos[3 * target_ + axis] -
                                data_->xpos[3 * ball_body_ + axis]);
      inside = inside && d < model_->site_size[3 * target_ + axis] - ball_size;
    }
    return inside ? 1.0 : 0.0;
  }

  void Observe(const std::vector<double*>& obs) const override {
    std::copy(data_->qpos, data_->qpos + model_->nq, obs[0]);
    std::copy(data_->qvel, data_->qvel + model_->nv, obs[1]);
  }

 private:
  int ball_x_;
  int ball_z_;
  int target_;
  int ball_body_;
  int ball_geom_;
};

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_BALL_IN_CUP_H_
