// Random numbers that are bit-for-bit numpy's, so a C++ env seeded like its
// Python reference draws exactly the same numbers.
//
//   SeedSequence  numpy.random.SeedSequence(entropy): pool and generate_state.
//   PCG64         numpy.random.PCG64(seed), numpy's default bit generator,
//                 including its buffered upper half for 32-bit draws.
//   MT19937       the MT19937 inside numpy.random.RandomState(seed).
//   Generator     numpy.random.Generator(PCG64(seed)), i.e.
//                 numpy.random.default_rng(seed) and
//                 gymnasium.utils.seeding.np_random(seed): random, uniform,
//                 integers, standard_normal, normal, choice, shuffle,
//                 permutation.
//   RandomState   numpy.random.RandomState(seed) (legacy): random_sample,
//                 uniform, randint, standard_normal, normal, choice, shuffle,
//                 permutation.
//
// A numpy call with `size=n` gives the same numbers as n calls without `size`,
// except for 8- and 16-bit integers, which share 32-bit draws within one
// call; the `out, n` overloads of Integers/Randint are that one call.
// Uses unsigned __int128 (GCC and Clang).
#ifndef ENVPOOL_CORE_RANDOM_H_
#define ENVPOOL_CORE_RANDOM_H_

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace envpool::random {

namespace internal {
// PCG64's state and the 64-bit Lemire products are 128-bit.
__extension__ typedef unsigned __int128 Uint128;
}  // namespace internal

class SeedSequence {
 public:
  static constexpr int kPoolSize = 4;

  // SeedSequence(entropy) for an integer entropy.
  explicit SeedSequence(uint64_t entropy);
  // SeedSequence(words) for a list of uint32 words.  An integer wider than 64
  // bits is the list of its 32-bit words, least significant first (numpy
  // splits integers that way).
  explicit SeedSequence(const std::vector<uint32_t>& entropy_words);

  // generate_state(n_words, dtype=np.uint32 / np.uint64).
  std::vector<uint32_t> GenerateState32(size_t n_words) const;
  std::vector<uint64_t> GenerateState64(size_t n_words) const;

  const std::array<uint32_t, kPoolSize>& pool() const { return pool_; }

 private:
  std::array<uint32_t, kPoolSize> pool_{};
};

class PCG64 {
 public:
  // PCG64(seed_sequence): state and increment from generate_state(4, uint64).
  explicit PCG64(const SeedSequence& seed_sequence);
  explicit PCG64(uint64_t seed) : PCG64(SeedSequence(seed)) {}

  uint64_t NextUint64() {
    state_ = state_ * kMultiplier + increment_;
    // XSL-RR output: fold the halves, rotate by the top 6 bits.
    const auto folded =
        static_cast<uint64_t>(state_ >> 64) ^ static_cast<uint64_t>(state_);
    const unsigned rotation = static_cast<unsigned>(state_ >> 122);
    return (folded >> rotation) | (folded << ((64 - rotation) & 63));
  }
  // numpy hands out the low half of a 64-bit draw and keeps the high half for
  // the next 32-bit draw; 64-bit draws leave that kept half alone.
  uint32_t NextUint32() {
    if (has_uint32_) {
      has_uint32_ = false;
      return buffered_uint32_;
    }
    const uint64_t draw = NextUint64();
    has_uint32_ = true;
    buffered_uint32_ = static_cast<uint32_t>(draw >> 32);
    return static_cast<uint32_t>(draw);
  }
  // 53 random bits in [0, 1).
  double NextDouble() {
    return static_cast<double>(NextUint64() >> 11) * (1.0 / 9007199254740992.0);
  }
  // 24 random bits in [0, 1), from a 32-bit draw.
  float NextFloat() {
    return static_cast<float>(NextUint32() >> 8) * (1.0F / 16777216.0F);
  }

 private:
  using Uint128 = internal::Uint128;
  static constexpr Uint128 kMultiplier =
      (Uint128{0x2360ED051FC65DA4ULL} << 64) | 0x4385DF649FCCF645ULL;

  Uint128 state_ = 0;
  Uint128 increment_ = 0;
  bool has_uint32_ = false;
  uint32_t buffered_uint32_ = 0;
};

class MT19937 {
 public:
  static constexpr int kStateWords = 624;

  // init_genrand(seed): RandomState(seed) for an integer 0 <= seed < 2**32.
  explicit MT19937(uint32_t seed);
  // init_by_array(key): RandomState(key) for an array of uint32 words.
  explicit MT19937(const std::vector<uint32_t>& key);

  uint32_t NextUint32() {
    if (position_ >= kStateWords) {
      Regenerate();
    }
    uint32_t y = key_[position_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9D2C5680U;
    y ^= (y << 15) & 0xEFC60000U;
    return y ^ (y >> 18);
  }
  // The first 32-bit draw is the high half.
  uint64_t NextUint64() {
    const uint64_t high = NextUint32();
    return (high << 32) | NextUint32();
  }
  // RandomState's 53-bit double: 27 bits of one draw, 26 of the next.
  double NextDouble() {
    const uint32_t a = NextUint32() >> 5;
    const uint32_t b = NextUint32() >> 6;
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }

 private:
  void Regenerate();

  std::array<uint32_t, kStateWords> key_{};
  int position_ = kStateWords;
};

namespace internal {

// Ziggurat tables of numpy's double standard_normal (random.cc says how they
// are computed).
inline constexpr int kZigguratLayers = 256;
extern const uint64_t kZigguratK[kZigguratLayers];
extern const double kZigguratW[kZigguratLayers];
extern const double kZigguratF[kZigguratLayers];

// The smallest all-ones mask covering `max`.
inline uint64_t BitMask(uint64_t max) {
  for (int shift = 1; shift < 64; shift *= 2) {
    max |= max >> shift;
  }
  return max;
}

// numpy's random_interval: a value in [0, max] by masked rejection, with a
// 32-bit draw when max fits 32 bits.  Both shuffles use it.
template <typename BitGenerator>
uint64_t RandomInterval(BitGenerator& bits, uint64_t max) {
  if (max == 0) {
    return 0;
  }
  const uint64_t mask = BitMask(max);
  uint64_t value;
  if (max <= 0xFFFFFFFFULL) {
    do {
      value = bits.NextUint32() & mask;
    } while (value > max);
  } else {
    do {
      value = bits.NextUint64() & mask;
    } while (value > max);
  }
  return value;
}

// numpy's shuffle of a 1-d array (Generator and RandomState alike):
// Fisher-Yates from the end, j in [0, i] by RandomInterval.
template <typename BitGenerator, typename T>
void Shuffle(BitGenerator& bits, T* data, size_t n) {
  for (size_t i = n; i-- > 1;) {
    std::swap(data[i], data[RandomInterval(bits, i)]);
  }
}

// A value in [0, range] for a range of the unsigned type U, the way numpy's
// random_bounded_uint*_fill draws one element: Lemire's multiply-and-reject
// (`masked` false, Generator) or masked rejection (`masked` true,
// RandomState).  64-bit ranges that fit 32 bits take 32-bit draws; 8- and
// 16-bit values are cut from a 32-bit word kept across the elements of one
// call (numpy's buffered draws).  Full-width ranges take a raw draw.
class BoundedDraw {
 public:
  template <typename U, typename BitGenerator>
  U Next(BitGenerator& bits, U range, bool masked) {
    static_assert(std::is_unsigned_v<U>);
    if (range == 0) {
      return 0;
    }
    if constexpr (sizeof(U) == 8) {
      if (range <= 0xFFFFFFFFULL) {
        return Next<uint32_t>(bits, static_cast<uint32_t>(range), masked);
      }
      if (range == std::numeric_limits<uint64_t>::max()) {
        return bits.NextUint64();
      }
      if (masked) {
        const uint64_t mask = BitMask(range);
        uint64_t value;
        do {
          value = bits.NextUint64() & mask;
        } while (value > range);
        return value;
      }
      return Lemire64(bits, range);
    } else {
      if (range == std::numeric_limits<U>::max()) {
        return Word<U>(bits);
      }
      if (masked) {
        const auto mask = static_cast<U>(BitMask(range));
        U value;
        do {
          value = static_cast<U>(Word<U>(bits) & mask);
        } while (value > range);
        return value;
      }
      // Lemire in the type's own width: the product of a U draw and
      // range + 1 fits twice that width.
      using Wide = std::conditional_t<sizeof(U) == 4, uint64_t, uint32_t>;
      constexpr int kBits = 8 * sizeof(U);
      const U range_excl = range + 1;
      Wide product = Wide{Word<U>(bits)} * range_excl;
      auto leftover = static_cast<U>(product);
      if (leftover < range_excl) {
        const U threshold =
            static_cast<U>(std::numeric_limits<U>::max() - range) % range_excl;
        while (leftover < threshold) {
          product = Wide{Word<U>(bits)} * range_excl;
          leftover = static_cast<U>(product);
        }
      }
      return static_cast<U>(product >> kBits);
    }
  }

 private:
  template <typename BitGenerator>
  static uint64_t Lemire64(BitGenerator& bits, uint64_t range) {
    const uint64_t range_excl = range + 1;
    Uint128 product = Uint128{bits.NextUint64()} * range_excl;
    auto leftover = static_cast<uint64_t>(product);
    if (leftover < range_excl) {
      const uint64_t threshold =
          (std::numeric_limits<uint64_t>::max() - range) % range_excl;
      while (leftover < threshold) {
        product = Uint128{bits.NextUint64()} * range_excl;
        leftover = static_cast<uint64_t>(product);
      }
    }
    return static_cast<uint64_t>(product >> 64);
  }

  // A 32-bit draw, or the next 8 or 16 bits of the kept word.
  template <typename U, typename BitGenerator>
  U Word(BitGenerator& bits) {
    if constexpr (sizeof(U) == 4) {
      return bits.NextUint32();
    } else {
      if (word_left_ == 0) {
        word_ = bits.NextUint32();
        word_left_ = 4 / sizeof(U) - 1;
      } else {
        word_ >>= 8 * sizeof(U);
        --word_left_;
      }
      return static_cast<U>(word_);
    }
  }

  uint32_t word_ = 0;
  int word_left_ = 0;
};

// integers/randint(low, high inclusive, size=n, dtype=T) into out[0..n).
template <typename T, typename BitGenerator>
void BoundedFill(BitGenerator& bits, T low, T high, bool masked, T* out,
                 size_t n) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
  using U = std::make_unsigned_t<T>;
  if (low > high) {
    throw std::invalid_argument("low > high");
  }
  // The offset arithmetic wraps in U, as numpy's does.
  const auto offset = static_cast<U>(low);
  const auto range = static_cast<U>(static_cast<U>(high) - offset);
  BoundedDraw draw;
  for (size_t i = 0; i < n; ++i) {
    out[i] = static_cast<T>(
        static_cast<U>(offset + draw.Next<U>(bits, range, masked)));
  }
}

// Turns an exclusive high into the inclusive one.
template <typename T>
T InclusiveHigh(T low, T high, bool endpoint) {
  if (endpoint) {
    return high;
  }
  if (low >= high) {
    throw std::invalid_argument("low >= high");
  }
  return static_cast<T>(high - 1);
}

}  // namespace internal

class Generator {
 public:
  explicit Generator(uint64_t seed) : Generator(SeedSequence(seed)) {}
  explicit Generator(const SeedSequence& seed_sequence)
      : bits_(seed_sequence) {}

  PCG64& bit_generator() { return bits_; }

  // random(), random(dtype=np.float32).
  double Random() { return bits_.NextDouble(); }
  float RandomFloat() { return bits_.NextFloat(); }
  // uniform(low, high), which refuses high < low and an infinite range.
  double Uniform(double low, double high) {
    const double range = high - low;
    if (!std::isfinite(range)) {
      throw std::overflow_error("high - low range exceeds valid bounds");
    }
    if (std::signbit(range)) {
      throw std::invalid_argument("high - low < 0");
    }
    return low + range * bits_.NextDouble();
  }

  // integers(low, high, dtype=T, endpoint=endpoint).  A full-width range
  // needs endpoint=true, since its exclusive high does not fit T.
  template <typename T = int64_t>
  T Integers(T low, T high, bool endpoint = false) {
    T value;
    Integers<T>(low, high, endpoint, &value, 1);
    return value;
  }
  // integers(low, high, size=n, dtype=T, endpoint=endpoint) into out[0..n).
  template <typename T>
  void Integers(T low, T high, bool endpoint, T* out, size_t n) {
    internal::BoundedFill<T>(bits_, low,
                             internal::InclusiveHigh(low, high, endpoint),
                             /*masked=*/false, out, n);
  }

  // standard_normal(): the 256-layer ziggurat.
  double StandardNormal() {
    for (;;) {
      const uint64_t draw = bits_.NextUint64();
      const int layer = static_cast<int>(draw & 0xFF);
      const uint64_t rest = draw >> 8;
      const uint64_t magnitude = (rest >> 1) & 0x000FFFFFFFFFFFFFULL;
      // The sign as a factor rather than a branch, which would be taken
      // half the time at random; the product's bits are those of -x.
      const double sign = (rest & 1) != 0 ? -1.0 : 1.0;
      double x =
          sign * static_cast<double>(magnitude) * internal::kZigguratW[layer];
      // Inside the layer's rectangle: about 99% of draws.
      if (magnitude < internal::kZigguratK[layer] ||
          AcceptOutsideRectangle(layer, magnitude, &x)) {
        return x;
      }
    }
  }
  // normal(loc, scale).
  double Normal(double loc, double scale) {
    return loc + scale * StandardNormal();
  }

  // choice(n): an index in [0, n).
  int64_t Choice(int64_t n) { return Integers<int64_t>(0, n); }
  // choice(a): an element of a.
  template <typename T>
  const T& Choice(const std::vector<T>& a) {
    return a[static_cast<size_t>(Choice(static_cast<int64_t>(a.size())))];
  }
  // choice(n, size, replace, shuffle): `size` indices in [0, n); distinct
  // when replace is false.
  std::vector<int64_t> Choice(int64_t n, size_t size, bool replace = true,
                              bool shuffle = true);

  // shuffle(x) for a 1-d x: Fisher-Yates from the end, j in [0, i] by
  // masked rejection.
  template <typename T>
  void Shuffle(T* data, size_t n) {
    internal::Shuffle(bits_, data, n);
  }
  template <typename T>
  void Shuffle(std::vector<T>* data) {
    Shuffle(data->data(), data->size());
  }
  // permutation(n).
  std::vector<int64_t> Permutation(int64_t n);

 private:
  // The ziggurat's rare cases: the tail beyond the last layer (layer 0,
  // which replaces *x) and the wedge under the curve.
  bool AcceptOutsideRectangle(int layer, uint64_t magnitude, double* x);
  // Swaps data[i] with data[j], j in [0, i] by Lemire, for i from n-1 down to
  // `first`: the shuffle inside choice(replace=False).
  void ShuffleTail(int64_t* data, int64_t n, int64_t first);

  PCG64 bits_;
};

class RandomState {
 public:
  // RandomState(seed) for an integer 0 <= seed < 2**32 (numpy refuses larger
  // integers), and RandomState(array of uint32 words).
  explicit RandomState(uint32_t seed) : bits_(seed) {}
  explicit RandomState(const std::vector<uint32_t>& seed) : bits_(seed) {}
  // A pool's 64-bit seed as numpy would take it: RandomState(seed) below
  // 2**32, else RandomState([low, high]) (its two 32-bit words, low first).
  static RandomState FromSeed(uint64_t seed) {
    if (seed >> 32 == 0) {
      return RandomState(static_cast<uint32_t>(seed));
    }
    return RandomState(std::vector<uint32_t>{
        static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)});
  }

  MT19937& bit_generator() { return bits_; }

  // random_sample(), rand().
  double RandomSample() { return bits_.NextDouble(); }
  // uniform(low, high): high < low is fine, an infinite range is not.
  double Uniform(double low, double high) {
    const double range = high - low;
    if (!std::isfinite(range)) {
      throw std::overflow_error("Range exceeds valid bounds");
    }
    return low + range * bits_.NextDouble();
  }

  // randint(low, high, dtype=T): low <= x < high by masked rejection.  The
  // default dtype (int) is int64.
  template <typename T = int64_t>
  T Randint(T low, T high) {
    T value;
    Randint<T>(low, high, &value, 1);
    return value;
  }
  // randint(low, high, size=n, dtype=T) into out[0..n).
  template <typename T>
  void Randint(T low, T high, T* out, size_t n) {
    internal::BoundedFill<T>(bits_, low,
                             internal::InclusiveHigh(low, high, false),
                             /*masked=*/true, out, n);
  }

  // standard_normal(), randn(): polar Box-Muller, which makes two values and
  // keeps the second for the next call.
  double StandardNormal();
  // normal(loc, scale).
  double Normal(double loc, double scale) {
    return loc + scale * StandardNormal();
  }

  // choice(n): an index in [0, n).
  int64_t Choice(int64_t n) { return Randint<int64_t>(0, n); }
  // choice(a): an element of a.
  template <typename T>
  const T& Choice(const std::vector<T>& a) {
    return a[static_cast<size_t>(Choice(static_cast<int64_t>(a.size())))];
  }
  // choice(n, size, replace): with replace=False, the first `size` entries of
  // permutation(n).
  std::vector<int64_t> Choice(int64_t n, size_t size, bool replace = true);

  // shuffle(x) for a 1-d x.
  template <typename T>
  void Shuffle(T* data, size_t n) {
    internal::Shuffle(bits_, data, n);
  }
  template <typename T>
  void Shuffle(std::vector<T>* data) {
    Shuffle(data->data(), data->size());
  }
  // permutation(n).
  std::vector<int64_t> Permutation(int64_t n);

 private:
  MT19937 bits_;
  bool has_gauss_ = false;
  double gauss_ = 0.0;
};

}  // namespace envpool::random

#endif  // ENVPOOL_CORE_RANDOM_H_
