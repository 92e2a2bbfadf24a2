// The vizdoom family's tables and option checks, without an engine: game
// variable names against ViZDoom 1.3.2's enum, the info set, bad options.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "envpool/core/env.h"
#include "envpool/vizdoom/vizdoom_env.h"

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

TEST(OptionsTest, MissingFilesNameTheOptionAndThePackage) {
  Options options = VizdoomEnv::DefaultOptions();
  options.Set("cfg_path", std::string("/nonexistent/basic.cfg"));
  try {
    DeclareFields<VizdoomEnv>(options);
    FAIL() << "no error for a missing cfg";
  } catch (const std::invalid_argument& e) {
    std::string message = e.what();
    EXPECT_NE(message.find("cfg_path"), std::string::npos) << message;
    EXPECT_NE(message.find("pip install vizdoom==1.3.2"), std::string::npos)
        << message;
  }
}

}  // namespace
}  // namespace envpool::vizdoom
