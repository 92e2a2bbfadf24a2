// The procgen family's Python module: registers its env type with the shared
// core when Python imports it.
#include <pybind11/pybind11.h>

#include "envpool/core/env.h"
#include "envpool/procgen/procgen_env.h"

PYBIND11_MODULE(_procgen, m) {
  envpool::RegisterEnv<envpool::procgen::ProcgenEnv>("Procgen");
}
