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

// pgx's Go (pgx 2.6.0, go.py and _src/games/go.py) with pgx's rules:
// black (color 0) moves first, the player who does is bernoulli(init's
// key); actions are the points (row-major) and size * size = pass (always
// legal).  A move must not be suicide nor retake a single-stone ko; a
// position repeated after a move (positional superko, by pgx's Zobrist hash)
// ends the game with a loss for its mover.  Two passes in a row, or
// max_terminal_steps moves (default 2 * size * size), end it too; area
// scoring with komi (white wins ties of score - komi).  Observation of
// player p: for each of the last history_length positions, its stones and
// the opponent's, then a plane of its color (0 black, 1 white).
//
// rules="chinese" (the ChineseGo ids) differs in one rule: a move that would
// repeat a position seen after an earlier move is illegal (masked out), as
// the Chinese rules' ban of global repetition, rather than a loss.

#ifndef ENVPOOL_PGX_GO_H_
#define ENVPOOL_PGX_GO_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "envpool/core/jax_random.h"
#include "envpool/core/options.h"
#include "envpool/pgx/pgx_env.h"

namespace envpool::pgx {

class GoGame {
 public:
  static constexpr int kNumPlayers = 2;
  static constexpr int kMaxSize = 19;

  struct Config {
    int size = 19;
    double komi = 7.5;
    int history_length = 8;
    int max_steps = 722;
    // rules="chinese": a move that would repeat an earlier position (after
    // its captures) is illegal, where pgx's rules let it end the game, lost
    // by its mover (docs/pgx.md lists the other differences).
    bool superko_illegal = false;
  };

  explicit GoGame(std::shared_ptr<const Config> config)
      : config_(std::move(config)) {}

  static std::string ActionName(int64_t action) {
    return "point " + std::to_string(action) + " (or pass)";
  }

  void Init(jax_random::Key key) {
    const int n = config_->size * config_->size;
    const bool flip = jax_random::Bernoulli(key);
    player_order_ = flip ? std::array<int, 2>{1, 0} : std::array<int, 2>{0, 1};
    board_.assign(n, 0);
    // 2 matches neither color: the planes of positions before the first are
    // empty.
    history_.assign(static_cast<std::size_t>(config_->history_length) * n, 2);
    hashes_.assign(config_->max_steps, {0U, 0U});
    legal_.fill(false);
    std::fill(legal_.begin(), legal_.begin() + n + 1, true);
    step_count_ = 0;
    passes_ = 0;
    ko_ = -1;
    terminated_ = false;
    rewards_ = {0.0F, 0.0F};
    seen_.clear();
  }

  void Step(int action, jax_random::Key /*key*/) {
    const int size = config_->size;
    const int n = size * size;
    ko_ = -1;
    if (action < n) {
      Place(action);
    } else {
      ++passes_;
    }
    // The position joins the history (the newest first).
    std::copy_backward(history_.begin(), history_.end() - n, history_.end());
    std::copy(board_.begin(), board_.end(), history_.begin());
    const std::pair<uint32_t, uint32_t> hash = Hash();
    bool repeated = false;
    if (step_count_ < config_->max_steps) {
      hashes_[step_count_] = hash;
      const auto same = std::count(hashes_.begin(), hashes_.end(), hash);
      repeated = passes_ == 0 && same > 1;
    }
    hash_ = hash;
    seen_.insert(Key(hash));
    ++step_count_;
    terminated_ = passes_ >= 2 || repeated || step_count_ >= config_->max_steps;
    UpdateLegal();
    rewards_ = {0.0F, 0.0F};
    if (terminated_) {
      // By color (0 black), then read through the player order.
      std::array<float, 2> by_color{};
      if (repeated) {
        by_color = {-1.0F, -1.0F};
        by_color[color()] = 1.0F;  // the mover repeated: the other wins
      } else {
        const double black = Score(1);
        const double white = Score(-1);
        const bool black_wins =
            static_cast<float>(black - config_->komi) > white;
        by_color = black_wins ? std::array<float, 2>{1.0F, -1.0F}
                              : std::array<float, 2>{-1.0F, 1.0F};
      }
      rewards_ = {by_color[player_order_[0]], by_color[player_order_[1]]};
    }
  }

  template <typename T>
  void Observe(int player, T* out) const {
    const int n = config_->size * config_->size;
    const int my_color = player == current_player() ? color() : 1 - color();
    const int my_sign = my_color == 0 ? 1 : -1;
    const int planes = 2 * config_->history_length + 1;
    for (int cell = 0; cell < n; ++cell) {
      T* planes_out = out + static_cast<std::size_t>(cell) * planes;
      for (int h = 0; h < config_->history_length; ++h) {
        const int value = history_[static_cast<std::size_t>(h) * n + cell];
        planes_out[2 * h] = value == my_sign ? T{1} : T{0};
        planes_out[2 * h + 1] = value == -my_sign ? T{1} : T{0};
      }
      planes_out[planes - 1] = static_cast<T>(my_color);
    }
  }

  const bool* LegalActionMask() const { return legal_.data(); }
  int current_player() const { return player_order_[color()]; }
  bool terminated() const { return terminated_; }
  // Snapshots (PgxEnv): every member but the options' config, which the
  // game loaded into keeps.
  void SaveState(StateWriter* writer) const {
    std::vector<uint64_t> seen(seen_.begin(), seen_.end());
    std::sort(seen.begin(), seen.end());  // one byte string per position
    writer->Put(board_, history_, PackHashes(hashes_), PackHash(hash_), seen,
                legal_, player_order_, rewards_, step_count_, passes_, ko_,
                terminated_);
  }
  void LoadState(StateReader* reader) {
    std::vector<uint64_t> hashes;
    uint64_t hash = 0;
    std::vector<uint64_t> seen;
    reader->Get(&board_, &history_, &hashes, &hash, &seen, &legal_,
                &player_order_, &rewards_, &step_count_, &passes_, &ko_,
                &terminated_);
    const std::size_t n = static_cast<std::size_t>(config_->size) *
                          static_cast<std::size_t>(config_->size);
    const bool started = !board_.empty();
    if ((started && board_.size() != n) ||
        history_.size() != (started ? n * config_->history_length : 0)) {
      throw SnapshotError("the Go state is corrupt: a board of " +
                          std::to_string(board_.size()) + " points for " +
                          std::to_string(n));
    }
    hashes_ = UnpackHashes(hashes, started ? config_->max_steps : 0);
    // Stones index the Zobrist table, the step count the history of
    // hashes, ko the legal moves.
    CheckLoaded(AllIn(board_, -1, 1) && AllIn(history_, -1, 2), "a stone");
    CheckLoaded(step_count_ >= 0 &&
                    step_count_ <= (started ? config_->max_steps : 0) &&
                    passes_ >= 0 && passes_ <= step_count_,
                "the step count");
    CheckLoaded(ko_ >= -1 && ko_ < static_cast<int>(n), "the ko point");
    CheckLoaded(IsPlayerOrder(player_order_), "the player order");
    // Flags read back as raw bytes: 0 or 1 (another byte read as a bool is
    // undefined).
    CheckLoaded(AllFlags(legal_) && IsFlag(terminated_), "a flag");
    hash_ = UnpackHash(hash);
    seen_ = std::unordered_set<uint64_t>(seen.begin(), seen.end());
  }
  // A started game (PgxEnv checks an env's game once the env has been
  // reset; LoadState takes an empty board as a game never started, whose
  // steps would index it).
  void CheckLoadedState() const { CheckLoaded(!board_.empty(), "the board"); }
  float reward(int player) const { return rewards_[player]; }

 private:
  int color() const { return step_count_ % 2; }
  int my_sign() const { return color() == 0 ? 1 : -1; }

  // The on-board neighbours of `point`, in pgx's order (up, down, left,
  // right); -1 off the board.
  std::array<int, 4> Adjacent(int point) const {
    const int size = config_->size;
    const int x = point / size;
    const int y = point % size;
    return {x > 0 ? point - size : -1, x + 1 < size ? point + size : -1,
            y > 0 ? point - 1 : -1, y + 1 < size ? point + 1 : -1};
  }

  // The chain of `point` (stones of its color connected to it) and how many
  // distinct liberties it has (counted up to 2).
  int Chain(int point, std::vector<int>* stones) const {
    const int8_t color = board_[point];
    stones->clear();
    stones->push_back(point);
    std::vector<char> seen(board_.size(), 0);
    seen[point] = 1;
    int liberties = 0;
    int first_liberty = -1;
    for (std::size_t i = 0; i < stones->size(); ++i) {
      for (int next : Adjacent((*stones)[i])) {
        if (next < 0 || seen[next]) {
          continue;
        }
        if (board_[next] == color) {
          seen[next] = 1;
          stones->push_back(next);
        } else if (board_[next] == 0 && next != first_liberty &&
                   liberties < 2) {
          if (liberties == 0) {
            first_liberty = next;
          }
          ++liberties;
          seen[next] = 1;
        }
      }
    }
    return liberties;
  }

  void Place(int action) {
    passes_ = 0;
    const int me = my_sign();
    const std::array<int, 4> adjacent = Adjacent(action);
    bool ko_may_occur = true;
    for (int next : adjacent) {
      ko_may_occur = ko_may_occur && (next < 0 || board_[next] == -me);
    }
    std::vector<int> stones;
    int captured = 0;
    int first_killed = -1;
    for (int next : adjacent) {
      if (next < 0 || board_[next] != -me) {
        continue;
      }
      // An opponent chain whose one liberty is this point dies.
      if (Chain(next, &stones) == 1) {
        if (first_killed < 0) {
          first_killed = next;
        }
        captured += static_cast<int>(stones.size());
        for (int stone : stones) {
          board_[stone] = 0;
        }
      }
    }
    if (ko_may_occur && captured == 1) {
      ko_ = first_killed;
    }
    board_[action] = static_cast<int8_t>(me);
  }

  void UpdateLegal() {
    const int n = config_->size * config_->size;
    const int me = my_sign();
    // Liberties (up to 2) of every chain.
    std::vector<int> liberties(n, 0);
    std::vector<char> done(n, 0);
    std::vector<int> stones;
    for (int point = 0; point < n; ++point) {
      if (board_[point] != 0 && !done[point]) {
        const int count = Chain(point, &stones);
        for (int stone : stones) {
          liberties[stone] = count;
          done[stone] = 1;
        }
      }
    }
    for (int point = 0; point < n; ++point) {
      bool ok = false;
      if (board_[point] == 0) {
        for (int next : Adjacent(point)) {
          if (next < 0) {
            continue;
          }
          const int value = board_[next];
          ok = ok || value == 0 || (value == -me && liberties[next] == 1) ||
               (value == me && liberties[next] >= 2);
        }
      }
      legal_[point] = ok;
    }
    if (ko_ >= 0) {
      legal_[ko_] = false;
    }
    legal_[n] = true;
    if (config_->superko_illegal) {
      ForbidRepetitions(liberties);
    }
  }

  static uint64_t Key(std::pair<uint32_t, uint32_t> hash) {
    return (static_cast<uint64_t>(hash.first) << 32) | hash.second;
  }

  // rules="chinese": clears the moves whose position, after their captures,
  // was seen after an earlier move (pgx's record of positions, which leaves
  // out the empty board before the first move).  `liberties`: of each
  // stone's chain, counted up to 2.
  void ForbidRepetitions(const std::vector<int>& liberties) {
    const int n = config_->size * config_->size;
    const int me = my_sign();
    std::vector<int> stones;
    std::vector<int> captured_chains;
    for (int point = 0; point < n; ++point) {
      if (!legal_[point]) {
        continue;
      }
      std::pair<uint32_t, uint32_t> hash = hash_;
      ToggleHash(&hash, point, 0);
      ToggleHash(&hash, point, me);
      captured_chains.clear();
      for (int next : Adjacent(point)) {
        if (next < 0 || board_[next] != -me || liberties[next] != 1) {
          continue;
        }
        Chain(next, &stones);
        // A chain touching the point on two sides is captured once.
        const int head = *std::min_element(stones.begin(), stones.end());
        if (std::find(captured_chains.begin(), captured_chains.end(), head) !=
            captured_chains.end()) {
          continue;
        }
        captured_chains.push_back(head);
        for (int stone : stones) {
          ToggleHash(&hash, stone, -me);
          ToggleHash(&hash, stone, 0);
        }
      }
      if (seen_.count(Key(hash)) > 0) {
        legal_[point] = false;
      }
    }
  }

  // pgx's Zobrist table: randint(PRNGKey(12345), (3, 361, 2), 0,
  // 2**31 - 1) indexed by (empty, black, white) and point.
  static const std::vector<int32_t>& Zobrist() {
    static const std::vector<int32_t> table = [] {
      std::vector<int32_t> values(3 * kMaxSize * kMaxSize * 2);
      jax_random::RandInt(jax_random::PRNGKey(12345), 0, (int64_t{1} << 31) - 1,
                          values.data(), values.size());
      return values;
    }();
    return table;
  }

  // Xors the key of `point` holding `value` (+1 black, -1 white, 0 empty).
  static void ToggleHash(std::pair<uint32_t, uint32_t>* hash, int point,
                         int value) {
    const int index = value >= 0 ? value : 2;
    const std::size_t at =
        (static_cast<std::size_t>(index) * kMaxSize * kMaxSize + point) * 2;
    hash->first ^= static_cast<uint32_t>(Zobrist()[at]);
    hash->second ^= static_cast<uint32_t>(Zobrist()[at + 1]);
  }

  // pgx's hash of the board: the keys of every point xor-ed.
  std::pair<uint32_t, uint32_t> Hash() const {
    std::pair<uint32_t, uint32_t> hash{0U, 0U};
    for (std::size_t point = 0; point < board_.size(); ++point) {
      ToggleHash(&hash, static_cast<int>(point), board_[point]);
    }
    return hash;
  }

  // Area score of `sign`: its stones plus the empty points no path of empty
  // points joins to a stone of the other color.
  double Score(int sign) const {
    const int n = config_->size * config_->size;
    std::vector<char> reached(n, 0);
    std::vector<int> frontier;
    for (int point = 0; point < n; ++point) {
      if (board_[point] == -sign) {
        frontier.push_back(point);
      }
    }
    while (!frontier.empty()) {
      const int point = frontier.back();
      frontier.pop_back();
      for (int next : Adjacent(point)) {
        if (next >= 0 && board_[next] == 0 && !reached[next]) {
          reached[next] = 1;
          frontier.push_back(next);
        }
      }
    }
    int score = 0;
    for (int point = 0; point < n; ++point) {
      score += board_[point] == sign || (board_[point] == 0 && !reached[point])
                   ? 1
                   : 0;
    }
    return score;
  }

  std::shared_ptr<const Config> config_;
  std::vector<int8_t> board_;    // +1 black, -1 white, 0 empty
  std::vector<int8_t> history_;  // history_length boards, the newest first
  std::vector<std::pair<uint32_t, uint32_t>> hashes_;
  std::pair<uint32_t, uint32_t> hash_{0U, 0U};  // the board's
  std::unordered_set<uint64_t> seen_;           // the positions after each move
  std::array<bool, kMaxSize * kMaxSize + 1> legal_{};
  std::array<int, 2> player_order_{0, 1};
  std::array<float, 2> rewards_{};
  int step_count_ = 0;
  int passes_ = 0;
  int ko_ = -1;
  bool terminated_ = false;
};

template <>
struct GameTraits<GoGame> {
  using Observation = int8_t;  // pgx's boolean planes, 0/1
  static std::vector<double> ObservationLow() { return {0.0}; }
  static std::vector<double> ObservationHigh() { return {1.0}; }
  static Options DefaultOptions() {
    return Options{{"board_size", int64_t{19}},
                   {"komi", 7.5},
                   {"history_length", int64_t{8}},
                   {"max_terminal_steps", int64_t{0}},
                   {"rules", std::string("pgx")}};
  }
  static int Size(const Options& options) {
    const auto size = options.Get<int64_t>("board_size");
    if (size < 2 || size > GoGame::kMaxSize) {
      throw std::invalid_argument(
          "option 'board_size' must be in 2..19 (pgx's Zobrist table is "
          "19x19), got " +
          std::to_string(size));
    }
    return static_cast<int>(size);
  }
  static int NumActions(const Options& options) {
    return Size(options) * Size(options) + 1;
  }
  static std::vector<int64_t> ObservationShape(const Options& options) {
    Make(options);  // checks every option, so that make() refuses a bad one
    return {Size(options), Size(options),
            2 * options.Get<int64_t>("history_length") + 1};
  }
  static int HistoryLength(const Options& options) {
    const auto history = options.Get<int64_t>("history_length");
    if (history < 1) {
      throw std::invalid_argument(
          "option 'history_length' must be at least 1, got " +
          std::to_string(history));
    }
    return static_cast<int>(history);
  }
  static GoGame Make(const Options& options) {
    const auto rules = options.Get<std::string>("rules");
    if (rules != "pgx" && rules != "chinese") {
      throw std::invalid_argument(
          "option 'rules' must be \"pgx\" (pgx's) or \"chinese\" (a move "
          "repeating a position is illegal), got \"" +
          rules + "\"");
    }
    auto config = std::make_shared<GoGame::Config>();
    config->superko_illegal = rules == "chinese";
    config->size = Size(options);
    config->komi = options.Get<double>("komi");
    config->history_length = HistoryLength(options);
    const auto steps = options.Get<int64_t>("max_terminal_steps");
    if (steps < 0) {
      throw std::invalid_argument(
          "option 'max_terminal_steps' must be >= 0 (0: 2 * size * size), "
          "got " +
          std::to_string(steps));
    }
    config->max_steps =
        steps == 0 ? 2 * config->size * config->size : static_cast<int>(steps);
    return GoGame(std::move(config));
  }
};

using GoEnv = PgxEnv<GoGame>;

}  // namespace envpool::pgx

#endif  // ENVPOOL_PGX_GO_H_
