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

// PgxEnv<Game>: one pgx game (pgx 2.6.0) as an env of the pool.  The game
// class holds the rules; this wrapper holds what every pgx env shares:
//
// - keys: env i of a pool seeded s plays, in its episode j, pgx's game
//   `init(K)` with K = fold_in(PRNGKey(s + i), j), and its t-th step
//   (t = 1, 2, ...) gets the key fold_in(K, t) (docs/pgx.md);
// - arrays: one observation row and one reward per player (pgx's
//   `observe(state, p)` and `state.rewards[p]`), one action per env (the
//   move of its current player), and per env `info["current_player"]` and
//   `info["legal_action_mask"]`;
// - pgx's step rules: a terminal state's mask is all true; an illegal move
//   is refused (pgx would end the game with a penalty; a pool raises instead,
//   and the env stays as it was).
//
// A Game provides:
//   static constexpr int kNumPlayers;
//   static constexpr int kNumActions and static ObservationShape(), or a
//     GameTraits specialization (games whose size is an option: Go);
//   void Init(jax_random::Key key);
//   void Step(int action, jax_random::Key key);   // a legal action
//   using Observation = int8_t (pgx's boolean planes: a MultiBinary space)
//     or float (planes holding fractions: Box(0, 1)), unless GameTraits says;
//   void Observe(int player, Observation* out) const;
//   const bool* LegalActionMask() const;          // one per action
//   int current_player() const; bool terminated() const;
//   float reward(int player) const;
//   static std::string ActionName(int action);    // for error messages

#ifndef ENVPOOL_PGX_PGX_ENV_H_
#define ENVPOOL_PGX_PGX_ENV_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/core/jax_random.h"

namespace envpool::pgx {

// How PgxEnv sizes and builds a game from its options; a game with options
// specializes it.
template <typename Game>
struct GameTraits {
  using Observation = typename Game::Observation;
  static std::vector<double> ObservationLow() { return {0.0}; }
  static std::vector<double> ObservationHigh() { return {1.0}; }
  static Options DefaultOptions() { return Options{}; }
  static int NumActions(const Options& /*options*/) {
    return Game::kNumActions;
  }
  static std::vector<int64_t> ObservationShape(const Options& /*options*/) {
    return Game::ObservationShape();
  }
  static Game Make(const Options& /*options*/) { return Game(); }
};

// A game's own info keys (EnvPool 1.2.7's, e.g. AnimalShogi's board, hand
// and turn), one row per env; a game with some specializes it.
template <typename Game>
struct GameInfo {
  struct Fields {};
  static void Declare(Schema* /*state*/, Fields* /*fields*/) {}
  static void Write(const Game& /*game*/, const Fields& /*fields*/,
                    const Output& /*out*/) {}
};

template <typename Game>
class PgxEnv : public Env {
 public:
  struct Fields {
    Field<typename GameTraits<Game>::Observation> obs;
    Field<int64_t> action;
    Field<int32_t> current_player;
    Field<bool> legal_action_mask;
    typename GameInfo<Game>::Fields game_info;
  };

  static Options DefaultOptions() { return GameTraits<Game>::DefaultOptions(); }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    const int num_actions = GameTraits<Game>::NumActions(options);
    spec->max_num_players = Game::kNumPlayers;
    using Observation = typename GameTraits<Game>::Observation;
    ArraySpec obs;
    obs.name = "obs";
    obs.dtype = DTypeOf<Observation>::value;
    obs.shape = GameTraits<Game>::ObservationShape(options);
    obs.low = GameTraits<Game>::ObservationLow();
    obs.high = GameTraits<Game>::ObservationHigh();
    obs.per_player = true;
    // Boolean planes are int8 0/1: EnvPool 1.2.7's MultiBinary spaces.
    obs.binary = std::is_same_v<Observation, int8_t>;
    fields->obs = spec->state.Add<Observation>(obs);
    fields->current_player =
        spec->state.Add<int32_t>("info:current_player", {}, {0.0},
                                 {static_cast<double>(Game::kNumPlayers - 1)});
    fields->legal_action_mask =
        spec->state.Add<bool>("info:legal_action_mask", {num_actions});
    GameInfo<Game>::Declare(&spec->state, &fields->game_info);
    fields->action = spec->action.AddDiscrete<int64_t>("action", num_actions);
    spec->snapshots = true;
  }

  PgxEnv(const Options& options, const Fields& fields)
      : fields_(fields),
        num_actions_(GameTraits<Game>::NumActions(options)),
        fresh_game_(GameTraits<Game>::Make(options)),
        game_(fresh_game_) {}

  void Reset() override {
    episode_key_ = jax_random::FoldIn(seed_key_, episode_);
    ++episode_;
    step_ = 0;
    game_ = fresh_game_;
    game_.Init(episode_key_);
    terminated_ = game_.terminated();
  }

  void Step(const ActionView& action) override {
    const int64_t move = action.Scalar(fields_.action);
    // The core has checked the range; a masked-out move is refused here,
    // before anything changes, so the env can take another.
    if (!game_.LegalActionMask()[move]) {
      std::string legal;
      for (int a = 0; a < num_actions_; ++a) {
        if (game_.LegalActionMask()[a]) {
          legal += (legal.empty() ? "" : ", ") + std::to_string(a);
        }
      }
      throw std::invalid_argument(
          "action " + std::to_string(move) + " (" + Game::ActionName(move) +
          ") is not legal for player " +
          std::to_string(game_.current_player()) +
          " (info['legal_action_mask'] is false there); legal actions: " +
          legal);
    }
    ++step_;
    game_.Step(static_cast<int>(move), jax_random::FoldIn(episode_key_, step_));
    terminated_ = game_.terminated();
  }

  // An env never reset (episode 0) holds the fresh game, whatever the
  // state's bytes say: its first reset replaces it, and no move is legal in
  // it (a started game is checked; a fresh one would not pass).
  //
  // A snapshot holds the keys, the step count and the game: a game of plain
  // members (numbers, flags, fixed arrays; no pointers) as it is, the others
  // (Go, Chess, GardnerChess, AnimalShogi, with containers) through their
  // SaveState/LoadState. Either way LoadState refuses a game whose members
  // it indexes with, or that no game reaches, before the env changes.
  void SaveState(StateWriter* writer) const override {
    writer->Put(seed_key_, episode_key_, episode_, step_);
    if constexpr (std::is_trivially_copyable_v<Game>) {
      writer->Put(game_);
    } else {
      game_.SaveState(writer);
    }
  }
  void LoadState(StateReader* reader) override {
    jax_random::Key seed_key;
    jax_random::Key episode_key;
    uint32_t episode = 0;
    uint32_t step = 0;
    reader->Get(&seed_key, &episode_key, &episode, &step);
    if constexpr (std::is_trivially_copyable_v<Game>) {
      // The game's bytes as saved, checked before the env takes them (a
      // state whose checksum holds can still be crafted), then copied whole,
      // padding too, so that it saves the same bytes again.
      Game game;
      reader->Get(&game);
      if (episode > 0) {
        game.CheckLoadedState();
      }
      std::memcpy(static_cast<void*>(&game_),
                  episode > 0 ? &game : &fresh_game_, sizeof(Game));
    } else {
      Game game = fresh_game_;  // the options' part (Go's config) kept
      game.LoadState(reader);
      if (episode > 0) {
        game.CheckLoadedState();
      }
      game_ = episode > 0 ? std::move(game) : fresh_game_;
    }
    seed_key_ = seed_key;
    episode_key_ = episode_key;
    episode_ = episode;
    step_ = step;
    terminated_ = game_.terminated();
  }

  int NumPlayers() const override { return Game::kNumPlayers; }

  void Write(const Output& out) override {
    for (int p = 0; p < Game::kNumPlayers; ++p) {
      game_.Observe(p, out.Get(fields_.obs, p));
    }
    // Per-env arrays: Output::Get gives the env's row (its slot).
    *out.Get(fields_.current_player) = game_.current_player();
    bool* mask = out.Get(fields_.legal_action_mask);
    if (game_.terminated()) {
      std::fill(mask, mask + num_actions_, true);
    } else {
      std::copy(game_.LegalActionMask(), game_.LegalActionMask() + num_actions_,
                mask);
    }
    GameInfo<Game>::Write(game_, fields_.game_info, out);
  }

  void WriteReward(const Output& out) const override {
    for (int p = 0; p < Game::kNumPlayers; ++p) {
      out.SetReward(game_.reward(p), p);
    }
  }

 protected:
  void OnSeed(uint64_t seed) override {
    seed_key_ = jax_random::PRNGKey(static_cast<int64_t>(seed));
    episode_ = 0;
  }

 private:
  Fields fields_;
  int num_actions_;
  Game fresh_game_;  // copied at each reset: options applied, no episode yet
  Game game_;
  jax_random::Key seed_key_ = jax_random::PRNGKey(0);
  jax_random::Key episode_key_;
  uint32_t episode_ = 0;
  uint32_t step_ = 0;
};

// Zobrist hash pairs (pgx's two uint32 words) as snapshots store them: one
// uint64 each (std::pair is not trivially copyable). A history read back
// must have `size` entries, or none (a game never started).
using HashPair = std::pair<uint32_t, uint32_t>;
inline uint64_t PackHash(HashPair hash) {
  return (uint64_t{hash.first} << 32U) | hash.second;
}
inline HashPair UnpackHash(uint64_t packed) {
  return {static_cast<uint32_t>(packed >> 32U), static_cast<uint32_t>(packed)};
}
inline std::vector<uint64_t> PackHashes(const std::vector<HashPair>& hashes) {
  std::vector<uint64_t> packed(hashes.size());
  std::transform(hashes.begin(), hashes.end(), packed.begin(), PackHash);
  return packed;
}
// A member of a loaded game that the game indexes its boards, tables or
// histories with: out of range, the state is refused (a state whose
// checksum holds can still be crafted).
inline void CheckLoaded(bool in_range, const char* what) {
  if (!in_range) {
    throw SnapshotError(std::string("the pgx state is corrupt: ") + what +
                        " is out of range");
  }
}
// A member that no honest game holds (a count that does not add up, a mask
// that does not follow from the board, a reward the game never pays).
inline void CheckPossible(bool possible, const char* what) {
  if (!possible) {
    throw SnapshotError(std::string("the pgx state is corrupt: ") + what +
                        " is not one a game reaches");
  }
}
// A flag of a game loaded as raw bytes: a byte other than 0 or 1 read as a
// bool is undefined (a mask entry both true and false).
inline bool IsFlag(const bool& flag) {
  unsigned char byte = 0;
  std::memcpy(&byte, &flag, 1);
  return byte <= 1;
}
template <std::size_t N>
bool AllFlags(const std::array<bool, N>& flags) {
  return std::all_of(flags.begin(), flags.end(), IsFlag);
}
// Two players' rewards: 0 while the game goes on, else `r` and -r with r
// among `scores` (the game's payouts to the winner; 0 a draw).
template <typename Scores>
bool IsRewardPair(const std::array<float, 2>& rewards, bool terminated,
                  const Scores& scores) {
  if (!terminated) {
    return rewards[0] == 0.0F && rewards[1] == 0.0F;
  }
  return rewards[0] == -rewards[1] &&
         (rewards[0] == 0.0F ||
          std::any_of(std::begin(scores), std::end(scores),
                      [&](float s) { return std::abs(rewards[0]) == s; }));
}
template <typename Values>
bool AllIn(const Values& values, int low, int high) {
  return std::all_of(std::begin(values), std::end(values), [&](auto v) {
    return static_cast<int>(v) >= low && static_cast<int>(v) <= high;
  });
}
inline bool IsPlayerOrder(const std::array<int, 2>& order) {
  return (order[0] == 0 && order[1] == 1) || (order[0] == 1 && order[1] == 0);
}

inline std::vector<HashPair> UnpackHashes(const std::vector<uint64_t>& packed,
                                          std::size_t size) {
  if (!packed.empty() && packed.size() != size) {
    throw SnapshotError(
        "the pgx state is corrupt: " + std::to_string(packed.size()) +
        " positions in a history of " + std::to_string(size));
  }
  std::vector<HashPair> hashes(packed.size());
  std::transform(packed.begin(), packed.end(), hashes.begin(), UnpackHash);
  return hashes;
}

// Player p's color in the two-player pgx games where the first mover has
// color 0 and current player and color alternate together.
inline int ColorOfPlayer(int player, int first_player) {
  return player == first_player ? 0 : 1;
}

}  // namespace envpool::pgx

#endif  // ENVPOOL_PGX_PGX_ENV_H_
