// The combined-action table without an engine: the digits of a cfg's
// buttons, the number of combinations and the buttons each index presses,
// against the indices EnvPool 1.2.5 pressed on D3_battle.cfg.
#include "envpool/vizdoom/combined_actions.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace envpool::vizdoom {
namespace {

using ::vizdoom::Button;

std::vector<double> Pressed(const std::vector<ComboDigit>& digits,
                            int64_t index, std::size_t num_buttons) {
  std::vector<double> buttons(num_buttons, 7.0);  // every value overwritten
  PressCombinedAction(digits, index, &buttons);
  return buttons;
}

TEST(CombinedActionsTest, D3BattleIndicesPressEnvpoolsButtons) {
  // D3_battle.cfg's available_buttons, in the cfg's order.
  const std::vector<Button> buttons = {
      ::vizdoom::MOVE_FORWARD, ::vizdoom::MOVE_BACKWARD, ::vizdoom::MOVE_RIGHT,
      ::vizdoom::MOVE_LEFT,    ::vizdoom::TURN_LEFT,     ::vizdoom::TURN_RIGHT,
      ::vizdoom::ATTACK,       ::vizdoom::SPEED};
  const std::vector<ComboDigit> digits = CombinedActionDigits(buttons, {});
  // ATTACK, SPEED, MOVE_RIGHT/LEFT, MOVE_BACKWARD/FORWARD, TURN_RIGHT/LEFT.
  ASSERT_EQ(digits.size(), 5U);
  EXPECT_EQ(CombinedActionCount(digits), 108);
  // Index -> pressed buttons, as EnvPool 1.2.5 pressed them (read back from
  // the demos it recorded; test_vizdoom.py has the same table).
  const std::vector<std::pair<int64_t, std::vector<Button>>> seen = {
      {0, {}},
      {1, {::vizdoom::TURN_RIGHT}},
      {2, {::vizdoom::TURN_LEFT}},
      {3, {::vizdoom::MOVE_BACKWARD}},
      {6, {::vizdoom::MOVE_FORWARD}},
      {9, {::vizdoom::MOVE_RIGHT}},
      {18, {::vizdoom::MOVE_LEFT}},
      {27, {::vizdoom::SPEED}},
      {54, {::vizdoom::ATTACK}},
      {107,
       {::vizdoom::MOVE_FORWARD, ::vizdoom::MOVE_LEFT, ::vizdoom::TURN_LEFT,
        ::vizdoom::ATTACK, ::vizdoom::SPEED}},
  };
  for (const auto& [index, on] : seen) {
    std::vector<double> want(buttons.size(), 0.0);
    for (Button b : on) {
      for (std::size_t i = 0; i < buttons.size(); ++i) {
        if (buttons[i] == b) {
          want[i] = 1.0;
        }
      }
    }
    EXPECT_EQ(Pressed(digits, index, buttons.size()), want) << index;
  }
}

TEST(CombinedActionsTest, WeaponSlotsAreOneDigitAndDropsAreNeverPressed) {
  const std::vector<Button> buttons = {
      ::vizdoom::SELECT_WEAPON2, ::vizdoom::DROP_SELECTED_WEAPON,
      ::vizdoom::SELECT_WEAPON1, ::vizdoom::ACTIVATE_SELECTED_ITEM,
      ::vizdoom::SELECT_WEAPON0};
  const std::vector<ComboDigit> digits = CombinedActionDigits(buttons, {});
  ASSERT_EQ(digits.size(), 1U);
  EXPECT_EQ(CombinedActionCount(digits), 4);  // none, 1, 2, 0
  EXPECT_EQ(Pressed(digits, 1, 5), (std::vector<double>{0, 0, 1, 0, 0}));
  EXPECT_EQ(Pressed(digits, 2, 5), (std::vector<double>{1, 0, 0, 0, 0}));
  EXPECT_EQ(Pressed(digits, 3, 5), (std::vector<double>{0, 0, 0, 0, 1}));
}

TEST(CombinedActionsTest, DeltaButtonsTakeEvenlySpacedValues) {
  const std::vector<Button> buttons = {::vizdoom::TURN_LEFT_RIGHT_DELTA,
                                       ::vizdoom::ATTACK,
                                       ::vizdoom::LOOK_UP_DOWN_DELTA};
  // LOOK_UP_DOWN_DELTA is not configured: it stays 0 and has no digit.
  const OptionTable deltas = {{"TURN_LEFT_RIGHT_DELTA", {5, -10, 10}}};
  const std::vector<ComboDigit> digits = CombinedActionDigits(buttons, deltas);
  ASSERT_EQ(digits.size(), 2U);  // ATTACK, then the delta (button order)
  EXPECT_EQ(digits[1].values, (std::vector<double>{-10, -5, 0, 5, 10}));
  EXPECT_EQ(CombinedActionCount(digits), 10);
  EXPECT_EQ(Pressed(digits, 0, 3), (std::vector<double>{-10, 0, 0}));
  EXPECT_EQ(Pressed(digits, 4, 3), (std::vector<double>{10, 0, 0}));
  EXPECT_EQ(Pressed(digits, 7, 3), (std::vector<double>{0, 1, 0}));
  const std::vector<ComboDigit> one =
      CombinedActionDigits(buttons, {{"TURN_LEFT_RIGHT_DELTA", {1, 3, 9}}});
  EXPECT_EQ(one[1].values, (std::vector<double>{3}));
}

TEST(CombinedActionsTest, BadDeltaRowsNameTheOption) {
  const std::vector<Button> buttons = {::vizdoom::TURN_LEFT_RIGHT_DELTA,
                                       ::vizdoom::ATTACK};
  const std::vector<OptionTable> bad = {
      {{"NO_SUCH_BUTTON", {2, 0, 1}}},
      {{"ATTACK", {2, 0, 1}}},                 // not a delta button
      {{"LOOK_UP_DOWN_DELTA", {2, 0, 1}}},     // not in the cfg
      {{"TURN_LEFT_RIGHT_DELTA", {0, 0, 1}}},  // no values
      {{"TURN_LEFT_RIGHT_DELTA", {2.5, 0, 1}}},
      {{"TURN_LEFT_RIGHT_DELTA", {2, 0}}},
  };
  for (const OptionTable& deltas : bad) {
    try {
      CombinedActionDigits(buttons, deltas);
      ADD_FAILURE() << "no error for " << deltas.begin()->first;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("delta_button_config"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(CombinedActionsTest, MoreThanTwoToTheThirtyOneCombinationsIsAnError) {
  const std::vector<Button> buttons = {::vizdoom::TURN_LEFT_RIGHT_DELTA,
                                       ::vizdoom::LOOK_UP_DOWN_DELTA,
                                       ::vizdoom::MOVE_UP_DOWN_DELTA};
  const OptionTable deltas = {{"TURN_LEFT_RIGHT_DELTA", {1e6, 0, 1}},
                              {"LOOK_UP_DOWN_DELTA", {1e6, 0, 1}}};
  EXPECT_THROW(CombinedActionCount(CombinedActionDigits(buttons, deltas)),
               std::invalid_argument);
}

}  // namespace
}  // namespace envpool::vizdoom
