// For a family's Python module: asks this process's numpy how its BLAS rounds
// each small product (numpy_blas.h), on pairs of numbers where the roundings
// differ, and sets Blas() to match.
#ifndef ENVPOOL_CORE_NUMPY_BLAS_LOADER_H_
#define ENVPOOL_CORE_NUMPY_BLAS_LOADER_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

#include "envpool/core/numpy_blas.h"

namespace envpool::numpy_blas {
namespace loader {

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

// The products numpy rounded in none of the known ways (a BLAS kernel not
// known here), and those whose asking raised (with what it raised): their
// envs round as the defaults say.
inline std::vector<std::string>& Unmatched() {
  static std::vector<std::string> unmatched;
  return unmatched;
}

// What to list for a product whose asking raised `error`: the error's
// first line (pybind11 appends Python's traceback).
inline std::string Raised(const char* product, const std::exception& error) {
  const std::string what = error.what();
  return std::string(product) + ": numpy raised " +
         what.substr(0, what.find('\n'));
}

// The first of kRoundings under which `ours(rounding, k)` equals `numpy(k)`
// for every sample, or `fallback` where none does (and `product` is listed
// in Unmatched()), or where numpy raised (listed with what it raised: the
// module that asks is imported all the same).
template <typename Ours, typename Numpy>
Rounding Learn(const char* product, Rounding fallback, const Ours& ours,
               const Numpy& numpy) {
  std::array<double, kSamples> expected;
  try {
    for (int k = 0; k < kSamples; ++k) {
      expected[k] = numpy(k);
    }
  } catch (const std::exception& error) {
    // (pybind11's error_already_set has taken Python's error indicator.)
    Unmatched().push_back(Raised(product, error));
    return fallback;
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

inline pybind11::array_t<double> Array(const std::vector<double>& values,
                                       std::vector<pybind11::ssize_t> shape) {
  pybind11::array_t<double> array(shape);
  std::memcpy(array.mutable_data(), values.data(),
              values.size() * sizeof(double));
  return array;
}

inline const char* Name(Rounding rounding) {
  switch (rounding) {
    case Rounding::kFuseFirst:
      return "fuse_first";
    case Rounding::kPlain:
      return "plain";
    case Rounding::kFuseSecond:
    default:
      return "fuse_second";
  }
}

// Sets Blas() from `numpy`'s answers.
inline void LearnFrom(const pybind11::module_& numpy) {
  namespace py = pybind11;
  py::object dot;
  try {
    dot = numpy.attr("dot");
  } catch (const py::error_already_set& error) {
    Unmatched().push_back(Raised("numpy.dot", error));
    return;
  }
  Roundings& roundings = Blas();
  const Roundings fallback;
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
  // The matrix of rows (a0, a1) and (b1, a1) times the vector (b0, b1): its
  // first element.
  roundings.gemv = Learn("gemv", fallback.gemv, ours, [&](int k) {
    const auto m = Array({a0(k), a1(k), b1(k), a1(k)}, {2, 2});
    const py::array_t<double> v =
        m.attr("__matmul__")(Array({b0(k), b1(k)}, {2}));
    return v.at(0);
  });
  // The same matrix times a 2x9 matrix: element (0, 4), the column (b0, b1).
  roundings.gemm = Learn("gemm", fallback.gemm, ours, [&](int k) {
    const auto m = Array({a0(k), a1(k), b1(k), a1(k)}, {2, 2});
    std::vector<double> p(18, 0.5);
    p[4] = b0(k);
    p[9 + 4] = b1(k);
    const py::array_t<double> product = m.attr("__matmul__")(Array(p, {2, 9}));
    return product.at(0, 4);
  });
  // Vectors of 3 to 9 numbers.
  auto vector = [](int k, bool second) {
    const int n = 3 + k % 7;
    std::vector<double> v;
    for (int j = 0; j < n; ++j) {
      v.push_back(Sample(1000 + 20 * k + j + (second ? 10 : 0)));
    }
    return v;
  };
  roundings.dot = Learn(
      "dot", fallback.dot,
      [&](Rounding r, int k) {
        const std::vector<double> x = vector(k, false);
        const std::vector<double> y = vector(k, true);
        return Dot(r, x.data(), y.data(), static_cast<int>(x.size()));
      },
      [&](int k) {
        const std::vector<double> x = vector(k, false);
        const std::vector<double> y = vector(k, true);
        const auto n = static_cast<py::ssize_t>(x.size());
        return dot(Array(x, {n}), Array(y, {n})).cast<double>();
      });
}

}  // namespace loader

// Sets Blas() from this process's numpy; without numpy the defaults stay.
// Asked once per process, whichever module asks first.
inline void LearnNumpyBlas() {
  static std::once_flag once;
  std::call_once(once, [] {
    pybind11::module_ numpy;
    try {
      numpy = pybind11::module_::import("numpy");
    } catch (const pybind11::error_already_set&) {
      return;
    }
    loader::LearnFrom(numpy);
  });
}

// The roundings in use, by product, and the products numpy rounded in none
// of the known ways: for the tests and for a user who asks.
inline pybind11::dict LoadedNumpyBlas() {
  const Roundings& r = Blas();
  pybind11::dict out;
  out["dot2"] = loader::Name(r.dot2);
  out["dot"] = loader::Name(r.dot);
  out["gemv"] = loader::Name(r.gemv);
  out["gemm"] = loader::Name(r.gemm);
  out["unmatched"] = pybind11::cast(loader::Unmatched());
  return out;
}

// For a family's PYBIND11_MODULE: learns the roundings and gives the module
// `numpy_blas()`, which tells them.
inline void LearnNumpyBlasFor(pybind11::module_& module) {
  LearnNumpyBlas();
  module.def("numpy_blas", &LoadedNumpyBlas,
             "How the envs round the small products numpy hands to its BLAS "
             "(envpool/core/numpy_blas.h).");
}

}  // namespace envpool::numpy_blas

#endif  // ENVPOOL_CORE_NUMPY_BLAS_LOADER_H_
