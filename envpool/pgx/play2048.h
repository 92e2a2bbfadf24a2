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

// pgx's 2048 (pgx 2.6.0, play2048.py), one player: a 4x4 board of
// exponents (0 empty, k the tile 2**k).  Action a slides the board rotated
// a quarter turns counter-clockwise to the left (0 left, 1 up, 2 right,
// 3 down), merging equal neighbours once; the reward is the sum of the
// merged tiles.  Each new tile (two at the start, one after each move) goes
// to choice(key, 16, p = empty cells) with value choice(subkey, [1, 2],
// p = [0.9, 0.1]), key and subkey split from the init's or the step's key.
// A move is legal when it changes the board; the game ends when none is.
// Observation: 4 x 4 x 31, the one-hot exponent of each cell.

#ifndef ENVPOOL_PGX_PLAY2048_H_
#define ENVPOOL_PGX_PLAY2048_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "envpool/core/jax_random.h"
#include "envpool/pgx/pgx_env.h"

namespace envpool::pgx {

class Play2048Game {
 public:
  static constexpr int kNumPlayers = 1;
  using Observation = int8_t;  // pgx's boolean planes, 0/1
  static constexpr int kNumActions = 4;
  static constexpr int kPlanes = 31;

  static std::vector<int64_t> ObservationShape() { return {4, 4, kPlanes}; }

  static std::string ActionName(int64_t action) {
    constexpr const char* kNames[4] = {"left", "up", "right", "down"};
    return kNames[action];
  }

  void Init(jax_random::Key key) {
    board_ = {};
    AddTile(jax_random::SplitAt(key, 0));
    AddTile(jax_random::SplitAt(key, 1));
    UpdateLegal();
  }

  void Step(int action, jax_random::Key key) {
    Board rotated = Rotate(board_, action);
    int32_t reward = 0;
    for (auto& line : rotated) {
      reward += SlideAndMerge(&line);
    }
    board_ = Rotate(rotated, (4 - action) % 4);
    reward_ = static_cast<float>(reward);
    AddTile(key);
    UpdateLegal();
    terminated_ = std::none_of(legal_.begin(), legal_.end(),
                               [](bool legal) { return legal; });
  }

  template <typename T>
  void Observe(int /*player*/, T* out) const {
    std::fill(out, out + 16 * kPlanes, T{0});
    for (int cell = 0; cell < 16; ++cell) {
      out[cell * kPlanes + board_[cell / 4][cell % 4]] = T{1};
    }
  }

  // Snapshots (PgxEnv loads the game's bytes): what a game can hold. A
  // tile's exponent indexes the observation's planes and shifts the reward;
  // 2**17 is the largest tile a 4x4 board can make. The mask and the end
  // follow from the board; a reward is the sum of the merged tiles (even,
  // at most 16 merges of 2**17).
  void CheckLoadedState() const {
    for (const Line& line : board_) {
      CheckLoaded(AllIn(line, 0, kLargestTile), "a tile");
    }
    CheckLoaded(AllFlags(legal_) && IsFlag(terminated_), "a flag");
    Play2048Game derived = *this;
    derived.UpdateLegal();
    CheckPossible(derived.legal_ == legal_, "the legal action mask");
    CheckPossible(terminated_ == std::none_of(legal_.begin(), legal_.end(),
                                              [](bool legal) { return legal; }),
                  "the end of the game");
    CheckPossible(reward_ >= 0.0F && reward_ <= 16.0F * (1 << kLargestTile) &&
                      std::fmod(reward_, 2.0F) == 0.0F,
                  "the reward");
  }

  const bool* LegalActionMask() const { return legal_.data(); }
  int current_player() const { return 0; }
  bool terminated() const { return terminated_; }
  float reward(int /*player*/) const { return reward_; }

 private:
  static constexpr int kLargestTile = 17;
  using Line = std::array<int32_t, 4>;
  using Board = std::array<Line, 4>;

  // np.rot90(board, k): k quarter turns counter-clockwise.
  static Board Rotate(const Board& board, int k) {
    Board out = board;
    for (int turn = 0; turn < k; ++turn) {
      Board next{};
      for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) {
          next[i][j] = out[j][3 - i];
        }
      }
      out = next;
    }
    return out;
  }

  // pgx's _slide_left: three conditional shifts (a full compaction).
  static void SlideLeft(Line* line) {
    Line& l = *line;
    if (l[2] == 0) {
      l = {l[0], l[1], l[3], l[2]};
    }
    if (l[1] == 0) {
      l = {l[0], l[2], l[3], l[1]};
    }
    if (l[0] == 0) {
      l = {l[1], l[2], l[3], l[0]};
    }
  }

  static int32_t SlideAndMerge(Line* line) {
    SlideLeft(line);
    Line& l = *line;
    int32_t reward = 0;
    for (int i = 0; i < 3; ++i) {
      if (l[i] != 0 && l[i] == l[i + 1]) {
        l[i] += 1;
        l[i + 1] = 0;
        reward += int32_t{1} << l[i];
      }
    }
    SlideLeft(line);
    return reward;
  }

  static bool CanSlideLeft(const Board& board) {
    for (const Line& l : board) {
      bool can = (l[0] == 0 && l[1] > 0) || (l[1] == 0 && l[2] > 0) ||
                 (l[2] == 0 && l[3] > 0) || (l[0] > 0 && l[0] == l[1]) ||
                 (l[1] > 0 && l[1] == l[2]) || (l[2] > 0 && l[2] == l[3]);
      can = can && !(l[0] == 0 && l[1] == 0 && l[2] == 0 && l[3] == 0);
      if (can) {
        return true;
      }
    }
    return false;
  }

  void AddTile(jax_random::Key key) {
    std::array<float, 16> empty{};
    for (int cell = 0; cell < 16; ++cell) {
      empty[cell] = board_[cell / 4][cell % 4] == 0 ? 1.0F : 0.0F;
    }
    const int cell =
        jax_random::ChoiceWithP(jax_random::SplitAt(key, 0), empty.data(), 16);
    constexpr std::array<float, 2> kValueP{0.9F, 0.1F};
    const int value =
        1 + jax_random::ChoiceWithP(jax_random::SplitAt(key, 1), kValueP.data(),
                                    kValueP.size());
    board_[cell / 4][cell % 4] = value;
  }

  void UpdateLegal() {
    for (int a = 0; a < kNumActions; ++a) {
      legal_[a] = CanSlideLeft(Rotate(board_, a));
    }
  }

  Board board_{};
  std::array<bool, kNumActions> legal_{};
  float reward_ = 0.0F;
  bool terminated_ = false;
};

using Play2048Env = PgxEnv<Play2048Game>;

}  // namespace envpool::pgx

#endif  // ENVPOOL_PGX_PLAY2048_H_
