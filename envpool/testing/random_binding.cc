// `envpool.testing._random`: random.h's classes with numpy's method names
// and arguments, so a test makes the same calls on these and on numpy's
// objects and compares the results.  Methods take `size=None` (one value) or
// `size=n` (a 1-d array, one numpy call of that size).  A module of its own,
// loaded by the tests only: `envpool.core._core`, which every user loads,
// does not carry it.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/random.h"

namespace py = pybind11;

namespace envpool {
namespace {

using random::Generator;
using random::MT19937;
using random::PCG64;
using random::RandomState;
using random::SeedSequence;

// A Python or numpy integer (arrays also have __index__, for 0-d ones).
bool IsInteger(const py::handle& value) {
  return PyIndex_Check(value.ptr()) != 0 && !py::isinstance<py::array>(value);
}

// numpy's coercion of seed entropy to 32-bit words: an integer is its words,
// least significant first (zero is one zero word); a sequence is its
// elements' words one after another.
void AppendEntropyWords(const py::handle& entropy,
                        std::vector<uint32_t>* words) {
  if (IsInteger(entropy)) {
    py::int_ value =
        py::reinterpret_steal<py::int_>(PyNumber_Index(entropy.ptr()));
    if (!value) {
      throw py::error_already_set();
    }
    if (value < py::int_(0)) {
      throw py::value_error("expected non-negative integer");
    }
    const py::int_ mask(0xFFFFFFFFU);
    const py::int_ shift(32);
    do {
      words->push_back((value & mask).cast<uint32_t>());
      value = py::reinterpret_steal<py::int_>(
          PyNumber_Rshift(value.ptr(), shift.ptr()));
    } while (value > py::int_(0));
    return;
  }
  for (const py::handle item : py::iter(entropy)) {
    AppendEntropyWords(item, words);
  }
}

SeedSequence ToSeedSequence(const py::handle& entropy) {
  std::vector<uint32_t> words;
  AppendEntropyWords(entropy, &words);
  return SeedSequence(words);
}

// RandomState(seed): an integer in [0, 2**32) or a 1-d list of them.
RandomState ToRandomState(const py::handle& seed) {
  const char* const kRange = "Seed must be between 0 and 2**32 - 1";
  auto to_word = [&](const py::handle& value) {
    const py::int_ index =
        py::reinterpret_steal<py::int_>(PyNumber_Index(value.ptr()));
    if (!index) {
      throw py::error_already_set();
    }
    if (index < py::int_(0) || index > py::int_(0xFFFFFFFFU)) {
      throw py::value_error(kRange);
    }
    return index.cast<uint32_t>();
  };
  if (IsInteger(seed)) {
    return RandomState(to_word(seed));
  }
  std::vector<uint32_t> words;
  for (const py::handle item : py::iter(seed)) {
    words.push_back(to_word(item));
  }
  if (words.empty()) {
    throw py::value_error("Seed must be non-empty");
  }
  return RandomState(words);
}

// `draw()` once for size None, else `size` times into an array.
template <typename T, typename Draw>
py::object Draws(const std::optional<size_t>& size, Draw&& draw) {
  if (!size) {
    return py::cast(draw());
  }
  py::array_t<T> out(static_cast<py::ssize_t>(*size));
  T* data = out.mutable_data();
  for (size_t i = 0; i < *size; ++i) {
    data[i] = draw();
  }
  return std::move(out);
}

// integers/randint for dtype T: `high` is inclusive here, as a Python int.
template <typename T, typename Fill>
py::object BoundedIntegers(const py::int_& low, const py::int_& high,
                           const std::optional<size_t>& size,
                           const std::string& dtype_name, bool endpoint,
                           Fill&& fill) {
  if (low < py::int_(std::numeric_limits<T>::min())) {
    throw py::value_error("low is out of bounds for " + dtype_name);
  }
  if (high > py::int_(std::numeric_limits<T>::max())) {
    throw py::value_error("high is out of bounds for " + dtype_name);
  }
  if (low > high) {
    throw py::value_error(endpoint ? "low > high" : "low >= high");
  }
  const auto low_value = low.cast<T>();
  const auto high_value = high.cast<T>();
  if (!size) {
    T value;
    fill(low_value, high_value, &value, size_t{1});
    return py::int_(value);
  }
  py::array_t<T> out(static_cast<py::ssize_t>(*size));
  fill(low_value, high_value, out.mutable_data(), *size);
  return std::move(out);
}

// Calls `body(T{})` with T the integer type of numpy dtype `dtype`.
template <typename Body>
py::object WithIntegerType(const py::object& dtype, Body&& body) {
  const py::dtype type = py::dtype::from_args(dtype);
  const char kind = type.kind();
  const auto size = type.itemsize();
  if (kind == 'i') {
    switch (size) {
      case 1:
        return body(int8_t{});
      case 2:
        return body(int16_t{});
      case 4:
        return body(int32_t{});
      case 8:
        return body(int64_t{});
      default:
        break;
    }
  } else if (kind == 'u') {
    switch (size) {
      case 1:
        return body(uint8_t{});
      case 2:
        return body(uint16_t{});
      case 4:
        return body(uint32_t{});
      case 8:
        return body(uint64_t{});
      default:
        break;
    }
  }
  throw py::type_error("unsupported dtype " + std::string(py::str(dtype)));
}

// The integers(low, high) / randint(low, high) convention: one bound is
// high with low = 0; an exclusive high becomes inclusive.
std::pair<py::int_, py::int_> Bounds(const py::object& low,
                                     const py::object& high, bool endpoint) {
  py::int_ lo(0);
  py::int_ hi;
  if (high.is_none()) {
    hi = py::int_(low);
  } else {
    lo = py::int_(low);
    hi = py::int_(high);
  }
  if (!endpoint) {
    hi = py::reinterpret_steal<py::int_>(
        PyNumber_Subtract(hi.ptr(), py::int_(1).ptr()));
  }
  return {lo, hi};
}

// Shuffles a contiguous 1-d array of any dtype in place, moving whole items.
template <typename Shuffler>
void ShuffleArray(py::array array, Shuffler& shuffler) {
  if (array.ndim() != 1 || !array.writeable() ||
      (array.size() > 1 && array.strides(0) != array.itemsize())) {
    throw py::value_error("expected a writeable contiguous 1-d array");
  }
  const auto n = static_cast<size_t>(array.size());
  void* data = array.mutable_data();
  switch (array.itemsize()) {
    case 1:
      shuffler.Shuffle(static_cast<uint8_t*>(data), n);
      return;
    case 2:
      shuffler.Shuffle(static_cast<uint16_t*>(data), n);
      return;
    case 4:
      shuffler.Shuffle(static_cast<uint32_t*>(data), n);
      return;
    case 8:
      shuffler.Shuffle(static_cast<uint64_t*>(data), n);
      return;
    default:
      throw py::type_error("shuffle supports items of 1, 2, 4 or 8 bytes");
  }
}

py::array ToArray(const std::vector<int64_t>& values) {
  return py::array_t<int64_t>(static_cast<py::ssize_t>(values.size()),
                              values.data());
}

// choice's answer: indices, or the elements of `a` they pick.
py::object ChoiceResult(const py::object& a, const std::vector<int64_t>& picks,
                        const std::optional<size_t>& size) {
  const bool from_array = !IsInteger(a);
  if (!size) {
    if (from_array) {
      return py::module_::import("numpy").attr("asarray")(
          a)[py::int_(picks[0])];
    }
    return py::int_(picks[0]);
  }
  py::array indices = ToArray(picks);
  if (from_array) {
    return py::module_::import("numpy").attr("asarray")(a)[indices];
  }
  return std::move(indices);
}

int64_t PopulationSize(const py::object& a) {
  if (IsInteger(a)) {
    return py::int_(a).cast<int64_t>();
  }
  return static_cast<int64_t>(py::len(a));
}

template <typename Shuffler>
py::array Permutation(Shuffler& shuffler, const py::object& x) {
  if (IsInteger(x)) {
    return ToArray(shuffler.Permutation(py::int_(x).cast<int64_t>()));
  }
  py::array copy = py::module_::import("numpy").attr("array")(x);
  ShuffleArray(copy, shuffler);
  return copy;
}

py::dtype ToDtype(const py::object& dtype) {
  return py::dtype::from_args(dtype);
}

void BindRandom(py::module_ m) {
  using py::arg;
  using Size = std::optional<size_t>;
  m.doc() =
      "numpy-identical random numbers (envpool/core/random.h), for tests.";

  py::class_<SeedSequence>(m, "SeedSequence")
      .def(py::init(&ToSeedSequence), arg("entropy"))
      .def_property_readonly("pool",
                             [](const SeedSequence& self) {
                               return py::array_t<uint32_t>(
                                   SeedSequence::kPoolSize, self.pool().data());
                             })
      .def(
          "generate_state",
          [](const SeedSequence& self, size_t n_words,
             const py::object& dtype) -> py::array {
            const py::dtype type = py::dtype::from_args(dtype);
            if (type.kind() == 'u' && type.itemsize() == 4) {
              const auto state = self.GenerateState32(n_words);
              return py::array_t<uint32_t>(static_cast<py::ssize_t>(n_words),
                                           state.data());
            }
            if (type.kind() == 'u' && type.itemsize() == 8) {
              const auto state = self.GenerateState64(n_words);
              return py::array_t<uint64_t>(static_cast<py::ssize_t>(n_words),
                                           state.data());
            }
            throw py::type_error("dtype must be uint32 or uint64");
          },
          arg("n_words"), arg("dtype") = py::str("uint32"));

  py::class_<PCG64>(m, "PCG64")
      .def(py::init([](const py::object& seed) {
             return PCG64(ToSeedSequence(seed));
           }),
           arg("seed"))
      .def(
          "random_raw",
          [](PCG64& self, Size size) {
            return Draws<uint64_t>(size, [&] { return self.NextUint64(); });
          },
          arg("size") = py::none())
      .def(
          "next_uint32",
          [](PCG64& self, Size size) {
            return Draws<uint32_t>(size, [&] { return self.NextUint32(); });
          },
          arg("size") = py::none())
      .def(
          "next_double",
          [](PCG64& self, Size size) {
            return Draws<double>(size, [&] { return self.NextDouble(); });
          },
          arg("size") = py::none());

  py::class_<MT19937>(m, "MT19937")
      .def(py::init([](const py::object& seed) {
             return ToRandomState(seed).bit_generator();
           }),
           arg("seed"), "The MT19937 of RandomState(seed).")
      .def(
          "next_uint32",
          [](MT19937& self, Size size) {
            return Draws<uint32_t>(size, [&] { return self.NextUint32(); });
          },
          arg("size") = py::none())
      .def(
          "next_uint64",
          [](MT19937& self, Size size) {
            return Draws<uint64_t>(size, [&] { return self.NextUint64(); });
          },
          arg("size") = py::none())
      .def(
          "next_double",
          [](MT19937& self, Size size) {
            return Draws<double>(size, [&] { return self.NextDouble(); });
          },
          arg("size") = py::none());

  py::class_<Generator>(m, "Generator")
      .def(py::init([](const py::object& seed) {
             return Generator(ToSeedSequence(seed));
           }),
           arg("seed"), "numpy.random.default_rng(seed).")
      .def(
          "random",
          [](Generator& self, Size size, const py::object& dtype) {
            const py::dtype type = ToDtype(dtype);
            if (type.kind() == 'f' && type.itemsize() == 4) {
              return Draws<float>(size, [&] { return self.RandomFloat(); });
            }
            if (type.kind() == 'f' && type.itemsize() == 8) {
              return Draws<double>(size, [&] { return self.Random(); });
            }
            throw py::type_error("dtype must be float32 or float64");
          },
          arg("size") = py::none(), arg("dtype") = py::str("float64"))
      .def(
          "uniform",
          [](Generator& self, double low, double high, Size size) {
            return Draws<double>(size, [&] { return self.Uniform(low, high); });
          },
          arg("low") = 0.0, arg("high") = 1.0, arg("size") = py::none())
      .def(
          "integers",
          [](Generator& self, const py::object& low, const py::object& high,
             Size size, const py::object& dtype, bool endpoint) {
            const auto [lo, hi] = Bounds(low, high, endpoint);
            const std::string name = py::str(ToDtype(dtype));
            return WithIntegerType(dtype, [&](auto type) {
              using T = decltype(type);
              return BoundedIntegers<T>(lo, hi, size, name, endpoint,
                                        [&](T l, T h, T* out, size_t n) {
                                          self.Integers<T>(
                                              l, h, /*endpoint=*/true, out, n);
                                        });
            });
          },
          arg("low"), arg("high") = py::none(), arg("size") = py::none(),
          arg("dtype") = py::str("int64"), arg("endpoint") = false)
      .def(
          "standard_normal",
          [](Generator& self, Size size) {
            return Draws<double>(size, [&] { return self.StandardNormal(); });
          },
          arg("size") = py::none())
      .def(
          "normal",
          [](Generator& self, double loc, double scale, Size size) {
            return Draws<double>(size, [&] { return self.Normal(loc, scale); });
          },
          arg("loc") = 0.0, arg("scale") = 1.0, arg("size") = py::none())
      .def(
          "choice",
          [](Generator& self, const py::object& a, Size size, bool replace,
             bool shuffle) {
            const auto picks = self.Choice(PopulationSize(a), size.value_or(1),
                                           replace, shuffle);
            return ChoiceResult(a, picks, size);
          },
          arg("a"), arg("size") = py::none(), arg("replace") = true,
          arg("shuffle") = true)
      .def(
          "shuffle",
          [](Generator& self, py::array x) { ShuffleArray(x, self); }, arg("x"))
      .def(
          "permutation",
          [](Generator& self, const py::object& x) {
            return Permutation(self, x);
          },
          arg("x"));

  py::class_<RandomState>(m, "RandomState")
      .def(py::init(&ToRandomState), arg("seed"),
           "numpy.random.RandomState(seed).")
      .def_static("from_seed", &RandomState::FromSeed, arg("seed"),
                  "A pool's 64-bit seed as the envs give it to numpy.")
      .def(
          "random_sample",
          [](RandomState& self, Size size) {
            return Draws<double>(size, [&] { return self.RandomSample(); });
          },
          arg("size") = py::none())
      .def(
          "uniform",
          [](RandomState& self, double low, double high, Size size) {
            return Draws<double>(size, [&] { return self.Uniform(low, high); });
          },
          arg("low") = 0.0, arg("high") = 1.0, arg("size") = py::none())
      .def(
          "randint",
          [](RandomState& self, const py::object& low, const py::object& high,
             Size size, const py::object& dtype) {
            const auto [lo, hi] = Bounds(low, high, /*endpoint=*/false);
            const std::string name = py::str(ToDtype(dtype));
            return WithIntegerType(dtype, [&](auto type) {
              using T = decltype(type);
              return BoundedIntegers<T>(
                  lo, hi, size, name, /*endpoint=*/false,
                  [&](T l, T h, T* out, size_t n) {
                    if (h < std::numeric_limits<T>::max()) {
                      self.Randint<T>(l, static_cast<T>(h + 1), out, n);
                    } else {
                      // randint's exclusive high of a range reaching the
                      // type's maximum does not fit T.
                      random::internal::BoundedFill<T>(
                          self.bit_generator(), l, h, /*masked=*/true, out, n);
                    }
                  });
            });
          },
          arg("low"), arg("high") = py::none(), arg("size") = py::none(),
          arg("dtype") = py::str("int64"))
      .def(
          "standard_normal",
          [](RandomState& self, Size size) {
            return Draws<double>(size, [&] { return self.StandardNormal(); });
          },
          arg("size") = py::none())
      .def(
          "normal",
          [](RandomState& self, double loc, double scale, Size size) {
            return Draws<double>(size, [&] { return self.Normal(loc, scale); });
          },
          arg("loc") = 0.0, arg("scale") = 1.0, arg("size") = py::none())
      .def(
          "choice",
          [](RandomState& self, const py::object& a, Size size, bool replace) {
            const auto picks =
                self.Choice(PopulationSize(a), size.value_or(1), replace);
            return ChoiceResult(a, picks, size);
          },
          arg("a"), arg("size") = py::none(), arg("replace") = true)
      .def(
          "shuffle",
          [](RandomState& self, py::array x) { ShuffleArray(x, self); },
          arg("x"))
      .def(
          "permutation",
          [](RandomState& self, const py::object& x) {
            return Permutation(self, x);
          },
          arg("x"));
}

}  // namespace
}  // namespace envpool

PYBIND11_MODULE(_random, m) {
  m.doc() =
      "numpy-compatible random draws of random.h (for tests of the engine)";
  envpool::BindRandom(m);
}
