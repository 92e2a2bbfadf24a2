// numpy's small dot and matrix products of float64, rounded as this process's
// numpy rounds them, for families whose references compute with np.dot, `@`
// and np.linalg.norm and whose episodes depend on the last bit.
//
// Why: numpy hands these products to its bundled OpenBLAS, whose kernels are
// picked by CPU when numpy loads, and the kernels round a sum of products
// differently: one fuses each next product into the sum (fma(a1, b1,
// a0 * b0)), another the first into the second, a third rounds both products
// and adds them (`ddot` fuses on some CPUs and adds plain products on
// others, AMD's AVX2 EPYCs among them). The last bits decide, for example,
// which way two vehicles collide at an angle in highway-env, a lane change's
// residual, or whether a pixel on a triangle's edge is drawn. Which way each
// product rounds in this process is asked of numpy when a family's module is
// imported (LearnNumpyBlas, numpy_blas_loader.h); the defaults, which the C++
// tests (no numpy) use, are the roundings of the machines the first families
// were tested on.
//
// Blas() is an inline function's static: each family's module has its own
// table (or shares one: all learn it from the same numpy), set once at
// import, before any env is made.
#ifndef ENVPOOL_CORE_NUMPY_BLAS_H_
#define ENVPOOL_CORE_NUMPY_BLAS_H_

#include <cmath>
#include <cstdint>

namespace envpool::numpy_blas {

enum class Rounding : uint8_t {
  kFuseSecond,  // fma(a1, b1, a0 * b0); in a longer sum, each next one fused
  kFuseFirst,   // fma(a0, b0, a1 * b1)
  kPlain,       // a0 * b0 + a1 * b1
};

struct Roundings {
  // np.dot of two 2-vectors (ddot), and of two n-vectors, 2 < n < 16, which
  // every known kernel sums in order (kFuseSecond: each next product fused
  // in). np.linalg.norm of a vector is the square root of its dot with
  // itself.
  Rounding dot2 = Rounding::kFuseSecond;
  Rounding dot = Rounding::kFuseSecond;
  // A 2x2 matrix times a 2-vector (`m @ v`, `m.dot(v)`: dgemv), and times a
  // 2xK matrix (`m @ p`: dgemm), an element of the result.
  Rounding gemv = Rounding::kFuseFirst;
  Rounding gemm = Rounding::kFuseSecond;
};

inline Roundings& Blas() {
  static Roundings roundings;
  return roundings;
}

// a0 * b0 + a1 * b1, rounded as `rounding` says. (The build targets x86-64
// without FMA instructions, so the plain sum is never contracted.)
inline double SumOfProducts(Rounding rounding, double a0, double a1, double b0,
                            double b1) {
  switch (rounding) {
    case Rounding::kFuseFirst:
      return std::fma(a0, b0, a1 * b1);
    case Rounding::kPlain:
      return a0 * b0 + a1 * b1;
    case Rounding::kFuseSecond:
    default:
      return std::fma(a1, b1, a0 * b0);
  }
}

// np.dot of two 2-vectors, and np.linalg.norm of one.
inline double Dot2(double x0, double x1, double y0, double y1) {
  return SumOfProducts(Blas().dot2, x0, x1, y0, y1);
}
inline double Norm2(double x, double y) { return std::sqrt(Dot2(x, y, x, y)); }

// np.dot of two 2-vectors of float32 (sdot): both products rounded to float
// and added, in every kernel known (their longer sums differ: some add in
// double).
inline float Dot2(float x0, float x1, float y0, float y1) {
  return x0 * y0 + x1 * y1;
}

// A row of a 2x2 matrix times a 2-vector (`m @ v`, `m.dot(v)`).
inline double GemvRow(double a0, double a1, double b0, double b1) {
  return SumOfProducts(Blas().gemv, a0, a1, b0, b1);
}

// An element of a 2x2 matrix times a 2xK matrix (`m @ p`): row a, column b.
inline double GemmRow(double a0, double a1, double b0, double b1) {
  return SumOfProducts(Blas().gemm, a0, a1, b0, b1);
}

// np.dot of two n-vectors, n < 16, summed in order from 0.0 as the kernels
// do: each next product added plain (kPlain) or fused in (otherwise). (From
// 16 numbers on, the kernels sum blocks in SIMD lanes, which this does not
// follow.)
inline double Dot(Rounding rounding, const double* x, const double* y, int n) {
  double dot = 0.0;
  if (rounding == Rounding::kPlain) {
    for (int k = 0; k < n; ++k) {
      dot += x[k] * y[k];
    }
  } else {
    for (int k = 0; k < n; ++k) {
      dot = std::fma(x[k], y[k], dot);
    }
  }
  return dot;
}
inline double Dot(const double* x, const double* y, int n) {
  return n == 2 ? Dot2(x[0], x[1], y[0], y[1]) : Dot(Blas().dot, x, y, n);
}

// np.linalg.norm of an n-vector, n < 16.
inline double Norm(const double* x, int n) { return std::sqrt(Dot(x, x, n)); }

}  // namespace envpool::numpy_blas

#endif  // ENVPOOL_CORE_NUMPY_BLAS_H_
