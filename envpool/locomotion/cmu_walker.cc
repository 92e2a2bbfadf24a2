#include "envpool/locomotion/cmu_walker.h"

#include <algorithm>
#include <cmath>

#include "envpool/mujoco_common/model.h"
#include "envpool/mujoco_common/numpy_math.h"

namespace envpool::locomotion {
namespace {

const char* const kPrefix = "walker/";
// cmu_humanoid.py's _UPRIGHT_POS, _UPRIGHT_QUAT and _TORQUE_THRESHOLD;
// legacy_base.py's _TOUCH_THRESHOLD.
constexpr double kUprightPos[3] = {0.0, 0.0, 0.94};
constexpr double kUprightQuat[4] = {0.859, 1.0, 1.0, 0.859};
constexpr double kTorqueThreshold = 60;
constexpr double kTouchThreshold = 1e-3;
const char* const kEndEffectors[] = {"rradius", "lradius", "rfoot", "lfoot"};

}  // namespace

std::vector<ObservationKey> CmuWalkerObservationKeys() {
  return {
      {"walker/actuator_activation", {0}},
      {"walker/appendages_pos", {15}},
      {"walker/body_height", {}},
      {"walker/end_effectors_pos", {12}},
      {"walker/joints_pos", {kCmuWalkerActions}},
      {"walker/joints_vel", {kCmuWalkerActions}},
      {"walker/sensors_accelerometer", {3}},
      {"walker/sensors_force", {0}},
      {"walker/sensors_gyro", {3}},
      {"walker/sensors_torque", {6}},
      {"walker/sensors_touch", {10}},
      {"walker/sensors_velocimeter", {3}},
      {"walker/world_zaxis", {3}},
  };
}

CmuWalker::CmuWalker(const mjModel* m) {
  const std::string p = kPrefix;
  auto id = [m](mjtObj type, const std::string& name) {
    return mujoco_common::ObjectId(m, type, name.c_str());
  };
  auto sensor = [m, &id](const std::string& name) {
    return m->sensor_adr[id(mjOBJ_SENSOR, name)];
  };
  root_body_ = id(mjOBJ_BODY, p + "root");
  head_body_ = id(mjOBJ_BODY, p + "head");
  const int free = id(mjOBJ_JOINT, p);
  free_qpos_ = m->jnt_qposadr[free];
  free_qvel_ = m->jnt_dofadr[free];
  // The actuators are the joints' in the observation's (alphabetical) order.
  for (int a = 0; a < m->nu; ++a) {
    const int joint = m->actuator_trnid[2 * a];
    joint_qpos_.push_back(m->jnt_qposadr[joint]);
    joint_qvel_.push_back(m->jnt_dofadr[joint]);
  }
  const int frame = id(mjOBJ_BODY, p);
  auto below = [m](int body, int ancestor) {
    while (body > 0 && body != ancestor) {
      body = m->body_parentid[body];
    }
    return body == ancestor;
  };
  for (int j = 0; j < m->njnt; ++j) {
    if (j != free && below(m->jnt_bodyid[j], frame)) {
      walker_joint_qpos_.push_back(m->jnt_qposadr[j]);
    }
  }
  for (const char* body : kEndEffectors) {
    end_effector_bodies_.push_back(id(mjOBJ_BODY, p + body));
    end_effector_sensors_.push_back(sensor(p + body + "_end_effector"));
  }
  for (int s = 0; s < m->nsensor; ++s) {
    if (m->sensor_type[s] == mjSENS_TOUCH) {
      touch_sensors_.push_back(m->sensor_adr[s]);
    } else if (m->sensor_type[s] == mjSENS_TORQUE) {
      for (int k = 0; k < 3; ++k) {
        torque_sensors_.push_back(m->sensor_adr[s] + k);
      }
    }
  }
  velocimeter_ = sensor(p + "sensor_root_veloc");
  gyro_ = sensor(p + "sensor_root_gyro");
  accelerometer_ = sensor(p + "sensor_root_accel");
  const int lfoot = id(mjOBJ_BODY, p + "lfoot");
  const int rfoot = id(mjOBJ_BODY, p + "rfoot");
  nonfoot_geom_.assign(m->ngeom, false);
  for (int g = 0; g < m->ngeom; ++g) {
    const int body = m->geom_bodyid[g];
    nonfoot_geom_[g] =
        below(body, frame) && !below(body, lfoot) && !below(body, rfoot);
  }
}

void DeclareCmuTask(const std::vector<ObservationKey>& keys, bool camera,
                    EnvSpec* spec, CmuTaskFields* fields) {
  spec->snapshots = true;
  fields->obs = AddFloatObservations(keys, spec);
  fields->camera = Field<uint8_t>{};
  if (camera) {
    fields->camera = spec->state.Add<uint8_t>(
        "obs:walker/egocentric_camera", {kCmuCameraSize, kCmuCameraSize, 3},
        {0.0}, {255.0});
  }
  ArraySpec action;
  action.name = "action";
  action.dtype = DType::kFloat64;
  action.shape = {kCmuWalkerActions};
  action.low = {-1.0};
  action.high = {1.0};
  fields->action = spec->action.Add<double>(action);
}

void PlaceCmuRootUpright(double* root_qpos, double* root_qvel) {
  std::copy(kUprightPos, kUprightPos + 3, root_qpos);
  const double norm = mujoco_common::NumpyNorm(kUprightQuat, 4);
  for (int k = 0; k < 4; ++k) {
    root_qpos[3 + k] = kUprightQuat[k] / norm;
  }
  std::fill(root_qvel, root_qvel + 6, 0.0);
}

void CmuWalker::PlaceUpright(const mjModel* m, mjData* d, double x,
                             double y) const {
  for (int adr : walker_joint_qpos_) {
    d->qpos[adr] = m->qpos0[adr];
  }
  double* root = d->qpos + free_qpos_;
  PlaceCmuRootUpright(root, d->qvel + free_qvel_);
  root[0] = root[0] + x;
  root[1] = root[1] + y;
  root[2] = root[2] + 0.0;
}

void CmuWalker::Egocentric(const mjData* d, const double* vec,
                           double* to) const {
  const double* xpos = d->xpos + 3 * root_body_;
  const double* xmat = d->xmat + 9 * root_body_;
  const double delta[3] = {vec[0] - xpos[0], vec[1] - xpos[1],
                           vec[2] - xpos[2]};
  for (int j = 0; j < 3; ++j) {
    to[j] =
        delta[0] * xmat[j] + delta[1] * xmat[3 + j] + delta[2] * xmat[6 + j];
  }
}

void CmuWalker::Write(const mjData* d,
                      const std::function<double*(const char*)>& obs) const {
  const double* xpos = d->xpos + 3 * root_body_;
  const double* xmat = d->xmat + 9 * root_body_;
  double* appendages = obs("walker/appendages_pos");
  int k = 0;
  for (int body : end_effector_bodies_) {
    Egocentric(d, d->xpos + 3 * body, appendages + 3 * k++);
  }
  Egocentric(d, d->xpos + 3 * head_body_, appendages + 3 * k);
  obs("walker/body_height")[0] = xpos[2];
  double* effectors = obs("walker/end_effectors_pos");
  for (int adr : end_effector_sensors_) {
    effectors =
        std::copy(d->sensordata + adr, d->sensordata + adr + 3, effectors);
  }
  double* qpos = obs("walker/joints_pos");
  double* qvel = obs("walker/joints_vel");
  for (std::size_t i = 0; i < joint_qpos_.size(); ++i) {
    qpos[i] = d->qpos[joint_qpos_[i]];
    qvel[i] = d->qvel[joint_qvel_[i]];
  }
  std::copy(d->sensordata + accelerometer_, d->sensordata + accelerometer_ + 3,
            obs("walker/sensors_accelerometer"));
  std::copy(d->sensordata + gyro_, d->sensordata + gyro_ + 3,
            obs("walker/sensors_gyro"));
  std::copy(d->sensordata + velocimeter_, d->sensordata + velocimeter_ + 3,
            obs("walker/sensors_velocimeter"));
  double* torque = obs("walker/sensors_torque");
  for (std::size_t i = 0; i < torque_sensors_.size(); ++i) {
    torque[i] =
        std::tanh(2 * d->sensordata[torque_sensors_[i]] / kTorqueThreshold);
  }
  double* touch = obs("walker/sensors_touch");
  for (std::size_t i = 0; i < touch_sensors_.size(); ++i) {
    touch[i] = d->sensordata[touch_sensors_[i]] > kTouchThreshold ? 1.0 : 0.0;
  }
  std::copy(xmat + 6, xmat + 9, obs("walker/world_zaxis"));
}

bool CmuWalker::NonFootContact(const mjData* data,
                               const std::vector<bool>& ground_geom) const {
  for (int c = 0; c < data->ncon; ++c) {
    const int g1 = data->contact[c].geom[0];
    const int g2 = data->contact[c].geom[1];
    if ((nonfoot_geom_[g1] && ground_geom[g2]) ||
        (ground_geom[g1] && nonfoot_geom_[g2])) {
      return true;
    }
  }
  return false;
}

}  // namespace envpool::locomotion
