// The box2d family's Python module: registers its env types with the shared
// core when Python imports it.
#include <pybind11/pybind11.h>

#include "envpool/box2d/bipedal_walker.h"
#include "envpool/box2d/car_racing.h"
#include "envpool/box2d/lunar_lander.h"
#include "envpool/core/env.h"

PYBIND11_MODULE(_box2d, m) {
  using namespace envpool::box2d;  // NOLINT
  envpool::RegisterEnv<LunarLanderEnv>("LunarLander");
  envpool::RegisterEnv<BipedalWalkerEnv>("BipedalWalker");
  envpool::RegisterEnv<CarRacingEnv>("CarRacing");
}
