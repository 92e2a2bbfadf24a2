// numpy's float32 sin and cos, for references that take them of float32
// values (Acrobot's observation of its float32 reset state).
//
// numpy does not call libm's sinf/cosf for float32 where the CPU has fused
// multiply-add (x86-64 with FMA3 or AVX-512, and ARM64): its SIMD kernel
// reduces the argument by Cody-Waite in three fused steps and evaluates a
// degree-9 sine or degree-8 cosine polynomial in float32 with fused
// multiply-adds.  It differs from the correctly rounded value now and then
// (numpy states a 1.49 ulp bound).  This is that computation, one value at a
// time; beyond the reduction's range (|x| > 117435.992 for sin, 71476.0625
// for cos) numpy calls libm, and so do we.  Without FMA numpy calls libm for
// every value, and these are not its numbers.
#ifndef ENVPOOL_CLASSIC_CONTROL_NUMPY_TRIG_H_
#define ENVPOOL_CLASSIC_CONTROL_NUMPY_TRIG_H_

#include <cmath>
#include <cstdint>

namespace envpool::classic_control::numpy_f32 {

namespace internal {

// The sine (odd) or cosine (even) of x for x in [-pi/4, pi/4].
inline float SinPoly(float x, float x2) {
  float p = std::fma(0x1.7d3bbcp-19F, x2, -0x1.a06bbap-13F);
  p = std::fma(p, x2, 0x1.11119ap-07F);
  p = std::fma(p, x2, -0x1.555556p-03F);
  p = std::fma(p, x2, 0.0F);
  return std::fma(p, x, x);
}
inline float CosPoly(float x2) {
  float p = std::fma(0x1.98e616p-16F, x2, -0x1.6c06dcp-10F);
  p = std::fma(p, x2, 0x1.55553cp-05F);
  p = std::fma(p, x2, -0x1.000000p-01F);
  return std::fma(p, x2, 0x1.000000p+00F);
}

// sin(x) (cosine = false) or cos(x) (cosine = true).
inline float SinCos(float x, bool cosine) {
  if (std::isnan(x)) {
    return x;
  }
  const float limit = cosine ? 71476.0625F : 117435.992F;
  if (!(std::fabs(x) <= limit)) {
    return cosine ? std::cos(x) : std::sin(x);  // libm's cosf / sinf
  }
  // The quadrant: x * 2/pi rounded to an integer by adding and subtracting
  // 1.5 * 2**23, each a float32 operation.
  volatile float shifted = std::fma(x, 0x1.45f306p-1F, 0x1.800000p+23F);
  const float quadrant = shifted - 0x1.800000p+23F;
  // x - quadrant * pi/2, pi/2 split in three parts.
  float r = std::fma(quadrant, -0x1.921fb0p+00F, x);
  r = std::fma(quadrant, -0x1.5110b4p-22F, r);
  r = std::fma(quadrant, -0x1.846988p-48F, r);
  const float r2 = r * r;
  int32_t k = static_cast<int32_t>(quadrant);
  if (cosine) {
    k += 1;  // cos(x) = sin(x + pi/2)
  }
  const float value = (k & 1) == 0 ? SinPoly(r, r2) : CosPoly(r2);
  return (k & 2) != 0 ? 0.0F - value : value;
}

}  // namespace internal

inline float Sin(float x) { return internal::SinCos(x, false); }
inline float Cos(float x) { return internal::SinCos(x, true); }

}  // namespace envpool::classic_control::numpy_f32

#endif  // ENVPOOL_CLASSIC_CONTROL_NUMPY_TRIG_H_
