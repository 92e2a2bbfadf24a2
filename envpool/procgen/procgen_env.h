// The 16 procgen 0.10.7 games, run by procgen's own compiled library
// (libenv.so from the procgen wheel, shipped in envpool/procgen/) through
// gym3's libenv C interface: one libenv instance of one game per env.
//
// With the same `rand_seed` and options, an env's frames, rewards and dones
// are procgen's (ProcgenGym3Env(num=1, ...)) bit for bit; docs/procgen.md
// states how the pool's seed becomes `rand_seed` and what differs.
#ifndef ENVPOOL_PROCGEN_PROCGEN_ENV_H_
#define ENVPOOL_PROCGEN_PROCGEN_ENV_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/procgen/libenv.h"
#include "envpool/procgen/procgen_state.h"

namespace envpool::procgen {

// procgen's distribution modes (game.h); exploration is procgen's Python
// wrapper's: hard mode on one fixed level.
enum DistributionMode : int64_t {
  kEasy = 0,
  kHard = 1,
  kExtreme = 2,
  kMemory = 10,
  kExploration = 20,
};

struct Game {
  const char* name;
  // The episode length at which procgen ends an episode.
  int64_t timeout;
  bool extreme;
  bool memory;
  // The level of exploration mode (0: the game has none), as procgen's
  // env.py EXPLORATION_LEVEL_SEEDS.
  int32_t exploration_level;
};

inline const std::array<Game, 16>& Games() {
  static const std::array<Game, 16> games = {{
      {"bigfish", 6000, false, false, 0},
      {"bossfight", 4000, false, false, 0},
      {"caveflyer", 1000, false, true, 1259048185},
      {"chaser", 1000, true, false, 0},
      {"climber", 1000, false, false, 1561126160},
      {"coinrun", 1000, false, false, 1949448038},
      {"dodgeball", 1000, true, true, 0},
      {"fruitbot", 1000, false, false, 0},
      {"heist", 1000, false, true, 876640971},
      {"jumper", 1000, false, true, 1434825276},
      {"leaper", 500, true, false, 1318677581},
      {"maze", 500, false, true, 158988835},
      {"miner", 1000, false, true, 0},
      {"ninja", 1000, false, false, 1123500215},
      {"plunder", 4000, false, false, 0},
      {"starpilot", 1000, true, false, 0},
  }};
  return games;
}

// The game named `name`; throws std::invalid_argument naming the games.
inline const Game& FindGame(const std::string& name) {
  std::string known;
  for (const Game& game : Games()) {
    if (name == game.name) {
      return game;
    }
    known += (known.empty() ? "" : ", ") + std::string(game.name);
  }
  throw std::invalid_argument("env_name must be one of procgen's games (" +
                              known + "), got '" + name + "'");
}

// procgen's libenv aborts the process on an option it rejects, so every
// value is checked here first.
inline void CheckOptions(const Options& options) {
  const Game& game = FindGame(options.Get<std::string>("env_name"));
  const int64_t mode = options.Get<int64_t>("distribution_mode");
  std::string modes = "0 (easy), 1 (hard)";
  if (game.extreme) {
    modes += ", 2 (extreme)";
  }
  if (game.memory) {
    modes += ", 10 (memory)";
  }
  if (game.exploration_level != 0) {
    modes += ", 20 (exploration)";
  }
  const bool ok = mode == kEasy || mode == kHard ||
                  (mode == kExtreme && game.extreme) ||
                  (mode == kMemory && game.memory) ||
                  (mode == kExploration && game.exploration_level != 0);
  if (!ok) {
    throw std::invalid_argument("option 'distribution_mode' of " +
                                std::string(game.name) + " must be " + modes +
                                ", got " + std::to_string(mode));
  }
  for (const char* name : {"num_levels", "start_level"}) {
    const int64_t v = options.Get<int64_t>(name);
    if (v < 0 || v > std::numeric_limits<int32_t>::max()) {
      throw std::invalid_argument("option '" + std::string(name) +
                                  "' must be in 0..2147483647, got " +
                                  std::to_string(v));
    }
  }
}

// Where the library and assets are: `data_dir` holds libenv.so and assets/.
inline std::string LibraryPath(const Options& options) {
  return (std::filesystem::path(options.Get<std::string>("data_dir")) /
          "libenv.so")
      .string();
}

inline std::string AssetDir(const Options& options) {
  // procgen appends asset names to this prefix as it is.
  return (std::filesystem::path(options.Get<std::string>("data_dir")) /
          "assets" / "")
      .string();
}

inline void CheckFiles(const Options& options) {
  const std::string hint =
      ": procgen's library and assets ship inside envpool's wheel "
      "(envpool/procgen/); reinstall envpool, or pass data_dir=<a folder "
      "holding libenv.so and assets/ of procgen 0.10.7>";
  if (options.Get<std::string>("data_dir").empty()) {
    throw std::invalid_argument("option 'data_dir' is empty" + hint);
  }
  if (!std::filesystem::is_regular_file(LibraryPath(options))) {
    throw std::invalid_argument("procgen's game library " +
                                LibraryPath(options) + " is missing" + hint);
  }
  if (!std::filesystem::is_directory(AssetDir(options))) {
    throw std::invalid_argument("procgen's asset folder " + AssetDir(options) +
                                " is missing" + hint);
  }
}

// The pool's seed as procgen's rand_seed (a non-negative int32).
inline int32_t RandSeed(uint64_t seed) {
  return static_cast<int32_t>(seed & 0x7fffffffu);
}

// procgen's (64, 64, 3) frame as EnvPool's (3, 64, 64): one pass over the
// pixels, three planes written.  Compiled for SSSE3 and AVX2 too (chosen at
// load time), whose shuffles vectorize the stride-3 reads: about 5x faster
// than the plain loop, which cost ~4.7 us of a ~45 us Starpilot step.
__attribute__((target_clones("avx2", "ssse3", "default"))) static void
ToChannelFirst(const uint8_t* __restrict rgb, uint8_t* __restrict obs) {
  constexpr int kPixels = 64 * 64;
  uint8_t* r = obs;
  uint8_t* g = obs + kPixels;
  uint8_t* b = obs + 2 * kPixels;
  for (int i = 0; i < kPixels; ++i) {
    r[i] = rgb[3 * i];
    g[i] = rgb[3 * i + 1];
    b[i] = rgb[3 * i + 2];
  }
}

class ProcgenEnv : public Env {
 public:
  static constexpr int kSize = 64;
  static constexpr int kChannels = 3;
  static constexpr int kNumActions = 15;
  // procgen's render_human frame (RENDER_RES), at gym3's 15 frames/second.
  static constexpr int kRenderSize = 512;
  static constexpr int kRenderFps = 15;

  struct Fields {
    Field<uint8_t> obs;
    Field<int32_t> prev_level_seed;
    Field<int32_t> prev_level_complete;
    Field<int32_t> level_seed;
    Field<int64_t> action;
  };

  static Options DefaultOptions() {
    return Options{{"env_name", std::string("coinrun")},
                   {"data_dir", std::string()},
                   {"num_levels", int64_t{0}},
                   {"start_level", int64_t{0}},
                   {"use_sequential_levels", false},
                   {"center_agent", true},
                   {"use_backgrounds", true},
                   {"use_monochrome_assets", false},
                   {"restrict_themes", false},
                   {"use_generated_assets", false},
                   {"paint_vel_info", false},
                   {"use_easy_jump", false},
                   {"distribution_mode", int64_t{kHard}},
                   {"channel_first", true},
                   {"max_episode_steps", int64_t{1000}}};
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    CheckOptions(options);
    CheckFiles(options);
    Libenv::Load(LibraryPath(options));
    std::vector<int64_t> shape =
        options.Get<bool>("channel_first")
            ? std::vector<int64_t>{kChannels, kSize, kSize}
            : std::vector<int64_t>{kSize, kSize, kChannels};
    fields->obs = spec->state.Add<uint8_t>("obs", shape, {0.0}, {255.0});
    // EnvPool's order of the info keys.
    fields->prev_level_seed =
        spec->state.Add<int32_t>("info:prev_level_seed", {});
    fields->prev_level_complete =
        spec->state.Add<int32_t>("info:prev_level_complete", {});
    fields->level_seed = spec->state.Add<int32_t>("info:level_seed", {});
    fields->action = spec->action.AddDiscrete<int64_t>("action", kNumActions);
    // procgen cannot serialize generated assets (its serialize asserts
    // !use_generated_assets and ends the process).
    spec->snapshots = !options.Get<bool>("use_generated_assets");
    DeclareRendering(options, spec, {"rgb_array"}, kRenderSize, kRenderSize,
                     kRenderFps);
  }

  ProcgenEnv(const Options& options, const Fields& fields)
      : fields_(fields),
        library_path_(LibraryPath(options)),
        game_(FindGame(options.Get<std::string>("env_name"))),
        asset_dir_(AssetDir(options)),
        channel_first_(options.Get<bool>("channel_first")),
        max_episode_steps_(options.Get<int64_t>("max_episode_steps")),
        render_human_(options.Has("render_mode") &&
                      options.Get<std::string>("render_mode") == "rgb_array"),
        snapshots_(!options.Get<bool>("use_generated_assets")) {
    int64_t mode = options.Get<int64_t>("distribution_mode");
    int64_t num_levels = options.Get<int64_t>("num_levels");
    int64_t start_level = options.Get<int64_t>("start_level");
    if (mode == kExploration) {
      // As procgen's ProcgenGym3Env: hard mode on the game's one level.
      mode = kHard;
      num_levels = 1;
      start_level = game_.exploration_level;
    }
    distribution_mode_ = static_cast<int32_t>(mode);
    num_levels_ = static_cast<int32_t>(num_levels);
    start_level_ = static_cast<int32_t>(start_level);
    for (const char* name :
         {"center_agent", "use_generated_assets", "use_monochrome_assets",
          "restrict_themes", "use_backgrounds", "paint_vel_info",
          "use_sequential_levels", "use_easy_jump"}) {
      flags_.emplace_back(name, options.Get<bool>(name) ? 1 : 0);
    }
  }

  ~ProcgenEnv() override { Close(); }

  void Reset() override {
    if (instance_ == nullptr || reseed_) {
      Open();
      reseed_ = false;
    } else if (!at_episode_start_) {
      // Action -1 makes procgen end the episode and start the next level.
      action_ = -1;
      lib_->act(instance_);
      Observe();
    }
    at_episode_start_ = true;
    episode_step_ = 0;
    reward_ = 0.0;
    terminated_ = false;
  }

  void Step(const ActionView& action) override {
    action_ = static_cast<int32_t>(action.Scalar(fields_.action));
    lib_->act(instance_);
    Observe();
    ++episode_step_;
    reward_ = reward_buffer_;
    const bool done = first_buffer_ != 0;
    // procgen ends an episode at its timeout too; when the pool truncates
    // that same step, the end is a truncation, not a termination.
    const bool timed_out =
        episode_step_ >= game_.timeout && episode_step_ >= max_episode_steps_ &&
        max_episode_steps_ > 0 && Info(prev_level_complete_index_) == 0;
    terminated_ = done && !timed_out;
    at_episode_start_ = done;
  }

  // procgen's render_human frame of the current state: libenv_observe draws
  // it (512x512, antialiased) into the instance's "rgb" info buffer, as
  // ProcgenGym3Env(render_mode="rgb_array") shows it in info["rgb"].
  void Render(int width, int height, int /*camera_id*/, uint8_t* rgb) override {
    if (!render_human_ || render_index_ < 0) {
      throw std::logic_error(
          "procgen renders only with render_mode='rgb_array'");
    }
    if (width != kRenderSize || height != kRenderSize) {
      throw std::invalid_argument("procgen renders at 512x512 only");
    }
    lib_->observe(instance_);
    std::memcpy(rgb, info_buffers_[render_index_].data(),
                static_cast<std::size_t>(kRenderSize) * kRenderSize * 3);
  }

  void Write(const Output& out) override {
    uint8_t* obs = out.Get(fields_.obs);
    const uint8_t* rgb = obs_buffer_.data();
    if (channel_first_) {
      ToChannelFirst(rgb, obs);
    } else {
      std::memcpy(obs, rgb, obs_buffer_.size());
    }
    *out.Get(fields_.prev_level_seed) = Info(prev_level_seed_index_);
    *out.Get(fields_.prev_level_complete) = Info(prev_level_complete_index_);
    *out.Get(fields_.level_seed) = Info(level_seed_index_);
  }

  // Snapshots: the game's state as procgen serializes it (its generators,
  // level, entities and step counters; procgen's state_test restores it
  // exactly), then the env's own: where the episode stands and the seed a
  // reseeded reset opens a new game with.
  void SaveState(StateWriter* writer) const override {
    const bool open = instance_ != nullptr;
    writer->Put(open, reseed_, rand_seed_, at_episode_start_, episode_step_);
    if (open) {
      std::vector<char>& buffer = StateBuffer();
      const int n = lib_->get_state(instance_, 0, buffer.data(),
                                    static_cast<int>(buffer.size()));
      writer->Put(std::string(buffer.data(), n));
    }
  }

  void LoadState(StateReader* reader) override {
    bool open = false;
    bool reseed = true;
    int32_t rand_seed = 0;
    bool at_episode_start = true;
    int64_t episode_step = 0;
    reader->Get(&open, &reseed, &rand_seed, &at_episode_start, &episode_step);
    if (open) {
      std::string game;
      reader->Get(&game);
      if (game.size() > StateBuffer().size()) {
        throw SnapshotError("the procgen state is corrupt: too long");
      }
      // procgen ends the process on a game it cannot read or draw: the
      // bytes are checked first, and the members the id and options fix
      // must be this env's.
      const FixedMembers fixed =
          CheckGameState(game_.name, game.data(), game.size());
      rand_seed_ = rand_seed;
      if (instance_ == nullptr) {
        Open();
      }
      if (fixed != fixed_) {
        throw SnapshotError(
            "the procgen state is corrupt: its game was made with other "
            "options");
      }
      lib_->set_state(instance_, 0, game.data(), static_cast<int>(game.size()));
    }
    rand_seed_ = rand_seed;
    // An env saved before its first game opens one at its next reset.
    reseed_ = reseed || !open;
    at_episode_start_ = at_episode_start;
    episode_step_ = episode_step;
  }

 protected:
  void OnSeed(uint64_t seed) override {
    rand_seed_ = RandSeed(seed);
    reseed_ = true;
    // The pool sets the env's id before its first seed, as it builds it:
    // the library copy is loaded then, not on a worker's first reset.
    Library();
  }

 private:
  struct ValueOption {
    std::string name;
    int dtype;
    std::vector<uint8_t> bytes;
  };

  // A new instance of one game, seeded with rand_seed_, at its first frame.
  void Open() {
    std::vector<ValueOption> values;
    auto add_int = [&](const char* name, int32_t v) {
      std::vector<uint8_t> bytes(sizeof v);
      std::memcpy(bytes.data(), &v, sizeof v);
      values.push_back({name, abi::kInt32, std::move(bytes)});
    };
    auto add_text = [&](const char* name, const std::string& text) {
      values.push_back(
          {name, abi::kUint8, std::vector<uint8_t>(text.begin(), text.end())});
    };
    for (const auto& [name, flag] : flags_) {
      // use_easy_jump is not an option of procgen's Python wrapper; it is
      // given only when set.
      if (name == "use_easy_jump" && flag == 0) {
        continue;
      }
      values.push_back({name, abi::kUint8, {flag}});
    }
    add_int("distribution_mode", distribution_mode_);
    add_text("env_name", game_.name);
    add_int("num_levels", num_levels_);
    add_int("start_level", start_level_);
    add_int("num_actions", kNumActions);
    add_int("debug_mode", 0);
    add_int("rand_seed", rand_seed_);
    // No threads of procgen's own: the pool's worker steps the game.
    add_int("num_threads", 0);
    // With render_human the instance also reports the 512x512 "rgb" info
    // tensor, which libenv_observe draws; the game itself is the same.
    values.push_back(
        {"render_human", abi::kUint8, {static_cast<uint8_t>(render_human_)}});
    add_text("resource_root", asset_dir_);

    std::vector<abi::Option> items(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      std::memset(&items[i], 0, sizeof items[i]);
      std::strncpy(items[i].name, values[i].name.c_str(), abi::kMaxNameLen - 1);
      items[i].dtype = values[i].dtype;
      items[i].count = static_cast<int>(values[i].dtype == abi::kInt32
                                            ? values[i].bytes.size() / 4
                                            : values[i].bytes.size());
      items[i].data = values[i].bytes.data();
    }
    abi::OptionList list{items.data(), static_cast<int>(items.size())};

    std::lock_guard<std::mutex> lock(Library().instance_mu);
    CloseLocked();
    instance_ = lib_->make(1, list);
    if (instance_ == nullptr) {
      throw std::runtime_error("procgen could not create " +
                               std::string(game_.name));
    }
    BindBuffers();
    Observe();
    if (snapshots_) {
      // What a restored game must share with this one (CheckGameState).
      std::vector<char>& buffer = StateBuffer();
      const int n = lib_->get_state(instance_, 0, buffer.data(),
                                    static_cast<int>(buffer.size()));
      fixed_ = CheckGameState(game_.name, buffer.data(),
                              static_cast<std::size_t>(n), false);
    }
  }

  // The copy of the library this env's games run in (see Libenv).
  const Libenv& Library() {
    if (lib_ == nullptr) {
      lib_ = &Libenv::Load(library_path_, env_id_ % Libenv::Copies());
    }
    return *lib_;
  }

  // Buffers for every tensor the instance writes and reads, one game each.
  void BindBuffers() {
    auto tensors = [&](int space) {
      std::vector<abi::TensorType> types(
          lib_->get_tensortypes(instance_, space, nullptr));
      lib_->get_tensortypes(instance_, space, types.data());
      return types;
    };
    auto bytes_of = [](const abi::TensorType& t) {
      std::size_t n = t.dtype == abi::kUint8 ? 1 : 4;
      for (int d = 0; d < t.ndim; ++d) {
        n *= static_cast<std::size_t>(t.shape[d]);
      }
      return n;
    };
    const auto ob_types = tensors(abi::kObservation);
    const auto ac_types = tensors(abi::kAction);
    const auto info_types = tensors(abi::kInfo);
    if (ob_types.size() != 1 || ac_types.size() != 1 ||
        bytes_of(ob_types[0]) != kSize * kSize * kChannels) {
      throw std::runtime_error(
          "procgen's libenv.so has an unexpected observation or action "
          "layout (expected procgen 0.10.7)");
    }
    obs_buffer_.assign(bytes_of(ob_types[0]), 0);
    ob_pointers_ = {obs_buffer_.data()};
    ac_pointers_ = {&action_};
    info_buffers_.clear();
    info_pointers_.clear();
    prev_level_seed_index_ = prev_level_complete_index_ = level_seed_index_ =
        render_index_ = -1;
    for (const abi::TensorType& t : info_types) {
      const std::string name = t.name;
      const int index = static_cast<int>(info_buffers_.size());
      if (name == "prev_level_seed") {
        prev_level_seed_index_ = index;
      } else if (name == "prev_level_complete") {
        prev_level_complete_index_ = index;
      } else if (name == "level_seed") {
        level_seed_index_ = index;
      } else if (name == "rgb" &&
                 bytes_of(t) ==
                     static_cast<std::size_t>(kRenderSize) * kRenderSize * 3) {
        render_index_ = index;
      }
      info_buffers_.emplace_back((bytes_of(t) + 3) / 4, 0);
    }
    for (auto& buffer : info_buffers_) {
      info_pointers_.push_back(buffer.data());
    }
    if (prev_level_seed_index_ < 0 || prev_level_complete_index_ < 0 ||
        level_seed_index_ < 0 || (render_human_ && render_index_ < 0)) {
      throw std::runtime_error(
          "procgen's libenv.so does not report level_seed, prev_level_seed "
          "and prev_level_complete, or no 512x512 rgb frame with "
          "render_human (expected procgen 0.10.7)");
    }
    buffers_ =
        abi::Buffers{ob_pointers_.data(), &reward_buffer_, &first_buffer_,
                     info_pointers_.data(), ac_pointers_.data()};
    lib_->set_buffers(instance_, &buffers_);
  }

  int32_t Info(int index) const { return info_buffers_[index][0]; }

  // Room for one game's serialized state: procgen's Python wrapper allows
  // 2**20 bytes (MAX_STATE_SIZE), and procgen aborts on a game that does
  // not fit, so this allows four times as much.
  static std::vector<char>& StateBuffer() {
    thread_local std::vector<char> buffer(std::size_t{4} << 20);
    return buffer;
  }

  // libenv_observe only waits for procgen's own threads (there are none)
  // and, with render_human, draws the 512x512 frame: the game writes its
  // observation inside act. So it is called for the frame only, when one
  // is rendered (Render), not after every act.
  void Observe() {
    if (!render_human_) {
      lib_->observe(instance_);
    }
  }

  void Close() {
    if (instance_ != nullptr) {
      std::lock_guard<std::mutex> lock(lib_->instance_mu);
      CloseLocked();
    }
  }

  void CloseLocked() {
    if (instance_ != nullptr) {
      lib_->close(instance_);
      instance_ = nullptr;
    }
  }

  Fields fields_;
  std::string library_path_;
  // Library(), once the pool has told the env its id.
  const Libenv* lib_ = nullptr;
  const Game& game_;
  std::string asset_dir_;
  bool channel_first_;
  int64_t max_episode_steps_;
  bool render_human_;
  // Whether procgen can serialize the game (no generated assets).
  bool snapshots_;
  // The members of this env's game that its id and options fix.
  FixedMembers fixed_;
  int32_t distribution_mode_ = kHard;
  int32_t num_levels_ = 0;
  int32_t start_level_ = 0;
  std::vector<std::pair<std::string, uint8_t>> flags_;
  int32_t rand_seed_ = 0;
  bool reseed_ = true;

  void* instance_ = nullptr;
  bool at_episode_start_ = true;
  int64_t episode_step_ = 0;
  // What the instance writes (and reads: the action).
  std::vector<uint8_t> obs_buffer_;
  std::vector<std::vector<int32_t>> info_buffers_;
  int prev_level_seed_index_ = -1;
  int prev_level_complete_index_ = -1;
  int level_seed_index_ = -1;
  int render_index_ = -1;  // the "rgb" info tensor (render_human only)
  float reward_buffer_ = 0.0f;
  uint8_t first_buffer_ = 0;
  int32_t action_ = 0;
  std::vector<void*> ob_pointers_;
  std::vector<void*> info_pointers_;
  std::vector<void*> ac_pointers_;
  abi::Buffers buffers_{};
};

}  // namespace envpool::procgen

#endif  // ENVPOOL_PROCGEN_PROCGEN_ENV_H_
