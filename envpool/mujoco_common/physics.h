// What dm_control's Physics does around MuJoCo's calls, for the families that
// follow dm_control (dm_control, locomotion).
#ifndef ENVPOOL_MUJOCO_COMMON_PHYSICS_H_
#define ENVPOOL_MUJOCO_COMMON_PHYSICS_H_

#include <mujoco/mujoco.h>

namespace envpool::mujoco_common {

// Physics.after_reset: mj_forward with the actuators disabled, so that the
// first observation of an episode sees no actuator force.
inline void ForwardWithoutActuation(mjModel* m, mjData* d) {
  const int flags = m->opt.disableflags;
  m->opt.disableflags = flags | mjDSBL_ACTUATION;
  mj_forward(m, d);
  m->opt.disableflags = flags;
}

}  // namespace envpool::mujoco_common

#endif  // ENVPOOL_MUJOCO_COMMON_PHYSICS_H_
