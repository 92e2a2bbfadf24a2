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

// pgx's SparrowMahjong (pgx 2.6.0, sparrow_mahjong.py): three players, 44
// tiles (bamboo 1..9 and the green and red dragons, 4 of each; tile id
// 4 * type + copy; red doras: copy 0 of each bamboo and every red dragon,
// i.e. id % 4 == 0 except 36, or id >= 40).  The last tile of the wall is
// the dora indicator.  Five tiles a hand, six after a draw; a hand of two sets
// (triplets, or sequences of bamboos) wins.  The only action is the discard
// of a tile type (a red one last); a player who can win does at once, by a
// discard of another (ron) or its own draw (tsumo).
//
// Seats: 0 is the dealer; pgx's `_shuffled_players[seat]` is the player in
// a seat.  pgx's quirks are kept, since its games depend on them: the
// dealer's first draw never counts as red; a tsumo after the third turn
// checks seat min(turn, 2) (JAX clamps the out-of-range index), so only the
// player of seat 2 can win by its own draw then; a hand with five tiles is
// scored with one more last discarded tile (the red dragon before any
// discard, JAX's index -1).

#ifndef ENVPOOL_PGX_SPARROW_MAHJONG_H_
#define ENVPOOL_PGX_SPARROW_MAHJONG_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "envpool/core/jax_random.h"
#include "envpool/pgx/pgx_env.h"

namespace envpool::pgx {

class SparrowMahjongGame {
 public:
  static constexpr int kNumPlayers = 3;
  using Observation = int8_t;  // pgx's boolean planes, 0/1
  static constexpr int kTileTypes = 11;
  static constexpr int kNumActions = kTileTypes;
  static constexpr int kTiles = 44;
  static constexpr int kRiver = 10;
  static constexpr int kPlanes = 15;
  // The largest score (dealer, tsumo, "super red", red dragons), pgx's
  // reward scale.
  static constexpr float kMaxScore = 26.0F;

  static std::vector<int64_t> ObservationShape() {
    return {kTileTypes, kPlanes};
  }

  static std::string ActionName(int64_t action) {
    return "discard " + TileName(static_cast<int>(action));
  }

  void Init(jax_random::Key key) {
    // pgx deals again, from the next split, while the dealer's first six
    // tiles already win (no game without a move).
    jax_random::Key next = jax_random::SplitAt(key, 0);
    Deal(jax_random::SplitAt(key, 1));
    while (terminated_) {
      const jax_random::Key deal_key = jax_random::SplitAt(next, 1);
      next = jax_random::SplitAt(next, 0);
      Deal(deal_key);
    }
  }

  void Step(int action, jax_random::Key /*key*/) {
    const int seat = turn_ % kNumPlayers;
    hands_[seat][action] -= 1;
    // The red copy goes last: one is discarded when fewer tiles than reds
    // remain.
    if (hands_[seat][action] < reds_[seat][action]) {
      reds_[seat][action] -= 1;
    }
    rivers_[seat][turn_ / kNumPlayers] = action;
    last_discard_ = action;
    std::array<int, kNumPlayers> scores = Scores();
    std::array<bool, kNumPlayers> winners{};
    bool any_winner = false;
    for (int i = 0; i < kNumPlayers; ++i) {
      std::array<int, kTileTypes> hand = hands_[i];
      hand[last_discard_] += 1;
      const bool furiten =
          std::count(rivers_[i].begin(), rivers_[i].end(), last_discard_) > 0;
      // The discarder is left out by its seat (pgx: only while turn < 3;
      // its own discard makes it furiten anyway).
      winners[i] = IsWinningHand(hand) && !furiten && scores[i] >= 5 &&
                   !(i == turn_ && turn_ < kNumPlayers);
      any_winner = any_winner || winners[i];
    }
    if (any_winner) {
      scores[0] += 2;
      int total = 0;
      for (int i = 0; i < kNumPlayers; ++i) {
        scores[i] = winners[i] ? scores[i] : 0;
        total += scores[i];
      }
      scores[seat] = -total;
      End(scores);
    } else if (draw_ix_ >= kTiles - 1) {  // the wall's last tile is the dora's
      terminated_ = true;
      rewards_.fill(0.0F);
    } else {
      Draw();
      rewards_.fill(0.0F);
      CheckTsumo(Scores());
    }
  }

  template <typename T>
  void Observe(int player, T* out) const {
    const int seat = static_cast<int>(
        std::find(seats_.begin(), seats_.end(), player) - seats_.begin());
    std::array<std::array<T, kTileTypes>, kPlanes> planes{};
    for (int t = 0; t < kTileTypes; ++t) {
      for (int n = 1; n <= 4; ++n) {
        planes[n - 1][t] = hands_[seat][t] >= n ? T{1} : T{0};
      }
      planes[4][t] = reds_[seat][t] >= 1 ? T{1} : T{0};
    }
    planes[5][dora_] = T{1};
    for (int k = 0; k < kNumPlayers; ++k) {
      const auto& river = rivers_[(seat + k) % kNumPlayers];
      int discards = 0;
      for (int tile : river) {
        if (tile >= 0) {
          planes[6 + k][tile] = T{1};
          ++discards;
        }
      }
      // The last three discards of the next two seats, latest first.
      if (k > 0) {
        for (int back = 1; back <= 3 && discards - back >= 0; ++back) {
          planes[9 + (k - 1) * 3 + back - 1][river[discards - back]] = T{1};
        }
      }
    }
    for (int t = 0; t < kTileTypes; ++t) {
      for (int c = 0; c < kPlanes; ++c) {
        out[t * kPlanes + c] = planes[c][t];
      }
    }
  }

  // Snapshots (PgxEnv loads the game's bytes): what a game can hold. The
  // wall is a shuffle of the 44 tiles and the seats one of the players;
  // the dora is the wall's last tile; 16 tiles are drawn at the deal and
  // one a turn after; each type's four tiles are in the hands, the rivers
  // or the wall still to draw; a river lists its seat's discards (one a
  // turn) and then -1; the seat to move holds six tiles (five once the
  // game has ended at its discard), the others five; reds count a hand's
  // red tiles; the mask is the mover's tile types; a reward is a score / 26.
  void CheckLoadedState() const {
    std::array<bool, kTiles> in_wall{};
    for (int tile : wall_) {
      CheckLoaded(tile >= 0 && tile < kTiles && !in_wall[tile], "the wall");
      in_wall[tile] = true;
    }
    std::array<bool, kNumPlayers> seated{};
    for (int player : seats_) {
      CheckLoaded(player >= 0 && player < kNumPlayers && !seated[player],
                  "the seats");
      seated[player] = true;
    }
    CheckLoaded(draw_ix_ >= kNumPlayers * 5 + 1 && draw_ix_ <= kTiles - 1,
                "the draw count");
    CheckLoaded(turn_ == draw_ix_ - (kNumPlayers * 5 + 1), "the turn");
    CheckLoaded(dora_ == wall_[kTiles - 1] / 4, "the dora");
    CheckLoaded(last_discard_ >= -1 && last_discard_ < kTileTypes,
                "the last discard");
    CheckLoaded(current_player_ == seats_[turn_ % kNumPlayers],
                "the current player");
    CheckLoaded(AllFlags(legal_) && IsFlag(terminated_), "a flag");
    for (int seat = 0; seat < kNumPlayers; ++seat) {
      CheckLoaded(AllIn(hands_[seat], 0, 4), "a hand");
      CheckLoaded(AllIn(rivers_[seat], -1, kTileTypes - 1), "a river");
    }
    // The discards: seat s has discarded at the turns t < turn_ with
    // t % 3 == s, and the mover at turn_ too when the game ended there.
    const int mover = turn_ % kNumPlayers;
    bool discarded_now = false;  // the game ended at the mover's discard
    for (int seat = 0; seat < kNumPlayers; ++seat) {
      const auto& river = rivers_[seat];
      const int discards = static_cast<int>(
          std::find(river.begin(), river.end(), -1) - river.begin());
      CheckPossible(std::all_of(river.begin() + discards, river.end(),
                                [](int tile) { return tile == -1; }),
                    "a river");
      const int before = (turn_ + kNumPlayers - 1 - seat) / kNumPlayers;
      const bool now = seat == mover && discards == before + 1 && terminated_;
      CheckPossible(discards == before || now, "a river");
      discarded_now = discarded_now || now;
      int tiles = 0;
      for (int count : hands_[seat]) {
        tiles += count;
      }
      CheckPossible(tiles == (seat == mover && !now ? 6 : 5), "a hand");
    }
    int last = -1;
    if (discarded_now) {
      last = rivers_[mover][turn_ / kNumPlayers];
    } else if (turn_ > 0) {
      last = rivers_[(turn_ - 1) % kNumPlayers][(turn_ - 1) / kNumPlayers];
    }
    CheckPossible(last_discard_ == last, "the last discard");
    std::array<int, kTileTypes> tiles{};
    for (int seat = 0; seat < kNumPlayers; ++seat) {
      for (int t = 0; t < kTileTypes; ++t) {
        tiles[t] += hands_[seat][t];
        CheckPossible(
            reds_[seat][t] >= 0 &&
                reds_[seat][t] <= std::min(hands_[seat][t], t == 9    ? 0
                                                            : t == 10 ? 4
                                                                      : 1),
            "the red tiles");
      }
      for (int tile : rivers_[seat]) {
        tiles[tile < 0 ? 0 : tile] += tile < 0 ? 0 : 1;
      }
    }
    for (int at = draw_ix_; at < kTiles; ++at) {
      tiles[wall_[at] / 4] += 1;
    }
    CheckPossible(AllIn(tiles, 4, 4), "the count of tiles");
    // The mask is the mover's hand as it was to discard from (a game that
    // ended at the discard has not updated it).
    std::array<int, kTileTypes> to_discard = hands_[mover];
    if (discarded_now) {
      to_discard[last] += 1;
    }
    for (int t = 0; t < kTileTypes; ++t) {
      CheckPossible(legal_[t] == (to_discard[t] > 0), "the legal action mask");
    }
    int total = 0;
    for (float reward : rewards_) {
      const float score = std::round(reward * kMaxScore);
      CheckPossible(std::abs(score) <= 4 * kMaxScore &&
                        reward == score * (1.0F / kMaxScore) &&
                        (terminated_ || score == 0.0F),
                    "the rewards");
      total += static_cast<int>(score);
    }
    CheckPossible(total == 0, "the rewards");
  }

  const bool* LegalActionMask() const { return legal_.data(); }
  int current_player() const { return current_player_; }
  bool terminated() const { return terminated_; }
  float reward(int player) const { return rewards_[player]; }

 private:
  static std::string TileName(int type) {
    if (type < 9) {
      return "bamboo " + std::to_string(type + 1) + " (tile type " +
             std::to_string(type) + ")";
    }
    return std::string(type == 9 ? "green" : "red") + " dragon (tile type " +
           std::to_string(type) + ")";
  }

  static bool IsRed(int tile) {
    return (tile % 4 == 0 && tile != 36) || tile >= 40;
  }

  // A hand as pgx codes it: its counts as the digits of a base-5 number,
  // bamboo 1 the most significant.
  static int32_t Code(const std::array<int, kTileTypes>& hand) {
    int32_t code = 0;
    for (int count : hand) {
      code = code * 5 + count;
    }
    return code;
  }

  // The winning hands (two sets), sorted by code, with their base score
  // (2 a triplet, 1 a sequence) and yaku (all green 10, all terminals and
  // dragons 15, all simples 1).
  struct WinningHand {
    int32_t code;
    int base;
    int yaku;
  };
  static const std::vector<WinningHand>& WinningHands() {
    static const std::vector<WinningHand> hands = [] {
      struct Set {
        std::array<int, kTileTypes> tiles;
        int base;
      };
      std::vector<Set> sets;
      for (int t = 0; t < kTileTypes; ++t) {
        Set set{{}, 2};
        set.tiles[t] = 3;
        sets.push_back(set);
      }
      for (int t = 0; t + 2 < 9; ++t) {
        Set set{{}, 1};
        set.tiles[t] = set.tiles[t + 1] = set.tiles[t + 2] = 1;
        sets.push_back(set);
      }
      std::vector<WinningHand> out;
      for (std::size_t a = 0; a < sets.size(); ++a) {
        for (std::size_t b = a; b < sets.size(); ++b) {
          std::array<int, kTileTypes> hand{};
          bool possible = true;
          bool green = true;
          bool terminals = true;
          bool simples = true;
          for (int t = 0; t < kTileTypes; ++t) {
            hand[t] = sets[a].tiles[t] + sets[b].tiles[t];
            possible = possible && hand[t] <= 4;
            if (hand[t] > 0) {
              green = green && (t == 1 || t == 2 || t == 3 || t == 5 ||
                                t == 7 || t == 9);
              terminals = terminals && (t == 0 || t == 8 || t >= 9);
              simples = simples && t >= 1 && t <= 7;
            }
          }
          if (possible) {
            const int yaku = green ? 10 : terminals ? 15 : simples ? 1 : 0;
            out.push_back({Code(hand), sets[a].base + sets[b].base, yaku});
          }
        }
      }
      std::sort(out.begin(), out.end(),
                [](const WinningHand& x, const WinningHand& y) {
                  return x.code < y.code;
                });
      return out;
    }();
    return hands;
  }

  static bool IsWinningHand(const std::array<int, kTileTypes>& hand) {
    const int32_t code = Code(hand);
    const auto& hands = WinningHands();
    return std::any_of(hands.begin(), hands.end(),
                       [&](const WinningHand& w) { return w.code == code; });
  }

  // pgx's score of each seat's hand, a five-tile hand counted with the last
  // discard; for a hand that does not win, the nearest winning hand's
  // (pgx's argmin; never used).
  std::array<int, kNumPlayers> Scores() const {
    std::array<int, kNumPlayers> scores{};
    const int discard =
        last_discard_ < 0 ? last_discard_ + kTileTypes : last_discard_;
    for (int i = 0; i < kNumPlayers; ++i) {
      std::array<int, kTileTypes> hand = hands_[i];
      int tiles = 0;
      for (int count : hand) {
        tiles += count;
      }
      if (tiles == 5) {
        hand[discard] += 1;
      }
      const int32_t code = Code(hand);
      const auto& hands = WinningHands();
      const WinningHand* nearest = hands.data();
      for (const WinningHand& w : hands) {
        if (std::abs(w.code - code) < std::abs(nearest->code - code)) {
          nearest = &w;
        }
      }
      int reds = 0;
      for (int count : reds_[i]) {
        reds += count;
      }
      const int yaku = reds >= 6 ? 20 : nearest->yaku;  // "super red"
      scores[i] = yaku >= 10 ? nearest->base + yaku
                             : nearest->base + yaku + hand[dora_] + reds;
    }
    return scores;
  }

  // Whether the seat pgx checks (min(turn, 2)) wins by its draw; if so the
  // others pay it, half its score each, rounded up.
  void CheckTsumo(std::array<int, kNumPlayers> scores) {
    const int checked = std::min(turn_, kNumPlayers - 1);
    if (!IsWinningHand(hands_[checked]) || scores[checked] < 0) {
      return;
    }
    scores[0] += 2;
    const int loser_pays =
        static_cast<int>(std::ceil(static_cast<float>(scores[checked]) / 2.0F));
    scores.fill(-loser_pays);
    scores[turn_ % kNumPlayers] = loser_pays * (kNumPlayers - 1);
    End(scores);
  }

  // Ends the game with the seats' scores; rewards go by player.
  void End(const std::array<int, kNumPlayers>& scores) {
    terminated_ = true;
    for (int seat = 0; seat < kNumPlayers; ++seat) {
      // JAX's CPU compiler divides by a constant as a multiplication by
      // its reciprocal (12 / 26 is one ulp off 12 * (1 / 26)).
      rewards_[seats_[seat]] =
          static_cast<float>(scores[seat]) * (1.0F / kMaxScore);
    }
  }

  void Deal(jax_random::Key key) {
    const std::vector<int32_t> seats =
        jax_random::Permutation(jax_random::SplitAt(key, 0), kNumPlayers);
    std::copy(seats.begin(), seats.end(), seats_.begin());
    const std::vector<int32_t> wall =
        jax_random::Permutation(jax_random::SplitAt(key, 1), kTiles);
    std::copy(wall.begin(), wall.end(), wall_.begin());
    dora_ = wall_[kTiles - 1] / 4;
    for (auto& hand : hands_) {
      hand.fill(0);
    }
    for (auto& reds : reds_) {
      reds.fill(0);
    }
    for (int i = 0; i < kNumPlayers * 5; ++i) {
      hands_[i / 5][wall_[i] / 4] += 1;
      reds_[i / 5][wall_[i] / 4] += IsRed(wall_[i]) ? 1 : 0;
    }
    draw_ix_ = kNumPlayers * 5;
    hands_[0][wall_[draw_ix_] / 4] += 1;  // pgx counts no red here
    ++draw_ix_;
    for (auto& river : rivers_) {
      river.fill(-1);
    }
    turn_ = 0;
    last_discard_ = -1;
    current_player_ = seats_[0];
    terminated_ = false;
    rewards_.fill(0.0F);
    UpdateLegal();
    CheckTsumo(Scores());
  }

  void Draw() {
    ++turn_;
    const int seat = turn_ % kNumPlayers;
    current_player_ = seats_[seat];
    const int tile = wall_[draw_ix_];
    hands_[seat][tile / 4] += 1;
    reds_[seat][tile / 4] += IsRed(tile) ? 1 : 0;
    ++draw_ix_;
    UpdateLegal();
  }

  void UpdateLegal() {
    const int seat = turn_ % kNumPlayers;
    for (int t = 0; t < kTileTypes; ++t) {
      legal_[t] = hands_[seat][t] > 0;
    }
  }

  std::array<std::array<int, kTileTypes>, kNumPlayers> hands_{};
  std::array<std::array<int, kTileTypes>, kNumPlayers> reds_{};
  std::array<std::array<int, kRiver>, kNumPlayers> rivers_{};
  std::array<int, kTiles> wall_{};
  std::array<int, kNumPlayers> seats_{};
  std::array<bool, kNumActions> legal_{};
  std::array<float, kNumPlayers> rewards_{};
  int draw_ix_ = 0;
  int dora_ = 0;
  int turn_ = 0;
  int last_discard_ = -1;
  int current_player_ = 0;
  bool terminated_ = false;
};

using SparrowMahjongEnv = PgxEnv<SparrowMahjongGame>;

}  // namespace envpool::pgx

#endif  // ENVPOOL_PGX_SPARROW_MAHJONG_H_
