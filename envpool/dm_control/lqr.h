// LQR (dm_control suite/lqr.py): a chain of n spring-loaded sliders, m of
// them actuated, with a quadratic cost; lqr_2_1 and lqr_6_2.  The episode
// ends (discount 0) when the state norm falls below 1e-6.
//
// dm_control draws each joint's stiffness (uniform(15, 25)) and damping
// (uniform(0, 0)) from the task's RandomState when it builds the model, before
// the first episode: here the model is built once and these draws set the
// env's copy whenever the env is seeded.
#ifndef ENVPOOL_DM_CONTROL_LQR_H_
#define ENVPOOL_DM_CONTROL_LQR_H_

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "envpool/dm_control/dmc_env.h"

namespace envpool::dm_control {

class LqrEnv : public DmcEnv {
 public:
  using Fields = DmcFields;

  static Options DefaultOptions() { return DmcOptions("lqr_2_1", 1); }

  static void Sizes(const std::string& task, int* n_bodies, int* n_actuators) {
    *n_bodies = task == "lqr_2_1" ? 2 : 6;
    *n_actuators = task == "lqr_2_1" ? 1 : 2;
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    const std::string task = options.Get<std::string>("task_name");
    CheckTask("lqr", task, {"lqr_2_1", "lqr_6_2"});
    int n = 0;
    int m = 0;
    Sizes(task, &n, &m);
    DeclareDmc(options, *Model(n, m), {{"position", {n}}, {"velocity", {n}}},
               spec, fields);
  }

  // lqr.xml with the chain of bodies, motors and tendons of dm_control's
  // _make_model (stiffness and damping are set per env, see above).
  static std::shared_ptr<const mjModel> Model(int n_bodies, int n_actuators) {
    std::string xml = ReadModelFile("lqr.xml");
    std::string bodies;
    std::string closing;
    std::string actuators = "<actuator>";
    std::string tendons = "<tendon>";
    for (int i = 0; i < n_bodies; ++i) {
      const std::string k = std::to_string(i);
      bodies += "<body name=\"body_" + k + "\" pos=\"" +
                (i == 0 ? ".25 0 .1" : ".25 0 0") + "\"><joint name=\"joint_" +
                k + "\" stiffness=\"20\" damping=\"0\"/><geom name=\"geom_" +
                k + "\"/><site name=\"site_" + k + "\"/>";
      closing += "</body>";
      if (i < n_actuators) {
        actuators +=
            "<motor name=\"motor_" + k + "\" joint=\"joint_" + k + "\"/>";
      }
      if (i < n_bodies - 1) {
        tendons += "<spatial name=\"tendon_" + k + "\"><site site=\"site_" + k +
                   "\"/><site site=\"site_" + std::to_string(i + 1) +
                   "\"/></spatial>";
      }
    }
    Replace(&xml, "</worldbody>", bodies + closing + "</worldbody>");
    Replace(&xml, "</mujoco>",
            actuators + "</actuator>" + tendons + "</tendon></mujoco>");
    return LoadModelFromText(
        "lqr_" + std::to_string(n_bodies) + "_" + std::to_string(n_actuators),
        xml);
  }

  LqrEnv(const Options& options, const Fields& fields)
      : DmcEnv(options, fields, ModelOf(options)) {}

 protected:
  void OnSeeded() override {
    for (int j = 0; j < model_->njnt; ++j) {
      model_->jnt_stiffness[j] = random_.Uniform(15, 25);
      model_->dof_damping[model_->jnt_dofadr[j]] = random_.Uniform(0, 0);
    }
  }

  void InitializeEpisode() override {
    const int n = model_->nq;
    std::vector<double> unit(n);
    for (double& u : unit) {
      u = random_.StandardNormal();
    }
    const double norm = Norm(unit.data(), n);
    for (int i = 0; i < n; ++i) {
      data_->qpos[i] = std::sqrt(2.0) * unit[i] / norm;
    }
  }

  double GetReward() override {
    const double state_cost =
        0.5 * mujoco_common::NumpyDot(data_->qpos, data_->qpos, model_->nq);
    const double control =
        0.5 * mujoco_common::NumpyDot(data_->ctrl, data_->ctrl, model_->nu);
    return 1 - (state_cost + control * 0.1);
  }

  bool GetTermination() override {
    std::vector<double> state(data_->qpos, data_->qpos + model_->nq);
    state.insert(state.end(), data_->qvel, data_->qvel + model_->nv);
    state.insert(state.end(), data_->act, data_->act + model_->na);
    return Norm(state.data(), static_cast<int>(state.size())) < 1e-6;
  }

  void Observe(const std::vector<double*>& obs) const override {
    std::copy(data_->qpos, data_->qpos + model_->nq, obs[0]);
    std::copy(data_->qvel, data_->qvel + model_->nv, obs[1]);
  }

 private:
  static std::shared_ptr<const mjModel> ModelOf(const Options& options) {
    int n = 0;
    int m = 0;
    Sizes(options.Get<std::string>("task_name"), &n, &m);
    return Model(n, m);
  }
};

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_LQR_H_
