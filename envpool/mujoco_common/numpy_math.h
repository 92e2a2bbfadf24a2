// numpy's reductions as the MuJoCo-based references compute their rewards
// and observations with them (np.sum, np.mean, np.linalg.norm of float64),
// so that ours agree to the last bit.
#ifndef ENVPOOL_MUJOCO_COMMON_NUMPY_MATH_H_
#define ENVPOOL_MUJOCO_COMMON_NUMPY_MATH_H_

#include <functional>

namespace envpool::mujoco_common {

// np.sum(x): pairwise summation (envpool/core/numpy_math.h).
double NumpySum(const double* x, int n);
// np.mean(x).
double NumpyMean(const double* x, int n);
// np.sum(np.square(x)).
double SumOfSquares(const double* x, int n);

// np.linalg.norm(x) of a short vector (under 32 numbers): the square root of
// a dot product that numpy's OpenBLAS accumulates in order, by one fused
// multiply-add per number with its FMA kernel (most x86-64 CPUs), by
// products and sums with its plain one (others); the two differ in the last
// bit now and then.
double FusedNorm(const double* x, int n);
double PlainNorm(const double* x, int n);
// Whichever of the two this process's numpy does, as SetNumpyNormFused was
// told (fused until then): the families' modules ask numpy when they are
// imported (LearnNumpyNorm in numpy_probe.h).
double NumpyNorm(const double* x, int n);
void SetNumpyNormFused(bool fused);
// np.dot(x, y) of short float64 vectors: the same kernel as the norm's,
// accumulated in order the same way.
double NumpyDot(const double* x, const double* y, int n);

// Whether `numpy_norm` (this process's np.linalg.norm of a float64 vector)
// accumulates by fused multiply-adds: asked of a vector of four numbers
// where the two ways round apart. Fused unless it gives the plain value.
bool NumpyNormIsFused(
    const std::function<double(const double* x, int n)>& numpy_norm);

}  // namespace envpool::mujoco_common

#endif  // ENVPOOL_MUJOCO_COMMON_NUMPY_MATH_H_
