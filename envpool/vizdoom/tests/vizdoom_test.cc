// The vizdoom family's tables and option checks, without an engine: game
// variable names against ViZDoom 1.3.2's enum, the info set, bad options,
// the render frame's pixel conversion and the stall check's missing engine.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

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

TEST(RenderTest, EveryScreenFormatBecomesRgb) {
  // Two pixels, (1, 2, 3) and (4, 5, 6) as RGB, in each format.
  struct Case {
    ::vizdoom::ScreenFormat format;
    std::vector<uint8_t> bytes;
  };
  const std::vector<Case> cases = {
      {::vizdoom::CRCGCB, {1, 4, 2, 5, 3, 6}},
      {::vizdoom::CBCGCR, {3, 6, 2, 5, 1, 4}},
      {::vizdoom::RGB24, {1, 2, 3, 4, 5, 6}},
      {::vizdoom::BGR24, {3, 2, 1, 6, 5, 4}},
      {::vizdoom::RGBA32, {1, 2, 3, 9, 4, 5, 6, 9}},
      {::vizdoom::ARGB32, {9, 1, 2, 3, 9, 4, 5, 6}},
      {::vizdoom::BGRA32, {3, 2, 1, 9, 6, 5, 4, 9}},
      {::vizdoom::ABGR32, {9, 3, 2, 1, 9, 6, 5, 4}},
  };
  for (const Case& c : cases) {
    // Into the right half of a frame two images wide.
    std::vector<uint8_t> rgb(2 * 2 * 3, 0);
    BlitRgb(c.bytes.data(), LayoutOf(c.format), 1, 2, 4, 2, rgb.data());
    EXPECT_EQ(rgb, (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6}))
        << c.format;
  }
  std::vector<uint8_t> gray = {7, 8};
  std::vector<uint8_t> rgb(6, 0);
  BlitRgb(gray.data(), LayoutOf(::vizdoom::GRAY8), 1, 2, 2, 0, rgb.data());
  EXPECT_EQ(rgb, (std::vector<uint8_t>{7, 7, 7, 8, 8, 8}));
  EXPECT_THROW(LayoutOf(::vizdoom::DOOM_256_COLORS8), std::invalid_argument);
}

TEST(StallTest, AWaitWithoutAnEngineEndsAfterHalfAMinute) {
  const std::string queue = "ViZDoomMQCtrNoSuchInst";
  for (int s = 1; s < kMissingSeconds; ++s) {
    EXPECT_EQ(EngineStall(queue, s), "") << s;
  }
  std::string why = EngineStall(queue, kMissingSeconds);
  EXPECT_NE(why.find("NoSuchInst has no engine process"), std::string::npos)
      << why;
  // A new wait starts over.
  EXPECT_EQ(EngineStall(queue, 3), "");
}

}  // namespace
}  // namespace envpool::vizdoom
