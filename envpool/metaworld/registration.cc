// The metaworld family's Python module: registers its env type with the
// shared core when Python imports it (the models' folder comes from the
// core: registration.py's ASSET_DIR), and learns how this process's numpy
// sums a norm.
#include <pybind11/pybind11.h>

#include "envpool/core/env.h"
#include "envpool/metaworld/sawyer_env.h"
#include "envpool/mujoco_common/message_handlers.h"
#include "envpool/mujoco_common/numpy_probe.h"

PYBIND11_MODULE(_metaworld, m) {
  envpool::mujoco_common::InstallMessageHandlers();
  envpool::mujoco_common::LearnNumpyNorm();
  envpool::RegisterEnv<envpool::metaworld::SawyerEnv>("MetaWorld");
}
