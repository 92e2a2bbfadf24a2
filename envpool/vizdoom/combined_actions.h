// EnvPool's combined actions of the ViZDoom envs (use_combined_action=True):
// one Discrete(n) action over every combination of the cfg's buttons in
// which buttons that undo each other are not pressed together.
//
// The action index is a number with one digit per group of the buttons the
// cfg lists: a binary button (ATTACK, USE, JUMP, CROUCH, TURN180,
// ALTATTACK, RELOAD, ZOOM, SPEED, STRAFE, LAND) is off or on; a pair
// (MOVE_RIGHT/MOVE_LEFT, MOVE_BACKWARD/MOVE_FORWARD, TURN_RIGHT/TURN_LEFT,
// LOOK_UP/LOOK_DOWN, MOVE_UP/MOVE_DOWN, SELECT_NEXT/PREV_WEAPON,
// SELECT_NEXT/PREV_ITEM) and the weapon slots SELECT_WEAPON1..SELECT_WEAPON0
// are none or one of them; a delta button named in delta_button_config
// {name: [n, low, high]} takes one of n evenly spaced values from low to
// high.  The drop and activate buttons and the other delta buttons stay 0.
// Digits are in ViZDoom's button order, the first the most significant; a
// group's choices are none, then its buttons in that order.
#ifndef ENVPOOL_VIZDOOM_COMBINED_ACTIONS_H_
#define ENVPOOL_VIZDOOM_COMBINED_ACTIONS_H_

#include <cstdint>
#include <vector>

#include "ViZDoom.h"
#include "envpool/core/options.h"

namespace envpool::vizdoom {

// One digit of the action index: a group of buttons, or one delta button.
struct ComboDigit {
  std::vector<int> members;    // indices into the cfg's buttons, pressed with 1
  int delta = -1;              // or: the index of a delta button
  std::vector<double> values;  // the delta button's values

  int64_t Radix() const {
    return delta >= 0 ? static_cast<int64_t>(values.size())
                      : static_cast<int64_t>(members.size()) + 1;
  }
};

// The digits of the cfg's `buttons` with the option delta_button_config
// `deltas`; std::invalid_argument naming the option when a row is bad.
std::vector<ComboDigit> CombinedActionDigits(
    const std::vector<::vizdoom::Button>& buttons, const OptionTable& deltas);

// The number of combinations, n of Discrete(n); std::invalid_argument above
// 2^31.
int64_t CombinedActionCount(const std::vector<ComboDigit>& digits);

// The button values of action `index` (0 <= index < CombinedActionCount),
// one per cfg button, written into `buttons` (already sized to the cfg's).
void PressCombinedAction(const std::vector<ComboDigit>& digits, int64_t index,
                         std::vector<double>* buttons);

}  // namespace envpool::vizdoom

#endif  // ENVPOOL_VIZDOOM_COMBINED_ACTIONS_H_
