// The atari family's Python module: registers its env type with the shared
// core when Python imports it.
#include <pybind11/pybind11.h>

#include "envpool/atari/atari_env.h"
#include "envpool/core/env.h"

PYBIND11_MODULE(_atari, m) {
  envpool::RegisterEnv<envpool::atari::AtariEnv>("Atari");
}
