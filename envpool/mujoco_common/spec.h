// The options and arrays every MuJoCo-based family declares alike.
#ifndef ENVPOOL_MUJOCO_COMMON_SPEC_H_
#define ENVPOOL_MUJOCO_COMMON_SPEC_H_

#include <mujoco/mujoco.h>

#include <cstdint>

#include "envpool/core/env.h"

namespace envpool::mujoco_common {

// The option frame_skip, the physics steps per env step; throws
// std::invalid_argument when it is below 1.
int64_t FrameSkip(const Options& options);

// For Declare: rgb_array frames of any size (width x height by default, the
// reference's), from the free camera or one of the model's cameras, at
// round(1 / (timestep x frame_skip)) frames per second.
void DeclareModelRendering(const Options& options, const mjModel& model,
                           int width, int height, EnvSpec* spec);

}  // namespace envpool::mujoco_common

#endif  // ENVPOOL_MUJOCO_COMMON_SPEC_H_
