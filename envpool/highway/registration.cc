// The highway family's Python module: registers its env types with the
// shared core when Python imports it.
#include <pybind11/pybind11.h>

#include "envpool/core/env.h"
#include "envpool/highway/highway_env.h"

PYBIND11_MODULE(_highway, m) {
  envpool::RegisterEnv<envpool::highway::HighwayEnv>("Highway");
}
