// Dog (dm_control suite/dog.py): a muscled dog stands, walks (1 m/s), trots
// (3 m/s), runs (9 m/s) or fetches a thrown ball.  The model is dog.xml with
// the floor resized and, but for fetch, the ball, target, walls and their
// cameras removed (make_model).
#ifndef ENVPOOL_DM_CONTROL_DOG_H_
#define ENVPOOL_DM_CONTROL_DOG_H_

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "envpool/dm_control/dmc_env.h"

namespace envpool::dm_control {

class DogEnv : public DmcEnv {
 public:
  using Fields = DmcFields;

  static Options DefaultOptions() { return DmcOptions("stand", 3); }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    const std::string task = options.Get<std::string>("task_name");
    CheckTask("dog", task, {"stand", "walk", "trot", "run", "fetch"});
    auto model = Model(task);
    int hinges = 0;
    for (int j = 0; j < model->njnt; ++j) {
      hinges += model->jnt_type[j] == mjJNT_HINGE ? 1 : 0;
    }
    std::vector<ObsKey> keys{
        {"joint_angles", {hinges}},     {"joint_velocites", {hinges}},
        {"torso_pelvis_height", {2}},   {"z_projection", {9}},
        {"torso_com_velocity", {3}},    {"inertial_sensors", {9}},
        {"foot_forces", {12}},          {"touch_sensors", {4}},
        {"actuator_state", {model->na}}};
    if (task == "fetch") {
      keys.push_back({"ball_state", {6}});
      keys.push_back({"target_position", {3}});
    }
    DeclareDmc(options, *model, keys, spec, fields);
  }

  static double Speed(const std::string& task) {
    return task == "walk"   ? 1.0
           : task == "trot" ? 3.0
           : task == "run"  ? 9.0
                            : 0.0;
  }

  static std::shared_ptr<const mjModel> Model(const std::string& task) {
    std::string xml = ReadModelFile("dog.xml");
    // floor_size: speed (walk's for stand) x the 15 s time limit; fetch
    // keeps make_model's default of 10.
    const std::string size =
        task == "fetch" ? "10"
                        : std::to_string(static_cast<int>(
                              (task == "stand" ? 1.0 : Speed(task)) * 15));
    Replace(&xml, "<geom name=\"floor\" type=\"plane\" size=\"10 10 0.1\"",
            "<geom name=\"floor\" type=\"plane\" size=\"" + size + " " + size +
                " .1\"");
    if (task != "fetch") {
      RemoveElement(&xml, "body", "ball");
      RemoveElement(&xml, "geom", "target");
      RemoveElement(&xml, "camera", "ball");
      RemoveElement(&xml, "camera", "head");
      for (const char* wall : {"wall_px", "wall_nx", "wall_py", "wall_ny"}) {
        RemoveElement(&xml, "geom", wall);
      }
    }
    return LoadModelFromText("dog_" + task, xml);
  }

  DogEnv(const Options& options, const Fields& fields)
      : DmcEnv(options, fields, Model(options.Get<std::string>("task_name"))),
        task_(options.Get<std::string>("task_name")),
        move_speed_(Speed(task_)),
        root_(QposAdr("root")),
        torso_(Id(mjOBJ_BODY, "torso")),
        pelvis_(Id(mjOBJ_BODY, "pelvis")),
        skull_(Id(mjOBJ_BODY, "skull")),
        torso_linvel_(Sensor("torso_linvel")) {
    for (int j = 0; j < model_->njnt; ++j) {
      if (model_->jnt_type[j] == mjJNT_HINGE) {
        hinges_.push_back(j);
      }
    }
    for (const char* name : {"accelerometer", "velocimeter", "gyro"}) {
      inertial_.push_back(Sensor(name));
    }
    for (const char* name : {"foot_L", "foot_R", "hand_L", "hand_R"}) {
      foot_.push_back(Sensor(name));
    }
    for (const char* name : {"palm_L", "palm_R", "sole_L", "sole_R"}) {
      touch_.push_back(Sensor(name));
    }
    if (task_ == "fetch") {
      ball_root_ = Id(mjOBJ_JOINT, "ball_root");
      ball_ = Id(mjOBJ_GEOM, "ball");
      target_ = Id(mjOBJ_GEOM, "target");
      floor_ = Id(mjOBJ_GEOM, "floor");
      head_ = Id(mjOBJ_SITE, "head");
      upper_bite_ = Id(mjOBJ_SITE, "upper_bite");
      lower_bite_ = Id(mjOBJ_SITE, "lower_bite");
    }
  }

 protected:
  void InitializeEpisode() override {
    mj_resetData(model_.get(), data_.get());
    AfterReset();
    for (int i = 0; i < 2; ++i) {
      stand_height_[i] = data_->xpos[3 * (i == 0 ? torso_ : pelvis_) + 2] * 0.9;
    }
    body_weight_ = -model_->opt.gravity[2] * model_->body_subtreemass[torso_];
    const double azimuth = random_.Uniform(0, 2 * M_PI);
    double* quat = data_->qpos + root_ + 3;
    quat[0] = std::cos(azimuth / 2);
    quat[1] = 0;
    quat[2] = 0;
    quat[3] = std::sin(azimuth / 2);
    data_->qvel[0] = 2 * random_.StandardNormal();
    data_->qvel[1] = 2 * random_.StandardNormal();
    data_->qvel[5] = 2 * random_.StandardNormal();
    for (int a = 0; a < model_->nu; ++a) {
      data_->act[a] = random_.Uniform(model_->actuator_ctrlrange[2 * a],
                                      model_->actuator_ctrlrange[2 * a + 1]);
    }
    if (task_ != "fetch") {
      return;
    }
    const double radius = 0.75 * model_->geom_size[3 * floor_];
    const double ball_azimuth = random_.Uniform(0, 2 * M_PI);
    double* ball_qpos = data_->qpos + model_->jnt_qposadr[ball_root_];
    ball_qpos[0] = radius * std::sin(ball_azimuth);
    ball_qpos[1] = radius * std::cos(ball_azimuth);
    ball_qpos[2] = 0.05;
    const double vertical_height = random_.Uniform(0, 3);
    const double gravity = -model_->opt.gravity[2];
    const double vertical_velocity = std::sqrt(2 * gravity * vertical_height);
    const double horizontal_speed = random_.Uniform(0, 5);
    const double dx = -std::sin(ball_azimuth) + 0.05 * random_.StandardNormal();
    const double dy = -std::cos(ball_azimuth) + 0.05 * random_.StandardNormal();
    double* ball_qvel = data_->qvel + model_->jnt_dofadr[ball_root_];
    ball_qvel[0] = horizontal_speed * dx;
    ball_qvel[1] = horizontal_speed * dy;
    ball_qvel[2] = vertical_velocity;
  }

  double GetReward() override {
    std::vector<double> factors;
    factors.push_back(Tolerance(data_->xpos[3 * torso_ + 2], stand_height_[0],
                                kInf, stand_height_[0]));
    factors.push_back(Tolerance(data_->xpos[3 * pelvis_ + 2], stand_height_[1],
                                kInf, stand_height_[1]));
    // np.cos(np.deg2rad(30)).
    static const double min_upright = std::cos(30.0 * (M_PI / 180.0));
    for (int body : {skull_, torso_, pelvis_}) {
      factors.push_back(Tolerance(Xmat(body, 8), min_upright, kInf,
                                  min_upright + 1, Sigmoid::kLinear, 0.0));
    }
    const double touch_sum =
        ((touch_[0][0] + touch_[1][0]) + touch_[2][0]) + touch_[3][0];
    factors.push_back(Tolerance(touch_sum, body_weight_, kInf, body_weight_,
                                Sigmoid::kLinear, 0.9));
    if (move_speed_ > 0) {
      double forward =
          Tolerance(TorsoComVelocity(0), move_speed_, 2 * move_speed_,
                    std::max(1.0, move_speed_), Sigmoid::kLinear, 0.0);
      factors.push_back((4 * forward + 1) / 5);
    }
    if (task_ == "fetch") {
      const double bite_radius = model_->site_size[3 * upper_bite_];
      const double* ball = data_->geom_xpos + 3 * ball_;
      double d[3];
      for (int i = 0; i < 3; ++i) {
        d[i] = ball[i] - data_->site_xpos[3 * upper_bite_ + i];
      }
      const double upper = Norm(d, 3);
      for (int i = 0; i < 3; ++i) {
        d[i] = ball[i] - data_->site_xpos[3 * lower_bite_ + i];
      }
      const double lower = Norm(d, 3);
      double reach_ball = Tolerance(0.5 * (upper + lower), 0.0, bite_radius,
                                    2.0, Sigmoid::kReciprocal);
      reach_ball = (6 * reach_ball + 1) / 7;
      const double target_radius = model_->geom_size[3 * target_];
      const double bring_margin = model_->geom_size[3 * floor_];
      for (int i = 0; i < 3; ++i) {
        d[i] = ball[i] - data_->geom_xpos[3 * target_ + i];
      }
      const double to_target = Norm(d, 3);
      const double near = Tolerance(to_target, 0.0, target_radius, bring_margin,
                                    Sigmoid::kReciprocal);
      if (to_target < 2 * target_radius) {
        reach_ball = 1;
      }
      factors.push_back(reach_ball);
      factors.push_back((near + 1) / 2);
    }
    double reward = 1.0;
    for (double f : factors) {
      reward *= f;
    }
    return reward;
  }

  void Observe(const std::vector<double*>& obs) const override {
    for (std::size_t k = 0; k < hinges_.size(); ++k) {
      obs[0][k] = data_->qpos[model_->jnt_qposadr[hinges_[k]]];
      obs[1][k] = data_->qvel[model_->jnt_dofadr[hinges_[k]]];
    }
    obs[2][0] = data_->xpos[3 * torso_ + 2];
    obs[2][1] = data_->xpos[3 * pelvis_ + 2];
    int k = 0;
    for (int body : {skull_, torso_, pelvis_}) {
      for (int e = 6; e < 9; ++e) {
        obs[3][k++] = Xmat(body, e);
      }
    }
    for (int j = 0; j < 3; ++j) {
      obs[4][j] = TorsoComVelocity(j);
    }
    for (int s = 0; s < 3; ++s) {
      std::copy(inertial_[s], inertial_[s] + 3, obs[5] + 3 * s);
      std::copy(foot_[s], foot_[s] + 3, obs[6] + 3 * s);
    }
    std::copy(foot_[3], foot_[3] + 3, obs[6] + 9);
    for (int s = 0; s < 4; ++s) {
      obs[7][s] = touch_[s][0];
    }
    std::copy(data_->act, data_->act + model_->na, obs[8]);
    if (task_ == "fetch") {
      const double* frame = data_->site_xmat + 9 * head_;
      const double* head = data_->site_xpos + 3 * head_;
      double v[3];
      for (int i = 0; i < 3; ++i) {
        v[i] = data_->geom_xpos[3 * ball_ + i] - head[i];
      }
      InFrame(v, frame, obs[9]);
      double head_vel[6];
      double ball_vel[6];
      mj_objectVelocity(model_.get(), data_.get(), mjOBJ_SITE, head_, head_vel,
                        0);
      mj_objectVelocity(model_.get(), data_.get(), mjOBJ_GEOM, ball_, ball_vel,
                        0);
      for (int i = 0; i < 3; ++i) {
        v[i] = ball_vel[3 + i] - head_vel[3 + i];
      }
      InFrame(v, frame, obs[9] + 3);
      for (int i = 0; i < 3; ++i) {
        v[i] = data_->geom_xpos[3 * target_ + i] - head[i];
      }
      InFrame(v, frame, obs[10]);
    }
  }

 private:
  // torso_linvel in the torso's frame, entry j.
  double TorsoComVelocity(int j) const {
    const double* frame = data_->xmat + 9 * torso_;
    const double* v = torso_linvel_;
    return v[0] * frame[j] + v[1] * frame[3 + j] + v[2] * frame[6 + j];
  }

  static void InFrame(const double* v, const double* frame, double* out) {
    for (int j = 0; j < 3; ++j) {
      out[j] = v[0] * frame[j] + v[1] * frame[3 + j] + v[2] * frame[6 + j];
    }
  }

  std::string task_;
  double move_speed_;
  int root_;
  int torso_;
  int pelvis_;
  int skull_;
  const double* torso_linvel_;
  std::vector<int> hinges_;
  std::vector<const double*> inertial_;
  std::vector<const double*> foot_;
  std::vector<const double*> touch_;
  double stand_height_[2] = {0.0, 0.0};
  double body_weight_ = 0.0;
  int ball_root_ = -1;
  int ball_ = -1;
  int target_ = -1;
  int floor_ = -1;
  int head_ = -1;
  int upper_bite_ = -1;
  int lower_bite_ = -1;
};

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_DOG_H_
