#include "envpool/mujoco_common/numpy_math.h"

#include <cmath>
#include <vector>

#include "envpool/core/numpy_blas.h"
#include "envpool/core/numpy_math.h"

namespace envpool::mujoco_common {
double NumpySum(const double* x, int n) {
  return envpool::numpy::PairwiseSum(x, n);
}

double NumpyMean(const double* x, int n) {
  return envpool::numpy::PairwiseSum(x, n) / n;
}

double SumOfSquares(const double* x, int n) {
  std::vector<double> squares(x, x + n);
  for (double& v : squares) {
    v = v * v;
  }
  return envpool::numpy::PairwiseSum(squares.data(), n);
}

double NumpyNorm(const double* x, int n) { return numpy_blas::Norm(x, n); }

double NumpyDot(const double* x, const double* y, int n) {
  return numpy_blas::Dot(x, y, n);
}

double PlainNorm(const double* x, int n) {
  return std::sqrt(numpy_blas::Dot(numpy_blas::Rounding::kPlain, x, x, n));
}

}  // namespace envpool::mujoco_common
