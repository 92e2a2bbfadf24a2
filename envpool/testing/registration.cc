// The core's test envs as a Python module, so the Python API can be tested
// on them (multi-player rows in particular). No ids are registered.
#include <pybind11/pybind11.h>

#include "envpool/core/env.h"
#include "envpool/core/testing/test_envs.h"

PYBIND11_MODULE(_testing, m) {
  envpool::RegisterEnv<envpool::testing::CounterEnv>("TestCounter");
  envpool::RegisterEnv<envpool::testing::TeamEnv>("TestTeam");
  envpool::RegisterEnv<envpool::testing::DuelEnv>("TestDuel");
  envpool::RegisterEnv<envpool::testing::TurnEnv>("TestTurns");
}
