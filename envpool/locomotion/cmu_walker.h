// The position-controlled CMU humanoid (2019) of basic_cmu_2019's tasks, in
// a task model that CmuHumanoidTaskXml wrote (go_to_target.h): its elements,
// its upright initial pose and its proprioceptive observations, shared by
// the go-to-target and corridor envs.
#ifndef ENVPOOL_LOCOMOTION_CMU_WALKER_H_
#define ENVPOOL_LOCOMOTION_CMU_WALKER_H_

#include <mujoco/mujoco.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/locomotion/task_options.h"

namespace envpool::locomotion {

// The walker's 56 position actuators (the action's width).
constexpr int kCmuWalkerActions = 56;

// dm_control's keys of the walker's observables that basic_cmu_2019's tasks
// enable (strip_singleton_obs_buffer_dim: no leading 1), in key order; all
// float64.
std::vector<ObservationKey> CmuWalkerObservationKeys();

// The spec of a basic_cmu_2019 task: its observations `keys` (float64,
// unbounded, each "obs:<key>"), the 64x64 egocentric camera (uint8) where
// `camera`, and the walker's 56 position controls in [-1, 1] (float64).
struct CmuTaskFields {
  std::vector<Field<double>> obs;  // in the order of the keys
  Field<uint8_t> camera;
  Field<double> action;
};
constexpr int kCmuCameraSize = 64;  // the egocentric camera's frame, square
void DeclareCmuTask(const std::vector<ObservationKey>& keys, bool camera,
                    EnvSpec* spec, CmuTaskFields* fields);

// UprightInitializer's free joint: the root at cmu_humanoid.py's upright
// position and quaternion (divided by numpy's norm) in the 7 entries of
// `root_qpos`, at rest in the 6 of `root_qvel`. CmuWalker::PlaceUpright and
// the soccer humanoid's mocap initializer both start from it.
void PlaceCmuRootUpright(double* root_qpos, double* root_qvel);

class CmuWalker {
 public:
  // The walker's elements in `model`, named with the prefix "walker/".
  explicit CmuWalker(const mjModel* model);

  // UprightInitializer (the joints at qpos0, the free joint at the upright
  // pose, its quaternion divided by numpy's norm, at rest), then shift_pose
  // by (x, y, 0).
  void PlaceUpright(const mjModel* model, mjData* data, double x,
                    double y) const;

  // Writes the observations of CmuWalkerObservationKeys(): `obs(key)` is
  // where the entries of `key` go.
  void Write(const mjData* data,
             const std::function<double*(const char*)>& obs) const;

  // `vec` in the root's frame (dm_control's egocentric vectors).
  void Egocentric(const mjData* data, const double* vec, double* to) const;

  int root_body() const { return root_body_; }
  // The end effectors' bodies: rradius, lradius, rfoot, lfoot.
  const std::vector<int>& end_effector_bodies() const {
    return end_effector_bodies_;
  }
  // Whether a contact of `data` joins one of the walker's geoms but its
  // feet's with a geom marked in `ground_geom` (per geom of the model): what
  // fails the tasks (GoToTarget's and RunThroughCorridor's
  // _is_disallowed_contact).
  bool NonFootContact(const mjData* data,
                      const std::vector<bool>& ground_geom) const;

 private:
  int root_body_ = -1, head_body_ = -1;
  int free_qpos_ = -1, free_qvel_ = -1;
  std::vector<int> joint_qpos_, joint_qvel_, walker_joint_qpos_;
  std::vector<int> end_effector_bodies_;
  std::vector<int> end_effector_sensors_, touch_sensors_, torque_sensors_;
  int velocimeter_ = -1, gyro_ = -1, accelerometer_ = -1;
  std::vector<bool> nonfoot_geom_;
};

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_CMU_WALKER_H_
