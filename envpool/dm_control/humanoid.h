// Humanoid (dm_control suite/humanoid.py) and the CMU humanoid
// (suite/humanoid_CMU.py): stand, walk (1 m/s) and run (10 m/s); the
// humanoid's run_pure_state observes only qpos and qvel.
#ifndef ENVPOOL_DM_CONTROL_HUMANOID_H_
#define ENVPOOL_DM_CONTROL_HUMANOID_H_

#include <algorithm>
#include <string>
#include <vector>

#include "envpool/dm_control/dmc_env.h"

namespace envpool::dm_control {

// What differs between the two humanoids: the model, the torso body, the
// limb names, the upright axis and the physics steps per control step.
struct HumanoidBody {
  const char* domain;
  const char* model_file;
  int64_t n_sub_steps;  // control timestep / physics timestep
  const char* torso;
  const char* com_sensor;
  int upright_entry;  // xmat entry of the torso: zz (8) or zy (7)
  const char* limbs[4];
  std::vector<std::string> tasks;
};

template <const HumanoidBody& kBody>
class HumanoidLikeEnv : public DmcEnv {
 public:
  using Fields = DmcFields;

  static Options DefaultOptions() {
    return DmcOptions("walk", kBody.n_sub_steps);
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    const std::string task = options.Get<std::string>("task_name");
    CheckTask(kBody.domain, task, kBody.tasks);
    auto model = LoadModel(kBody.model_file);
    std::vector<ObsKey> keys;
    if (task == "run_pure_state") {
      keys = {{"position", {model->nq}}, {"velocity", {model->nv}}};
    } else {
      keys = {{"joint_angles", {model->nq - 7}},
              {"head_height", {}},
              {"extremities", {12}},
              {"torso_vertical", {3}},
              {"com_velocity", {3}},
              {"velocity", {model->nv}}};
    }
    DeclareDmc(options, kBody.model_file, keys, spec, fields);
  }

  HumanoidLikeEnv(const Options& options, const Fields& fields)
      : DmcEnv(options, fields, kBody.model_file),
        pure_state_(options.Get<std::string>("task_name") == "run_pure_state"),
        torso_(Id(mjOBJ_BODY, kBody.torso)),
        head_(Id(mjOBJ_BODY, "head")),
        com_velocity_(Sensor(kBody.com_sensor)) {
    const std::string task = options.Get<std::string>("task_name");
    move_speed_ = task == "stand" ? 0.0 : task == "walk" ? 1.0 : 10.0;
    for (const char* limb : kBody.limbs) {
      limbs_.push_back(Id(mjOBJ_BODY, limb));
    }
    small_.resize(model_->nu);
  }

 protected:
  void InitializeEpisode() override {
    bool penetrating = true;
    while (penetrating) {
      RandomizeLimitedAndRotationalJoints();
      AfterReset();
      penetrating = data_->ncon > 0;
    }
  }

  double GetReward() override {
    const double stand_height = 1.4;
    const double standing = Tolerance(data_->xpos[3 * head_ + 2], stand_height,
                                      kInf, stand_height / 4);
    const double upright = Tolerance(Xmat(torso_, kBody.upright_entry), 0.9,
                                     kInf, 1.9, Sigmoid::kLinear, 0.0);
    const double stand_reward = standing * upright;
    for (int i = 0; i < model_->nu; ++i) {
      small_[i] =
          Tolerance(data_->ctrl[i], 0.0, 0.0, 1.0, Sigmoid::kQuadratic, 0.0);
    }
    const double small_control = (4 + NumpyMean(small_.data(), model_->nu)) / 5;
    if (move_speed_ == 0.0) {
      const double dont_move[2] = {Tolerance(com_velocity_[0], 0.0, 0.0, 2.0),
                                   Tolerance(com_velocity_[1], 0.0, 0.0, 2.0)};
      return small_control * stand_reward * NumpyMean(dont_move, 2);
    }
    const double com_velocity = Norm(com_velocity_, 2);
    double move = Tolerance(com_velocity, move_speed_, kInf, move_speed_,
                            Sigmoid::kLinear, 0.0);
    move = (5 * move + 1) / 6;
    return small_control * stand_reward * move;
  }

  void Observe(const std::vector<double*>& obs) const override {
    if (pure_state_) {
      std::copy(data_->qpos, data_->qpos + model_->nq, obs[0]);
      std::copy(data_->qvel, data_->qvel + model_->nv, obs[1]);
      return;
    }
    std::copy(data_->qpos + 7, data_->qpos + model_->nq, obs[0]);
    obs[1][0] = data_->xpos[3 * head_ + 2];
    const double* frame = data_->xmat + 9 * torso_;
    const double* torso_pos = data_->xpos + 3 * torso_;
    for (int k = 0; k < 4; ++k) {
      double d[3];
      for (int i = 0; i < 3; ++i) {
        d[i] = data_->xpos[3 * limbs_[k] + i] - torso_pos[i];
      }
      for (int j = 0; j < 3; ++j) {
        obs[2][3 * k + j] =
            d[0] * frame[j] + d[1] * frame[3 + j] + d[2] * frame[6 + j];
      }
    }
    obs[3][0] = frame[6];
    obs[3][1] = frame[7];
    obs[3][2] = frame[8];
    std::copy(com_velocity_, com_velocity_ + 3, obs[4]);
    std::copy(data_->qvel, data_->qvel + model_->nv, obs[5]);
  }

 private:
  bool pure_state_;
  int torso_;
  int head_;
  const double* com_velocity_;
  double move_speed_;
  std::vector<int> limbs_;
  std::vector<double> small_;
};

inline const HumanoidBody kHumanoid{
    "humanoid",
    "humanoid.xml",
    5,
    "torso",
    "torso_subtreelinvel",
    8,
    {"left_hand", "left_foot", "right_hand", "right_foot"},
    {"stand", "walk", "run", "run_pure_state"}};

inline const HumanoidBody kHumanoidCMU{"humanoid_CMU",
                                       "humanoid_CMU.xml",
                                       10,
                                       "thorax",
                                       "thorax_subtreelinvel",
                                       7,
                                       {"lhand", "lfoot", "rhand", "rfoot"},
                                       {"stand", "walk", "run"}};

using HumanoidEnv = HumanoidLikeEnv<kHumanoid>;
using HumanoidCMUEnv = HumanoidLikeEnv<kHumanoidCMU>;

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_HUMANOID_H_
