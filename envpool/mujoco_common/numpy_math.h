// numpy's reductions as the MuJoCo-based references compute their rewards
// and observations with them (np.sum, np.mean, np.linalg.norm of float64),
// so that ours agree to the last bit.
#ifndef ENVPOOL_MUJOCO_COMMON_NUMPY_MATH_H_
#define ENVPOOL_MUJOCO_COMMON_NUMPY_MATH_H_

namespace envpool::mujoco_common {

// np.sum(x): pairwise summation (envpool/core/numpy_math.h).
double NumpySum(const double* x, int n);
// np.mean(x).
double NumpyMean(const double* x, int n);
// np.sum(np.square(x)).
double SumOfSquares(const double* x, int n);

// np.linalg.norm(x) and np.dot(x, y) of float64 vectors of under 16
// numbers, rounded as this process's numpy rounds them
// (envpool/core/numpy_blas.h).
double NumpyNorm(const double* x, int n);
double NumpyDot(const double* x, const double* y, int n);
// The square root of the squares summed in order, plain: np.linalg.norm
// along an axis of a 2-D array (np.sqrt of an add.reduce of the squares,
// under 8 numbers).
double PlainNorm(const double* x, int n);

}  // namespace envpool::mujoco_common

#endif  // ENVPOOL_MUJOCO_COMMON_NUMPY_MATH_H_
