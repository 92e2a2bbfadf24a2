#include "envpool/metaworld/tasks.h"

#include <math.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "envpool/core/numpy_kernels.h"

namespace envpool::metaworld {
namespace {

// The reach, push and pick-place tasks share the hand's bounds and initial
// position and the object's box (envs/sawyer_{reach,push,pick_place}_v3.py).
constexpr std::array<double, 3> kWideHandLow{-0.5, 0.40, 0.05};
constexpr std::array<double, 3> kWideHandHigh{0.5, 1.0, 0.5};
constexpr std::array<double, 3> kHandInit{0.0, 0.6, 0.2};
// The plate-slide tasks give theirs as float32 numbers.
constexpr std::array<double, 3> kHandInit32{0.0, static_cast<double>(0.6F),
                                            static_cast<double>(0.2F)};

// The button tasks' hand starts lower in y (float32 numbers); their goal
// observation is bounded by the hand's bounds.
constexpr std::array<double, 3> kButtonHandInit{0.0, static_cast<double>(0.4F),
                                                static_cast<double>(0.2F)};

TaskConfig Button(const char* name, const char* xml, TaskKind kind, int task_id,
                  std::array<double, 3> low, std::array<double, 3> high,
                  double success_threshold) {
  const bool topdown = kind == TaskKind::kButtonPressTopdown ||
                       kind == TaskKind::kButtonPressTopdownWall;
  TaskConfig task{name,
                  xml,
                  kind,
                  task_id,
                  kWideHandLow,
                  kWideHandHigh,
                  kButtonHandInit,
                  {low[0], low[1], low[2], 0.0, 0.0, 0.0},
                  {high[0], high[1], high[2], 0.0, 0.0, 0.0},
                  kWideHandLow,
                  kWideHandHigh};
  task.vector_size = 3;
  task.button_axis = topdown ? 2 : 1;
  task.button_offset = topdown ? std::array<double, 3>{0.0, 0.0, 0.193}
                               : std::array<double, 3>{0.0, -0.193, 0.0};
  task.success_threshold = success_threshold;
  return task;
}

TaskConfig HandlePress(const char* name, const char* xml, int task_id,
                       std::array<double, 3> low, std::array<double, 3> high,
                       std::array<double, 3> goal_low,
                       std::array<double, 3> goal_high, double target_radius) {
  TaskConfig task{name,
                  xml,
                  TaskKind::kHandlePress,
                  task_id,
                  kWideHandLow,
                  kWideHandHigh,
                  kHandInit,
                  {low[0], low[1], low[2], 0.0, 0.0, 0.0},
                  {high[0], high[1], high[2], 0.0, 0.0, 0.0},
                  goal_low,
                  goal_high};
  task.vector_size = 3;
  task.object_site = "handleStart";
  task.target_radius = target_radius;
  return task;
}

// The door lock tasks' hand goes lower.
constexpr std::array<double, 3> kDoorHandLow{-0.5, 0.40, -0.15};

TaskConfig DoorLock(const char* name, TaskKind kind, int task_id,
                    std::array<double, 3> goal_low,
                    std::array<double, 3> goal_high, const char* site) {
  TaskConfig task{name,
                  "sawyer_xyz/sawyer_door_lock.xml",  // both tasks' model
                  kind,
                  task_id,
                  kDoorHandLow,
                  kWideHandHigh,
                  kHandInit32,
                  {-0.1, 0.8, 0.15, 0.0, 0.0, 0.0},
                  {0.1, 0.85, 0.15, 0.0, 0.0, 0.0},
                  goal_low,
                  goal_high};
  task.vector_size = 3;
  task.object_site = site;
  return task;
}

TaskConfig PlateSlide(const char* name, const char* xml, TaskKind kind,
                      int task_id, std::array<double, 6> low,
                      std::array<double, 6> high,
                      std::array<double, 2> puck_qpos, PuckGoal puck_goal) {
  TaskConfig task{name,
                  xml,
                  kind,
                  task_id,
                  kWideHandLow,
                  kWideHandHigh,
                  kHandInit32,
                  low,
                  high,
                  {low[3], low[4], low[5]},
                  {high[3], high[4], high[5]}};
  task.object_geom = "puck";
  task.position_from_geom = true;
  task.puck_qpos = puck_qpos;
  task.puck_goal = puck_goal;
  return task;
}

// push-wall: the object's position and orientation are its geom's.
TaskConfig PushWall() {
  TaskConfig task{"push-wall-v3",
                  "sawyer_xyz/sawyer_push_wall_v3.xml",
                  TaskKind::kPushWall,
                  41,
                  kWideHandLow,
                  kWideHandHigh,
                  kHandInit,
                  {-0.05, 0.6, 0.015, -0.05, 0.85, 0.01},
                  {0.05, 0.65, 0.015, 0.05, 0.9, 0.02},
                  {-0.05, 0.85, 0.01},
                  {0.05, 0.9, 0.02}};
  task.position_from_geom = true;
  return task;
}

// push-back: the object's position and orientation are its geom's; the
// hand starts at float32 numbers.
TaskConfig PushBack() {
  TaskConfig task{"push-back-v3",
                  "sawyer_xyz/sawyer_push_back_v3.xml",
                  TaskKind::kPushBack,
                  42,
                  kWideHandLow,
                  kWideHandHigh,
                  kHandInit32,
                  {-0.1, 0.8, 0.02, -0.1, 0.6, 0.0199},
                  {0.1, 0.85, 0.02, 0.1, 0.7, 0.0201},
                  {-0.1, 0.6, 0.0199},
                  {0.1, 0.7, 0.0201}};
  task.position_from_geom = true;
  return task;
}

// pick-place-wall: the object's position and orientation are its geom's.
TaskConfig PickPlaceWall() {
  TaskConfig task{"pick-place-wall-v3",
                  "sawyer_xyz/sawyer_pick_place_wall_v3.xml",
                  TaskKind::kPickPlaceWall,
                  28,
                  kWideHandLow,
                  kWideHandHigh,
                  kHandInit,
                  {-0.05, 0.6, 0.015, -0.05, 0.85, 0.05},
                  {0.05, 0.65, 0.015, 0.05, 0.9, 0.3},
                  {-0.05, 0.85, 0.05},
                  {0.05, 0.9, 0.3}};
  task.position_from_geom = true;
  return task;
}

std::vector<TaskConfig> MakeTasks() {
  return {
      Button("button-press-topdown-v3",
             "sawyer_xyz/sawyer_button_press_topdown.xml",
             TaskKind::kButtonPressTopdown, 4, {-0.1, 0.8, 0.115},
             {0.1, 0.9, 0.115}, 0.024),
      Button("button-press-topdown-wall-v3",
             "sawyer_xyz/sawyer_button_press_topdown_wall.xml",
             TaskKind::kButtonPressTopdownWall, 5, {-0.1, 0.8, 0.115},
             {0.1, 0.9, 0.115}, 0.024),
      Button("button-press-v3", "sawyer_xyz/sawyer_button_press.xml",
             TaskKind::kButtonPress, 6, {-0.1, 0.85, 0.115}, {0.1, 0.9, 0.115},
             0.02),
      Button("button-press-wall-v3", "sawyer_xyz/sawyer_button_press_wall.xml",
             TaskKind::kButtonPressWall, 7, {-0.05, 0.85, 0.1149},
             {0.05, 0.9, 0.1151}, 0.03),
      HandlePress("handle-press-side-v3",
                  "sawyer_xyz/sawyer_handle_press_sideways.xml", 23,
                  {-0.35, 0.65, -0.001}, {-0.25, 0.75, 0.001}, kWideHandLow,
                  kWideHandHigh, 0.02),
      {"handle-pull-v3",
       "sawyer_xyz/sawyer_handle_press.xml",
       TaskKind::kHandlePull,
       26,
       kWideHandLow,
       kWideHandHigh,
       kHandInit,
       {-0.1, 0.8, -0.001, 0.0, 0.0, 0.0},
       {0.1, 0.9, 0.001, 0.0, 0.0, 0.0},
       {-0.1, 0.55, 0.04},
       {0.1, 0.70, 0.18},
       "",
       false,
       {},
       PuckGoal::kNone,
       3,
       1,
       {},
       0.0,
       "handleRight"},
      {"hand-insert-v3",
       "sawyer_xyz/sawyer_table_with_hole.xml",
       TaskKind::kHandInsert,
       17,
       kDoorHandLow,
       kWideHandHigh,
       kHandInit32,
       {-0.1, 0.6, 0.05, -0.04, 0.8, -0.0201},
       {0.1, 0.7, 0.05, 0.04, 0.88, -0.0199},
       {-0.04, 0.8, -0.0201},
       {0.04, 0.88, -0.0199}},
      {"handle-pull-side-v3",
       "sawyer_xyz/sawyer_handle_press_sideways.xml",
       TaskKind::kHandlePullSide,
       25,
       kWideHandLow,
       kWideHandHigh,
       kHandInit,
       {-0.35, 0.65, 0.0, 0.0, 0.0, 0.0},
       {-0.25, 0.75, 0.0, 0.0, 0.0, 0.0},
       kWideHandLow,
       kWideHandHigh,
       "",
       false,
       {},
       PuckGoal::kNone,
       3,
       1,
       {},
       0.0,
       "handleCenter"},
      HandlePress("handle-press-v3", "sawyer_xyz/sawyer_handle_press.xml", 24,
                  {-0.1, 0.8, -0.001}, {0.1, 0.9, 0.001}, {-0.1, 0.55, 0.04},
                  {0.1, 0.70, 0.08}, 0.02),
      {"coffee-button-v3",
       "sawyer_xyz/sawyer_coffee.xml",
       TaskKind::kCoffeeButton,
       8,
       kWideHandLow,
       kWideHandHigh,
       {0.0, 0.4, 0.2},
       {-0.1, 0.8, -0.001, 0.0, 0.0, 0.0},
       {0.1, 0.9, 0.001, 0.0, 0.0, 0.0},
       // obj_low + (-0.001, -0.22 + max_dist, 0.299), obj_high + (0.001,
       // -0.22 + max_dist, 0.301), max_dist 0.03.
       {-0.1 + -0.001, 0.8 + (-0.22 + 0.03), -0.001 + 0.299},
       {0.1 + 0.001, 0.9 + (-0.22 + 0.03), 0.001 + 0.301},
       "",
       false,
       {},
       PuckGoal::kNone,
       3,
       1,
       {},
       0.02,
       "buttonStart"},
      {"coffee-push-v3",
       "sawyer_xyz/sawyer_coffee.xml",
       TaskKind::kCoffeePush,
       10,
       kWideHandLow,
       kWideHandHigh,
       {0.0, 0.4, 0.2},
       {-0.1, 0.55, -0.001, -0.05, 0.7, -0.001},
       {0.1, 0.65, 0.001, 0.05, 0.75, 0.001},
       {-0.05, 0.7, -0.001},
       {0.05, 0.75, 0.001},
       "mug"},
      {"coffee-pull-v3",
       "sawyer_xyz/sawyer_coffee.xml",
       TaskKind::kCoffeePull,
       9,
       kWideHandLow,
       kWideHandHigh,
       {0.0, 0.4, 0.2},
       {-0.05, 0.7, -0.001, -0.1, 0.55, -0.001},
       {0.05, 0.75, 0.001, 0.1, 0.65, 0.001},
       {-0.1, 0.55, -0.001},
       {0.1, 0.65, 0.001},
       "mug"},
      DoorLock("door-lock-v3", TaskKind::kDoorLock, 14, kDoorHandLow,
               kWideHandHigh, "lockStartLock"),
      DoorLock("door-unlock-v3", TaskKind::kDoorUnlock, 16, {0.0, 0.64, 0.2100},
               {0.2, 0.7, 0.2111}, "lockStartUnlock"),
      {"lever-pull-v3",
       "sawyer_xyz/sawyer_lever_pull.xml",
       TaskKind::kLeverPull,
       27,
       kDoorHandLow,
       kWideHandHigh,
       kButtonHandInit,
       {-0.1, 0.7, 0.0, 0.0, 0.0, 0.0},
       {0.1, 0.8, 0.0, 0.0, 0.0, 0.0},
       kDoorHandLow,
       kWideHandHigh,
       "objGeom",
       false,
       {},
       PuckGoal::kNone,
       3,
       1,
       {},
       0.0,
       "leverStart"},
      {"drawer-open-v3",
       "sawyer_xyz/sawyer_drawer.xml",
       TaskKind::kDrawerOpen,
       19,
       kWideHandLow,
       kWideHandHigh,
       kHandInit32,
       {-0.1, 0.9, 0.0, 0.0, 0.0, 0.0},
       {0.1, 0.9, 0.0, 0.0, 0.0, 0.0},
       kWideHandLow,
       kWideHandHigh,
       "",
       false,
       {},
       PuckGoal::kNone,
       3},
      {"window-open-v3",
       "sawyer_xyz/sawyer_window_horizontal.xml",
       TaskKind::kWindowOpen,
       48,
       kWideHandLow,
       kWideHandHigh,
       kButtonHandInit,
       {-0.1, 0.7, 0.16, 0.0, 0.0, 0.0},
       {0.1, 0.9, 0.16, 0.0, 0.0, 0.0},
       kWideHandLow,
       kWideHandHigh,
       "",
       false,
       {},
       PuckGoal::kNone,
       3,
       1,
       {},
       0.0,
       "handleOpenStart",
       0.05},
      {"window-close-v3",
       "sawyer_xyz/sawyer_window_horizontal.xml",
       TaskKind::kWindowClose,
       49,
       kWideHandLow,
       kWideHandHigh,
       kButtonHandInit,
       {0.0, 0.75, 0.2, 0.0, 0.0, 0.0},
       {0.0, 0.9, 0.2, 0.0, 0.0, 0.0},
       kWideHandLow,
       kWideHandHigh,
       "",
       false,
       {},
       PuckGoal::kNone,
       3,
       1,
       {},
       0.0,
       "handleCloseStart",
       0.05},
      {"drawer-close-v3",
       "sawyer_xyz/sawyer_drawer.xml",
       TaskKind::kDrawerClose,
       18,
       kWideHandLow,
       kWideHandHigh,
       kHandInit32,
       {-0.1, 0.9, 0.0, 0.0, 0.0, 0.0},
       {0.1, 0.9, 0.0, 0.0, 0.0, 0.0},
       kWideHandLow,
       kWideHandHigh,
       "",
       false,
       {},
       PuckGoal::kNone,
       3},
      // The faucet tasks' hand starts at float64 numbers.
      {"faucet-open-v3",
       "sawyer_xyz/sawyer_faucet.xml",
       TaskKind::kFaucetOpen,
       20,
       kDoorHandLow,
       kWideHandHigh,
       {0.0, 0.4, 0.2},
       {-0.05, 0.8, 0.0, 0.0, 0.0, 0.0},
       {0.05, 0.85, 0.0, 0.0, 0.0, 0.0},
       kDoorHandLow,
       kWideHandHigh,
       "",
       false,
       {},
       PuckGoal::kNone,
       3,
       1,
       {},
       0.0,
       "handleStartOpen",
       0.07},
      {"faucet-close-v3",
       "sawyer_xyz/sawyer_faucet.xml",
       TaskKind::kFaucetClose,
       21,
       kDoorHandLow,
       kWideHandHigh,
       {0.0, 0.4, 0.2},
       {-0.1, 0.8, 0.0, 0.0, 0.0, 0.0},
       {0.1, 0.85, 0.0, 0.0, 0.0, 0.0},
       kDoorHandLow,
       kWideHandHigh,
       "",
       false,
       {},
       PuckGoal::kNone,
       3,
       1,
       {},
       0.0,
       "handleStartClose",
       0.07},
      // door-close's hand starts at the float32 (-0.5, 0.6, 0.2).
      {"door-close-v3",
       "sawyer_xyz/sawyer_door_pull.xml",
       TaskKind::kDoorClose,
       13,
       kWideHandLow,
       kWideHandHigh,
       {-0.5, static_cast<double>(0.6F), static_cast<double>(0.2F)},
       {0.0, 0.85, 0.15, 0.0, 0.0, 0.0},
       {0.1, 0.95, 0.15, 0.0, 0.0, 0.0},
       {0.2, 0.65, 0.1499},
       {0.3, 0.75, 0.1501},
       "handle",
       true,
       {},
       PuckGoal::kNone,
       3},
      {"door-open-v3",
       "sawyer_xyz/sawyer_door_pull.xml",
       TaskKind::kDoorOpen,
       15,
       kWideHandLow,
       kWideHandHigh,
       kHandInit,
       {0.0, 0.85, 0.15, 0.0, 0.0, 0.0},
       {0.1, 0.95, 0.15, 0.0, 0.0, 0.0},
       {-0.3, 0.4, 0.1499},
       {-0.2, 0.5, 0.1501},
       "handle",
       true,
       {},
       PuckGoal::kNone,
       3},
      // pick-out-of-hole's hand goes below the table's top (into the hole).
      {"pick-out-of-hole-v3",
       "sawyer_xyz/sawyer_pick_out_of_hole.xml",
       TaskKind::kPickOutOfHole,
       29,
       {-0.5, 0.40, -0.05},
       kWideHandHigh,
       kHandInit,
       {0.0, 0.75, 0.02, -0.1, 0.5, 0.15},
       {0.0, 0.75, 0.02, 0.1, 0.6, 0.3},
       {-0.1, 0.5, 0.15},
       {0.1, 0.6, 0.3}},
      {"dial-turn-v3",
       "sawyer_xyz/sawyer_dial.xml",
       TaskKind::kDialTurn,
       11,
       kWideHandLow,
       kWideHandHigh,
       kHandInit32,
       {-0.1, 0.7, 0.0, 0.0, 0.0, 0.0},
       {0.1, 0.8, 0.0, 0.0, 0.0, 0.0},
       {-0.1, 0.73, 0.0299},
       {0.1, 0.83, 0.0301},
       "",
       false,
       {},
       PuckGoal::kNone,
       3},
      PlateSlide("plate-slide-v3", "sawyer_xyz/sawyer_plate_slide.xml",
                 TaskKind::kPlateSlide, 31, {0.0, 0.6, 0.0, -0.1, 0.85, 0.0},
                 {0.0, 0.6, 0.0, 0.1, 0.9, 0.0}, {0.0, 0.0}, PuckGoal::kTarget),
      PlateSlide(
          "plate-slide-side-v3", "sawyer_xyz/sawyer_plate_slide_sideway.xml",
          TaskKind::kPlateSlideSide, 32, {0.0, 0.6, 0.0, -0.3, 0.54, 0.0},
          {0.0, 0.6, 0.0, -0.25, 0.66, 0.0}, {0.0, 0.0}, PuckGoal::kNone),
      PlateSlide(
          "plate-slide-back-v3", "sawyer_xyz/sawyer_plate_slide.xml",
          TaskKind::kPlateSlideSide, 33, {0.0, 0.85, 0.0, -0.1, 0.6, 0.015},
          {0.0, 0.85, 0.0, 0.1, 0.6, 0.015}, {0.0, 0.15}, PuckGoal::kNone),
      PlateSlide("plate-slide-back-side-v3",
                 "sawyer_xyz/sawyer_plate_slide_sideway.xml",
                 TaskKind::kPlateSlideSide, 34,
                 {-0.25, 0.6, 0.0, -0.05, 0.6, 0.015},
                 {-0.25, 0.6, 0.0, 0.15, 0.6, 0.015}, {-0.15, 0.0},
                 PuckGoal::kObjectStart),
      {"pick-place-v3",
       "sawyer_xyz/sawyer_pick_place_v3.xml",
       TaskKind::kPickPlace,
       30,
       kWideHandLow,
       kWideHandHigh,
       kHandInit,
       {-0.1, 0.6, 0.02, -0.1, 0.8, 0.05},
       {0.1, 0.7, 0.02, 0.1, 0.9, 0.3},
       {-0.1, 0.8, 0.05},
       {0.1, 0.9, 0.3}},
      {"push-v3",
       "sawyer_xyz/sawyer_push_v3.xml",
       TaskKind::kPush,
       40,
       kWideHandLow,
       kWideHandHigh,
       kHandInit,
       {-0.1, 0.6, 0.02, -0.1, 0.8, 0.01},
       {0.1, 0.7, 0.02, 0.1, 0.9, 0.02},
       {-0.1, 0.8, 0.01},
       {0.1, 0.9, 0.02}},
      PushWall(),
      PickPlaceWall(),
      {"shelf-place-v3",
       "sawyer_xyz/sawyer_shelf_placing.xml",
       TaskKind::kShelfPlace,
       45,
       kWideHandLow,
       kWideHandHigh,
       kHandInit32,
       {-0.1, 0.5, 0.019, -0.1, 0.8, 0.299},
       {0.1, 0.6, 0.021, 0.1, 0.9, 0.301},
       {-0.1, 0.8, 0.299},
       {0.1, 0.9, 0.301}},
      PushBack(),
      {"soccer-v3",
       "sawyer_xyz/sawyer_soccer.xml",
       TaskKind::kSoccer,
       37,
       kWideHandLow,
       kWideHandHigh,
       kHandInit,
       {-0.1, 0.6, 0.03, -0.1, 0.8, 0.0},
       {0.1, 0.7, 0.03, 0.1, 0.9, 0.0},
       {-0.1, 0.8, 0.0},
       {0.1, 0.9, 0.0}},
      {"sweep-v3",
       "sawyer_xyz/sawyer_sweep_v3.xml",
       TaskKind::kSweep,
       47,
       kWideHandLow,
       kWideHandHigh,
       kHandInit,
       {-0.1, 0.6, 0.02, 0.0, 0.0, 0.0},
       {0.1, 0.7, 0.02, 0.0, 0.0, 0.0},
       {0.49, 0.6, 0.0},
       {0.51, 0.7, 0.02},
       "objGeom",
       false,
       {},
       PuckGoal::kNone,
       3},
      {"sweep-into-v3",
       "sawyer_xyz/sawyer_table_with_hole.xml",
       TaskKind::kSweepInto,
       46,
       kWideHandLow,
       kWideHandHigh,
       kHandInit,
       {-0.1, 0.6, 0.02, -0.001, 0.8399, 0.0199},
       {0.1, 0.7, 0.02, 0.001, 0.8401, 0.0201},
       {-0.001, 0.8399, 0.0199},
       {0.001, 0.8401, 0.0201}},
      {"reach-v3",
       "sawyer_xyz/sawyer_reach_v3.xml",
       TaskKind::kReach,
       43,
       kWideHandLow,
       kWideHandHigh,
       kHandInit,
       {-0.1, 0.6, 0.02, -0.1, 0.8, 0.05},
       {0.1, 0.7, 0.02, 0.1, 0.9, 0.3},
       {-0.1, 0.8, 0.05},
       {0.1, 0.9, 0.3}},
      {"reach-wall-v3",
       "sawyer_xyz/sawyer_reach_wall_v3.xml",
       TaskKind::kReachWall,
       44,
       kWideHandLow,
       kWideHandHigh,
       kHandInit,
       {-0.05, 0.6, 0.015, -0.05, 0.85, 0.05},
       {0.05, 0.65, 0.015, 0.05, 0.9, 0.3},
       {-0.05, 0.85, 0.05},
       {0.05, 0.9, 0.3}},
      // The tool tasks (envs/sawyer_{hammer,disassemble_peg,peg_unplug_side,
      // basketball}_v3.py).
      {"hammer-v3",
       "sawyer_xyz/sawyer_hammer.xml",
       TaskKind::kHammer,
       22,
       kWideHandLow,
       kWideHandHigh,
       {0.0, 0.4, 0.2},
       {-0.1, 0.4, 0.0, 0.0, 0.0, 0.0},
       {0.1, 0.5, 0.0, 0.0, 0.0, 0.0},
       {0.2399, 0.7399, 0.109},
       {0.2401, 0.7401, 0.111},
       "HammerHandle",
       false,
       {},
       PuckGoal::kNone,
       3},
      // assembly: the nut's start fixed, the goal (the peg's top) drawn.
      {"assembly-v3",
       "sawyer_xyz/sawyer_assembly_peg.xml",
       TaskKind::kAssembly,
       0,
       kWideHandLow,
       kWideHandHigh,
       kHandInit32,
       {0.0, 0.6, 0.02, -0.1, 0.75, 0.1},
       {0.0, 0.6, 0.02, 0.1, 0.85, 0.1},
       {-0.1, 0.75, 0.1},
       {0.1, 0.85, 0.1},
       "WrenchHandle",
       false,
       {},
       PuckGoal::kNone,
       6,
       1,
       {},
       0.0,
       "RoundNut-8"},
      // bin-picking: the hand kept higher (0.07); the goal is the target
      // bin's body, the goal box a small one around it.
      {"bin-picking-v3",
       "sawyer_xyz/sawyer_bin_picking.xml",
       TaskKind::kBinPicking,
       2,
       {-0.5, 0.40, 0.07},
       kWideHandHigh,
       kHandInit,
       {-0.21, 0.65, 0.02, 0.1199, 0.699, -0.001},
       {-0.03, 0.75, 0.02, 0.1201, 0.701, 0.001},
       {0.1199, 0.699, -0.001},
       {0.1201, 0.701, 0.001}},
      // box-close: the lid's start and the box's place drawn.
      {"box-close-v3",
       "sawyer_xyz/sawyer_box.xml",
       TaskKind::kBoxClose,
       3,
       kWideHandLow,
       kWideHandHigh,
       kHandInit32,
       {-0.05, 0.5, 0.02, -0.1, 0.7, 0.133},
       {0.05, 0.55, 0.02, 0.1, 0.8, 0.133},
       {-0.1, 0.7, 0.133},
       {0.1, 0.8, 0.133},
       "BoxHandleGeom"},
      // disassemble: the goal box raised by 0.005 in z.
      {"disassemble-v3",
       "sawyer_xyz/sawyer_assembly_peg.xml",
       TaskKind::kDisassemble,
       12,
       kWideHandLow,
       kWideHandHigh,
       kButtonHandInit,
       {0.0, 0.6, 0.025, -0.1, 0.6, 0.1699},
       {0.1, 0.75, 0.02501, 0.1, 0.75, 0.1701},
       {-0.1 + 0.0, 0.6 + 0.0, 0.1699 + 0.005},
       {0.1 + 0.0, 0.75 + 0.0, 0.1701 + 0.005},
       "WrenchHandle",
       false,
       {},
       PuckGoal::kNone,
       6,
       1,
       {},
       0.0,
       "RoundNut-8"},
      // peg-unplug-side: the goal box is the box's plus (0.194, 0, 0.131).
      {"peg-unplug-side-v3",
       "sawyer_xyz/sawyer_peg_unplug_side.xml",
       TaskKind::kPegUnplugSide,
       36,
       kWideHandLow,
       kWideHandHigh,
       kHandInit,
       {-0.25, 0.6, -0.001, 0.0, 0.0, 0.0},
       {-0.15, 0.8, 0.001, 0.0, 0.0, 0.0},
       {-0.25 + 0.194, 0.6 + 0.0, -0.001 + 0.131},
       {-0.15 + 0.194, 0.8 + 0.0, 0.001 + 0.131},
       "",
       false,
       {},
       PuckGoal::kNone,
       3,
       1,
       {},
       0.0,
       "pegEnd"},
      // basketball: the goal box is the hoop's, (0, -0.083, 0.25) above the
      // drawn basket.
      {"basketball-v3",
       "sawyer_xyz/sawyer_basketball.xml",
       TaskKind::kBasketball,
       1,
       kWideHandLow,
       kWideHandHigh,
       kHandInit32,
       {-0.1, 0.6, 0.0299, -0.1, 0.85, 0.0},
       {0.1, 0.7, 0.0301, 0.1, 0.9 + 1e-7, 0.0},
       {-0.1 + 0.0, 0.85 + -0.083, 0.0 + 0.2499},
       {0.1 + 0.0, (0.9 + 1e-7) + -0.083, 0.0 + 0.2501}},
      // peg-insert-side: the goal is the box's hole, (0.03, 0, 0.13) from it.
      {"peg-insert-side-v3",
       "sawyer_xyz/sawyer_peg_insertion_side.xml",
       TaskKind::kPegInsertSide,
       35,
       kWideHandLow,
       kWideHandHigh,
       kHandInit,
       {0.0, 0.5, 0.02, -0.35, 0.4, -0.001},
       {0.2, 0.7, 0.02, -0.25, 0.7, 0.001},
       {-0.35 + 0.03, 0.4 + 0.0, -0.001 + 0.13},
       {-0.25 + 0.03, 0.7 + 0.0, 0.001 + 0.13},
       "",
       false,
       {},
       PuckGoal::kNone,
       6,
       1,
       {},
       0.0,
       "pegGrasp"},
      {"stick-push-v3",
       "sawyer_xyz/sawyer_stick_obj.xml",
       TaskKind::kStickPush,
       38,
       kWideHandLow,
       kWideHandHigh,
       kHandInit,
       {-0.08, 0.58, 0.000, 0.399, 0.55, 0.1319},
       {-0.03, 0.62, 0.001, 0.401, 0.6, 0.1321},
       {0.399, 0.55, 0.1319},
       {0.401, 0.6, 0.1321}},
      // stick-pull: the hand goes nearer (y from 0.35).
      {"stick-pull-v3",
       "sawyer_xyz/sawyer_stick_obj.xml",
       TaskKind::kStickPull,
       39,
       {-0.5, 0.35, 0.05},
       kWideHandHigh,
       kHandInit,
       {-0.1, 0.55, 0.000, 0.35, 0.45, 0.0199},
       {0.0, 0.65, 0.001, 0.45, 0.55, 0.0201},
       {0.35, 0.45, 0.0199},
       {0.45, 0.55, 0.0201}},
  };
}

Number Combine(Number a, Number b, double (*op)(double, double),
               float (*op32)(float, float)) {
  if (a.single || b.single) {
    return Number{static_cast<double>(op32(static_cast<float>(a.value),
                                           static_cast<float>(b.value))),
                  true};
  }
  return Number{op(a.value, b.value), false};
}

}  // namespace

double ScalarSquare(double x) {
  // Called through a pointer the compiler cannot see through, so that it
  // does not turn pow(x, 2) into x * x.
  static double (*volatile const libm_pow)(double, double) = &::pow;
  return libm_pow(x, 2.0);
}

namespace {

// The tasks whose reset_model() redraws the task vector, read from metaworld
// 3.1.1's envs/sawyer_*_v3.py (the others draw once).
struct RedrawRule {
  const char* name;
  Redraw redraw;
  double min_distance;
  std::array<double, 2> fixed_goal;
};
constexpr RedrawRule kRedrawRules[] = {
    {"assembly-v3", Redraw::kObjectGoal, 0.1, {}},
    {"basketball-v3", Redraw::kObjectGoal, 0.15, {}},
    {"box-close-v3", Redraw::kObjectGoal, 0.25, {}},
    {"coffee-pull-v3", Redraw::kObjectGoal, 0.15, {}},
    {"coffee-push-v3", Redraw::kObjectGoal, 0.15, {}},
    {"disassemble-v3", Redraw::kObjectGoal, 0.1, {}},
    {"hand-insert-v3", Redraw::kObjectGoal, 0.15, {}},
    {"pick-place-wall-v3", Redraw::kObjectGoal, 0.15, {}},
    {"pick-out-of-hole-v3", Redraw::kObjectGoal, 0.15, {}},
    {"pick-place-v3", Redraw::kObjectGoal, 0.15, {}},
    {"peg-insert-side-v3", Redraw::kObjectGoal, 0.1, {}},
    {"soccer-v3", Redraw::kObjectGoal, 0.15, {}},
    {"stick-push-v3", Redraw::kObjectGoal, 0.1, {}},
    {"stick-pull-v3", Redraw::kObjectGoal, 0.1, {}},
    {"push-v3", Redraw::kObjectGoal, 0.15, {}},
    {"push-wall-v3", Redraw::kObjectGoal, 0.15, {}},
    {"push-back-v3", Redraw::kObjectGoal, 0.15, {}},
    {"reach-v3", Redraw::kObjectGoal, 0.15, {}},
    {"reach-wall-v3", Redraw::kObjectGoal, 0.15, {}},
    {"shelf-place-v3", Redraw::kObjectGoal, 0.1, {}},
    // sweep-into compares the object with its fixed goal.
    {"sweep-into-v3", Redraw::kFixedGoal, 0.15, {0.0, 0.84}},
};

std::vector<TaskConfig> TasksWithRedrawRules() {
  std::vector<TaskConfig> tasks = MakeTasks();
  for (const RedrawRule& rule : kRedrawRules) {
    auto task = std::find_if(
        tasks.begin(), tasks.end(),
        [&](const TaskConfig& t) { return std::string(t.name) == rule.name; });
    if (task == tasks.end()) {
      throw std::logic_error(std::string("kRedrawRules names ") + rule.name +
                             ", which the task table lacks");
    }
    task->redraw = rule.redraw;
    task->min_distance = rule.min_distance;
    task->fixed_goal = rule.fixed_goal;
  }
  return tasks;
}

}  // namespace

const std::vector<TaskConfig>& Tasks() {
  static const std::vector<TaskConfig> tasks = TasksWithRedrawRules();
  return tasks;
}

const TaskConfig& TaskById(int task_id) {
  static const std::vector<const TaskConfig*> by_id = [] {
    std::vector<const TaskConfig*> all(Tasks().size(), nullptr);
    for (const TaskConfig& task : Tasks()) {
      all.at(task.task_id) = &task;
    }
    return all;
  }();
  if (task_id < 0 || task_id >= static_cast<int>(by_id.size()) ||
      by_id[task_id] == nullptr) {
    throw std::out_of_range("no Meta-World task has task_id " +
                            std::to_string(task_id));
  }
  return *by_id[task_id];
}

const TaskConfig& FindTask(const std::string& name) {
  std::string names;
  for (const TaskConfig& task : Tasks()) {
    if (name == task.name) {
      return task;
    }
    names += names.empty() ? "" : ", ";
    names += std::string("'") + task.name + "'";
  }
  throw std::invalid_argument("option 'task_name' must be one of " + names +
                              " (the Meta-World tasks implemented), got '" +
                              name + "'");
}

Number operator+(Number a, Number b) {
  return Combine(
      a, b, [](double x, double y) { return x + y; },
      [](float x, float y) { return x + y; });
}
Number operator-(Number a, Number b) {
  return Combine(
      a, b, [](double x, double y) { return x - y; },
      [](float x, float y) { return x - y; });
}
Number operator*(Number a, Number b) {
  return Combine(
      a, b, [](double x, double y) { return x * y; },
      [](float x, float y) { return x * y; });
}
Number operator/(Number a, Number b) {
  return Combine(
      a, b, [](double x, double y) { return x / y; },
      [](float x, float y) { return x / y; });
}

double GaussianTolerance(double x, double lower, double upper, double margin) {
  if (lower <= x && x <= upper) {
    return 1.0;
  }
  if (margin == 0.0) {
    return 0.0;
  }
  // _sigmoids' scale np.sqrt(-2 * np.log(0.1)) (sqrt is correctly rounded
  // in numpy and libm alike), then np.exp(-0.5 * (d * scale) ** 2).
  const double scale = std::sqrt(-2.0 * numpy_kernels::Log(0.1));
  const double d = (x < lower ? lower - x : x - upper) / margin;
  return numpy_kernels::Exp(-0.5 * ScalarSquare(d * scale));
}

double LongTailTolerance(double x, double lower, double upper, double margin) {
  if (lower <= x && x <= upper) {
    return 1.0;
  }
  if (margin == 0.0) {
    return 0.0;
  }
  // _sigmoids' scale: np.sqrt(1 / 0.1 - 1), which is 3 exactly.
  const double scale = std::sqrt(1.0 / 0.1 - 1.0);
  const double d = (x < lower ? lower - x : x - upper) / margin;
  return 1.0 / (ScalarSquare(d * scale) + 1.0);
}

Number HamacherProduct(Number a, Number b) {
  const Number denominator = a + b - a * b;
  if (denominator.value > 0.0) {
    return a * b / denominator;
  }
  return Py(0.0);
}

Number ClampedEffort(float effort, double cap) {
  // max(0, effort): effort when effort > 0, else the Python 0.
  if (!(effort > 0.0F)) {
    return Py(0.0);
  }
  // min(that, cap): the cap when cap < effort.
  if (cap < static_cast<double>(effort)) {
    return Py(cap);
  }
  return Number{static_cast<double>(effort), true};
}

void MatrixToQuaternion(const double* m, double* quat) {
  // Markley's method as scipy applies it to an orthogonal matrix: the
  // largest of the diagonal and the trace picks the formula (the first of
  // equals).
  const double trace = m[0] + m[4] + m[8];
  const double decision[4] = {m[0], m[4], m[8], trace};
  int choice = 0;
  for (int k = 1; k < 4; ++k) {
    if (decision[k] > decision[choice]) {
      choice = k;
    }
  }
  if (choice == 3) {
    quat[0] = m[7] - m[5];
    quat[1] = m[2] - m[6];
    quat[2] = m[3] - m[1];
    quat[3] = 1.0 + trace;
  } else {
    const int i = choice;
    const int j = (i + 1) % 3;
    const int k = (j + 1) % 3;
    quat[i] = 1.0 - trace + 2.0 * m[4 * i];
    quat[j] = m[3 * j + i] + m[3 * i + j];
    quat[k] = m[3 * k + i] + m[3 * i + k];
    quat[3] = m[3 * k + j] - m[3 * j + k];
  }
  const double norm = std::sqrt(quat[0] * quat[0] + quat[1] * quat[1] +
                                quat[2] * quat[2] + quat[3] * quat[3]);
  for (int n = 0; n < 4; ++n) {
    quat[n] /= norm;
  }
}

}  // namespace envpool::metaworld
