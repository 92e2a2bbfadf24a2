// The highway family's Python module: registers its env types with the
// shared core when Python imports it, after finding numpy's float64 kernels
// (numpy_kernels.h says why).
#include <Python.h>
#include <pybind11/pybind11.h>

#include <cstring>

#include "envpool/core/env.h"
#include "envpool/highway/exit_env.h"
#include "envpool/highway/highway_env.h"
#include "envpool/highway/intersection_env.h"
#include "envpool/highway/lane_keeping_env.h"
#include "envpool/highway/merge_env.h"
#include "envpool/highway/numpy_kernels.h"
#include "envpool/highway/roundabout_env.h"
#include "envpool/highway/two_way_env.h"
#include "envpool/highway/u_turn_env.h"

namespace {

// The leading fields of numpy's PyUFuncObject (numpy/ufuncobject.h), which
// numpy keeps in this order for its C API.
struct UFuncPrefix {
  PyObject_HEAD int nin;
  int nout;
  int nargs;
  int identity;
  envpool::highway::numpy_kernels::Loop* functions;
  void* const* data;
  int ntypes;
  int reserved1;
  const char* name;
  const char* types;
};

constexpr char kNpyDouble = 12;  // NPY_DOUBLE

// numpy's ufunc `name`: its first all-float64 loop (the one numpy's type
// resolution picks for float64 arguments). Leaves the kernel empty (libm)
// when anything does not look like numpy's layout.
void FindKernel(const pybind11::module_& numpy,
                envpool::highway::numpy_kernels::Function f) {
  namespace py = pybind11;
  const char* name = envpool::highway::numpy_kernels::kNames[f];
  py::object ufunc = numpy.attr(name);
  if (!py::isinstance(ufunc, numpy.attr("ufunc"))) {
    return;
  }
  const auto* u = reinterpret_cast<const UFuncPrefix*>(ufunc.ptr());
  const int nargs = f == envpool::highway::numpy_kernels::kPower ||
                            f == envpool::highway::numpy_kernels::kArctan2
                        ? 3
                        : 2;
  if (u->nargs != nargs || u->nin != nargs - 1 || u->nout != 1 ||
      u->name == nullptr || std::strcmp(u->name, name) != 0 ||
      u->ntypes != static_cast<int>(py::len(ufunc.attr("types"))) ||
      u->functions == nullptr || u->types == nullptr) {
    return;
  }
  for (int i = 0; i < u->ntypes; ++i) {
    bool all_double = true;
    for (int j = 0; j < nargs; ++j) {
      all_double = all_double && u->types[i * nargs + j] == kNpyDouble;
    }
    if (all_double && u->functions[i] != nullptr) {
      auto& kernel = envpool::highway::numpy_kernels::Kernels()[f];
      kernel.data = u->data == nullptr ? nullptr : u->data[i];
      kernel.loop = u->functions[i];
      ufunc.release();  // numpy's ufuncs live as long as the process
      return;
    }
  }
}

}  // namespace

PYBIND11_MODULE(_highway, m) {
  namespace nk = envpool::highway::numpy_kernels;
  try {
    const pybind11::module_ numpy = pybind11::module_::import("numpy");
    for (int f = 0; f < nk::kNumFunctions; ++f) {
      FindKernel(numpy, static_cast<nk::Function>(f));
    }
  } catch (const pybind11::error_already_set&) {
    // No numpy: libm's functions.
  }
  m.def(
      "numpy_kernels",
      [] {
        pybind11::list found;
        for (int f = 0; f < nk::kNumFunctions; ++f) {
          if (nk::Kernels()[f].loop != nullptr) {
            found.append(nk::kNames[f]);
          }
        }
        return found;
      },
      "The numpy ufuncs whose float64 loops the envs call (the rest: libm).");
  envpool::RegisterEnv<envpool::highway::HighwayEnv>("Highway");
  envpool::RegisterEnv<envpool::highway::MergeEnv>("Merge");
  envpool::RegisterEnv<envpool::highway::MergeGenericEnv>("MergeGeneric");
  envpool::RegisterEnv<envpool::highway::ExitEnv>("Exit");
  envpool::RegisterEnv<envpool::highway::RoundaboutEnv>("Roundabout");
  envpool::RegisterEnv<envpool::highway::RoundaboutGenericEnv>(
      "RoundaboutGeneric");
  envpool::RegisterEnv<envpool::highway::TwoWayEnv>("TwoWay");
  envpool::RegisterEnv<envpool::highway::UTurnEnv>("UTurn");
  envpool::RegisterEnv<envpool::highway::IntersectionEnv>("Intersection");
  envpool::RegisterEnv<envpool::highway::IntersectionContinuousEnv>(
      "IntersectionContinuous");
  envpool::RegisterEnv<envpool::highway::LaneKeepingEnv>("LaneKeeping");
  envpool::RegisterEnv<envpool::highway::IntersectionMultiAgentEnv>(
      "IntersectionMultiAgent");
}
