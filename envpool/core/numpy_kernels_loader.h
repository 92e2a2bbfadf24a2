// For a family's Python module (registration.cc): fills numpy_kernels.h's
// table with this process's numpy loops at import.
//
//   PYBIND11_MODULE(_myfamily, m) {
//     envpool::numpy_kernels::LoadNumpyKernels();
//     ...
//   }
#ifndef ENVPOOL_CORE_NUMPY_KERNELS_LOADER_H_
#define ENVPOOL_CORE_NUMPY_KERNELS_LOADER_H_

#include <Python.h>
#include <pybind11/pybind11.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "envpool/core/numpy_kernels.h"

namespace envpool::numpy_kernels {
namespace loader {

// The leading fields of numpy's PyUFuncObject (numpy/ufuncobject.h), which
// numpy keeps in this order for its C API (1.x and 2.x).
struct UFuncPrefix {
  PyObject_HEAD int nin;
  int nout;
  int nargs;
  int identity;
  Loop* functions;
  void* const* data;
  int ntypes;
  int reserved1;
  const char* name;
  const char* types;
};

constexpr char kNpyDouble = 12;  // NPY_DOUBLE

inline int NumArgs(Function f) { return f == kPower || f == kArctan2 ? 3 : 2; }

// numpy's ufunc of `f`: its first all-float64 loop (the one numpy's type
// resolution picks for float64 arguments), or an empty kernel when anything
// does not look like numpy's layout. The integers are checked before any
// pointer is followed.
inline Kernel FindKernel(const pybind11::module_& numpy, Function f) {
  namespace py = pybind11;
  py::object ufunc = numpy.attr(kNames[f]);
  if (!py::isinstance(ufunc, numpy.attr("ufunc"))) {
    return {};
  }
  const auto* u = reinterpret_cast<const UFuncPrefix*>(ufunc.ptr());
  const int nargs = NumArgs(f);
  if (u->nargs != nargs || u->nin != nargs - 1 || u->nout != 1 ||
      u->ntypes != static_cast<int>(py::len(ufunc.attr("types"))) ||
      u->name == nullptr || std::strcmp(u->name, kNames[f]) != 0 ||
      u->functions == nullptr || u->types == nullptr) {
    return {};
  }
  for (int i = 0; i < u->ntypes; ++i) {
    bool all_double = true;
    for (int j = 0; j < nargs; ++j) {
      all_double = all_double && u->types[i * nargs + j] == kNpyDouble;
    }
    if (all_double && u->functions[i] != nullptr) {
      // numpy's ufuncs live as long as the process.
      return {u->functions[i], u->data == nullptr ? nullptr : u->data[i]};
    }
  }
  return {};
}

// Whether the kernel of `f` gives numpy's own results, bit for bit, on a few
// ordinary inputs (a loop found at the wrong place would not).
inline bool AgreesWithNumpy(const pybind11::module_& numpy, Function f) {
  // (Inside every function's domain: first elements within [-1, 1] for
  // arcsin, a negative base only with an integral power, positive ones for
  // log.)
  constexpr double kSamples[][2] = {{0.3, 0.7},
                                    {0.25, 1.5},
                                    {-0.5, 3.0},
                                    {1e-3, 1.0},
                                    {0.999, 0.001},
                                    {0.6, -0.8},
                                    {0.123456789, 0.987654321}};
  for (const auto& sample : kSamples) {
    const double s[2] = {f == kLog ? std::abs(sample[0]) : sample[0],
                         sample[1]};
    const bool binary = NumArgs(f) == 3;
    const double expected =
        binary ? numpy.attr(kNames[f])(s[0], s[1]).cast<double>()
               : numpy.attr(kNames[f])(s[0]).cast<double>();
    // (The kernel is set: the fallback is never called.)
    const double ours =
        binary ? Binary(f, s[0], s[1],
                        [](double, double) {
                          return std::numeric_limits<double>::quiet_NaN();
                        })
               : Unary(f, s[0], [](double) {
                   return std::numeric_limits<double>::quiet_NaN();
                 });
    if (std::memcmp(&expected, &ours, sizeof(double)) != 0) {
      return false;
    }
  }
  return true;
}

}  // namespace loader

// Finds this process's numpy loops; a function whose loop cannot be found,
// or does not give numpy's results, stays libm's. Without numpy: all libm.
inline void LoadNumpyKernels() {
  namespace py = pybind11;
  try {
    const py::module_ numpy = py::module_::import("numpy");
    for (int i = 0; i < kNumFunctions; ++i) {
      const auto f = static_cast<Function>(i);
      Kernels()[f] = loader::FindKernel(numpy, f);
      if (Kernels()[f].loop != nullptr && !loader::AgreesWithNumpy(numpy, f)) {
        Kernels()[f] = {};
      }
    }
  } catch (const py::error_already_set&) {
    Kernels() = {};
  }
}

// The numpy ufuncs whose loops the envs call (the rest: libm's).
inline pybind11::list LoadedNumpyKernels() {
  pybind11::list found;
  for (int f = 0; f < kNumFunctions; ++f) {
    if (Kernels()[f].loop != nullptr) {
      found.append(kNames[f]);
    }
  }
  return found;
}

// The envs' function of the unary ufunc f at x (numpy's loop or libm's).
inline double EvaluateUnary(Function f, double x) {
  switch (f) {
    case kSin:
      return Sin(x);
    case kCos:
      return Cos(x);
    case kTan:
      return Tan(x);
    case kArctan:
      return Arctan(x);
    case kArcsin:
      return Arcsin(x);
    case kExp:
      return Exp(x);
    case kLog:
      return Log(x);
    case kTanh:
      return Tanh(x);
    case kArctanh:
      return Arctanh(x);
    default:
      return std::numeric_limits<double>::quiet_NaN();
  }
}

// What the envs compute for the unary ufunc `name` (one of kNames) at each
// of `xs`, one call per number as the envs call it: for tests that compare
// the loaded kernels with numpy's own results. A name that is not a unary
// function of kNames is a ValueError naming the valid ones.
inline pybind11::list EvaluateUnaryKernel(const std::string& name,
                                          const pybind11::iterable& xs) {
  namespace py = pybind11;
  std::string valid;
  for (int i = 0; i < kNumFunctions; ++i) {
    const auto f = static_cast<Function>(i);
    if (loader::NumArgs(f) != 2) {
      continue;
    }
    if (name == kNames[f]) {
      py::list out;
      for (const py::handle x : xs) {
        out.append(EvaluateUnary(f, x.cast<double>()));
      }
      return out;
    }
    valid += valid.empty() ? "" : ", ";
    valid += std::string("'") + kNames[f] + "'";
  }
  throw py::value_error("unknown unary numpy kernel '" + name +
                        "': use one of " + valid);
}

}  // namespace envpool::numpy_kernels

#endif  // ENVPOOL_CORE_NUMPY_KERNELS_LOADER_H_
