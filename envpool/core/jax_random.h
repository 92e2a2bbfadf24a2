/*
 * Copyright 2026 The EnvPool Authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

// JAX's default PRNG, threefry2x32, bit for bit, as `jax.random` computes it
// with jax_threefry_partitionable=True (JAX's default since 0.5) and 64-bit
// types disabled (JAX's default).  A C++ env whose reference is written in
// JAX (pgx, ...) draws from these to play the reference's episodes for the
// same key.  docs/random.md lists what is matched and what is not.
//
// Every draw is a pure function of its key, as in JAX: nothing is stateful.

#ifndef ENVPOOL_CORE_JAX_RANDOM_H_
#define ENVPOOL_CORE_JAX_RANDOM_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace envpool::jax_random {

// A raw threefry key: what `jax.random.PRNGKey(seed)` holds, words in its
// order (key[0], key[1]).
struct Key {
  uint32_t k0{0};
  uint32_t k1{0};

  bool operator==(const Key& other) const {
    return k0 == other.k0 && k1 == other.k1;
  }
  bool operator!=(const Key& other) const { return !(*this == other); }
};

// The Threefry-2x32 block cipher with 20 rounds (Salmon et al. 2011), as
// JAX's `threefry2x32_p`: key (k0, k1), counter (x0, x1).
inline std::pair<uint32_t, uint32_t> Threefry2x32(Key key, uint32_t x0,
                                                  uint32_t x1) {
  constexpr uint32_t kRotations[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  const uint32_t ks[3] = {key.k0, key.k1, key.k0 ^ key.k1 ^ 0x1BD11BDAU};
  auto rotl = [](uint32_t v, uint32_t d) {
    return (v << d) | (v >> (32U - d));
  };
  x0 += ks[0];
  x1 += ks[1];
  for (uint32_t block = 0; block < 5; ++block) {
    for (uint32_t rotation : kRotations[block % 2]) {
      x0 += x1;
      x1 = rotl(x1, rotation);
      x1 ^= x0;
    }
    // After block b the key schedule injects ks[(b+1)%3], ks[(b+2)%3] + b+1.
    x0 += ks[(block + 1) % 3];
    x1 += ks[(block + 2) % 3] + block + 1;
  }
  return {x0, x1};
}

// `jax.random.PRNGKey(seed)` with 64-bit types disabled (JAX's default): a
// Python integer is first made an int64, which then becomes int32, so only
// its low 32 bits count; the key is (0, seed mod 2**32).  Negative seeds are
// their two's complement.
inline Key PRNGKey(int64_t seed) {
  return Key{0, static_cast<uint32_t>(static_cast<uint64_t>(seed))};
}

// `jax.random.PRNGKey(seed)` under jax_enable_x64=True: the int64 seed's two
// words, high first.
inline Key PRNGKeyX64(int64_t seed) {
  const auto bits = static_cast<uint64_t>(seed);
  return Key{static_cast<uint32_t>(bits >> 32U), static_cast<uint32_t>(bits)};
}

// Threefry of `key` at the flat index `index` of a partitionable iota:
// counter (index >> 32, index & 0xFFFFFFFF).
inline std::pair<uint32_t, uint32_t> ThreefryAt(Key key, uint64_t index) {
  return Threefry2x32(key, static_cast<uint32_t>(index >> 32U),
                      static_cast<uint32_t>(index));
}

// `jax.random.fold_in(key, data)`: data is taken as uint32 (mod 2**32).
inline Key FoldIn(Key key, uint32_t data) {
  const auto [y0, y1] = Threefry2x32(key, 0, data);
  return Key{y0, y1};
}

// `jax.random.split(key, num)[i]`: the i-th of num keys (independent of num).
inline Key SplitAt(Key key, uint64_t index) {
  const auto [y0, y1] = ThreefryAt(key, index);
  return Key{y0, y1};
}

// `jax.random.split(key, num)`.
inline std::vector<Key> Split(Key key, std::size_t num = 2) {
  std::vector<Key> keys(num);
  for (std::size_t i = 0; i < num; ++i) {
    keys[i] = SplitAt(key, i);
  }
  return keys;
}

// `jax.random.bits(key, (n,), uint32)`, i.e. `_random_bits(key, 32, shape)`
// flattened: element i is the xor of the two threefry words at index i.
inline void RandomBits32(Key key, uint32_t* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const auto [y0, y1] = ThreefryAt(key, i);
    out[i] = y0 ^ y1;
  }
}

inline uint32_t RandomBits32(Key key) {
  uint32_t bits = 0;
  RandomBits32(key, &bits, 1);
  return bits;
}

// `jax.random.bits(key, (n,), uint64)` (under jax_enable_x64): the two
// threefry words at index i, high first.
inline void RandomBits64(Key key, uint64_t* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const auto [y0, y1] = ThreefryAt(key, i);
    out[i] = (static_cast<uint64_t>(y0) << 32U) | y1;
  }
}

// `jax.random.uniform(key, (n,), float32, minval, maxval)`: 23 random
// mantissa bits make a float in [1, 2), less 1, times (maxval - minval) plus
// minval in one fused multiply-add (XLA's CPU code fuses them: one rounding),
// and at least minval.
inline void Uniform(Key key, float minval, float maxval, float* out,
                    std::size_t n) {
  std::vector<uint32_t> bits(n);
  RandomBits32(key, bits.data(), n);
  const float span = maxval - minval;
  for (std::size_t i = 0; i < n; ++i) {
    const uint32_t float_bits = (bits[i] >> 9U) | 0x3F800000U;
    float one_to_two = 0.0F;
    std::memcpy(&one_to_two, &float_bits, sizeof(float));
    const float value = std::fma(one_to_two - 1.0F, span, minval);
    // lax.max: NaN propagates, as std::max would not.
    out[i] = std::isnan(value) ? value : std::max(minval, value);
  }
}

inline float Uniform(Key key, float minval = 0.0F, float maxval = 1.0F) {
  float value = 0.0F;
  Uniform(key, minval, maxval, &value, 1);
  return value;
}

// `jax.random.bernoulli(key, p, (n,))` for a float32 p (mode "low", the
// default): uniform(key) < p.
inline void Bernoulli(Key key, float p, bool* out, std::size_t n) {
  std::vector<float> uniforms(n);
  Uniform(key, 0.0F, 1.0F, uniforms.data(), n);
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = uniforms[i] < p;
  }
}

inline bool Bernoulli(Key key, float p = 0.5F) {
  bool value = false;
  Bernoulli(key, p, &value, 1);
  return value;
}

// `jax.random.randint(key, (n,), minval, maxval, int32)`: bounds clipped to
// int32; two 32-bit draws (from split(key)'s two keys) reduced modulo the
// span with JAX's wrapping uint32 arithmetic; maxval <= minval gives minval.
inline void RandInt(Key key, int64_t minval, int64_t maxval, int32_t* out,
                    std::size_t n) {
  constexpr int64_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  const bool maxval_out_of_range = maxval > kMax;
  const auto low = static_cast<int32_t>(std::clamp(minval, kMin, kMax));
  const auto high = static_cast<int32_t>(std::clamp(maxval, kMin, kMax));
  std::vector<uint32_t> higher_bits(n);
  std::vector<uint32_t> lower_bits(n);
  RandomBits32(SplitAt(key, 0), higher_bits.data(), n);
  RandomBits32(SplitAt(key, 1), lower_bits.data(), n);
  uint32_t span = static_cast<uint32_t>(high) - static_cast<uint32_t>(low);
  if (high <= low) {
    span = 1;
  } else if (maxval_out_of_range) {
    span +=
        1;  // may wrap to 0: then the remainders below leave bits as they are
  }
  auto rem = [span](uint32_t value) {
    return span == 0 ? value : value % span;
  };
  const uint32_t multiplier = rem(rem(1U << 16U) * rem(1U << 16U));
  for (std::size_t i = 0; i < n; ++i) {
    const uint32_t offset =
        rem(rem(higher_bits[i]) * multiplier + rem(lower_bits[i]));
    out[i] = static_cast<int32_t>(static_cast<uint32_t>(low) + offset);
  }
}

inline int32_t RandInt(Key key, int64_t minval, int64_t maxval) {
  int32_t value = 0;
  RandInt(key, minval, maxval, &value, 1);
  return value;
}

// `jax.random.permutation(key, x)` of a 1-d x (or with independent=True),
// in place: ceil(3 ln n / ln(2**32 - 1)) rounds, each splitting the key and
// sorting x stably by 32 random bits of the second half.
template <typename T>
void Shuffle(Key key, T* data, std::size_t n) {
  const double rounds_exact =
      3.0 * std::log(static_cast<double>(std::max<std::size_t>(1, n))) /
      std::log(static_cast<double>(std::numeric_limits<uint32_t>::max()));
  const auto rounds = static_cast<int>(std::ceil(rounds_exact));
  std::vector<uint32_t> sort_keys(n);
  std::vector<std::size_t> order(n);
  std::vector<T> sorted(n);
  for (int round = 0; round < rounds; ++round) {
    const Key subkey = SplitAt(key, 1);
    key = SplitAt(key, 0);
    RandomBits32(subkey, sort_keys.data(), n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) {
                       return sort_keys[a] < sort_keys[b];
                     });
    for (std::size_t i = 0; i < n; ++i) {
      sorted[i] = data[order[i]];
    }
    std::copy(sorted.begin(), sorted.end(), data);
  }
}

// `jax.random.permutation(key, n)`: a shuffled arange(n) (int32).
inline std::vector<int32_t> Permutation(Key key, std::size_t n) {
  std::vector<int32_t> values(n);
  std::iota(values.begin(), values.end(), 0);
  Shuffle(key, values.data(), n);
  return values;
}

// `jax.random.choice(key, n, (size,), replace)` with p=None: indices into
// arange(n) (take them from an array a to choose among its rows).  With
// replacement, randint(key, 0, n); without, the first size of
// permutation(key, n).
inline std::vector<int32_t> Choice(Key key, int64_t n, std::size_t size,
                                   bool replace = true) {
  if (size == 0) {
    return {};
  }
  if (n <= 0) {
    throw std::invalid_argument(
        "choice: a must be greater than 0 unless no samples are taken");
  }
  if (replace) {
    std::vector<int32_t> indices(size);
    RandInt(key, 0, n, indices.data(), size);
    return indices;
  }
  if (static_cast<int64_t>(size) > n) {
    throw std::invalid_argument("choice: cannot take a larger sample (size " +
                                std::to_string(size) +
                                ") than population (size " + std::to_string(n) +
                                ") when replace=false");
  }
  std::vector<int32_t> indices = Permutation(key, static_cast<std::size_t>(n));
  indices.resize(size);
  return indices;
}

inline int32_t Choice(Key key, int64_t n) { return Choice(key, n, 1)[0]; }

// `jax.random.choice(key, len(p), (size,), replace=True, p=p)` for float32
// p: cumsum(p) summed left to right in float32, r = total * (1 - uniform),
// and the first index whose cumulative sum is >= r (searchsorted, left).
inline std::vector<int32_t> ChoiceWithP(Key key, const float* p, std::size_t n,
                                        std::size_t size) {
  if (size == 0) {
    return {};
  }
  if (n == 0) {
    throw std::invalid_argument(
        "choice: a must be greater than 0 unless no samples are taken");
  }
  std::vector<float> cumulative(n);
  float sum = 0.0F;
  for (std::size_t i = 0; i < n; ++i) {
    sum += p[i];
    cumulative[i] = sum;
  }
  std::vector<float> uniforms(size);
  Uniform(key, 0.0F, 1.0F, uniforms.data(), size);
  std::vector<int32_t> indices(size);
  for (std::size_t j = 0; j < size; ++j) {
    const float r = cumulative[n - 1] * (1.0F - uniforms[j]);
    // searchsorted(side="left") of a sorted array: the count of entries < r
    // (JAX counts by a scan, so a NaN r, which compares false, gives 0).
    std::size_t index = 0;
    while (index < n && cumulative[index] < r) {
      ++index;
    }
    indices[j] = static_cast<int32_t>(index);
  }
  return indices;
}

inline int32_t ChoiceWithP(Key key, const float* p, std::size_t n) {
  return ChoiceWithP(key, p, n, 1)[0];
}

}  // namespace envpool::jax_random

#endif  // ENVPOOL_CORE_JAX_RANDOM_H_
