// Fish (dm_control suite/fish.py): a swimming fish keeps upright (upright)
// or swims its mouth to a random target (swim).
#ifndef ENVPOOL_DM_CONTROL_FISH_H_
#define ENVPOOL_DM_CONTROL_FISH_H_

#include <algorithm>
#include <string>
#include <vector>

#include "envpool/dm_control/dmc_env.h"

namespace envpool::dm_control {

class FishEnv : public DmcEnv {
 public:
  using Fields = DmcFields;

  static Options DefaultOptions() { return DmcOptions("swim", 10); }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    const std::string task = options.Get<std::string>("task_name");
    CheckTask("fish", task, {"upright", "swim"});
    auto model = LoadModel("fish.xml");
    std::vector<ObsKey> keys{{"joint_angles", {7}}, {"upright", {}}};
    if (task == "swim") {
      keys.push_back({"target", {3}});
    }
    keys.push_back({"velocity", {model->nv}});
    DeclareDmc(options, "fish.xml", keys, spec, fields);
  }

  FishEnv(const Options& options, const Fields& fields)
      : DmcEnv(options, fields, "fish.xml"),
        swim_(options.Get<std::string>("task_name") == "swim"),
        root_(QposAdr("root")),
        torso_(Id(mjOBJ_BODY, "torso")),
        mouth_(Id(mjOBJ_GEOM, "mouth")),
        target_(Id(mjOBJ_GEOM, "target")) {
    for (const char* joint :
         {"tail1", "tail_twist", "tail2", "finright_roll", "finright_pitch",
          "finleft_roll", "finleft_pitch"}) {
      joints_.push_back(QposAdr(joint));
    }
  }

 protected:
  void InitializeEpisode() override {
    double quat[4];
    for (double& q : quat) {
      q = random_.StandardNormal();
    }
    const double norm = Norm(quat, 4);
    for (int i = 0; i < 4; ++i) {
      data_->qpos[root_ + 3 + i] = quat[i] / norm;
    }
    for (int adr : joints_) {
      data_->qpos[adr] = random_.Uniform(-.2, .2);
    }
    if (!swim_) {
      // Upright hides the target (drawn only: it has no collisions).
      model_->geom_rgba[4 * target_ + 3] = 0;
    }
    if (swim_) {
      model_->geom_pos[3 * target_] = random_.Uniform(-.4, .4);
      model_->geom_pos[3 * target_ + 1] = random_.Uniform(-.4, .4);
      model_->geom_pos[3 * target_ + 2] = random_.Uniform(.1, .3);
    }
  }

  double GetReward() override {
    const double upright = Xmat(torso_, 8);
    if (!swim_) {
      return Tolerance(upright, 1.0, 1.0, 1.0);
    }
    const double radii =
        model_->geom_size[3 * mouth_] + model_->geom_size[3 * target_];
    double to_target[3];
    MouthToTarget(to_target);
    const double in_target =
        Tolerance(Norm(to_target, 3), 0.0, radii, 2 * radii);
    const double is_upright = 0.5 * (upright + 1);
    return (7 * in_target + is_upright) / 8;
  }

  void Observe(const std::vector<double*>& obs) const override {
    for (std::size_t i = 0; i < joints_.size(); ++i) {
      obs[0][i] = data_->qpos[joints_[i]];
    }
    obs[1][0] = Xmat(torso_, 8);
    int k = 2;
    if (swim_) {
      MouthToTarget(obs[k++]);
    }
    std::copy(data_->qvel, data_->qvel + model_->nv, obs[k]);
  }

 private:
  // (target - mouth) in the mouth's frame: the global offset times the
  // mouth's rotation matrix.
  void MouthToTarget(double* out) const {
    double d[3];
    for (int i = 0; i < 3; ++i) {
      d[i] =
          data_->geom_xpos[3 * target_ + i] - data_->geom_xpos[3 * mouth_ + i];
    }
    const double* m = data_->geom_xmat + 9 * mouth_;
    for (int j = 0; j < 3; ++j) {
      out[j] = d[0] * m[j] + d[1] * m[3 + j] + d[2] * m[6 + j];
    }
  }

  bool swim_;
  int root_;
  int torso_;
  int mouth_;
  int target_;
  std::vector<int> joints_;
};

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_FISH_H_
