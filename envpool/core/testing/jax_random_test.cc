// jax_random.h against values jax.random (0.10.2, threefry2x32, partitionable,
// 64-bit types off) gives for PRNGKey(42); test_jax_random.py compares many
// more keys and arguments with jax itself.
#include "envpool/core/jax_random.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace envpool::jax_random {
namespace {

TEST(JaxRandomTest, CipherKnownAnswer) {
  // Random123's known-answer vector for threefry2x32_20, key 0, counter 0.
  const auto [y0, y1] = Threefry2x32(Key{0, 0}, 0, 0);
  EXPECT_EQ(y0, 0x6B200159U);
  EXPECT_EQ(y1, 0x99BA4EFEU);
}

TEST(JaxRandomTest, KeysOfSeed42) {
  const Key key = PRNGKey(42);
  EXPECT_EQ(key, (Key{0, 42}));
  EXPECT_EQ(FoldIn(key, 3), (Key{0xBAD56946U, 0x354BA891U}));
  const std::vector<Key> keys = Split(key, 3);
  EXPECT_EQ(keys[0], (Key{0x6D3E048FU, 0x1022172DU}));
  EXPECT_EQ(keys[1], (Key{0x03D7B32DU, 0xADD083F4U}));
  EXPECT_EQ(keys[2], (Key{0x92FB20EAU, 0x0F38D913U}));
  // fold_in(key, d) is split(key, n)[d].
  EXPECT_EQ(FoldIn(key, 2), keys[2]);
  // Negative and wide seeds keep their low 32 bits (64-bit types off).
  EXPECT_EQ(PRNGKey(-1), (Key{0, 0xFFFFFFFFU}));
  EXPECT_EQ(PRNGKey((int64_t{1} << 40) + 5), (Key{0, 5}));
  EXPECT_EQ(PRNGKeyX64(-1), (Key{0xFFFFFFFFU, 0xFFFFFFFFU}));
}

TEST(JaxRandomTest, DrawsOfSeed42) {
  const Key key = PRNGKey(42);
  uint32_t bits[3];
  RandomBits32(key, bits, 3);
  EXPECT_EQ(bits[0], 0x7D1C13A2U);
  EXPECT_EQ(bits[1], 0xAE0730D9U);
  EXPECT_EQ(bits[2], 0x9DC3F9F9U);
  float uniform[3];
  Uniform(key, 0.0F, 1.0F, uniform, 3);
  EXPECT_EQ(uniform[0], 0x1.f47048p-2F);
  EXPECT_EQ(uniform[1], 0x1.5c0e6p-1F);
  EXPECT_EQ(uniform[2], 0x1.3b87fp-1F);
  int32_t ints[4];
  RandInt(key, -5, 100, ints, 4);
  EXPECT_EQ(std::vector<int32_t>(ints, ints + 4),
            (std::vector<int32_t>{94, 49, 76, -1}));
  EXPECT_EQ(Permutation(key, 10),
            (std::vector<int32_t>{7, 4, 2, 5, 3, 6, 8, 9, 0, 1}));
  const float p[4] = {0.1F, 0.2F, 0.3F, 0.4F};
  EXPECT_EQ(ChoiceWithP(key, p, 4, 5), (std::vector<int32_t>(5, 2)));
}

TEST(JaxRandomTest, ChoiceRefusesWhatJaxRefuses) {
  EXPECT_THROW(Choice(PRNGKey(0), 0, 1), std::invalid_argument);
  EXPECT_THROW(Choice(PRNGKey(0), 3, 4, /*replace=*/false),
               std::invalid_argument);
  EXPECT_TRUE(Choice(PRNGKey(0), 3, 0).empty());
}

}  // namespace
}  // namespace envpool::jax_random
