// The classic_control family's Python module: registers its env types with
// the shared core when Python imports it.
#include <pybind11/pybind11.h>

#include "envpool/classic_control/acrobot.h"
#include "envpool/classic_control/cartpole.h"
#include "envpool/classic_control/mountain_car.h"
#include "envpool/classic_control/mountain_car_continuous.h"
#include "envpool/classic_control/pendulum.h"
#include "envpool/classic_control/render.h"
#include "envpool/core/env.h"

PYBIND11_MODULE(_classic_control, m) {
  using namespace envpool::classic_control;  // NOLINT
  envpool::RegisterEnv<CartPoleEnv>("CartPole");
  envpool::RegisterEnv<PendulumEnv>("Pendulum");
  envpool::RegisterEnv<MountainCarEnv>("MountainCar");
  envpool::RegisterEnv<MountainCarContinuousEnv>("MountainCarContinuous");
  envpool::RegisterEnv<AcrobotEnv>("Acrobot");
}
