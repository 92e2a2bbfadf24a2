/*
 * Copyright 2026 The EnvPool Authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

// pgx's two poker games (pgx 2.6.0, kuhn_poker.py and leduc_holdem.py).
//
// KuhnPoker: cards J, Q, K (0..2), one each, dealt by
// choice(split(key)[1], the six ordered pairs); the first player is
// bernoulli(split(key)[0]).  Actions: 0 bet, 1 pass.  Observation (7): the
// player's card, its chips in the pot (0/1), the opponent's (0/1).
//
// LeducHoldem: six cards (two each of J, Q, K), shuffled by
// permutation(split(key)[1]); players hold cards 0 and 1, card 2 is public.
// Actions: 0 call, 1 raise, 2 fold; raises of 2 then 4 chips, at most two a
// round; two rounds.  Observation (34): the player's card, the public card
// (second round), its chips (0..13), the opponent's.

#ifndef ENVPOOL_PGX_POKER_H_
#define ENVPOOL_PGX_POKER_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "envpool/core/jax_random.h"
#include "envpool/pgx/pgx_env.h"

namespace envpool::pgx {

class KuhnPokerGame {
 public:
  static constexpr int kNumPlayers = 2;
  using Observation = int8_t;  // pgx's boolean planes, 0/1
  static constexpr int kNumActions = 2;
  static constexpr int kBet = 0;
  static constexpr int kPass = 1;

  static std::vector<int64_t> ObservationShape() { return {7}; }

  static std::string ActionName(int64_t action) {
    return action == kBet ? "bet" : "pass";
  }

  void Init(jax_random::Key key) {
    current_player_ = jax_random::Bernoulli(jax_random::SplitAt(key, 0));
    constexpr int kDeals[6][2] = {{0, 1}, {0, 2}, {1, 0},
                                  {1, 2}, {2, 0}, {2, 1}};
    const int deal = jax_random::Choice(jax_random::SplitAt(key, 1), 6);
    cards_ = {kDeals[deal][0], kDeals[deal][1]};
    legal_ = {true, true};
  }

  void Step(int action, jax_random::Key /*key*/) {
    const int me = current_player_;
    if (action == kBet) {
      pot_[me] += 1;
    }
    rewards_ = {0.0F, 0.0F};
    if (last_action_ == kBet && action == kPass) {
      terminated_ = true;  // the bettor takes the pot
      rewards_[1 - me] = 1.0F;
      rewards_[me] = -1.0F;
    } else if (last_action_ == kBet && action == kBet) {
      terminated_ = true;
      Showdown(me, 2.0F);
    } else if (last_action_ == kPass && action == kPass) {
      terminated_ = true;
      Showdown(me, 1.0F);
    }
    legal_ = {!terminated_, !terminated_};
    current_player_ = 1 - me;
    last_action_ = action;
  }

  template <typename T>
  void Observe(int player, T* out) const {
    std::fill(out, out + 7, T{0});
    out[cards_[player]] = T{1};
    out[3 + pot_[player]] = T{1};
    out[5 + pot_[1 - player]] = T{1};
  }

  // Snapshots (PgxEnv loads the game's bytes): what a game can hold. The
  // cards (two of J, Q, K) and the pots (0 or 1 chip each) index the
  // observation; both moves are legal until the end; a bet ends in 1 or 2.
  void CheckLoadedState() const {
    CheckLoaded(AllIn(cards_, 0, 2), "a card");
    CheckPossible(cards_[0] != cards_[1], "the cards");
    CheckLoaded(AllIn(pot_, 0, 1), "a pot");
    CheckLoaded(current_player_ == 0 || current_player_ == 1,
                "the current player");
    CheckLoaded(last_action_ >= -1 && last_action_ <= kPass, "the last action");
    CheckLoaded(AllFlags(legal_) && IsFlag(terminated_), "a flag");
    CheckPossible(
        last_action_ >= 0 || (pot_[0] == 0 && pot_[1] == 0 && !terminated_),
        "the last action");
    CheckPossible(legal_[kBet] == !terminated_ && legal_[kPass] == !terminated_,
                  "the legal action mask");
    CheckPossible(
        IsRewardPair(rewards_, terminated_, std::array<float, 2>{1.0F, 2.0F}),
        "the rewards");
  }

  const bool* LegalActionMask() const { return legal_.data(); }
  int current_player() const { return current_player_; }
  bool terminated() const { return terminated_; }
  float reward(int player) const { return rewards_[player]; }

 private:
  void Showdown(int me, float stake) {
    const int winner = cards_[me] > cards_[1 - me] ? me : 1 - me;
    rewards_[winner] = stake;
    rewards_[1 - winner] = -stake;
  }

  std::array<int, 2> cards_{};
  std::array<int, 2> pot_{};
  std::array<bool, kNumActions> legal_{};
  std::array<float, 2> rewards_{};
  int current_player_ = 0;
  int last_action_ = -1;
  bool terminated_ = false;
};

class LeducHoldemGame {
 public:
  static constexpr int kNumPlayers = 2;
  using Observation = int8_t;  // pgx's boolean planes, 0/1
  static constexpr int kNumActions = 3;
  static constexpr int kCall = 0;
  static constexpr int kRaise = 1;
  static constexpr int kFold = 2;
  static constexpr int kMaxRaises = 2;

  static std::vector<int64_t> ObservationShape() { return {34}; }

  static std::string ActionName(int64_t action) {
    return action == kCall ? "call" : action == kRaise ? "raise" : "fold";
  }

  void Init(jax_random::Key key) {
    first_player_ = jax_random::Bernoulli(jax_random::SplitAt(key, 0));
    current_player_ = first_player_;
    std::array<int32_t, 6> deck{0, 0, 1, 1, 2, 2};
    jax_random::Shuffle(jax_random::SplitAt(key, 1), deck.data(), deck.size());
    cards_ = {deck[0], deck[1], deck[2]};
    chips_ = {1, 1};
    legal_ = {true, true, false};
  }

  void Step(int action, jax_random::Key /*key*/) {
    const int me = current_player_;
    if (action == kCall) {
      chips_[me] = chips_[1 - me];
    } else if (action == kRaise) {
      chips_[me] = std::max(chips_[0], chips_[1]) + (round_ + 1) * 2;
    }
    const bool fold = action == kFold;
    const bool call = last_action_ != -1 && action == kCall;
    const bool round_over = fold || call;
    terminated_ = round_over && !(round_ == 0 && call);
    rewards_ = {0.0F, 0.0F};
    if (fold) {
      rewards_[1 - me] = 1.0F;
      rewards_[me] = -1.0F;
    } else if (terminated_ && call) {
      Showdown(me);
    }
    const auto stake = static_cast<float>(std::min(chips_[0], chips_[1]));
    rewards_[0] *= stake;
    rewards_[1] *= stake;
    last_action_ = round_over ? -1 : action;
    current_player_ = round_over ? first_player_ : 1 - me;
    raise_count_ = round_over ? 0 : raise_count_ + (action == kRaise ? 1 : 0);
    legal_ = {action != kFold, action != kFold, action == kRaise};
    legal_[kRaise] = raise_count_ < kMaxRaises;
    round_ += round_over ? 1 : 0;
  }

  template <typename T>
  void Observe(int player, T* out) const {
    std::fill(out, out + 34, T{0});
    out[cards_[player]] = T{1};
    if (round_ == 1) {
      out[3 + cards_[2]] = T{1};
    }
    out[6 + chips_[player]] = T{1};
    out[20 + chips_[1 - player]] = T{1};
  }

  // Snapshots (PgxEnv loads the game's bytes): what a game can hold. The
  // cards (of a deck of two J, Q, K) and the chips (1..13) index the
  // observation; two rounds of at most two raises; while the game goes on
  // calling is legal, raising under two raises, folding after a raise; a
  // fold or a showdown pays at most the smaller stack.
  void CheckLoadedState() const {
    CheckLoaded(AllIn(cards_, 0, 2), "a card");
    for (int card = 0; card < 3; ++card) {
      CheckPossible(std::count(cards_.begin(), cards_.end(), card) <= 2,
                    "the cards");
    }
    CheckLoaded(AllIn(chips_, 1, kMaxChips), "the chips");
    CheckLoaded(first_player_ == 0 || first_player_ == 1, "the first player");
    CheckLoaded(current_player_ == 0 || current_player_ == 1,
                "the current player");
    CheckLoaded(last_action_ >= -1 && last_action_ <= kRaise,
                "the last action");
    CheckLoaded(round_ >= 0 && round_ <= 2, "the round");
    CheckLoaded(raise_count_ >= 0 && raise_count_ <= kMaxRaises,
                "the raise count");
    CheckLoaded(AllFlags(legal_) && IsFlag(terminated_), "a flag");
    CheckPossible(terminated_ || round_ <= 1, "the end of the game");
    CheckPossible(
        terminated_ ||
            (legal_[kCall] && legal_[kRaise] == (raise_count_ < kMaxRaises) &&
             legal_[kFold] == (last_action_ == kRaise)),
        "the legal action mask");
    std::array<float, kMaxChips> stakes{};
    for (int chips = 1; chips <= kMaxChips; ++chips) {
      stakes[chips - 1] = static_cast<float>(chips);
    }
    CheckPossible(IsRewardPair(rewards_, terminated_, stakes), "the rewards");
  }

  const bool* LegalActionMask() const { return legal_.data(); }
  int current_player() const { return current_player_; }
  bool terminated() const { return terminated_; }
  float reward(int player) const { return rewards_[player]; }

 private:
  // The most chips a player puts in (1 + 2 raises of 2, then 2 of 4): the
  // observation's one-hot row.
  static constexpr int kMaxChips = 13;

  // pgx's unit reward at a showdown called by `me`: a pair with the public
  // card wins, else the higher card; equal cards draw.
  void Showdown(int me) {
    const int other = 1 - me;
    if (cards_[me] == cards_[other]) {
      return;
    }
    const bool win_by_pair = cards_[me] == cards_[2];
    const bool lose_by_pair = cards_[other] == cards_[2];
    const bool win =
        win_by_pair || (!lose_by_pair && cards_[me] > cards_[other]);
    const int winner = win ? me : other;
    rewards_[winner] = 1.0F;
    rewards_[1 - winner] = -1.0F;
  }

  std::array<int32_t, 3> cards_{};
  std::array<int, 2> chips_{1, 1};
  std::array<bool, kNumActions> legal_{};
  std::array<float, 2> rewards_{};
  int first_player_ = 0;
  int current_player_ = 0;
  int last_action_ = -1;
  int round_ = 0;
  int raise_count_ = 0;
  bool terminated_ = false;
};

using KuhnPokerEnv = PgxEnv<KuhnPokerGame>;
using LeducHoldemEnv = PgxEnv<LeducHoldemGame>;

}  // namespace envpool::pgx

#endif  // ENVPOOL_PGX_POKER_H_
