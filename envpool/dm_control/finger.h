// Finger (dm_control suite/finger.py): a two-link finger spins a hinged
// body (spin) or turns its tip to a random target (turn_easy, turn_hard).
#ifndef ENVPOOL_DM_CONTROL_FINGER_H_
#define ENVPOOL_DM_CONTROL_FINGER_H_

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/dm_control/dmc_env.h"

namespace envpool::dm_control {

class FingerEnv : public DmcEnv {
 public:
  using Fields = DmcFields;

  static Options DefaultOptions() { return DmcOptions("spin", 2); }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    const std::string task = options.Get<std::string>("task_name");
    CheckTask("finger", task, {"spin", "turn_easy", "turn_hard"});
    std::vector<ObsKey> keys{
        {"position", {4}}, {"velocity", {3}}, {"touch", {2}}};
    if (task != "spin") {
      keys.push_back({"target_position", {2}});
      keys.push_back({"dist_to_target", {}});
    }
    DeclareDmc(options, "finger.xml", keys, spec, fields);
  }

  FingerEnv(const Options& options, const Fields& fields)
      : DmcEnv(options, fields, "finger.xml"),
        task_(options.Get<std::string>("task_name")),
        hinge_joint_(Id(mjOBJ_JOINT, "hinge")),
        target_site_(Id(mjOBJ_SITE, "target")),
        cap1_(Id(mjOBJ_GEOM, "cap1")),
        proximal_(Sensor("proximal")),
        distal_(Sensor("distal")),
        proximal_velocity_(Sensor("proximal_velocity")),
        distal_velocity_(Sensor("distal_velocity")),
        hinge_velocity_(Sensor("hinge_velocity")),
        tip_(Sensor("tip")),
        spinner_(Sensor("spinner")),
        target_(Sensor("target")),
        touchtop_(Sensor("touchtop")),
        touchbottom_(Sensor("touchbottom")) {}

 protected:
  void InitializeEpisode() override {
    if (task_ == "spin") {
      // Spin hides the target and the tip (drawn only).
      model_->site_rgba[4 * Id(mjOBJ_SITE, "target") + 3] = 0;
      model_->site_rgba[4 * Id(mjOBJ_SITE, "tip") + 3] = 0;
      model_->dof_damping[model_->jnt_dofadr[hinge_joint_]] = .03;
    } else {
      const double target_angle = random_.Uniform(-M_PI, M_PI);
      const double hinge_x = data_->xanchor[3 * hinge_joint_];
      const double hinge_z = data_->xanchor[3 * hinge_joint_ + 2];
      const double* size = model_->geom_size + 3 * cap1_;
      const double radius = (size[0] + size[1]) + size[2];
      model_->site_pos[3 * target_site_] =
          hinge_x + radius * std::sin(target_angle);
      model_->site_pos[3 * target_site_ + 2] =
          hinge_z + radius * std::cos(target_angle);
      model_->site_size[3 * target_site_] = task_ == "turn_easy" ? 0.07 : 0.03;
    }
    for (int attempt = 0; attempt < 1000; ++attempt) {
      RandomizeLimitedAndRotationalJoints();
      AfterReset();
      if (data_->ncon == 0) {
        return;
      }
    }
    throw std::runtime_error(
        "Could not find a collision-free state after 1000 attempts");
  }

  double GetReward() override {
    if (task_ == "spin") {
      return hinge_velocity_[0] <= -15.0 ? 1.0 : 0.0;
    }
    return DistToTarget() <= 0 ? 1.0 : 0.0;
  }

  void Observe(const std::vector<double*>& obs) const override {
    obs[0][0] = proximal_[0];
    obs[0][1] = distal_[0];
    obs[0][2] = tip_[0] - spinner_[0];
    obs[0][3] = tip_[2] - spinner_[2];
    obs[1][0] = proximal_velocity_[0];
    obs[1][1] = distal_velocity_[0];
    obs[1][2] = hinge_velocity_[0];
    obs[2][0] = std::log1p(touchtop_[0]);
    obs[2][1] = std::log1p(touchbottom_[0]);
    if (task_ != "spin") {
      obs[3][0] = target_[0] - spinner_[0];
      obs[3][1] = target_[2] - spinner_[2];
      obs[4][0] = DistToTarget();
    }
  }

 private:
  double DistToTarget() const {
    double d[2];
    for (int k = 0; k < 2; ++k) {
      const int axis = 2 * k;
      d[k] = (target_[axis] - spinner_[axis]) - (tip_[axis] - spinner_[axis]);
    }
    return Norm(d, 2) - model_->site_size[3 * target_site_];
  }

  std::string task_;
  int hinge_joint_;
  int target_site_;
  int cap1_;
  const double* proximal_;
  const double* distal_;
  const double* proximal_velocity_;
  const double* distal_velocity_;
  const double* hinge_velocity_;
  const double* tip_;
  const double* spinner_;
  const double* target_;
  const double* touchtop_;
  const double* touchbottom_;
};

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_FINGER_H_
