#include "envpool/vizdoom/reward_shaping.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "envpool/vizdoom/game_variables.h"

namespace envpool::vizdoom {

RewardShaping::RewardShaping(const Options& options) {
  std::vector<std::pair<::vizdoom::GameVariable, std::pair<double, double>>>
      rows;
  for (const auto& [name, row] : options.Get<OptionTable>("reward_config")) {
    ::vizdoom::GameVariable v;
    try {
      v = GameVariableNamed(name);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("option 'reward_config': " +
                                  std::string(e.what()));
    }
    if (row.size() != 2 || !std::isfinite(row[0]) || !std::isfinite(row[1])) {
      throw std::invalid_argument(
          "option 'reward_config': " + name +
          " takes [reward per unit of increase, reward per unit of "
          "decrease], two finite numbers");
    }
    rows.emplace_back(v, std::make_pair(row[0], row[1]));
  }
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [v, row] : rows) {
    variables.push_back(v);
    gain.push_back(row.first);
    loss.push_back(row.second);
  }
  for (const auto& [slot, row] :
       options.Get<OptionTable>("selected_weapon_reward_config")) {
    int w = -1;
    if (slot.size() == 1 && slot[0] >= '0' && slot[0] <= '9') {
      w = slot[0] - '0';
    }
    if (w < 0 || row.size() != 1 || !std::isfinite(row[0])) {
      throw std::invalid_argument(
          "option 'selected_weapon_reward_config' maps a weapon slot "
          "0..9 to one finite reward, got " +
          slot + ": " + std::to_string(row.size()) + " numbers");
    }
    weapon[w] = row[0];
  }
  int64_t duration = options.Get<int64_t>("weapon_duration");
  if (duration < 0 || duration > (int64_t{1} << 30)) {
    throw std::invalid_argument(
        "option 'weapon_duration' must be 0 or more, got " +
        std::to_string(duration));
  }
  weapon_duration = static_cast<int>(duration);
}

RewardShaper::RewardShaper(const RewardShaping& shaping)
    : shaping_(shaping), values_(shaping.variables.size(), 0.0) {}

void RewardShaper::Start(const ReadGameVariable& read) {
  for (std::size_t i = 0; i < values_.size(); ++i) {
    values_[i] = read(shaping_.variables[i]);
  }
  weapon_ = read(::vizdoom::SELECTED_WEAPON);
  weapon_run_ = 1;
}

float RewardShaper::Step(const ReadGameVariable& read) {
  float r = 0.0F;
  for (std::size_t i = 0; i < values_.size(); ++i) {
    const double now = read(shaping_.variables[i]);
    const double d = now - values_[i];
    r = static_cast<float>(
        static_cast<double>(r) +
        (d > 0 ? d * shaping_.gain[i] : -d * shaping_.loss[i]));
    values_[i] = now;
  }
  const double weapon = read(::vizdoom::SELECTED_WEAPON);
  if (weapon == weapon_) {
    ++weapon_run_;
  } else {
    weapon_ = weapon;
    weapon_run_ = 1;
  }
  auto it = shaping_.weapon.find(static_cast<int>(weapon));
  if (it != shaping_.weapon.end() && weapon_run_ >= shaping_.weapon_duration &&
      read(::vizdoom::SELECTED_WEAPON_AMMO) > 0) {
    r += static_cast<float>(it->second);
  }
  return r;
}

}  // namespace envpool::vizdoom
