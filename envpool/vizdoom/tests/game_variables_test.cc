// The game-variable names against ViZDoom 1.3.2's enum and its own table.
#include "envpool/vizdoom/game_variables.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace envpool::vizdoom {
namespace {

TEST(GameVariableTest, NamesFollowTheEnum) {
  EXPECT_EQ(GameVariableName(::vizdoom::KILLCOUNT), "KILLCOUNT");
  EXPECT_EQ(GameVariableName(::vizdoom::DAMAGECOUNT), "DAMAGECOUNT");
  EXPECT_EQ(GameVariableName(::vizdoom::SELECTED_WEAPON_AMMO),
            "SELECTED_WEAPON_AMMO");
  EXPECT_EQ(GameVariableName(::vizdoom::WEAPON9), "WEAPON9");
  EXPECT_EQ(GameVariableName(::vizdoom::PLAYER_COUNT), "PLAYER_COUNT");
  EXPECT_EQ(GameVariableName(::vizdoom::PLAYER1_FRAGCOUNT),
            "PLAYER1_FRAGCOUNT");
  EXPECT_EQ(GameVariableName(::vizdoom::PLAYER16_FRAGCOUNT),
            "PLAYER16_FRAGCOUNT");
  EXPECT_EQ(GameVariableName(::vizdoom::USER1), "USER1");
  EXPECT_EQ(GameVariableName(::vizdoom::USER60), "USER60");
  // Where ViZDoom's own table has the name, both agree.
  for (int v = 0; v <= static_cast<int>(::vizdoom::USER60); ++v) {
    auto variable = static_cast<::vizdoom::GameVariable>(v);
    std::string theirs = ::vizdoom::gameVariableToString(variable);
    if (!theirs.empty() && theirs != "UNKNOWN") {
      EXPECT_EQ(GameVariableName(variable), theirs) << v;
    }
    EXPECT_EQ(GameVariableNamed(GameVariableName(variable)), variable);
  }
  EXPECT_THROW(GameVariableNamed("NOT_A_VARIABLE"), std::invalid_argument);
}

TEST(GameVariableTest, EveryCommonVariableIsAViZDoomVariable) {
  // EnvPool 1.2.5's info set: 16 names, sorted, each a game variable.
  const auto& common = CommonGameVariables();
  EXPECT_EQ(common.size(), 16U);
  EXPECT_TRUE(std::is_sorted(common.begin(), common.end()));
  for (const std::string& name : common) {
    EXPECT_EQ(GameVariableName(GameVariableNamed(name)), name);
  }
}

}  // namespace
}  // namespace envpool::vizdoom
