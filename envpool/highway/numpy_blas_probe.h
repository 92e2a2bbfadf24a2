// For the family's Python module (registration.cc): asks this process's
// numpy how its BLAS rounds each small product the reference computes
// (road.h, BlasRoundings), on pairs where the roundings differ, and sets
// NumpyBlas() to match.
#ifndef ENVPOOL_HIGHWAY_NUMPY_BLAS_PROBE_H_
#define ENVPOOL_HIGHWAY_NUMPY_BLAS_PROBE_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "envpool/highway/road.h"

namespace envpool::highway {
namespace blas_probe {

constexpr int kSamples = 64;
constexpr std::array<Rounding, 3> kRoundings = {
    Rounding::kFuseSecond, Rounding::kFuseFirst, Rounding::kPlain};

// Values in [-2, 2) with full mantissas (splitmix64 of k), the same in
// every process.
inline double Sample(int k) {
  uint64_t z = static_cast<uint64_t>(k + 1) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-51 - 2.0;
}

inline bool Same(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// The products numpy rounded in none of the known ways (a BLAS this family
// does not know): their envs round as the defaults say.
inline std::vector<std::string>& Unmatched() {
  static std::vector<std::string> unmatched;
  return unmatched;
}

// The first rounding of kRoundings under which `ours(rounding, k)` equals
// `numpy(k)` for every sample, or `fallback` where none does (and `product`
// is listed in Unmatched()).
template <typename Ours, typename Numpy>
Rounding Learn(const char* product, Rounding fallback, const Ours& ours,
               const Numpy& numpy) {
  std::array<double, kSamples> expected;
  for (int k = 0; k < kSamples; ++k) {
    expected[k] = numpy(k);
  }
  for (Rounding rounding : kRoundings) {
    bool all = true;
    for (int k = 0; k < kSamples && all; ++k) {
      all = Same(ours(rounding, k), expected[k]);
    }
    if (all) {
      return rounding;
    }
  }
  Unmatched().emplace_back(product);
  return fallback;
}

inline pybind11::array_t<double> Array(std::vector<double> values,
                                       std::vector<pybind11::ssize_t> shape) {
  pybind11::array_t<double> array(shape);
  std::memcpy(array.mutable_data(), values.data(),
              values.size() * sizeof(double));
  return array;
}

}  // namespace blas_probe

inline void LearnNumpyBlas() {
  namespace py = pybind11;
  using blas_probe::Array;
  using blas_probe::Learn;
  using blas_probe::Sample;
  const py::module_ numpy = py::module_::import("numpy");
  const py::object dot = numpy.attr("dot");
  BlasRoundings& roundings = NumpyBlas();
  const BlasRoundings fallback;
  // Sample k's pair: a = (Sample(4k), Sample(4k + 1)), b = the next two.
  auto a0 = [](int k) { return Sample(4 * k); };
  auto a1 = [](int k) { return Sample(4 * k + 1); };
  auto b0 = [](int k) { return Sample(4 * k + 2); };
  auto b1 = [](int k) { return Sample(4 * k + 3); };
  auto ours = [&](Rounding r, int k) {
    return SumOfProducts(r, a0(k), a1(k), b0(k), b1(k));
  };
  roundings.dot2 = Learn("dot2", fallback.dot2, ours, [&](int k) {
    return dot(Array({a0(k), a1(k)}, {2}), Array({b0(k), b1(k)}, {2}))
        .cast<double>();
  });
  // The matrix of rows (a0, a1) and (b1, a1) times the vector (b0, b1):
  // its first element.
  roundings.gemv = Learn("gemv", fallback.gemv, ours, [&](int k) {
    const auto m = Array({a0(k), a1(k), b1(k), a1(k)}, {2, 2});
    const py::array_t<double> v =
        m.attr("__matmul__")(Array({b0(k), b1(k)}, {2}));
    return v.at(0);
  });
  // The same matrix times a 2x9 matrix (a rectangle's nine points):
  // element (0, 4), the column (b0, b1).
  roundings.gemm = Learn("gemm", fallback.gemm, ours, [&](int k) {
    const auto m = Array({a0(k), a1(k), b1(k), a1(k)}, {2, 2});
    std::vector<double> p(18, 0.5);
    p[4] = b0(k);
    p[9 + 4] = b1(k);
    const py::array_t<double> product = m.attr("__matmul__")(Array(p, {2, 9}));
    return product.at(0, 4);
  });
  // Six-vectors: the first two elements the pair's, four more samples each.
  auto long_pair = [&](int k, bool second) {
    std::vector<double> v = {second ? b0(k) : a0(k), second ? b1(k) : a1(k)};
    for (int j = 2; j < 6; ++j) {
      v.push_back(Sample(1000 + 8 * k + j + (second ? 4 : 0)));
    }
    return v;
  };
  roundings.dot_long = Learn(
      "dot_long", fallback.dot_long,
      [&](Rounding r, int k) {
        const std::vector<double> x = long_pair(k, false);
        const std::vector<double> y = long_pair(k, true);
        return DotLong(r, x.data(), y.data(), 6);
      },
      [&](int k) {
        return dot(Array(long_pair(k, false), {6}),
                   Array(long_pair(k, true), {6}))
            .cast<double>();
      });
}

// The roundings in use, by product, and the products numpy rounded in none
// of the known ways: for the tests and for a user who asks.
inline pybind11::dict LoadedNumpyBlas() {
  auto name = [](Rounding r) {
    switch (r) {
      case Rounding::kFuseFirst:
        return "fuse_first";
      case Rounding::kPlain:
        return "plain";
      case Rounding::kFuseSecond:
      default:
        return "fuse_second";
    }
  };
  const BlasRoundings& r = NumpyBlas();
  pybind11::dict out;
  out["dot2"] = name(r.dot2);
  out["dot_long"] = name(r.dot_long);
  out["gemv"] = name(r.gemv);
  out["gemm"] = name(r.gemm);
  out["unmatched"] = pybind11::cast(blas_probe::Unmatched());
  return out;
}

}  // namespace envpool::highway

#endif  // ENVPOOL_HIGHWAY_NUMPY_BLAS_PROBE_H_
