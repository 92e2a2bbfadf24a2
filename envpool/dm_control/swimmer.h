// Swimmer (dm_control suite/swimmer.py): an n-link swimmer in a viscous
// fluid brings its nose to a random target; swimmer6 and swimmer15.
#ifndef ENVPOOL_DM_CONTROL_SWIMMER_H_
#define ENVPOOL_DM_CONTROL_SWIMMER_H_

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "envpool/dm_control/dmc_env.h"

namespace envpool::dm_control {

class SwimmerEnv : public DmcEnv {
 public:
  using Fields = DmcFields;

  static Options DefaultOptions() { return DmcOptions("swimmer6", 15); }

  static int Bodies(const std::string& task) {
    return task == "swimmer6" ? 6 : 15;
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    const std::string task = options.Get<std::string>("task_name");
    CheckTask("swimmer", task, {"swimmer6", "swimmer15"});
    const int n = Bodies(task);
    DeclareDmc(
        options, *Model(n),
        {{"joints", {n - 1}}, {"to_target", {2}}, {"body_velocities", {3 * n}}},
        spec, fields);
  }

  // swimmer.xml with n - 1 segments chained to the head, each with a
  // limited hinge (+-360/n degrees), a motor, a velocimeter and a gyro, as
  // dm_control's _make_model builds it.
  static std::shared_ptr<const mjModel> Model(int n_bodies) {
    std::string xml = ReadModelFile("swimmer.xml");
    const std::string limit = XmlNumber(360.0 / n_bodies);
    std::string bodies;
    std::string closing;
    std::string actuators = "<actuator>";
    std::string sensors = "<sensor>";
    for (int i = 0; i < n_bodies - 1; ++i) {
      const std::string k = std::to_string(i);
      bodies += "<body name=\"segment_" + k +
                "\" pos=\"0 .1 0\"><geom class=\"visual\" name=\"visual_" + k +
                "\"/><geom class=\"inertial\" name=\"inertial_" + k +
                "\"/><site name=\"site_" + k + "\"/><joint name=\"joint_" + k +
                "\" range=\"-" + limit + " " + limit + "\"/>";
      closing += "</body>";
      actuators +=
          "<motor name=\"motor_" + k + "\" joint=\"joint_" + k + "\"/>";
      sensors += "<velocimeter name=\"velocimeter_" + k + "\" site=\"site_" +
                 k + "\"/><gyro name=\"gyro_" + k + "\" site=\"site_" + k +
                 "\"/>";
    }
    Replace(&xml, "<site name=\"head\"/>",
            "<site name=\"head\"/>" + bodies + closing);
    Replace(&xml, "</mujoco>",
            actuators + "</actuator>" + sensors + "</sensor></mujoco>");
    // The tracking cameras move away with the length: pos * n / 6.
    struct Camera {
      const char* name;
      const char* pos;
      double xyz[3];
    };
    const double scale = n_bodies / 6.0;
    for (const Camera& camera :
         {Camera{"tracking1", "0 -.2 .5", {0, -.2, .5}},
          Camera{"tracking2", "-.9 .5 .15", {-.9, .5, .15}}}) {
      const std::string head =
          std::string("<camera name=\"") + camera.name + "\" pos=\"";
      Replace(&xml, head + camera.pos + "\"",
              head + XmlNumber(camera.xyz[0] * scale) + " " +
                  XmlNumber(camera.xyz[1] * scale) + " " +
                  XmlNumber(camera.xyz[2] * scale) + "\"");
    }
    return LoadModelFromText("swimmer_" + std::to_string(n_bodies), xml);
  }

  SwimmerEnv(const Options& options, const Fields& fields)
      : DmcEnv(options, fields,
               Model(Bodies(options.Get<std::string>("task_name")))),
        target_(Id(mjOBJ_GEOM, "target")),
        nose_(Id(mjOBJ_GEOM, "nose")),
        head_(Id(mjOBJ_BODY, "head")),
        light_(Id(mjOBJ_LIGHT, "target_light")) {}

 protected:
  void InitializeEpisode() override {
    RandomizeLimitedAndRotationalJoints();
    const bool close_target = random_.RandomSample() < .2;
    const double box = close_target ? .3 : 2;
    const double x = random_.Uniform(-box, box);
    const double y = random_.Uniform(-box, box);
    model_->geom_pos[3 * target_] = x;
    model_->geom_pos[3 * target_ + 1] = y;
    model_->light_pos[3 * light_] = x;
    model_->light_pos[3 * light_ + 1] = y;
  }

  double GetReward() override {
    const double size = model_->geom_size[3 * target_];
    double to_target[2];
    NoseToTarget(to_target);
    return Tolerance(Norm(to_target, 2), 0.0, size, 5 * size,
                     Sigmoid::kLongTail);
  }

  void Observe(const std::vector<double*>& obs) const override {
    std::copy(data_->qpos + 3, data_->qpos + model_->nq, obs[0]);
    NoseToTarget(obs[1]);
    const int rows = (model_->nsensordata - 12) / 6;
    for (int r = 0; r < rows; ++r) {
      const double* v = data_->sensordata + 12 + 6 * r;
      obs[2][3 * r] = v[0];
      obs[2][3 * r + 1] = v[1];
      obs[2][3 * r + 2] = v[5];
    }
  }

 private:
  // (target - nose) in the head's frame, x and y.
  void NoseToTarget(double* out) const {
    double d[3];
    for (int i = 0; i < 3; ++i) {
      d[i] =
          data_->geom_xpos[3 * target_ + i] - data_->geom_xpos[3 * nose_ + i];
    }
    const double* m = data_->xmat + 9 * head_;
    for (int j = 0; j < 2; ++j) {
      out[j] = d[0] * m[j] + d[1] * m[3 + j] + d[2] * m[6 + j];
    }
  }

  int target_;
  int nose_;
  int head_;
  int light_;
};

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_SWIMMER_H_
