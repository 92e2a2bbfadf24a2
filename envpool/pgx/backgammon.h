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

// pgx's Backgammon (pgx 2.6.0, backgammon.py), kept as pgx keeps it: the
// board (28 counts: points 0..23, the bars 24 and 25, the borne-off 26 and
// 27) from the side of the player to move, its checkers positive, moving
// from 0 to 23.  Action = 6 * source + die - 1, source 0 no move, 1 the
// bar, 2..25 the points 0..23; no move is legal only when nothing else is,
// and ends the turn.  The first dice (different) come from
// choice(split(init key)[1], the 30 ordered pairs), the first player from
// bernoulli(split(init key)[0]); each later roll is randint(step key,
// (1, 2), 0, 6) of the step that ends a turn.  Bearing all 15 checkers off
// wins 1, 2 (gammon) or 3 (backgammon) points.  Observation (int32, 34):
// the board, then how many of each die value the player to move may still
// play (zeros in the other player's row).

#ifndef ENVPOOL_PGX_BACKGAMMON_H_
#define ENVPOOL_PGX_BACKGAMMON_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "envpool/core/jax_random.h"
#include "envpool/pgx/pgx_env.h"

namespace envpool::pgx {

class BackgammonGame {
 public:
  static constexpr int kNumPlayers = 2;
  static constexpr int kNumActions = 26 * 6;
  static constexpr int kBar = 24;
  static constexpr int kOff = 26;

  static std::string ActionName(int64_t action) {
    const int64_t source = action / 6;
    const std::string die = "die " + std::to_string(action % 6 + 1);
    if (source == 0) {
      return "no move (" + die + ")";
    }
    if (source == 1) {
      return "enter from the bar with " + die;
    }
    return "move from point " + std::to_string(source - 2) + " with " + die;
  }

  void Init(jax_random::Key key) {
    current_player_ = jax_random::Bernoulli(jax_random::SplitAt(key, 0));
    board_ = {2, 0, 0, 0, 0, -5, 0, -3, 0, 0,  0, 5, -5, 0,
              0, 0, 3, 0, 5, 0,  0, 0,  0, -2, 0, 0, 0,  0};
    // The 30 ordered pairs of different dice, in pgx's order.
    const int pattern = jax_random::Choice(jax_random::SplitAt(key, 1), 30);
    const int first = pattern / 5;
    const int rest = pattern % 5;
    dice_ = {first, rest < first ? rest : rest + 1};
    SetPlayable();
    played_ = 0;
    turn_ = dice_[1] > dice_[0] ? 1 : 0;
    terminated_ = false;
    rewards_ = {0.0F, 0.0F};
    UpdateLegal();
  }

  void Step(int action, jax_random::Key key) {
    const bool no_move = action / 6 == 0;
    if (!no_move) {
      Move(action);
      const int die = action % 6;
      if (dice_[0] == dice_[1]) {
        playable_[3 - played_] = -1;
      } else {
        for (int& value : playable_) {
          value = value == die ? -1 : value;
        }
      }
      ++played_;
      UpdateLegal();
    }
    if (board_[kOff] == 15) {
      const bool gammon = board_[kOff + 1] == 0;
      int home = 0;
      for (int point = 18; point < 24; ++point) {
        home += board_[point];
      }
      const float score =
          1.0F + (gammon ? 1.0F : 0.0F) + (gammon && home != 0 ? 1.0F : 0.0F);
      rewards_[current_player_] = score;
      rewards_[1 - current_player_] = -score;
      terminated_ = true;
      return;
    }
    const bool turn_ends =
        playable_[0] + playable_[1] + playable_[2] + playable_[3] == -4;
    if (turn_ends || no_move) {
      ChangeTurn(key);
    }
  }

  void Observe(int player, int32_t* out) const {
    std::copy(board_.begin(), board_.end(), out);
    std::fill(out + 28, out + 34, 0);
    if (player == current_player_) {
      for (int die : playable_) {
        if (die != -1) {
          out[28 + die] += 1;
        }
      }
    }
  }

  // Snapshots (PgxEnv loads the game's bytes): what a game can hold. Each
  // side has 15 checkers on the points, its bar and its borne-off count
  // (the mover's positive); the dice (0..5, a die's value less one) and the
  // ones left to play index the observation and the mask: a double's four
  // in order, else each die once; the mask follows from the board and the
  // dice left; the game ends when the mover has borne all 15 off, paying
  // 1, 2 or 3.
  void CheckLoadedState() const {
    bool counts_in_range = AllIn(board_, -15, 15) && board_[kBar] >= 0 &&
                           board_[kBar + 1] <= 0 && board_[kOff] >= 0 &&
                           board_[kOff + 1] <= 0;
    CheckLoaded(counts_in_range, "a point's checkers");
    int mine = board_[kBar] + board_[kOff];
    int theirs = board_[kBar + 1] + board_[kOff + 1];
    for (int point = 0; point < 24; ++point) {
      mine += std::max(board_[point], 0);
      theirs += std::min(board_[point], 0);
    }
    CheckPossible(mine == 15 && theirs == -15, "the count of checkers");
    CheckLoaded(AllIn(dice_, 0, 5), "the dice");
    CheckLoaded(AllIn(playable_, -1, 5), "the dice to play");
    CheckLoaded(current_player_ == 0 || current_player_ == 1,
                "the current player");
    CheckLoaded(turn_ == 0 || turn_ == 1, "the turn");
    CheckLoaded(played_ >= 0 && played_ <= 4, "the dice played");
    CheckLoaded(AllFlags(legal_) && IsFlag(terminated_), "a flag");
    bool dice_left = true;
    if (dice_[0] == dice_[1]) {
      for (int i = 0; i < 4; ++i) {
        dice_left =
            dice_left && playable_[i] == (i < 4 - played_ ? dice_[0] : -1);
      }
    } else {
      dice_left = played_ <= 2 && playable_[2] == -1 && playable_[3] == -1 &&
                  (playable_[0] == dice_[0] || playable_[0] == -1) &&
                  (playable_[1] == dice_[1] || playable_[1] == -1) &&
                  (playable_[0] == -1) + (playable_[1] == -1) == played_;
    }
    CheckPossible(dice_left, "the dice to play");
    BackgammonGame derived = *this;
    derived.UpdateLegal();
    CheckPossible(derived.legal_ == legal_, "the legal action mask");
    CheckPossible(terminated_ == (board_[kOff] == 15) && board_[kOff + 1] > -15,
                  "the end of the game");
    CheckPossible(IsRewardPair(rewards_, terminated_,
                               std::array<float, 3>{1.0F, 2.0F, 3.0F}) &&
                      (!terminated_ || rewards_[current_player_] > 0.0F),
                  "the rewards");
  }

  const bool* LegalActionMask() const { return legal_.data(); }
  int current_player() const { return current_player_; }
  bool terminated() const { return terminated_; }
  float reward(int player) const { return rewards_[player]; }

 private:
  void SetPlayable() {
    if (dice_[0] == dice_[1]) {
      playable_ = {dice_[0], dice_[0], dice_[0], dice_[0]};
    } else {
      playable_ = {dice_[0], dice_[1], -1, -1};
    }
  }

  void ChangeTurn(jax_random::Key key) {
    std::array<int32_t, 28> flipped{};
    for (int i = 0; i < 24; ++i) {
      flipped[i] = -board_[23 - i];
    }
    flipped[24] = -board_[25];
    flipped[25] = -board_[24];
    flipped[26] = -board_[27];
    flipped[27] = -board_[26];
    board_ = flipped;
    turn_ = 1 - turn_;
    current_player_ = 1 - current_player_;
    int32_t roll[2];
    jax_random::RandInt(key, 0, 6, roll, 2);
    dice_ = {roll[0], roll[1]};
    SetPlayable();
    played_ = 0;
    UpdateLegal();
  }

  // Source index (-2 for no move), die (1..6) and target of an action.
  static void Decompose(int action, int* source, int* die, int* target) {
    const int code = action / 6;
    *source = code == 1 ? kBar : code - 2;
    *die = action % 6 + 1;
    if (*source >= 24) {
      *target = *die - 1;
    } else {
      const int to = *source + *die;
      *target = to >= 0 && to <= 23 ? to : kOff;
    }
  }

  void Move(int action) {
    int source = 0;
    int die = 0;
    int target = 0;
    Decompose(action, &source, &die, &target);
    const bool hit = board_[target] == -1;
    if (hit) {
      board_[kBar + 1] -= 1;
    }
    board_[source] -= 1;
    board_[target] += hit ? 2 : 1;
  }

  bool AllOnHomeBoard() const {
    int on_home = 0;
    for (int point = 18; point < 24; ++point) {
      on_home += std::clamp(board_[point], 0, 15);
    }
    return 15 - board_[kOff] == on_home;
  }

  // 24 - the lowest point holding a checker of the mover (-76 if none).
  int RearDistance() const {
    for (int point = 0; point < 24; ++point) {
      if (board_[point] > 0) {
        return 24 - point;
      }
    }
    return 24 - 100;
  }

  bool IsLegal(int action) const {
    int source = 0;
    int die = 0;
    int target = 0;
    Decompose(action, &source, &die, &target);
    if (source < 0 || board_[source] < 1) {
      return false;
    }
    if (target >= 0 && target <= 23) {
      return board_[target] >= -1 && (source >= 24 || board_[kBar] == 0);
    }
    const int distance = 24 - source;
    const int rear = RearDistance();
    return AllOnHomeBoard() &&
           (distance == die || (rear <= die && rear == distance));
  }

  void UpdateLegal() {
    legal_.fill(false);
    bool any = false;
    for (int die : playable_) {
      if (die == -1) {
        continue;
      }
      for (int source = 0; source < 26; ++source) {
        const int action = source * 6 + die;
        if (!legal_[action] && IsLegal(action)) {
          legal_[action] = true;
          any = true;
        }
      }
    }
    if (!any) {
      std::fill(legal_.begin(), legal_.begin() + 6, true);
    }
  }

  std::array<int32_t, 28> board_{};
  std::array<int, 2> dice_{};
  std::array<int, 4> playable_{};
  std::array<bool, kNumActions> legal_{};
  std::array<float, 2> rewards_{};
  int current_player_ = 0;
  int played_ = 0;
  int turn_ = 0;
  bool terminated_ = false;
};

// Backgammon's observation is int32 counts, not boolean planes.
template <>
struct GameTraits<BackgammonGame> {
  using Observation = int32_t;
  static Options DefaultOptions() { return Options{}; }
  static int NumActions(const Options& /*options*/) {
    return BackgammonGame::kNumActions;
  }
  static std::vector<int64_t> ObservationShape(const Options& /*options*/) {
    return {34};
  }
  static std::vector<double> ObservationLow() { return {-15.0}; }
  static std::vector<double> ObservationHigh() { return {15.0}; }
  static BackgammonGame Make(const Options& /*options*/) {
    return BackgammonGame();
  }
};

using BackgammonEnv = PgxEnv<BackgammonGame>;

}  // namespace envpool::pgx

#endif  // ENVPOOL_PGX_BACKGAMMON_H_
