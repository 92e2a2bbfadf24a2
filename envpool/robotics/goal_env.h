// What the robotics family's envs share: gymnasium-robotics' goal-conditioned
// interface (a dict observation of `observation`, `achieved_goal` and
// `desired_goal`, float64 and unbounded; a float32 action in [-1, 1]) and
// its model files, read from the family's asset folder (the models of the
// pinned gymnasium-robotics wheel, shipped in envpool/robotics/assets).
#ifndef ENVPOOL_ROBOTICS_GOAL_ENV_H_
#define ENVPOOL_ROBOTICS_GOAL_ENV_H_

#include <mujoco/mujoco.h>

#include <string>

#include "envpool/core/env.h"
#include "envpool/mujoco_common/model.h"

namespace envpool::robotics {

// gymnasium-robotics' asset folder (registration.py's ASSET_DIR); a missing
// file is an error naming it and the package that provides it.
const mujoco_common::ModelFolder& RoboticsModels();

// The handles of the goal-conditioned spaces.
struct GoalFields {
  Field<double> observation;
  Field<double> achieved_goal;
  Field<double> desired_goal;
  Field<float> action;
};

// Declares obs:observation (obs_dim numbers), obs:achieved_goal and
// obs:desired_goal (goal_dim each), all float64 in (-inf, inf), and the
// action, action_dim float32 numbers in [-1, 1].
void DeclareGoalSpaces(int obs_dim, int goal_dim, int action_dim, EnvSpec* spec,
                       GoalFields* fields);

// The option `reward_type`: true for "dense", false for "sparse"; anything
// else throws std::invalid_argument naming the two.
bool DenseReward(const Options& options);

// The option frame_stack, which EnvPool declares for these envs: only 1
// (no stacking of dict observations); anything else throws
// std::invalid_argument.
void CheckFrameStack(const Options& options);

// np.clip(x, -1, 1) of a float32 action element (NaN stays NaN).
float ClipAction(float x);

// An independent copy of `model`, for an env that changes its model (a
// goal marker's position, the mocap welds).
mujoco_common::ModelPtr CopyModel(const mjModel* model);

// Snapshots of the physics: MuJoCo's integration state (time, qpos, qvel,
// act, warm start, controls, applied forces, mocap poses, ...) and the
// bodies' xpos and xquat, which a Fetch step reads as the last step left
// them (computed before its integration, so not what mj_forward of the
// restored state gives). Load throws SnapshotError when the sizes differ.
void SavePhysics(const mjModel* model, const mjData* data, StateWriter* writer);
void LoadPhysics(const mjModel* model, mjData* data, StateReader* reader);

// A float written so that MuJoCo's parser reads back the same double (what
// Python's repr gives, up to the digits shown).
std::string FloatText(double x);

}  // namespace envpool::robotics

#endif  // ENVPOOL_ROBOTICS_GOAL_ENV_H_
