// Quadruped (dm_control suite/quadruped.py): a four-legged ant walks
// (0.5 m/s), runs (5 m/s), escapes a bowl of random bumpy terrain or
// fetches a ball to the target.  The model is quadruped.xml with the walls,
// ball, target, terrain and rangefinders the task does not use removed and
// the floor resized (make_model).
#ifndef ENVPOOL_DM_CONTROL_QUADRUPED_H_
#define ENVPOOL_DM_CONTROL_QUADRUPED_H_

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/dm_control/dmc_env.h"
#include "envpool/dm_control/terrain.h"

namespace envpool::dm_control {

class QuadrupedEnv : public DmcEnv {
 public:
  using Fields = DmcFields;

  static Options DefaultOptions() { return DmcOptions("walk", 4); }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    const std::string task = options.Get<std::string>("task_name");
    CheckTask("quadruped", task, {"walk", "run", "escape", "fetch"});
    auto model = Model(task);
    std::vector<ObsKey> keys{
        {"egocentric_state", {CountHinges(*model) * 2 + model->na}},
        {"torso_velocity", {3}},
        {"torso_upright", {}},
        {"imu", {SensorDims(*model, {mjSENS_GYRO, mjSENS_ACCELEROMETER})}},
        {"force_torque", {SensorDims(*model, {mjSENS_FORCE, mjSENS_TORQUE})}}};
    if (task == "escape") {
      keys.push_back({"origin", {3}});
      keys.push_back(
          {"rangefinder", {SensorDims(*model, {mjSENS_RANGEFINDER})}});
    }
    if (task == "fetch") {
      keys.push_back({"ball_state", {9}});
      keys.push_back({"target_position", {3}});
    }
    DeclareDmc(options, *model, keys, spec, fields);
  }

  static std::shared_ptr<const mjModel> Model(const std::string& task) {
    std::string xml = ReadModelFile("quadruped.xml");
    if (task != "fetch") {
      // walk, run: floor_size = time limit (20 s) x speed, escape 40:
      // f"{size} {size} .5".
      const std::string size =
          task == "walk" ? "10.0" : (task == "run" ? "100" : "40");
      Replace(&xml, "<geom name=\"floor\" type=\"plane\" size=\"15 15 .5\"",
              "<geom name=\"floor\" type=\"plane\" size=\"" + size + " " +
                  size + " .5\"");
      for (const char* wall : {"wall_px", "wall_py", "wall_nx", "wall_ny"}) {
        RemoveElement(&xml, "geom", wall);
      }
      RemoveElement(&xml, "body", "ball");
      RemoveElement(&xml, "site", "target");
    }
    if (task != "escape") {
      RemoveElement(&xml, "geom", "terrain");
      RemoveAll(&xml, "rangefinder");
    }
    return LoadModelFromText("quadruped_" + task, xml);
  }

  QuadrupedEnv(const Options& options, const Fields& fields)
      : DmcEnv(options, fields, Model(options.Get<std::string>("task_name"))),
        task_(options.Get<std::string>("task_name")),
        root_(QposAdr("root")),
        torso_(Id(mjOBJ_BODY, "torso")),
        velocimeter_(Sensor("velocimeter")) {
    desired_speed_ = task_ == "walk" ? 0.5 : 5.0;
    for (int j = 0; j < model_->njnt; ++j) {
      if (model_->jnt_type[j] == mjJNT_HINGE) {
        hinges_.push_back(j);
      }
    }
    for (int s = 0; s < model_->nsensor; ++s) {
      const int type = model_->sensor_type[s];
      if (type == mjSENS_GYRO || type == mjSENS_ACCELEROMETER) {
        imu_.push_back(s);
      } else if (type == mjSENS_FORCE || type == mjSENS_TORQUE) {
        force_torque_.push_back(s);
      }
    }
    if (task_ == "escape") {
      for (int s = 0; s < model_->nsensor; ++s) {
        if (model_->sensor_type[s] == mjSENS_RANGEFINDER) {
          rangefinders_.push_back(s);
        }
      }
      workspace_ = Id(mjOBJ_SITE, "workspace");
      hfield_ = Id(mjOBJ_HFIELD, "terrain");
      if (model_->hfield_nrow[hfield_] != model_->hfield_ncol[hfield_]) {
        throw std::runtime_error("quadruped escape: the terrain is not square");
      }
    }
    if (task_ == "fetch") {
      ball_ = Id(mjOBJ_BODY, "ball");
      ball_root_ = Id(mjOBJ_JOINT, "ball_root");
      floor_ = Id(mjOBJ_GEOM, "floor");
      ball_geom_ = Id(mjOBJ_GEOM, "ball");
      target_ = Id(mjOBJ_SITE, "target");
      workspace_ = Id(mjOBJ_SITE, "workspace");
    }
  }

 protected:
  void InitializeEpisode() override {
    if (task_ == "escape") {
      MakeTerrain();
    }
    if (task_ != "fetch") {
      double orientation[4];
      for (double& q : orientation) {
        q = random_.StandardNormal();
      }
      const double norm = Norm(orientation, 4);
      for (double& q : orientation) {
        q /= norm;
      }
      FindNonContactingHeight(orientation, 0.0, 0.0);
      return;
    }
    const double azimuth = random_.Uniform(0, 2 * M_PI);
    const double orientation[4] = {std::cos(azimuth / 2), 0, 0,
                                   std::sin(azimuth / 2)};
    const double spawn_radius = 0.9 * model_->geom_size[3 * floor_];
    const double x = random_.Uniform(-spawn_radius, spawn_radius);
    const double y = random_.Uniform(-spawn_radius, spawn_radius);
    FindNonContactingHeight(orientation, x, y);
    double* ball_qpos = data_->qpos + model_->jnt_qposadr[ball_root_];
    ball_qpos[0] = random_.Uniform(-spawn_radius, spawn_radius);
    ball_qpos[1] = random_.Uniform(-spawn_radius, spawn_radius);
    ball_qpos[2] = 2;
    double* ball_qvel = data_->qvel + model_->jnt_dofadr[ball_root_];
    ball_qvel[0] = 5 * random_.StandardNormal();
    ball_qvel[1] = 5 * random_.StandardNormal();
  }

  double GetReward() override {
    if (task_ == "escape") {
      // _upright_reward(deviation_angle=20) times the escape term: the
      // workspace's distance from the origin past the terrain's half size.
      const double deviation = std::cos(20.0 * (M_PI / 180.0));
      const double upright = Tolerance(Xmat(torso_, 8), deviation, kInf,
                                       1 + deviation, Sigmoid::kLinear, 0.0);
      const double half_size = model_->hfield_size[4 * hfield_];
      const double distance = Norm(data_->site_xpos + 3 * workspace_, 3);
      const double escape = Tolerance(distance, half_size, kInf, half_size,
                                      Sigmoid::kLinear, 0.0);
      return upright * escape;
    }
    // _upright_reward: cos(deg2rad(0)) = 1.
    const double upright =
        Tolerance(Xmat(torso_, 8), 1.0, kInf, 2.0, Sigmoid::kLinear, 0.0);
    if (task_ != "fetch") {
      const double move = Tolerance(velocimeter_[0], desired_speed_, kInf,
                                    desired_speed_, Sigmoid::kLinear, 0.5);
      return upright * move;
    }
    const double arena_radius = model_->geom_size[3 * floor_] * std::sqrt(2.0);
    const double workspace_radius = model_->site_size[3 * workspace_];
    const double ball_radius = model_->geom_size[3 * ball_geom_];
    double d[2];
    for (int i = 0; i < 2; ++i) {
      d[i] = data_->site_xpos[3 * workspace_ + i] - data_->xpos[3 * ball_ + i];
    }
    const double reach =
        Tolerance(Norm(d, 2), 0.0, workspace_radius + ball_radius, arena_radius,
                  Sigmoid::kLinear, 0.0);
    for (int i = 0; i < 2; ++i) {
      d[i] = data_->site_xpos[3 * target_ + i] - data_->xpos[3 * ball_ + i];
    }
    const double target_radius = model_->site_size[3 * target_];
    const double fetch = Tolerance(Norm(d, 2), 0.0, target_radius, arena_radius,
                                   Sigmoid::kLinear, 0.0);
    return upright * (reach * (0.5 + 0.5 * fetch));
  }

  void Observe(const std::vector<double*>& obs) const override {
    double* ego = obs[0];
    for (int j : hinges_) {
      *ego++ = data_->qpos[model_->jnt_qposadr[j]];
    }
    for (int j : hinges_) {
      *ego++ = data_->qvel[model_->jnt_dofadr[j]];
    }
    std::copy(data_->act, data_->act + model_->na, ego);
    std::copy(velocimeter_, velocimeter_ + 3, obs[1]);
    obs[2][0] = Xmat(torso_, 8);
    double* imu = obs[3];
    for (int s : imu_) {
      const double* v = data_->sensordata + model_->sensor_adr[s];
      imu = std::copy(v, v + model_->sensor_dim[s], imu);
    }
    double* ft = obs[4];
    for (int s : force_torque_) {
      const double* v = data_->sensordata + model_->sensor_adr[s];
      for (int i = 0; i < model_->sensor_dim[s]; ++i) {
        *ft++ = std::asinh(v[i]);
      }
    }
    if (task_ == "escape") {
      // origin: -torso_pos . torso_frame; rangefinder: tanh of each
      // reading, 1 where the ray hits nothing (-1).
      const double* frame = data_->xmat + 9 * torso_;
      const double* torso = data_->xpos + 3 * torso_;
      InFrame(torso, frame, obs[5]);
      for (int j = 0; j < 3; ++j) {
        obs[5][j] = -obs[5][j];
      }
      double* rf = obs[6];
      for (int s : rangefinders_) {
        const double r = data_->sensordata[model_->sensor_adr[s]];
        *rf++ = r == -1.0 ? 1.0 : std::tanh(r);
      }
    }
    if (task_ == "fetch") {
      const double* frame = data_->xmat + 9 * torso_;
      const double* torso = data_->xpos + 3 * torso_;
      const double* ball_qvel = data_->qvel + model_->jnt_dofadr[ball_root_];
      const double* root_qvel =
          data_->qvel + model_->jnt_dofadr[Id(mjOBJ_JOINT, "root")];
      double rows[3][3];
      for (int i = 0; i < 3; ++i) {
        rows[0][i] = data_->xpos[3 * ball_ + i] - torso[i];
        rows[1][i] = ball_qvel[i] - root_qvel[i];
        rows[2][i] = ball_qvel[3 + i];
      }
      for (int r = 0; r < 3; ++r) {
        InFrame(rows[r], frame, obs[5] + 3 * r);
      }
      double to_target[3];
      for (int i = 0; i < 3; ++i) {
        to_target[i] = data_->site_xpos[3 * target_ + i] - torso[i];
      }
      InFrame(to_target, frame, obs[6]);
    }
  }

 private:
  static int CountHinges(const mjModel& model) {
    int n = 0;
    for (int j = 0; j < model.njnt; ++j) {
      n += model.jnt_type[j] == mjJNT_HINGE ? 1 : 0;
    }
    return n;
  }

  static int SensorDims(const mjModel& model, std::vector<int> types) {
    int n = 0;
    for (int s = 0; s < model.nsensor; ++s) {
      if (std::find(types.begin(), types.end(), model.sensor_type[s]) !=
          types.end()) {
        n += model.sensor_dim[s];
      }
    }
    return n;
  }

  // v (a row) times the 3x3 row-major frame.
  static void InFrame(const double* v, const double* frame, double* out) {
    for (int j = 0; j < 3; ++j) {
      out[j] = v[0] * frame[j] + v[1] * frame[3 + j] + v[2] * frame[6 + j];
    }
  }

  // Escape.initialize_episode's terrain: uniform(.15, 1, (n, n)) bumps
  // (n = terrain size / 2 m), smoothed and shaped as in terrain.h, written
  // into the model's heightfield as float32; the next frame uploads it.
  void MakeTerrain() {
    const int res = model_->hfield_nrow[hfield_];
    const double terrain_size = 2 * model_->hfield_size[4 * hfield_];
    const int bump_res = static_cast<int>(terrain_size / 2);
    std::vector<double> bumps(static_cast<std::size_t>(bump_res) * bump_res);
    for (double& b : bumps) {
      b = random_.Uniform(0.15, 1);
    }
    const std::vector<double> terrain = EscapeTerrain(bumps, bump_res, res);
    float* heights = model_->hfield_data + model_->hfield_adr[hfield_];
    for (std::size_t i = 0; i < terrain.size(); ++i) {
      heights[i] = static_cast<float>(terrain[i]);
    }
    hfield_stamp_ = NewHfieldStamp();
  }

  // dm_control's _find_non_contacting_height: from z = 0 up in 1 cm steps,
  // a fresh reset with the root at (x, y, z) and the given orientation,
  // until nothing touches.
  void FindNonContactingHeight(const double* orientation, double x, double y) {
    double z = 0.0;
    int ncon = 1;
    int attempts = 0;
    while (ncon > 0) {
      mj_resetData(model_.get(), data_.get());
      AfterReset();
      double* root = data_->qpos + root_;
      root[0] = x;
      root[1] = y;
      root[2] = z;
      std::copy(orientation, orientation + 4, root + 3);
      AfterReset();
      ncon = data_->ncon;
      z += 0.01;
      if (++attempts > 10000) {
        throw std::runtime_error(
            "Failed to find a non-contacting configuration.");
      }
    }
  }

  std::string task_;
  int root_;
  int torso_;
  const double* velocimeter_;
  double desired_speed_;
  std::vector<int> hinges_;
  std::vector<int> imu_;
  std::vector<int> force_torque_;
  std::vector<int> rangefinders_;
  int hfield_ = -1;
  int ball_ = -1;
  int ball_root_ = -1;
  int floor_ = -1;
  int ball_geom_ = -1;
  int target_ = -1;
  int workspace_ = -1;
};

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_QUADRUPED_H_
