// numpy's own float64 kernels for the transcendental functions a reference
// library computes with numpy (np.sin, np.cos, np.tan, np.arctan,
// np.arcsin, np.arctan2, np.exp, np.power, np.log, np.tanh, np.arctanh),
// for families whose episodes depend on their last bit.
//
// Why: numpy picks its float64 loops by CPU when it is imported; on x86-64
// with AVX-512 its tan, arctan, arcsin, arctan2, exp and power are SIMD
// kernels (Intel's SVML) whose results differ from libm's in the last bit
// now and then. Examples: highway-env's vehicles settle into a lane with a
// lateral residual of a few 1e-15 m made of those last bits, and when two
// vehicles centred in a lane collide, the sign of that residual decides
// which way the collision pushes them; one bit of a dm_control walker's
// initial heading (np.arctan2) makes a soccer episode drift apart. So the
// envs call the very loops numpy's ufuncs run, found once, when the family's
// module is imported (numpy_kernels_loader.h), through the public
// PyUFuncObject layout of numpy's C API (stable across numpy 1.x and 2.x). A
// loop is a plain C function of arrays, callable from any thread without the
// GIL. Where numpy is not loaded (the C++ tests) the functions are libm's.
//
// Kernels() is an inline function's static: each family's module has its
// own table, filled by its own LoadNumpyKernels().
#ifndef ENVPOOL_CORE_NUMPY_KERNELS_H_
#define ENVPOOL_CORE_NUMPY_KERNELS_H_

#include <array>
#include <cmath>
#include <cstdint>

namespace envpool::numpy_kernels {

// numpy's PyUFuncGenericFunction.
using Loop = void (*)(char** args, const intptr_t* dimensions,
                      const intptr_t* steps, void* data);

struct Kernel {
  Loop loop = nullptr;
  void* data = nullptr;
};

enum Function : int {
  kSin,
  kCos,
  kTan,
  kArctan,
  kArcsin,
  kExp,
  kArctan2,
  kPower,
  kLog,
  kTanh,
  kArctanh,
  kNumFunctions
};

// The ufunc names, in Function order.
inline constexpr std::array<const char*, kNumFunctions> kNames = {
    "sin",     "cos",   "tan", "arctan", "arcsin", "exp",
    "arctan2", "power", "log", "tanh",   "arctanh"};

// Set by the module at import; empty entries fall back to libm.
inline std::array<Kernel, kNumFunctions>& Kernels() {
  static std::array<Kernel, kNumFunctions> kernels;
  return kernels;
}

inline double Unary(Function f, double x, double (*libm)(double)) {
  const Kernel& k = Kernels()[f];
  if (k.loop == nullptr) {
    return libm(x);
  }
  double out = 0.0;
  char* args[2] = {reinterpret_cast<char*>(&x), reinterpret_cast<char*>(&out)};
  const intptr_t n = 1;
  const intptr_t steps[2] = {sizeof(double), sizeof(double)};
  k.loop(args, &n, steps, k.data);
  return out;
}

inline double Binary(Function f, double x, double y,
                     double (*libm)(double, double)) {
  const Kernel& k = Kernels()[f];
  if (k.loop == nullptr) {
    return libm(x, y);
  }
  double out = 0.0;
  char* args[3] = {reinterpret_cast<char*>(&x), reinterpret_cast<char*>(&y),
                   reinterpret_cast<char*>(&out)};
  const intptr_t n = 1;
  const intptr_t steps[3] = {sizeof(double), sizeof(double), sizeof(double)};
  k.loop(args, &n, steps, k.data);
  return out;
}

// The same loops over n contiguous elements . numpy's loops are elementwise:
// each element gets the bits a call of its own gives (whole vectors or a masked
// tail, contiguous or strided), while a SIMD kernel costs about as much for a
// vector of elements as for one, so a family that needs one function for many
// values asks once.
inline void UnaryN(Function f, const double* x, double* out, intptr_t n,
                   double (*libm)(double)) {
  const Kernel& k = Kernels()[f];
  if (k.loop == nullptr) {
    for (intptr_t i = 0; i < n; ++i) {
      out[i] = libm(x[i]);
    }
    return;
  }
  if (n <= 0) {
    return;
  }
  char* args[2] = {reinterpret_cast<char*>(const_cast<double*>(x)),
                   reinterpret_cast<char*>(out)};
  const intptr_t steps[2] = {sizeof(double), sizeof(double)};
  k.loop(args, &n, steps, k.data);
}

inline void BinaryN(Function f, const double* x, const double* y, double* out,
                    intptr_t n, double (*libm)(double, double)) {
  const Kernel& k = Kernels()[f];
  if (k.loop == nullptr) {
    for (intptr_t i = 0; i < n; ++i) {
      out[i] = libm(x[i], y[i]);
    }
    return;
  }
  if (n <= 0) {
    return;
  }
  char* args[3] = {reinterpret_cast<char*>(const_cast<double*>(x)),
                   reinterpret_cast<char*>(const_cast<double*>(y)),
                   reinterpret_cast<char*>(out)};
  const intptr_t steps[3] = {sizeof(double), sizeof(double), sizeof(double)};
  k.loop(args, &n, steps, k.data);
}

inline double Sin(double x) {
  return Unary(kSin, x, [](double v) { return std::sin(v); });
}
inline double Cos(double x) {
  return Unary(kCos, x, [](double v) { return std::cos(v); });
}
inline double Tan(double x) {
  return Unary(kTan, x, [](double v) { return std::tan(v); });
}
inline double Arctan(double x) {
  return Unary(kArctan, x, [](double v) { return std::atan(v); });
}
inline double Arcsin(double x) {
  return Unary(kArcsin, x, [](double v) { return std::asin(v); });
}
inline double Exp(double x) {
  return Unary(kExp, x, [](double v) { return std::exp(v); });
}
inline double Log(double x) {
  return Unary(kLog, x, [](double v) { return std::log(v); });
}
inline double Tanh(double x) {
  return Unary(kTanh, x, [](double v) { return std::tanh(v); });
}
inline double Arctanh(double x) {
  return Unary(kArctanh, x, [](double v) { return std::atanh(v); });
}
inline double Arctan2(double y, double x) {
  return Binary(kArctan2, y, x,
                [](double a, double b) { return std::atan2(a, b); });
}
inline double Power(double x, double y) {
  return Binary(kPower, x, y,
                [](double a, double b) { return std::pow(a, b); });
}

inline void Sin(const double* x, double* out, intptr_t n) {
  UnaryN(kSin, x, out, n, [](double v) { return std::sin(v); });
}
inline void Cos(const double* x, double* out, intptr_t n) {
  UnaryN(kCos, x, out, n, [](double v) { return std::cos(v); });
}
inline void Tan(const double* x, double* out, intptr_t n) {
  UnaryN(kTan, x, out, n, [](double v) { return std::tan(v); });
}
inline void Arctan(const double* x, double* out, intptr_t n) {
  UnaryN(kArctan, x, out, n, [](double v) { return std::atan(v); });
}
inline void Arcsin(const double* x, double* out, intptr_t n) {
  UnaryN(kArcsin, x, out, n, [](double v) { return std::asin(v); });
}
inline void Power(const double* x, const double* y, double* out, intptr_t n) {
  BinaryN(kPower, x, y, out, n,
          [](double a, double b) { return std::pow(a, b); });
}

}  // namespace envpool::numpy_kernels

#endif  // ENVPOOL_CORE_NUMPY_KERNELS_H_
