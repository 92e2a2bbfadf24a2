// For registration.cc: finds this process's numpy float64 loops of
// np.arctan2, np.sin and np.cos (numpy_ufunc.h) and checks them against
// numpy itself; a loop that cannot be found or does not agree is left to
// libm.
#ifndef ENVPOOL_LOCOMOTION_NUMPY_UFUNC_PROBE_H_
#define ENVPOOL_LOCOMOTION_NUMPY_UFUNC_PROBE_H_

#include <pybind11/pybind11.h>

#include <cstring>
#include <functional>
#include <string>

#include "envpool/locomotion/numpy_ufunc.h"

namespace envpool::locomotion {
namespace probe {

// The head of numpy's PyUFuncObject (numpy/ufuncobject.h), the same in
// numpy 1.x and 2.x.
struct UfuncHead {
  PyObject_HEAD int nin;
  int nout;
  int nargs;
  int identity;
  void** functions;
  void** data;
  int ntypes;
  int reserved1;
  const char* name;
  const char* types;
};

constexpr char kNpyDouble = 12;

// The float64 loop of numpy.<name>, or an empty loop.
inline UfuncLoop FindLoop(const std::string& name, int nin) {
  namespace py = pybind11;
  py::object ufunc = py::module_::import("numpy").attr(name.c_str());
  if (py::type::of(ufunc).attr("__name__").cast<std::string>() != "ufunc") {
    return {};
  }
  const auto* head = reinterpret_cast<const UfuncHead*>(ufunc.ptr());
  // The integers first: a numpy whose layout differs fails these before any
  // of its pointers is followed.
  if (head->nin != nin || head->nout != 1 || head->nargs != nin + 1 ||
      head->ntypes < 1 || head->ntypes > 256 || head->functions == nullptr ||
      head->types == nullptr || head->name == nullptr || name != head->name) {
    return {};
  }
  for (int i = 0; i < head->ntypes; ++i) {
    bool all_double = true;
    for (int a = 0; a < head->nargs; ++a) {
      all_double = all_double && head->types[i * head->nargs + a] == kNpyDouble;
    }
    if (all_double && head->functions[i] != nullptr) {
      UfuncLoop loop;
      loop.function =
          reinterpret_cast<decltype(loop.function)>(head->functions[i]);
      loop.data = head->data == nullptr ? nullptr : head->data[i];
      return loop;
    }
  }
  return {};
}

inline bool SameBits(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}

}  // namespace probe

inline void LearnNumpyUfuncs() {
  namespace py = pybind11;
  py::module_ np = py::module_::import("numpy");
  // Inputs where SVML's and libm's results differ on AVX-512 CPUs, and
  // ordinary ones.
  const double samples[][2] = {{0.3, 0.7},
                               {-1.5, 0.25},
                               {2.0, -3.0},
                               {1e-3, 1.0},
                               {0.999, 0.001},
                               {-0.6, -0.8},
                               {0.123456789, 0.987654321}};
  auto check = [&](const char* name, int nin,
                   const std::function<void(UfuncLoop)>& set) {
    const UfuncLoop loop = probe::FindLoop(name, nin);
    if (loop.function == nullptr) {
      return;
    }
    set(loop);
    for (const auto& s : samples) {
      const double expected = nin == 2
                                  ? np.attr(name)(s[0], s[1]).cast<double>()
                                  : np.attr(name)(s[0] * 2.9).cast<double>();
      const double ours =
          nin == 2 ? NumpyArctan2(s[0], s[1])
                   : (std::string(name) == "sin" ? NumpySin(s[0] * 2.9)
                                                 : NumpyCos(s[0] * 2.9));
      if (!probe::SameBits(expected, ours)) {
        set({});
        return;
      }
    }
  };
  check("arctan2", 2, SetNumpyArctan2);
  check("sin", 1, SetNumpySin);
  check("cos", 1, SetNumpyCos);
}

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_NUMPY_UFUNC_PROBE_H_
