// The metaworld family's Python module: registers its env type with the
// shared core when Python imports it (the models' folder comes from the
// core: registration.py's ASSET_DIR), learns how this process's numpy
// rounds its dot products (envpool/core/numpy_blas.h), and finds its float64
// kernels (np.exp and np.log of the rewards' "gaussian" tolerance:
// envpool/core/numpy_kernels.h).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "envpool/core/env.h"
#include "envpool/core/numpy_blas_loader.h"
#include "envpool/core/numpy_kernels_loader.h"
#include "envpool/metaworld/sawyer_env.h"
#include "envpool/metaworld/task_sampling.h"
#include "envpool/mujoco_common/message_handlers.h"

PYBIND11_MODULE(_metaworld, m) {
  envpool::mujoco_common::InstallMessageHandlers();
  envpool::numpy_blas::LearnNumpyBlasFor(m);
  envpool::numpy_kernels::LoadNumpyKernels();
  m.def("numpy_kernels", &envpool::numpy_kernels::LoadedNumpyKernels,
        "The numpy ufuncs whose float64 loops the envs call (the rest: libm).");
  m.def("_numpy_kernel", &envpool::numpy_kernels::EvaluateUnaryKernel,
        "What the envs compute for a unary numpy ufunc at each number (tests "
        "compare it with numpy).");
  m.def(
      "_benchmark_task_vectors",
      [](const std::string& benchmark, const std::string& split,
         const std::string& task_name, uint32_t seed, int num_goals) {
        return *envpool::metaworld::BenchmarkTaskVectors(
            benchmark, split, task_name, seed, num_goals);
      },
      pybind11::arg("benchmark"), pybind11::arg("split"),
      pybind11::arg("task_name"), pybind11::arg("seed"),
      pybind11::arg("num_goals") = envpool::metaworld::kDefaultTaskVariations,
      "A benchmark split's task vectors per class (tests compare them with "
      "Meta-World's).");
  envpool::RegisterEnv<envpool::metaworld::SawyerEnv>("MetaWorld");
}
