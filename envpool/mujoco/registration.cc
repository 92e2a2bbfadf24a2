// The mujoco family's Python module: registers its env types with the shared
// core when Python imports it (the models' folder comes from the core:
// registration.py's ASSET_DIR), and learns how this process's numpy rounds
// its dot products (envpool/core/numpy_blas.h).
#include <pybind11/pybind11.h>

#include "envpool/core/env.h"
#include "envpool/core/numpy_blas_loader.h"
#include "envpool/mujoco/ant.h"
#include "envpool/mujoco/half_cheetah.h"
#include "envpool/mujoco/hopper.h"
#include "envpool/mujoco/humanoid.h"
#include "envpool/mujoco/humanoid_standup.h"
#include "envpool/mujoco/inverted_double_pendulum.h"
#include "envpool/mujoco/inverted_pendulum.h"
#include "envpool/mujoco/mujoco_env.h"
#include "envpool/mujoco/pusher.h"
#include "envpool/mujoco/reacher.h"
#include "envpool/mujoco/swimmer.h"
#include "envpool/mujoco/walker2d.h"
#include "envpool/mujoco_common/message_handlers.h"

PYBIND11_MODULE(_mujoco, m) {
  using namespace envpool::mujoco;  // NOLINT
  envpool::mujoco_common::InstallMessageHandlers();
  envpool::numpy_blas::LearnNumpyBlasFor(m);
  envpool::RegisterEnv<AntEnv>("Ant");
  envpool::RegisterEnv<HalfCheetahEnv>("HalfCheetah");
  envpool::RegisterEnv<HopperEnv>("Hopper");
  envpool::RegisterEnv<HumanoidEnv>("Humanoid");
  envpool::RegisterEnv<HumanoidStandupEnv>("HumanoidStandup");
  envpool::RegisterEnv<InvertedDoublePendulumEnv>("InvertedDoublePendulum");
  envpool::RegisterEnv<InvertedPendulumEnv>("InvertedPendulum");
  envpool::RegisterEnv<PusherEnv>("Pusher");
  envpool::RegisterEnv<ReacherEnv>("Reacher");
  envpool::RegisterEnv<SwimmerEnv>("Swimmer");
  envpool::RegisterEnv<Walker2dEnv>("Walker2d");
}
