// For a MuJoCo-based family's registration.cc: tells NumpyNorm which way
// this process's numpy computes np.linalg.norm (numpy_math.h), so that the
// family's norms round as the reference's do on this CPU.
#ifndef ENVPOOL_MUJOCO_COMMON_NUMPY_PROBE_H_
#define ENVPOOL_MUJOCO_COMMON_NUMPY_PROBE_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "envpool/mujoco_common/numpy_math.h"

namespace envpool::mujoco_common {

inline void LearnNumpyNorm() {
  SetNumpyNormFused(NumpyNormIsFused([](const double* x, int n) {
    namespace py = pybind11;
    py::object norm = py::module_::import("numpy").attr("linalg").attr("norm");
    return norm(py::array_t<double>(n, x)).cast<double>();
  }));
}

}  // namespace envpool::mujoco_common

#endif  // ENVPOOL_MUJOCO_COMMON_NUMPY_PROBE_H_
