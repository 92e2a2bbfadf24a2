// The robotics family's Python module: registers its env types with the
// shared core when Python imports it (the models' folder comes from the
// core: registration.py's ASSET_DIR), and learns how this process's numpy
// rounds its dot products (envpool/core/numpy_blas.h).
#include <pybind11/pybind11.h>

#include "envpool/core/env.h"
#include "envpool/core/numpy_blas_loader.h"
#include "envpool/mujoco_common/message_handlers.h"
#include "envpool/robotics/adroit_env.h"
#include "envpool/robotics/fetch.h"
#include "envpool/robotics/hand_env.h"
#include "envpool/robotics/kitchen_env.h"
#include "envpool/robotics/point_maze.h"

PYBIND11_MODULE(_robotics, m) {
  using namespace envpool::robotics;  // NOLINT
  envpool::mujoco_common::InstallMessageHandlers();
  envpool::numpy_blas::LearnNumpyBlasFor(m);
  envpool::RegisterEnv<PointMazeEnv>("PointMaze");
  envpool::RegisterEnv<FetchEnv>("Fetch");
  envpool::RegisterEnv<AdroitHandEnv>("AdroitHand");
  envpool::RegisterEnv<FrankaKitchenEnv>("FrankaKitchen");
  envpool::RegisterEnv<HandEnv>("Hand");
}
