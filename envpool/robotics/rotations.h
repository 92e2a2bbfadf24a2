// gymnasium-robotics' utils/rotations.py, the functions the family's envs
// use, in the reference's order of operations (each result is the
// reference's to the bit): quaternions (w, x, y, z), Euler angles (x, y, z)
// and row-major 3x3 matrices as rotations.py defines them.
#ifndef ENVPOOL_ROBOTICS_ROTATIONS_H_
#define ENVPOOL_ROBOTICS_ROTATIONS_H_

#include <array>
#include <cmath>
#include <limits>

namespace envpool::robotics::rotations {

using Quat = std::array<double, 4>;
using Euler = std::array<double, 3>;
using Mat3 = std::array<double, 9>;

// rotations.py's _FLOAT_EPS and _EPS4.
constexpr double kFloatEps = std::numeric_limits<double>::epsilon();
constexpr double kEps4 = kFloatEps * 4.0;

// rotations.quat_mul.
inline Quat QuatMul(const Quat& a, const Quat& b) {
  return {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
          a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
          a[0] * b[2] + a[2] * b[0] + a[3] * b[1] - a[1] * b[3],
          a[0] * b[3] + a[3] * b[0] + a[1] * b[2] - a[2] * b[1]};
}

// rotations.quat_conjugate.
inline Quat QuatConjugate(const Quat& q) { return {q[0], -q[1], -q[2], -q[3]}; }

// rotations.euler2mat.
inline Mat3 Euler2Mat(const Euler& e) {
  const double ai = -e[2];
  const double aj = -e[1];
  const double ak = -e[0];
  const double si = std::sin(ai);
  const double sj = std::sin(aj);
  const double sk = std::sin(ak);
  const double ci = std::cos(ai);
  const double cj = std::cos(aj);
  const double ck = std::cos(ak);
  const double cc = ci * ck;
  const double cs = ci * sk;
  const double sc = si * ck;
  const double ss = si * sk;
  Mat3 m{};
  m[8] = cj * ck;
  m[7] = sj * sc - cs;
  m[6] = sj * cc + ss;
  m[5] = cj * sk;
  m[4] = sj * ss + cc;
  m[3] = sj * cs - sc;
  m[2] = -sj;
  m[1] = cj * si;
  m[0] = cj * ci;
  return m;
}

// rotations.mat2euler.
inline Euler Mat2Euler(const double* m) {
  const double cy = std::sqrt(m[8] * m[8] + m[5] * m[5]);
  const bool regular = cy > kEps4;
  Euler e{};
  e[2] = regular ? -std::atan2(m[1], m[0]) : -std::atan2(-m[3], m[4]);
  e[1] = -std::atan2(-m[2], cy);
  e[0] = regular ? -std::atan2(m[5], m[8]) : 0.0;
  return e;
}
inline Euler Mat2Euler(const Mat3& m) { return Mat2Euler(m.data()); }

// rotations.quat2mat.
inline Mat3 Quat2Mat(const Quat& q) {
  const double w = q[0];
  const double x = q[1];
  const double y = q[2];
  const double z = q[3];
  const double nq = ((w * w + x * x) + y * y) + z * z;
  if (!(nq > kFloatEps)) {
    return {1, 0, 0, 0, 1, 0, 0, 0, 1};
  }
  const double s = 2.0 / nq;
  const double xs = x * s;
  const double ys = y * s;
  const double zs = z * s;
  const double wx = w * xs;
  const double wy = w * ys;
  const double wz = w * zs;
  const double xx = x * xs;
  const double xy = x * ys;
  const double xz = x * zs;
  const double yy = y * ys;
  const double yz = y * zs;
  const double zz = z * zs;
  Mat3 m{};
  m[0] = 1.0 - (yy + zz);
  m[1] = xy - wz;
  m[2] = xz + wy;
  m[3] = xy + wz;
  m[4] = 1.0 - (xx + zz);
  m[5] = yz - wx;
  m[6] = xz - wy;
  m[7] = yz + wx;
  m[8] = 1.0 - (xx + yy);
  return m;
}

// rotations.quat2euler: quat2mat, then mat2euler.
inline Euler Quat2Euler(const Quat& q) { return Mat2Euler(Quat2Mat(q)); }

// rotations.euler2quat.
inline Quat Euler2Quat(const Euler& e) {
  const double ai = e[2] / 2;
  const double aj = -e[1] / 2;
  const double ak = e[0] / 2;
  const double si = std::sin(ai);
  const double sj = std::sin(aj);
  const double sk = std::sin(ak);
  const double ci = std::cos(ai);
  const double cj = std::cos(aj);
  const double ck = std::cos(ak);
  const double cc = ci * ck;
  const double cs = ci * sk;
  const double sc = si * ck;
  const double ss = si * sk;
  return {cj * cc + sj * ss, cj * cs - sj * sc, -(cj * ss + sj * cc),
          cj * sc - sj * cs};
}

}  // namespace envpool::robotics::rotations

#endif  // ENVPOOL_ROBOTICS_ROTATIONS_H_
