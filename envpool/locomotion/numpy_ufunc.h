// numpy's own float64 arctan2, sin and cos, for the values that enter the
// physics as dm_control computes them with numpy (a walker's initial
// heading: np.arctan2 of its quaternion; np.cos and np.sin of half the drawn
// rotation). numpy picks its loops by CPU: on CPUs with AVX-512 its arctan2
// is SVML's, which differs from libm's in the last bit for about one value
// in a hundred, and one bit of a walker's heading is enough for the
// episodes to drift apart. The family's module hands the loops of this
// process's numpy over at import (numpy_ufunc_probe.h); until then (C++
// tests) these are libm's.
#ifndef ENVPOOL_LOCOMOTION_NUMPY_UFUNC_H_
#define ENVPOOL_LOCOMOTION_NUMPY_UFUNC_H_

#include <cstdint>

namespace envpool::locomotion {

// A numpy ufunc inner loop (PyUFuncGenericFunction) and its data.
struct UfuncLoop {
  void (*function)(char** args, const intptr_t* dimensions,
                   const intptr_t* steps, void* data) = nullptr;
  void* data = nullptr;
};

void SetNumpyArctan2(UfuncLoop loop);
void SetNumpySin(UfuncLoop loop);
void SetNumpyCos(UfuncLoop loop);

double NumpyArctan2(double y, double x);
double NumpySin(double x);
double NumpyCos(double x);

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_NUMPY_UFUNC_H_
