// Every level this family builds, each named once: its env_name, how it is
// made from the options, and which of the options EnvPool added for minigrid's
// level constructors it takes. LevelNames(), MakeLevel() and the options
// check read this table only; registration.py's ids name these levels and no
// other (tests/test_minigrid.py checks both ways through the family module's
// level_names()). A new level is one row here and its ids there.
#ifndef ENVPOOL_MINIGRID_LEVEL_TABLE_H_
#define ENVPOOL_MINIGRID_LEVEL_TABLE_H_

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/minigrid/babyai_levelgen.h"
#include "envpool/minigrid/babyai_levels.h"
#include "envpool/minigrid/level_config.h"
#include "envpool/minigrid/minigrid_levels.h"
#include "envpool/minigrid/room_grid.h"
#include "envpool/minigrid/wfc.h"
#include "envpool/minigrid/world.h"

namespace envpool::minigrid {

// The options that are arguments of minigrid's level constructors, as bits
// of LevelKind::takes (docs/minigrid.md's "taken by" column).
enum LevelOption : uint32_t {
  kTakesAgentStartPos = 1U << 0,
  kTakesAgentRoom = 1U << 1,
  kTakesActionKinds = 1U << 2,
  kTakesInstrKinds = 1U << 3,
  kTakesLocations = 1U << 4,
  kTakesUnblocking = 1U << 5,
  kTakesImplicitUnlock = 1U << 6,
  kTakesLockedRoomProb = 1U << 7,
  kTakesWfcPreset = 1U << 8,
  kTakesEnsureConnected = 1U << 9,
};

using LevelFactory = std::function<std::unique_ptr<Level>(const LevelConfig&)>;

struct LevelKind {
  std::string name;  // the env_name option's value
  LevelFactory make;
  uint32_t takes = 0;  // LevelOption bits
  // The room a level that does not take agent_room starts in: its
  // agent_room option must keep this value.
  std::array<int, 2> start_room = {1, 1};

  bool Takes(LevelOption option) const { return (takes & option) != 0; }
};

// A level of class L built from the options and the constructor arguments
// its row fixes (`args`, after the options).
template <typename L, typename... Args>
LevelFactory Make(Args... args) {
  return [args...](const LevelConfig& c) -> std::unique_ptr<Level> {
    return std::make_unique<L>(c, args...);
  };
}

// A LevelGen level: LevelGen with the arguments its class fixes; it takes
// (from the options) each of LevelGen's arguments its class leaves open.
inline LevelKind LevelGenKind(std::string name, LevelGenFixes fixes) {
  auto unless = [](bool fixed, LevelOption option) {
    return fixed ? 0U : static_cast<uint32_t>(option);
  };
  const uint32_t takes =
      unless(fixes.action_kinds.has_value(), kTakesActionKinds) |
      unless(fixes.instr_kinds.has_value(), kTakesInstrKinds) |
      unless(fixes.locations.has_value(), kTakesLocations) |
      unless(fixes.unblocking.has_value(), kTakesUnblocking) |
      unless(fixes.implicit_unlock.has_value(), kTakesImplicitUnlock) |
      unless(fixes.locked_room_prob.has_value(), kTakesLockedRoomProb);
  LevelFactory make = [fixes](const LevelConfig& c) -> std::unique_ptr<Level> {
    return std::make_unique<LevelGenLevel>(fixes.Apply(LevelGenParamsOf(c)));
  };
  return {std::move(name), std::move(make), takes};
}

// Every level, in registration order.
inline const std::vector<LevelKind>& LevelTable() {
  using Fixes = LevelGenFixes;
  static const std::vector<LevelKind> kTable = {
      // minigrid/envs
      {"empty", Make<EmptyLevel>(), kTakesAgentStartPos},
      {"doorkey", Make<DoorKeyLevel>()},
      {"distshift", Make<DistShiftLevel>(), kTakesAgentStartPos},
      {"crossing", Make<CrossingLevel>()},
      {"lava_gap", Make<LavaGapLevel>()},
      {"dynamic_obstacles", Make<DynamicObstaclesLevel>(), kTakesAgentStartPos},
      {"fetch", Make<FetchLevel>()},
      {"four_rooms", Make<FourRoomsLevel>()},
      {"goto_door", Make<GoToDoorLevel>()},
      {"goto_object", Make<GoToObjectLevel>()},
      {"key_corridor", Make<KeyCorridorLevel>()},
      {"locked_room", Make<LockedRoomLevel>()},
      {"memory", Make<MemoryLevel>()},
      {"multi_room", Make<MultiRoomLevel>()},
      // ObstructedMaze-1D* start in room (0, 0).
      {"obstructed_maze_1dlhb", Make<ObstructedMazeLevel>(0), 0, {0, 0}},
      {"obstructed_maze_full", Make<ObstructedMazeLevel>(1), kTakesAgentRoom},
      {"obstructed_maze_full_v1", Make<ObstructedMazeLevel>(2),
       kTakesAgentRoom},
      {"playground", Make<PlaygroundLevel>()},
      {"put_near", Make<PutNearLevel>()},
      {"red_blue_door", Make<RedBlueDoorsLevel>()},
      {"unlock", Make<UnlockLevel>()},
      {"unlock_pickup", Make<UnlockPickupLevel>(/*blocked=*/false)},
      {"blocked_unlock_pickup", Make<UnlockPickupLevel>(/*blocked=*/true)},
      {"wfc", Make<WfcLevel>(), kTakesWfcPreset | kTakesEnsureConnected},
      // minigrid/envs/babyai, written by hand (babyai_levels.h)
      {"babyai_goto_red_ball_grey", Make<GoToRedBallLevel>(/*grey=*/true)},
      {"babyai_goto_red_ball", Make<GoToRedBallLevel>(/*grey=*/false)},
      {"babyai_goto_red_ball_no_dists",
       Make<GoToRedBallLevel>(/*grey=*/false, /*no_dists=*/true)},
      {"babyai_goto_obj", Make<GoToObjLevel>()},
      {"babyai_goto_local", Make<GoToLocalLevel>()},
      {"babyai_goto", Make<GoToLevel>()},
      {"babyai_goto_imp_unlock", Make<GoToImpUnlockLevel>()},
      // minigrid's GoToSeq(LevelGen)
      LevelGenKind("babyai_goto_seq", Fixes()
                                          .ActionKinds({"goto"})
                                          .LockedRoomProb(0)
                                          .Locations(false)
                                          .Unblocking(false)),
      {"babyai_goto_red_blue_ball", Make<GoToRedBlueBallLevel>()},
      {"babyai_goto_door", Make<GoToDoorBabyLevel>()},
      {"babyai_goto_obj_door", Make<GoToObjDoorLevel>()},
      {"babyai_open", Make<OpenLevel>()},
      {"babyai_open_red_door", Make<OpenRedDoorLevel>()},
      {"babyai_open_door", Make<OpenDoorLevel>()},
      {"babyai_open_two_doors", Make<OpenTwoDoorsLevel>()},
      {"babyai_open_doors_order", Make<OpenDoorsOrderLevel>()},
      {"babyai_pickup", Make<PickupLevel>(/*unblock=*/false)},
      {"babyai_unblock_pickup", Make<PickupLevel>(/*unblock=*/true)},
      // minigrid's PickupLoc(LevelGen)
      LevelGenKind("babyai_pickup_loc", Fixes()
                                            .ActionKinds({"pickup"})
                                            .InstrKinds({"action"})
                                            .NumRows(1)
                                            .NumCols(1)
                                            .NumDists(8)
                                            .LockedRoomProb(0)
                                            .Locations(true)
                                            .Unblocking(false)),
      {"babyai_pickup_dist", Make<PickupDistLevel>()},
      {"babyai_pickup_above", Make<PickupAboveLevel>()},
      {"babyai_put_next_local", Make<PutNextLocalLevel>()},
      {"babyai_put_next", Make<PutNextLevel>()},
      {"babyai_unlock", Make<BabyUnlockLevel>()},
      {"babyai_unlock_local", Make<UnlockLocalLevel>()},
      {"babyai_key_in_box", Make<KeyInBoxLevel>()},
      {"babyai_unlock_pickup", Make<BabyUnlockPickupLevel>(/*blocked=*/false)},
      {"babyai_blocked_unlock_pickup",
       Make<BabyUnlockPickupLevel>(/*blocked=*/true)},
      {"babyai_unlock_to_unlock", Make<UnlockToUnlockLevel>()},
      {"babyai_action_obj_door", Make<ActionObjDoorLevel>()},
      {"babyai_find_obj", Make<FindObjLevel>()},
      {"babyai_key_corridor", Make<BabyKeyCorridorLevel>()},
      {"babyai_one_room", Make<OneRoomLevel>()},
      {"babyai_move_two_across", Make<MoveTwoAcrossLevel>()},
      // minigrid/envs/babyai/synth.py, all LevelGen (babyai_levelgen.h)
      LevelGenKind("babyai_synth", Fixes()
                                       .InstrKinds({"action"})
                                       .Locations(false)
                                       .Unblocking(true)
                                       .ImplicitUnlock(false)),
      LevelGenKind("babyai_synth_loc", Fixes()
                                           .InstrKinds({"action"})
                                           .Locations(true)
                                           .Unblocking(true)
                                           .ImplicitUnlock(false)),
      LevelGenKind(
          "babyai_synth_seq",
          Fixes().Locations(true).Unblocking(true).ImplicitUnlock(false)),
      LevelGenKind(
          "babyai_mini_boss_level",
          Fixes().NumCols(2).NumRows(2).RoomSize(5).NumDists(7).LockedRoomProb(
              0.25)),
      LevelGenKind("babyai_boss_level", Fixes()),
      LevelGenKind("babyai_boss_level_no_unlock",
                   Fixes().LockedRoomProb(0).ImplicitUnlock(false)),
  };
  return kTable;
}

// The env_name values this family builds, in registration order.
inline const std::vector<std::string>& LevelNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const LevelKind& level : LevelTable()) {
      names.push_back(level.name);
    }
    return names;
  }();
  return kNames;
}

// The row of `name`; an unknown name is an error naming every level.
inline const LevelKind& FindLevel(const std::string& name) {
  for (const LevelKind& level : LevelTable()) {
    if (level.name == name) {
      return level;
    }
  }
  std::string known;
  for (const std::string& level : LevelNames()) {
    known += (known.empty() ? "" : ", ") + level;
  }
  throw std::invalid_argument("MiniGrid option 'env_name' must be one of " +
                              known + "; got '" + name + "'");
}

inline std::unique_ptr<Level> MakeLevel(const LevelConfig& c) {
  return FindLevel(c.env_name).make(c);
}

// The options of minigrid's constructors apply to the levels whose row takes
// them; any other level keeps EnvPool's value (`LevelConfig`'s default, the
// start room for agent_room), and another value is an error rather than
// silently ignored.
inline void CheckLevelTakesOptions(const LevelConfig& c) {
  const LevelKind& level = FindLevel(c.env_name);
  const LevelConfig defaults;
  auto kinds_text = [](const std::vector<std::string>& kinds) {
    std::string text;
    for (const std::string& kind : kinds) {
      text += (text.empty() ? "" : ",") + kind;
    }
    return "'" + text + "'";
  };
  auto bool_text = [](bool value) { return value ? "true" : "false"; };
  std::ostringstream prob;
  prob << defaults.locked_room_prob;
  struct Kept {
    LevelOption option;
    const char* name;
    bool kept;
    std::string value;
  };
  const std::array<int, 2>& room = level.start_room;
  const Kept options[] = {
      {kTakesActionKinds, "action_kinds",
       c.action_kinds == defaults.action_kinds,
       kinds_text(defaults.action_kinds)},
      {kTakesInstrKinds, "instr_kinds", c.instr_kinds == defaults.instr_kinds,
       kinds_text(defaults.instr_kinds)},
      {kTakesLocations, "locations", c.locations == defaults.locations,
       bool_text(defaults.locations)},
      {kTakesUnblocking, "unblocking", c.unblocking == defaults.unblocking,
       bool_text(defaults.unblocking)},
      {kTakesImplicitUnlock, "implicit_unlock",
       c.implicit_unlock == defaults.implicit_unlock,
       bool_text(defaults.implicit_unlock)},
      {kTakesLockedRoomProb, "locked_room_prob",
       c.locked_room_prob == defaults.locked_room_prob, prob.str()},
      {kTakesAgentStartPos, "agent_start_pos",
       c.agent_start_x == defaults.agent_start_x &&
           c.agent_start_y == defaults.agent_start_y,
       "[" + std::to_string(defaults.agent_start_x) + ", " +
           std::to_string(defaults.agent_start_y) + "]"},
      {kTakesAgentRoom, "agent_room",
       c.agent_room_x == room[0] && c.agent_room_y == room[1],
       "[" + std::to_string(room[0]) + ", " + std::to_string(room[1]) +
           "], its start room"},
      {kTakesWfcPreset, "wfc_preset", c.wfc_preset == defaults.wfc_preset,
       "'" + defaults.wfc_preset + "'"},
      {kTakesEnsureConnected, "ensure_connected",
       c.ensure_connected == defaults.ensure_connected,
       bool_text(defaults.ensure_connected)},
  };
  for (const Kept& option : options) {
    if (level.Takes(option.option) || option.kept) {
      continue;
    }
    std::string takers;
    for (const LevelKind& other : LevelTable()) {
      if (other.Takes(option.option)) {
        takers += (takers.empty() ? "" : ", ") + other.name;
      }
    }
    throw std::invalid_argument(
        std::string("MiniGrid option '") + option.name +
        "' has no meaning for env_name '" + level.name +
        "': minigrid's class for this level does not take it or fixes it; "
        "keep " +
        option.value + " (the levels that take it: " + takers +
        "; docs/minigrid.md lists them by id)");
  }
}

}  // namespace envpool::minigrid

#endif  // ENVPOOL_MINIGRID_LEVEL_TABLE_H_
