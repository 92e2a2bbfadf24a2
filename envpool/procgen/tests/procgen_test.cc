// What the procgen env checks before procgen's library sees an option (the
// library aborts the process on a value it rejects), and how the pool's
// seed becomes procgen's rand_seed. Stepping the games is tested in Python
// against procgen itself (test_procgen.py).
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "envpool/core/env.h"
#include "envpool/procgen/procgen_env.h"

namespace envpool::procgen {
namespace {

Options With(const std::string& game, int64_t mode) {
  Options options = ProcgenEnv::DefaultOptions();
  options.Set("env_name", game);
  options.Set("distribution_mode", mode);
  return options;
}

TEST(ProcgenOptionsTest, EveryGameTakesEasyAndHard) {
  for (const Game& game : Games()) {
    EXPECT_NO_THROW(CheckOptions(With(game.name, kEasy)));
    EXPECT_NO_THROW(CheckOptions(With(game.name, kHard)));
  }
}

TEST(ProcgenOptionsTest, OtherModesOnlyWhereProcgenHasThem) {
  EXPECT_NO_THROW(CheckOptions(With("chaser", kExtreme)));
  EXPECT_THROW(CheckOptions(With("coinrun", kExtreme)), std::invalid_argument);
  EXPECT_NO_THROW(CheckOptions(With("maze", kMemory)));
  EXPECT_THROW(CheckOptions(With("bigfish", kMemory)), std::invalid_argument);
  EXPECT_NO_THROW(CheckOptions(With("coinrun", kExploration)));
  EXPECT_THROW(CheckOptions(With("miner", kExploration)),
               std::invalid_argument);
  EXPECT_THROW(CheckOptions(With("coinrun", 3)), std::invalid_argument);
  int extreme = 0;
  int memory = 0;
  int exploration = 0;
  for (const Game& game : Games()) {
    extreme += game.extreme;
    memory += game.memory;
    exploration += game.exploration_level != 0;
  }
  // 16 games x (easy, hard) + these: the 50 ids.
  EXPECT_EQ(32 + extreme + memory + exploration, 50);
}

TEST(ProcgenOptionsTest, UnknownGameNamesTheGames) {
  try {
    CheckOptions(With("pong", kEasy));
    FAIL() << "pong accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("starpilot"), std::string::npos);
  }
}

TEST(ProcgenOptionsTest, LevelRangeIsNonNegativeInt32) {
  Options options = With("coinrun", kEasy);
  options.Set("num_levels", int64_t{-1});
  EXPECT_THROW(CheckOptions(options), std::invalid_argument);
  options.Set("num_levels", int64_t{0});
  options.Set("start_level", int64_t{2147483648});
  EXPECT_THROW(CheckOptions(options), std::invalid_argument);
  options.Set("start_level", int64_t{2147483647});
  EXPECT_NO_THROW(CheckOptions(options));
}

TEST(ProcgenOptionsTest, MissingLibraryIsNamed) {
  Options options = With("coinrun", kEasy);
  options.Set("data_dir", std::string("/nonexistent/procgen"));
  try {
    CheckFiles(options);
    FAIL() << "missing library accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/procgen/libenv.so"),
              std::string::npos);
  }
  EXPECT_THROW(CheckFiles(ProcgenEnv::DefaultOptions()), std::invalid_argument);
}

TEST(ProcgenSeedTest, RandSeedIsTheSeedModulo2To31) {
  EXPECT_EQ(RandSeed(0), 0);
  EXPECT_EQ(RandSeed(42), 42);
  EXPECT_EQ(RandSeed(2147483647), 2147483647);
  EXPECT_EQ(RandSeed(2147483648u), 0);
  EXPECT_EQ(RandSeed((uint64_t{1} << 40) + 7), 7);
}

TEST(ProcgenGamesTest, TimeoutsAreProcgens) {
  EXPECT_EQ(FindGame("bigfish").timeout, 6000);
  EXPECT_EQ(FindGame("bossfight").timeout, 4000);
  EXPECT_EQ(FindGame("plunder").timeout, 4000);
  EXPECT_EQ(FindGame("leaper").timeout, 500);
  EXPECT_EQ(FindGame("maze").timeout, 500);
  EXPECT_EQ(FindGame("coinrun").timeout, 1000);
}

}  // namespace
}  // namespace envpool::procgen
