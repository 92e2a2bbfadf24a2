// The dm_control family's Python module: registers its env types with the
// shared core when Python imports it (the models' folder comes from the
// core: registration.py's ASSET_DIR), and learns how this process's numpy
// rounds its dot products (envpool/core/numpy_blas.h).
#include <pybind11/pybind11.h>

#include "envpool/core/env.h"
#include "envpool/core/numpy_blas_loader.h"
#include "envpool/dm_control/acrobot.h"
#include "envpool/dm_control/ball_in_cup.h"
#include "envpool/dm_control/cartpole.h"
#include "envpool/dm_control/cheetah.h"
#include "envpool/dm_control/dmc_env.h"
#include "envpool/dm_control/dog.h"
#include "envpool/dm_control/finger.h"
#include "envpool/dm_control/fish.h"
#include "envpool/dm_control/hopper.h"
#include "envpool/dm_control/humanoid.h"
#include "envpool/dm_control/lqr.h"
#include "envpool/dm_control/manipulator.h"
#include "envpool/dm_control/pendulum.h"
#include "envpool/dm_control/point_mass.h"
#include "envpool/dm_control/quadruped.h"
#include "envpool/dm_control/reacher.h"
#include "envpool/dm_control/swimmer.h"
#include "envpool/dm_control/walker.h"
#include "envpool/mujoco_common/message_handlers.h"

PYBIND11_MODULE(_dm_control, m) {
  using namespace envpool::dm_control;  // NOLINT
  envpool::mujoco_common::InstallMessageHandlers();
  envpool::numpy_blas::LearnNumpyBlasFor(m);
  envpool::RegisterEnv<AcrobotEnv>("DmcAcrobot");
  envpool::RegisterEnv<BallInCupEnv>("DmcBallInCup");
  envpool::RegisterEnv<CartpoleEnv>("DmcCartpole");
  envpool::RegisterEnv<CheetahEnv>("DmcCheetah");
  envpool::RegisterEnv<DogEnv>("DmcDog");
  envpool::RegisterEnv<FingerEnv>("DmcFinger");
  envpool::RegisterEnv<FishEnv>("DmcFish");
  envpool::RegisterEnv<HopperEnv>("DmcHopper");
  envpool::RegisterEnv<HumanoidEnv>("DmcHumanoid");
  envpool::RegisterEnv<HumanoidCMUEnv>("DmcHumanoidCMU");
  envpool::RegisterEnv<LqrEnv>("DmcLqr");
  envpool::RegisterEnv<ManipulatorEnv>("DmcManipulator");
  envpool::RegisterEnv<PendulumEnv>("DmcPendulum");
  envpool::RegisterEnv<PointMassEnv>("DmcPointMass");
  envpool::RegisterEnv<QuadrupedEnv>("DmcQuadruped");
  envpool::RegisterEnv<ReacherEnv>("DmcReacher");
  envpool::RegisterEnv<StackerEnv>("DmcStacker");
  envpool::RegisterEnv<SwimmerEnv>("DmcSwimmer");
  envpool::RegisterEnv<WalkerEnv>("DmcWalker");
}
