// EnvPool's reward shaping of the ViZDoom envs, added to the scenario's
// reward (docs/vizdoom.md; the tables are envpool/vizdoom/shaping.py's).
//
// For every game variable of reward_config, {gain, loss}, a step adds
// gain * d when the variable rose by d and loss * d when it fell by d; and
// selected_weapon_reward_config[w] when weapon slot w has been the selected
// weapon for weapon_duration observations in a row (the reset's counts) and
// its ammo is above 0.  The step that ends the episode adds nothing (the
// env does not ask: there are no game variables without a state).
//
// RewardShaping is the configuration, read once per pool from the options;
// RewardShaper is one env's running state.  Both only see game variables
// through a reader, so the arithmetic needs no engine.
#ifndef ENVPOOL_VIZDOOM_REWARD_SHAPING_H_
#define ENVPOOL_VIZDOOM_REWARD_SHAPING_H_

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "ViZDoom.h"
#include "envpool/core/options.h"

namespace envpool::vizdoom {

struct RewardShaping {
  // In ViZDoom's game-variable order (as EnvPool sums them).
  std::vector<::vizdoom::GameVariable> variables;
  std::vector<double> gain, loss;  // per unit of increase, of decrease
  std::map<int, double> weapon;    // weapon slot 0..9 -> reward
  int weapon_duration = 0;

  // From the options reward_config, selected_weapon_reward_config and
  // weapon_duration; std::invalid_argument naming the option when one is
  // malformed.
  explicit RewardShaping(const Options& options);

  bool active() const { return !variables.empty() || !weapon.empty(); }
};

// The value of a game variable in the current state.
using ReadGameVariable = std::function<double(::vizdoom::GameVariable)>;

class RewardShaper {
 public:
  // `shaping` must outlive the shaper (the pool's, shared by its envs).
  explicit RewardShaper(const RewardShaping& shaping);

  bool active() const { return shaping_.active(); }

  // At a reset: the values later steps are measured from.
  void Start(const ReadGameVariable& read);

  // At a step with a state: the shaping reward since the last observation.
  // In EnvPool's precision: each term in double, summed into a float in
  // ViZDoom's game-variable order, the weapon's reward added last.
  float Step(const ReadGameVariable& read);

 private:
  const RewardShaping& shaping_;
  std::vector<double> values_;  // of shaping_.variables at the last observation
  double weapon_ = -1;          // SELECTED_WEAPON then
  int64_t weapon_run_ = 0;      // observations in a row with it
};

}  // namespace envpool::vizdoom

#endif  // ENVPOOL_VIZDOOM_REWARD_SHAPING_H_
