// The minigrid family's Python module: registers its env type with the
// shared core when Python imports it, learns how this process's numpy rounds
// its dot products (the renderer's triangles: envpool/core/numpy_blas.h),
// and names the levels of its level table (level_table.h), which
// registration.py's ids must name.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "envpool/core/env.h"
#include "envpool/core/numpy_blas_loader.h"
#include "envpool/minigrid/level_table.h"
#include "envpool/minigrid/minigrid_env.h"

PYBIND11_MODULE(_minigrid, m) {
  envpool::numpy_blas::LearnNumpyBlasFor(m);
  envpool::RegisterEnv<envpool::minigrid::MiniGridEnv>("MiniGrid");
  m.def("level_names", &envpool::minigrid::LevelNames,
        "The env_name values of every level the MiniGrid env class builds, "
        "in the order of its level table.");
}
