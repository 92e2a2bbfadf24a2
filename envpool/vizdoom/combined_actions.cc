#include "envpool/vizdoom/combined_actions.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace envpool::vizdoom {
namespace {

::vizdoom::Button ButtonNamed(const std::string& option,
                              const std::string& name) {
  for (int b = 0; b <= static_cast<int>(::vizdoom::MOVE_UP_DOWN_DELTA); ++b) {
    auto button = static_cast<::vizdoom::Button>(b);
    if (::vizdoom::buttonToString(button) == name) {
      return button;
    }
  }
  throw std::invalid_argument("option '" + option +
                              "': ViZDoom has no button named " + name);
}

// The digit a non-delta button belongs to (its pair's first button, or
// SELECT_WEAPON1 for the weapon slots), -1 for the buttons never pressed.
int ComboGroup(::vizdoom::Button button) {
  const int b = static_cast<int>(button);
  switch (button) {
    case ::vizdoom::MOVE_LEFT:
    case ::vizdoom::MOVE_FORWARD:
    case ::vizdoom::TURN_LEFT:
    case ::vizdoom::LOOK_DOWN:
    case ::vizdoom::MOVE_DOWN:
    case ::vizdoom::SELECT_PREV_WEAPON:
    case ::vizdoom::SELECT_PREV_ITEM:
      return b - 1;  // the pair of the button before it
    case ::vizdoom::DROP_SELECTED_WEAPON:
    case ::vizdoom::ACTIVATE_SELECTED_ITEM:
    case ::vizdoom::DROP_SELECTED_ITEM:
      return -1;  // never pressed
    default:
      break;
  }
  if (b >= ::vizdoom::SELECT_WEAPON1 && b <= ::vizdoom::SELECT_WEAPON0) {
    return ::vizdoom::SELECT_WEAPON1;
  }
  return b;
}

}  // namespace

std::vector<ComboDigit> CombinedActionDigits(
    const std::vector<::vizdoom::Button>& buttons, const OptionTable& deltas) {
  for (const auto& [name, row] : deltas) {
    ::vizdoom::Button button = ButtonNamed("delta_button_config", name);
    if (!::vizdoom::isDeltaButton(button)) {
      throw std::invalid_argument("option 'delta_button_config': " + name +
                                  " is not a delta button");
    }
    if (std::find(buttons.begin(), buttons.end(), button) == buttons.end()) {
      throw std::invalid_argument("option 'delta_button_config': " + name +
                                  " is not among the cfg's available_buttons");
    }
    if (row.size() != 3 || row[0] < 1 || row[0] > 1e6 ||
        row[0] != std::floor(row[0]) || !std::isfinite(row[1]) ||
        !std::isfinite(row[2])) {
      throw std::invalid_argument(
          "option 'delta_button_config': " + name +
          " takes [number of values (1 or more), lowest, highest]");
    }
  }
  std::map<int, ComboDigit> digits;
  for (std::size_t i = 0; i < buttons.size(); ++i) {
    const ::vizdoom::Button button = buttons[i];
    if (::vizdoom::isDeltaButton(button)) {
      auto it = deltas.find(::vizdoom::buttonToString(button));
      if (it == deltas.end()) {
        continue;
      }
      ComboDigit& digit = digits[static_cast<int>(button)];
      digit.delta = static_cast<int>(i);
      const int n = static_cast<int>(it->second[0]);
      const double low = it->second[1], high = it->second[2];
      for (int k = 0; k < n; ++k) {
        digit.values.push_back(n == 1       ? low
                               : k == n - 1 ? high
                                            : low + (high - low) / (n - 1) * k);
      }
      continue;
    }
    const int group = ComboGroup(button);
    if (group < 0) {
      continue;
    }
    ComboDigit& digit = digits[group];
    if (std::find_if(digit.members.begin(), digit.members.end(), [&](int m) {
          return buttons[m] == button;
        }) == digit.members.end()) {
      digit.members.push_back(static_cast<int>(i));
    }
  }
  std::vector<ComboDigit> out;
  for (auto& [group, digit] : digits) {
    std::sort(digit.members.begin(), digit.members.end(),
              [&](int a, int b) { return buttons[a] < buttons[b]; });
    out.push_back(std::move(digit));
  }
  return out;
}

int64_t CombinedActionCount(const std::vector<ComboDigit>& digits) {
  int64_t n = 1;
  for (const ComboDigit& digit : digits) {
    if (n > (int64_t{1} << 31) / digit.Radix()) {
      throw std::invalid_argument(
          "use_combined_action: the cfg's buttons make more than 2^31 "
          "combinations; list fewer buttons or use the Box action");
    }
    n *= digit.Radix();
  }
  return n;
}

void PressCombinedAction(const std::vector<ComboDigit>& digits, int64_t index,
                         std::vector<double>* buttons) {
  std::fill(buttons->begin(), buttons->end(), 0.0);
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    const int64_t radix = it->Radix();
    const auto choice = static_cast<std::size_t>(index % radix);
    index /= radix;
    if (it->delta >= 0) {
      (*buttons)[it->delta] = it->values[choice];
    } else if (choice > 0) {
      (*buttons)[it->members[choice - 1]] = 1.0;
    }
  }
}

}  // namespace envpool::vizdoom
