// The reward shaping without an engine: the options it reads, and the
// arithmetic of a few steps over game variables set by hand.
#include "envpool/vizdoom/reward_shaping.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace envpool::vizdoom {
namespace {

Options ShapingOptions(const OptionTable& rewards, const OptionTable& weapons,
                       int64_t duration) {
  return Options{{"reward_config", rewards},
                 {"selected_weapon_reward_config", weapons},
                 {"weapon_duration", duration}};
}

// Game variables set by hand, read as the env reads the engine's.
struct FakeState {
  std::map<::vizdoom::GameVariable, double> values;
  ReadGameVariable Reader() {
    return [this](::vizdoom::GameVariable v) { return values[v]; };
  }
};

TEST(RewardShapingTest, RowsAreInViZDoomsVariableOrder) {
  const RewardShaping shaping(
      ShapingOptions({{"HEALTH", {0.5, -0.25}}, {"KILLCOUNT", {1, 0}}}, {}, 5));
  ASSERT_EQ(shaping.variables.size(), 2U);
  EXPECT_EQ(shaping.variables[0], ::vizdoom::KILLCOUNT);
  EXPECT_EQ(shaping.variables[1], ::vizdoom::HEALTH);
  EXPECT_EQ(shaping.gain, (std::vector<double>{1, 0.5}));
  EXPECT_EQ(shaping.loss, (std::vector<double>{0, -0.25}));
  EXPECT_TRUE(shaping.active());
  EXPECT_FALSE(RewardShaping(ShapingOptions({}, {}, 5)).active());
  EXPECT_TRUE(RewardShaping(ShapingOptions({}, {{"3", {1}}}, 5)).active());
}

TEST(RewardShapingTest, BadOptionsNameTheOption) {
  const std::vector<std::pair<Options, std::string>> bad = {
      {ShapingOptions({{"NOT_A_VARIABLE", {1, 1}}}, {}, 5), "reward_config"},
      {ShapingOptions({{"HEALTH", {1}}}, {}, 5), "reward_config"},
      {ShapingOptions(
           {{"HEALTH", {1, std::numeric_limits<double>::infinity()}}}, {}, 5),
       "reward_config"},
      {ShapingOptions({}, {{"10", {1}}}, 5), "selected_weapon_reward_config"},
      {ShapingOptions({}, {{"2", {1, 2}}}, 5), "selected_weapon_reward_config"},
      {ShapingOptions({}, {}, -1), "weapon_duration"},
  };
  for (const auto& [options, option] : bad) {
    try {
      RewardShaping shaping(options);
      ADD_FAILURE() << "no error for " << option;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(option), std::string::npos)
          << e.what();
    }
  }
}

TEST(RewardShapingTest, RisesGainAndFallsLose) {
  // As ENVPOOL_REWARD_CONFIG rates HEALTH: +0.005 a point gained, -0.003 a
  // point lost (a loss row's number is what each unit of decrease adds).
  const RewardShaping shaping(ShapingOptions(
      {{"HEALTH", {0.005, -0.003}}, {"KILLCOUNT", {1, 0}}}, {}, 5));
  RewardShaper shaper(shaping);
  FakeState state;
  state.values[::vizdoom::HEALTH] = 100;
  shaper.Start(state.Reader());
  EXPECT_EQ(shaper.Step(state.Reader()), 0.0F);
  state.values[::vizdoom::HEALTH] = 90;
  state.values[::vizdoom::KILLCOUNT] = 2;
  // In double, summed into a float in variable order: 2 * 1, then 10 * -0.003.
  const float want = static_cast<float>(
      static_cast<double>(static_cast<float>(0.0 + 2.0)) + 10 * -0.003);
  EXPECT_EQ(shaper.Step(state.Reader()), want);
  state.values[::vizdoom::HEALTH] = 95;
  EXPECT_EQ(shaper.Step(state.Reader()), static_cast<float>(5 * 0.005));
  // A reset measures from its own values.
  state.values[::vizdoom::HEALTH] = 40;
  shaper.Start(state.Reader());
  state.values[::vizdoom::HEALTH] = 41;
  EXPECT_EQ(shaper.Step(state.Reader()), static_cast<float>(0.005));
}

TEST(RewardShapingTest, AWeaponPaysAfterItsDurationWhileItHasAmmo) {
  const RewardShaping shaping(ShapingOptions({}, {{"3", {0.25}}}, 3));
  RewardShaper shaper(shaping);
  FakeState state;
  state.values[::vizdoom::SELECTED_WEAPON] = 3;
  state.values[::vizdoom::SELECTED_WEAPON_AMMO] = 10;
  shaper.Start(state.Reader());  // the first of 3 observations with it
  EXPECT_EQ(shaper.Step(state.Reader()), 0.0F);
  EXPECT_EQ(shaper.Step(state.Reader()), 0.25F);
  EXPECT_EQ(shaper.Step(state.Reader()), 0.25F);
  state.values[::vizdoom::SELECTED_WEAPON_AMMO] = 0;
  EXPECT_EQ(shaper.Step(state.Reader()), 0.0F);
  state.values[::vizdoom::SELECTED_WEAPON_AMMO] = 10;
  state.values[::vizdoom::SELECTED_WEAPON] = 2;  // not rewarded: a new run
  EXPECT_EQ(shaper.Step(state.Reader()), 0.0F);
  state.values[::vizdoom::SELECTED_WEAPON] = 3;
  EXPECT_EQ(shaper.Step(state.Reader()), 0.0F);
  EXPECT_EQ(shaper.Step(state.Reader()), 0.0F);
  EXPECT_EQ(shaper.Step(state.Reader()), 0.25F);
}

}  // namespace
}  // namespace envpool::vizdoom
