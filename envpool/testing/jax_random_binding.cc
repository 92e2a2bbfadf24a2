// `envpool.testing._jax_random`: jax_random.h's draws as functions of a raw
// key (a length-2 uint32 array, as `jax.random.PRNGKey` gives), with the
// shape flattened to a length n, so that test_jax_random.py compares them
// with `jax.random` call for call.  A module of its own, loaded by the tests
// only.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "envpool/core/jax_random.h"

namespace py = pybind11;

namespace envpool {
namespace {

using jax_random::Key;

Key ToKey(const py::array_t<uint32_t,
                            py::array::c_style | py::array::forcecast>& key) {
  if (key.ndim() != 1 || key.shape(0) != 2) {
    throw std::invalid_argument("a raw key is a uint32 array of shape (2,)");
  }
  return Key{key.at(0), key.at(1)};
}

py::array_t<uint32_t> FromKey(Key key) {
  py::array_t<uint32_t> out(static_cast<py::ssize_t>(2));
  out.mutable_data()[0] = key.k0;
  out.mutable_data()[1] = key.k1;
  return out;
}

py::array_t<uint32_t> FromKeys(const std::vector<Key>& keys) {
  py::array_t<uint32_t> out(
      {static_cast<py::ssize_t>(keys.size()), static_cast<py::ssize_t>(2)});
  auto view = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    view(i, 0) = keys[i].k0;
    view(i, 1) = keys[i].k1;
  }
  return out;
}

template <typename T>
py::array_t<T> FromVector(const std::vector<T>& values) {
  py::array_t<T> out(static_cast<py::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

void BindJaxRandom(py::module_& m) {
  using UintArray =
      py::array_t<uint32_t, py::array::c_style | py::array::forcecast>;
  m.def("prng_key",
        [](int64_t seed) { return FromKey(jax_random::PRNGKey(seed)); });
  m.def("prng_key_x64",
        [](int64_t seed) { return FromKey(jax_random::PRNGKeyX64(seed)); });
  m.def("fold_in", [](const UintArray& key, uint32_t data) {
    return FromKey(jax_random::FoldIn(ToKey(key), data));
  });
  m.def("split", [](const UintArray& key, std::size_t num) {
    return FromKeys(jax_random::Split(ToKey(key), num));
  });
  m.def("bits32", [](const UintArray& key, std::size_t n) {
    std::vector<uint32_t> out(n);
    jax_random::RandomBits32(ToKey(key), out.data(), n);
    return FromVector(out);
  });
  m.def("bits64", [](const UintArray& key, std::size_t n) {
    std::vector<uint64_t> out(n);
    jax_random::RandomBits64(ToKey(key), out.data(), n);
    return FromVector(out);
  });
  m.def("uniform",
        [](const UintArray& key, std::size_t n, float minval, float maxval) {
          std::vector<float> out(n);
          jax_random::Uniform(ToKey(key), minval, maxval, out.data(), n);
          return FromVector(out);
        });
  m.def("bernoulli", [](const UintArray& key, float p, std::size_t n) {
    std::unique_ptr<bool[]> values(new bool[n]);
    jax_random::Bernoulli(ToKey(key), p, values.get(), n);
    py::array_t<bool> out(static_cast<py::ssize_t>(n));
    std::copy(values.get(), values.get() + n, out.mutable_data());
    return out;
  });
  m.def("randint", [](const UintArray& key, std::size_t n, int64_t minval,
                      int64_t maxval) {
    std::vector<int32_t> out(n);
    jax_random::RandInt(ToKey(key), minval, maxval, out.data(), n);
    return FromVector(out);
  });
  m.def("permutation", [](const UintArray& key, std::size_t n) {
    return FromVector(jax_random::Permutation(ToKey(key), n));
  });
  m.def("shuffle", [](const UintArray& key,
                      const py::array_t<int32_t, py::array::c_style |
                                                     py::array::forcecast>& x) {
    std::vector<int32_t> values(x.data(), x.data() + x.size());
    jax_random::Shuffle(ToKey(key), values.data(), values.size());
    return FromVector(values);
  });
  m.def(
      "choice",
      [](const UintArray& key, int64_t n, std::size_t size, bool replace) {
        return FromVector(jax_random::Choice(ToKey(key), n, size, replace));
      },
      py::arg("key"), py::arg("n"), py::arg("size"), py::arg("replace") = true);
  m.def(
      "choice_p",
      [](const UintArray& key,
         const py::array_t<float, py::array::c_style | py::array::forcecast>& p,
         std::size_t size) {
        return FromVector(jax_random::ChoiceWithP(
            ToKey(key), p.data(), static_cast<std::size_t>(p.size()), size));
      });
}

}  // namespace
}  // namespace envpool

PYBIND11_MODULE(_jax_random, m) {
  m.doc() = "jax.random's threefry draws of jax_random.h (for tests)";
  envpool::BindJaxRandom(m);
}
