// The level table: each level named once, each row makes a level that lays
// its level, an unknown name is an error naming every level, and which options
// a LevelGen level takes follows the arguments its class fixes.
#include "envpool/minigrid/level_table.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>

#include "envpool/minigrid/level_config.h"

namespace envpool::minigrid {
namespace {

TEST(MiniGridLevelTableTest, EachLevelIsNamedOnceAndLevelNamesFollowTheTable) {
  std::set<std::string> names;
  for (const LevelKind& level : LevelTable()) {
    EXPECT_TRUE(names.insert(level.name).second) << level.name;
  }
  ASSERT_EQ(LevelNames().size(), LevelTable().size());
  for (size_t i = 0; i < LevelTable().size(); ++i) {
    EXPECT_EQ(LevelNames()[i], LevelTable()[i].name);
  }
}

// Whether a level lays out as minigrid's is test_minigrid.py's (with each
// id's options); here each row makes its level.
TEST(MiniGridLevelTableTest, EveryRowMakesItsLevelAndKeepsItsOwnOptions) {
  for (const LevelKind& level : LevelTable()) {
    LevelConfig c;
    c.env_name = level.name;
    c.agent_room_x = level.start_room[0];
    c.agent_room_y = level.start_room[1];
    EXPECT_NO_THROW(CheckLevelTakesOptions(c)) << level.name;
    std::unique_ptr<Level> made = MakeLevel(c);
    ASSERT_NE(made, nullptr) << level.name;
    EXPECT_EQ(made->NumActions(), level.name == "dynamic_obstacles" ? 3 : 7)
        << level.name;
  }
}

TEST(MiniGridLevelTableTest, AnUnknownNameIsAnErrorNamingEveryLevel) {
  LevelConfig c;
  c.env_name = "no_such_level";
  try {
    MakeLevel(c);
    FAIL() << "no error for an unknown level";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("'no_such_level'"), std::string::npos);
    for (const std::string& name : LevelNames()) {
      EXPECT_NE(message.find(name), std::string::npos) << name;
    }
  }
}

TEST(MiniGridLevelTableTest, LevelGenLevelsTakeTheArgumentsTheirClassLeaves) {
  // minigrid's GoToSeq fixes action_kinds, locked_room_prob, locations and
  // unblocking; BossLevel fixes none.
  const LevelKind& goto_seq = FindLevel("babyai_goto_seq");
  EXPECT_EQ(goto_seq.takes, kTakesInstrKinds | kTakesImplicitUnlock);
  const LevelKind& boss = FindLevel("babyai_boss_level");
  EXPECT_EQ(boss.takes, kTakesActionKinds | kTakesInstrKinds | kTakesLocations |
                            kTakesUnblocking | kTakesImplicitUnlock |
                            kTakesLockedRoomProb);
  LevelConfig c;
  c.env_name = "babyai_goto_seq";
  c.instr_kinds = {"seq"};
  EXPECT_NO_THROW(CheckLevelTakesOptions(c));
  c.locked_room_prob = 0.25;
  try {
    CheckLevelTakesOptions(c);
    FAIL() << "locked_room_prob taken by GoToSeq";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("'locked_room_prob' has no meaning for env_name "
                           "'babyai_goto_seq'"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("take it: babyai_synth, babyai_synth_loc, "
                           "babyai_synth_seq, babyai_boss_level;"),
              std::string::npos)
        << message;
  }
}

TEST(MiniGridLevelTableTest, AStartRoomOtherThanTheLevelsIsRefused) {
  LevelConfig c;
  c.env_name = "obstructed_maze_1dlhb";
  EXPECT_THROW(CheckLevelTakesOptions(c), std::invalid_argument);
  c.agent_room_x = 0;
  c.agent_room_y = 0;
  EXPECT_NO_THROW(CheckLevelTakesOptions(c));
  c.env_name = "obstructed_maze_full";
  c.agent_room_x = 2;
  EXPECT_NO_THROW(CheckLevelTakesOptions(c));
}

}  // namespace
}  // namespace envpool::minigrid
