#include "envpool/mujoco_common/numpy_math.h"

#include <atomic>
#include <cmath>
#include <random>
#include <vector>

#include "envpool/core/numpy_math.h"

namespace envpool::mujoco_common {
namespace {

std::atomic<bool> numpy_norm_fused{true};

// A dot product accumulated in order: one fused multiply-add a number, or
// products and sums.
double FusedDot(const double* x, const double* y, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    sum = std::fma(x[i], y[i], sum);
  }
  return sum;
}

double PlainDot(const double* x, const double* y, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    sum += x[i] * y[i];  // built without -mfma: never contracted
  }
  return sum;
}

}  // namespace

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

double FusedNorm(const double* x, int n) {
  return std::sqrt(FusedDot(x, x, n));
}

double PlainNorm(const double* x, int n) {
  return std::sqrt(PlainDot(x, x, n));
}

double NumpyNorm(const double* x, int n) {
  return std::sqrt(NumpyDot(x, x, n));
}

void SetNumpyNormFused(bool fused) { numpy_norm_fused.store(fused); }

double NumpyDot(const double* x, const double* y, int n) {
  return numpy_norm_fused.load(std::memory_order_relaxed) ? FusedDot(x, y, n)
                                                          : PlainDot(x, y, n);
}

bool NumpyNormIsFused(
    const std::function<double(const double* x, int n)>& numpy_norm) {
  // About one vector in three rounds apart; a fixed seed keeps the question
  // the same in every process.
  std::mt19937_64 bits(0);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (int attempt = 0; attempt < 1000; ++attempt) {
    double x[4];
    for (double& v : x) {
      v = uniform(bits);
    }
    const double plain = PlainNorm(x, 4);
    if (FusedNorm(x, 4) != plain) {
      return numpy_norm(x, 4) != plain;
    }
  }
  return true;
}

}  // namespace envpool::mujoco_common
