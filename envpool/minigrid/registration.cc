// The minigrid family's Python module: registers its env type with the
// shared core when Python imports it.
#include <pybind11/pybind11.h>

#include "envpool/core/env.h"
#include "envpool/minigrid/minigrid_env.h"

PYBIND11_MODULE(_minigrid, m) {
  envpool::RegisterEnv<envpool::minigrid::MiniGridEnv>("MiniGrid");
}
