// The vizdoom family's Python module: registers its env type with the shared
// core when Python imports it.
#include <pybind11/pybind11.h>

#include "envpool/core/env.h"
#include "envpool/vizdoom/vizdoom_env.h"

PYBIND11_MODULE(_vizdoom, m) {
  envpool::RegisterEnv<envpool::vizdoom::VizdoomEnv>("Vizdoom");
}
