// Cartpole (dm_control suite/cartpole.py): balance a pole on a cart, from
// near upright (balance) or hanging down (swingup), dense or sparse reward.
#ifndef ENVPOOL_DM_CONTROL_CARTPOLE_H_
#define ENVPOOL_DM_CONTROL_CARTPOLE_H_

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "envpool/dm_control/dmc_env.h"

namespace envpool::dm_control {

class CartpoleEnv : public DmcEnv {
 public:
  using Fields = DmcFields;

  static Options DefaultOptions() { return DmcOptions("balance", 1); }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    const std::string task = options.Get<std::string>("task_name");
    CheckTask("cartpole", task,
              {"balance", "balance_sparse", "swingup", "swingup_sparse",
               "two_poles", "three_poles"});
    auto model = Model(task);
    DeclareDmc(
        options, *model,
        {{"position", {1 + 2 * (model->nbody - 2)}}, {"velocity", {model->nv}}},
        spec, fields);
  }

  // cartpole.xml, with n - 1 more poles chained to the first for the
  // two_poles and three_poles tasks (dm_control's _make_model), the floor
  // lowered below them and the two cameras moved back.
  static std::shared_ptr<const mjModel> Model(const std::string& task) {
    const int n_poles = task == "two_poles" ? 2 : task == "three_poles" ? 3 : 1;
    if (n_poles == 1) {
      return LoadModel("cartpole.xml");
    }
    std::string xml = ReadModelFile("cartpole.xml");
    std::string poles;
    std::string closing;
    for (int i = 2; i <= n_poles; ++i) {
      const std::string n = std::to_string(i);
      poles += "<body name=\"pole_" + n +
               "\" pos=\"0 0 1\" childclass=\"pole\"><joint name=\"hinge_" + n +
               "\"/><geom name=\"pole_" + n + "\"/>";
      closing += "</body>";
    }
    Replace(&xml, "<geom name=\"pole_1\"/>",
            "<geom name=\"pole_1\"/>" + poles + closing);
    Replace(&xml, "<geom name=\"floor\" pos=\"0 0 -.05\"",
            "<geom name=\"floor\" pos=\"0 0 " + XmlNumber(1.0 - n_poles - .05) +
                "\"");
    Replace(&xml, "<camera name=\"fixed\" pos=\"0 -4 1\"",
            "<camera name=\"fixed\" pos=\"0 " +
                std::to_string(-1 - 2 * n_poles) + " 1\"");
    Replace(&xml, "target=\"cart\" pos=\"0 -2 2\"",
            "target=\"cart\" pos=\"0 " + std::to_string(-2 * n_poles) + " 2\"");
    return LoadModelFromText("cartpole_" + std::to_string(n_poles), xml);
  }

  CartpoleEnv(const Options& options, const Fields& fields)
      : DmcEnv(options, fields, Model(options.Get<std::string>("task_name"))),
        slider_(QposAdr("slider")),
        hinge_(QposAdr("hinge_1")) {
    const std::string task = options.Get<std::string>("task_name");
    swing_up_ = task != "balance" && task != "balance_sparse";
    sparse_ = task.find("sparse") != std::string::npos;
  }

 protected:
  void InitializeEpisode() override {
    const int nv = model_->nv;
    if (swing_up_) {
      data_->qpos[slider_] = .01 * random_.StandardNormal();
      data_->qpos[hinge_] = M_PI + .01 * random_.StandardNormal();
      for (int i = 2; i < nv; ++i) {
        data_->qpos[i] = .1 * random_.StandardNormal();
      }
    } else {
      data_->qpos[slider_] = random_.Uniform(-.1, .1);
      for (int i = 1; i < nv; ++i) {
        data_->qpos[i] = random_.Uniform(-.034, .034);
      }
    }
    for (int i = 0; i < nv; ++i) {
      data_->qvel[i] = 0.01 * random_.StandardNormal();
    }
  }

  double GetReward() override {
    const double cart = data_->qpos[slider_];
    if (sparse_) {
      const double cart_in_bounds = Tolerance(cart, -.25, .25);
      double angle_in_bounds = 1.0;
      for (int b = 2; b < model_->nbody; ++b) {
        angle_in_bounds *= Tolerance(Xmat(b, 8), .995, 1.0);
      }
      return cart_in_bounds * angle_in_bounds;
    }
    std::vector<double> upright;
    for (int b = 2; b < model_->nbody; ++b) {
      upright.push_back((Xmat(b, 8) + 1) / 2);
    }
    const double centered = (1 + Tolerance(cart, 0.0, 0.0, 2.0)) / 2;
    const double small_control = (4 + Tolerance(data_->ctrl[0], 0.0, 0.0, 1.0,
                                                Sigmoid::kQuadratic, 0.0)) /
                                 5;
    double small_velocity = 1.0;
    for (int i = 1; i < model_->nv; ++i) {
      small_velocity =
          std::min(small_velocity, Tolerance(data_->qvel[i], 0.0, 0.0, 5.0));
    }
    small_velocity = (1 + small_velocity) / 2;
    return NumpyMean(upright.data(), static_cast<int>(upright.size())) *
           small_control * small_velocity * centered;
  }

  void Observe(const std::vector<double*>& obs) const override {
    obs[0][0] = data_->qpos[slider_];
    for (int b = 2; b < model_->nbody; ++b) {
      obs[0][1 + 2 * (b - 2)] = Xmat(b, 8);
      obs[0][2 + 2 * (b - 2)] = Xmat(b, 2);
    }
    std::copy(data_->qvel, data_->qvel + model_->nv, obs[1]);
  }

 private:
  int slider_;
  int hinge_;
  bool swing_up_;
  bool sparse_;
};

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_CARTPOLE_H_
