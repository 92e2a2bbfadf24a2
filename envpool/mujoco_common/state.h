// Snapshots of a MuJoCo simulation: mj_getState/mj_setState with every
// component that the next mj_step reads (mjSTATE_INTEGRATION: time, qpos,
// qvel, act, the history buffers, the warm start of the constraint solver,
// ctrl, the applied forces, the equality flags, mocap poses, userdata and
// plugin state). The quantities MuJoCo derives from them (positions of
// bodies, contacts, contact forces, sensors) are not part of it: each family
// recomputes them as its last step computed them.
#ifndef ENVPOOL_MUJOCO_COMMON_STATE_H_
#define ENVPOOL_MUJOCO_COMMON_STATE_H_

#include <mujoco/mujoco.h>

#include <vector>

namespace envpool::mujoco_common {

inline constexpr int kIntegrationState = mjSTATE_INTEGRATION;

// mj_getState(m, d, kIntegrationState) into `state`, sized to fit.
void GetIntegrationState(const mjModel* m, const mjData* d,
                         std::vector<mjtNum>* state);
// mj_setState of such a state; throws envpool::SnapshotError where its size
// is not this model's.
void SetIntegrationState(const mjModel* m, mjData* d,
                         const std::vector<mjtNum>& state);

// The test hook's view of a simulation (Env::GetState): qpos, qvel, act and
// qacc_warmstart, concatenated, which the tests compare with the reference's
// data bit for bit (the warm start decides the next step's solution). Empty
// before there is data.
std::vector<double> SimulationState(const mjModel* m, const mjData* d);

}  // namespace envpool::mujoco_common

#endif  // ENVPOOL_MUJOCO_COMMON_STATE_H_
