// Atari 2600 games through the Arcade Learning Environment (ALE 0.11.2), with
// the DQN preprocessing done in place: frame skip with a max-pool over the
// last two frames, grayscale or RGB, resize, frame stack, no-op and FIRE
// resets, episodic life and reward clipping.
//
// With noop_max=0, use_fire_reset=False and sticky actions off, every reset
// and step equals gymnasium's AtariPreprocessing(noop_max=0, frame_skip=4,
// screen_size=84, terminal_on_life_loss=False) over ALE/<Game>-v5 (frameskip
// 1, repeat_action_probability 0) stacked by FrameStackObservation(4,
// padding_type="reset"), frame for frame; docs/atari.md states the rest.
#ifndef ENVPOOL_ATARI_ATARI_ENV_H_
#define ENVPOOL_ATARI_ATARI_ENV_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "ale/ale_interface.hpp"
#include "ale/emucore/Deserializer.hxx"
#include "ale/emucore/MD5.hxx"
#include "ale/emucore/System.hxx"
#include "envpool/atari/ale_state.h"
#include "envpool/core/env.h"
#include "envpool/render/frames.h"

namespace envpool::atari {

using ::envpool::render::FramePool;
using ::envpool::render::FrameStack;
using ::envpool::render::Resizer;

// ALE logs every ROM load at its Info level; only errors are shown.
inline void QuietAle() {
  static std::once_flag quiet;
  std::call_once(quiet, [] { ale::Logger::setMode(ale::Logger::Error); });
}

// The size of a game's ALE screen (rows x columns).
struct ScreenSize {
  int height = 0;
  int width = 0;
};

// What a ROM tells before the pool starts: its action sets, modes,
// difficulties and screen size.  Throws std::invalid_argument naming the
// missing file.
class RomInfo {
 public:
  explicit RomInfo(const Options& options) {
    std::string task = options.Get<std::string>("task");
    std::string rom_dir = options.Get<std::string>("rom_dir");
    if (rom_dir.empty()) {
      throw std::invalid_argument(
          "the Atari ROMs were not found: they ship with the ale-py wheel, "
          "install it with `pip install ale-py==0.11.2` (or pass rom_dir=<a "
          "folder holding " +
          task + ".bin>)");
    }
    path_ = (std::filesystem::path(rom_dir) / (task + ".bin")).string();
    if (!std::filesystem::is_regular_file(path_)) {
      throw std::invalid_argument(
          "ROM file " + path_ + " of Atari task '" + task +
          "' not found; the ROMs ship with the ale-py wheel: `pip install "
          "ale-py==0.11.2` (or pass rom_dir=<a folder holding " +
          task + ".bin>)");
    }
    // ALE picks a game's settings by the file name (or the ROM's MD5).
    settings_.reset(ale::buildRomRLWrapper(path_, std::string()));
    if (settings_ == nullptr) {
      throw std::invalid_argument("ALE 0.11.2 has no game named '" + task +
                                  "' (ROM " + path_ + ")");
    }
    CheckContents(task);
    screen_ = LoadedScreenSize(path_, settings_->md5());
  }

  const std::string& path() const { return path_; }
  // ALE's screen of the game, as ale-py's getScreenRGB() has it.
  ScreenSize screen() const { return screen_; }
  ale::ActionVect minimal_actions() const {
    return settings_->getMinimalActionSet();
  }
  ale::ActionVect all_actions() const { return settings_->getAllActions(); }
  ale::ModeVect modes() const { return settings_->getAvailableModes(); }
  ale::DifficultyVect difficulties() const {
    return settings_->getAvailableDifficulties();
  }

 private:
  // The emulator takes any bytes: an empty file makes ALE exit the process
  // and random bytes can run forever. So the ROM must be the dump ALE's
  // settings for the game were written for (its MD5), before ALE sees it.
  void CheckContents(const std::string& task) const {
    constexpr std::uintmax_t kMaxRomBytes = 1 << 20;  // 2600 carts: <= 512K
    std::error_code error;
    std::uintmax_t size = std::filesystem::file_size(path_, error);
    std::string fix =
        "; the ROMs that ship with ale-py 0.11.2 are the ones ALE's game "
        "settings are written for (`pip install --force-reinstall "
        "ale-py==0.11.2`, or pass rom_dir=<a folder holding " +
        task + ".bin>)";
    if (error || size == 0 || size > kMaxRomBytes) {
      throw std::invalid_argument(
          "ROM file " + path_ + " of Atari task '" + task + "' is " +
          (error ? "unreadable" : std::to_string(size) + " bytes") +
          ", not an Atari 2600 ROM" + fix);
    }
    std::ifstream file(path_, std::ios::binary);
    std::vector<uint8_t> bytes(size);
    if (!file.read(reinterpret_cast<char*>(bytes.data()),
                   static_cast<std::streamsize>(size))) {
      throw std::invalid_argument("ROM file " + path_ + " of Atari task '" +
                                  task + "' could not be read" + fix);
    }
    std::string md5 =
        ale::stella::MD5(bytes.data(), static_cast<uint32_t>(bytes.size()));
    if (md5 != settings_->md5()) {
      throw std::invalid_argument(
          "ROM file " + path_ + " of Atari task '" + task + "' has MD5 " + md5 +
          ", but ALE 0.11.2's settings for it expect " + settings_->md5() +
          " (a corrupt or different dump)" + fix);
    }
  }

  // The screen is 160 columns, but its rows differ per game (13 of the 104
  // have 214 to 250): ALE sizes it when it loads the ROM, from the cartridge's
  // Stella properties (Display.Height) and its TV format, which it detects by
  // emulating 60 frames (PAL and SECAM carts get 250).  So the ROM is loaded
  // once in an emulator of its own, which gives the size exactly as the envs'
  // own emulators will have it; the result is kept per ROM (by MD5) for the
  // life of the process, since a pool declares its spec more than once.
  // Runs after CheckContents: ALE exits the process on a ROM it cannot wrap.
  static ScreenSize LoadedScreenSize(const std::string& path,
                                     const std::string& md5) {
    static std::mutex mu;
    static std::map<std::string, ScreenSize> sizes;
    std::lock_guard<std::mutex> lock(mu);
    auto found = sizes.find(md5);
    if (found != sizes.end()) {
      return found->second;
    }
    QuietAle();
    ale::ALEInterface ale;
    ale.loadROM(path);
    const ale::ALEScreen& screen = ale.getScreen();
    ScreenSize size{static_cast<int>(screen.height()),
                    static_cast<int>(screen.width())};
    sizes.emplace(md5, size);
    return size;
  }

  std::string path_;
  std::unique_ptr<ale::RomSettings> settings_;
  ScreenSize screen_;
};

struct SkipResult {
  int64_t reward = 0;
  bool game_over = false;
};

// One agent step of `frame_skip` emulator frames, as gymnasium's
// AtariPreprocessing does it: sums the rewards, stops at game over, keeps
// the second-to-last frame and max-pools it with the last one.  A step cut
// short by game over reads no frame after the cut: the pool then mixes what
// it held.  `Emulator` provides `int Act()`, `bool GameOver()` and
// `const uint8_t* Screen()` (palette indices).
template <typename Emulator>
SkipResult SkipAndPool(Emulator& emulator, int frame_skip, FramePool* pool) {
  SkipResult result;
  for (int t = 0; t < frame_skip; ++t) {
    result.reward += emulator.Act();
    if (emulator.GameOver()) {
      result.game_over = true;
      if (frame_skip > 1) {
        pool->PoolStale();
      }
      break;
    }
    if (t == frame_skip - 2) {
      pool->KeepPrevious(emulator.Screen());
    } else if (t == frame_skip - 1) {
      pool->PoolLast(emulator.Screen(), frame_skip > 1);
    }
  }
  return result;
}

class AtariEnv : public Env {
 public:
  // The Atari 2600's RAM, reported in info["ram"].
  static constexpr int64_t kRamBytes = 128;

  struct Fields {
    Field<uint8_t> obs;
    Field<int32_t> lives;
    Field<float> reward;
    Field<int32_t> terminated;
    Field<uint8_t> ram;
    Field<float> discount;
    Field<int64_t> action;
    // The game's ROM and ALE settings, looked up once per pool.
    std::shared_ptr<const RomInfo> rom;
  };

  static Options DefaultOptions() {
    return Options{{"task", std::string("pong")},
                   {"rom_dir", std::string()},
                   {"stack_num", int64_t{4}},
                   {"frame_skip", int64_t{4}},
                   {"noop_max", int64_t{30}},
                   {"episodic_life", false},
                   {"zero_discount_on_life_loss", false},
                   {"reward_clip", false},
                   {"use_fire_reset", true},
                   {"img_height", int64_t{84}},
                   {"img_width", int64_t{84}},
                   {"gray_scale", true},
                   {"mode", int64_t{-1}},
                   {"difficulty", int64_t{-1}},
                   {"full_action_space", false},
                   {"repeat_action_probability", 0.0},
                   {"use_inter_area_resize", true},
                   {"max_episode_steps", int64_t{27000}}};
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    auto positive = [&](const char* name, int64_t limit) {
      int64_t v = options.Get<int64_t>(name);
      if (v < 1 || v > limit) {
        throw std::invalid_argument(std::string(name) + " must be in 1.." +
                                    std::to_string(limit) + ", got " +
                                    std::to_string(v));
      }
      return v;
    };
    int64_t stack_num = positive("stack_num", 64);
    positive("frame_skip", 1000);
    int64_t height = positive("img_height", 4096);
    int64_t width = positive("img_width", 4096);
    if (options.Get<int64_t>("noop_max") < 0) {
      throw std::invalid_argument(
          "noop_max must be >= 0, got " +
          std::to_string(options.Get<int64_t>("noop_max")));
    }
    double sticky = options.Get<double>("repeat_action_probability");
    if (!(sticky >= 0.0 && sticky <= 1.0)) {
      throw std::invalid_argument(
          "repeat_action_probability must be in [0, 1], got " +
          std::to_string(sticky));
    }
    auto rom = std::make_shared<const RomInfo>(options);
    fields->rom = rom;
    CheckChoice(options, "mode", rom->modes());
    CheckChoice(options, "difficulty", rom->difficulties());
    int64_t num_actions = static_cast<int64_t>(
        options.Get<bool>("full_action_space") ? rom->all_actions().size()
                                               : rom->minimal_actions().size());
    int64_t channels = options.Get<bool>("gray_scale") ? 1 : 3;
    fields->obs = spec->state.Add<uint8_t>(
        "obs", {stack_num * channels, height, width}, {0.0}, {255.0});
    fields->lives = spec->state.Add<int32_t>("info:lives", {});
    fields->reward = spec->state.Add<float>("info:reward", {});
    // EnvPool's layout: the game-over flag as int32, the console RAM.
    fields->terminated = spec->state.AddDiscrete<int32_t>("info:terminated", 2);
    fields->ram =
        spec->state.Add<uint8_t>("info:ram", {kRamBytes}, {0.0}, {255.0});
    fields->discount = spec->state.Add<float>("info:discount", {});
    fields->action = spec->action.AddDiscrete<int64_t>("action", num_actions);
    spec->snapshots = true;
    // ale-py's render(): the console screen in RGB (160 wide; 210 rows for
    // most games, up to 250 for some) at 30 fps.
    DeclareRendering(options, spec, {"rgb_array"}, rom->screen().width,
                     rom->screen().height, 30);
  }

  // The RGB screen of the last emulated frame, as ale-py's render().
  void Render(int width, int height, int /*camera_id*/, uint8_t* rgb) override {
    const ale::ALEScreen& screen = ale_->getScreen();
    if (static_cast<int>(screen.width()) != width ||
        static_cast<int>(screen.height()) != height) {
      throw std::logic_error("the ALE screen is not " + std::to_string(width) +
                             "x" + std::to_string(height));
    }
    ale_->getScreenRGB(render_buffer_);
    std::memcpy(rgb, render_buffer_.data(), render_buffer_.size());
  }

  AtariEnv(const Options& options, const Fields& fields)
      : rom_(fields.rom),
        stack_num_(options.Get<int>("stack_num")),
        frame_skip_(options.Get<int>("frame_skip")),
        noop_max_(options.Get<int>("noop_max")),
        episodic_life_(options.Get<bool>("episodic_life")),
        zero_discount_on_life_loss_(
            options.Get<bool>("zero_discount_on_life_loss")),
        reward_clip_(options.Get<bool>("reward_clip")),
        height_(options.Get<int>("img_height")),
        width_(options.Get<int>("img_width")),
        channels_(options.Get<bool>("gray_scale") ? 1 : 3),
        mode_(options.Get<int>("mode")),
        difficulty_(options.Get<int>("difficulty")),
        repeat_action_probability_(
            options.Get<float>("repeat_action_probability")),
        area_resize_(options.Get<bool>("use_inter_area_resize")),
        stack_(stack_num_,
               static_cast<std::size_t>(channels_) * height_ * width_) {
    fields_ = fields;
    action_set_ = options.Get<bool>("full_action_space")
                      ? rom_->all_actions()
                      : rom_->minimal_actions();
    // The game itself takes FIRE, whichever action set the agent uses.
    ale::ActionVect minimal = rom_->minimal_actions();
    fire_reset_ = options.Get<bool>("use_fire_reset") &&
                  std::find(minimal.begin(), minimal.end(),
                            ale::PLAYER_A_FIRE) != minimal.end();
    QuietAle();
    ale_ = std::make_unique<ale::ALEInterface>();
    // Frame skipping is ours; ALE emulates one frame per act().
    ale_->setInt("frame_skip", 1);
    ale_->setInt("max_num_frames_per_episode", 0);
    ale_->setBool("color_averaging", false);
    ale_->setFloat("repeat_action_probability", repeat_action_probability_);
  }

  void Reset() override {
    // A reseeded (or first) reset reloads the ROM with the new ALE seed, as
    // ale-py's reset(seed=...) does, so equal seeds give equal rollouts
    // whatever ran before; later resets keep ALE's and np_random_'s state.
    bool reseeded = reseeded_ || !loaded_;
    reseeded_ = false;
    bool soft = !reseeded && continue_game_;
    continue_game_ = false;
    if (reseeded) {
      LoadGame();
    } else if (!soft) {
      ale_->reset_game();
    }
    if (!soft && noop_max_ > 0) {
      // gymnasium's AtariPreprocessing: np_random.integers(1, noop_max + 1).
      const int64_t noops = np_random_.Integers<int64_t>(1, noop_max_ + 1);
      for (int64_t i = noops; i > 0; --i) {
        ale_->act(ale::PLAYER_A_NOOP);
        if (ale_->game_over(false)) {
          ale_->reset_game();
        }
      }
    }
    if (fire_reset_) {
      for (int t = 0; t < frame_skip_; ++t) {
        ale_->act(ale::PLAYER_A_FIRE);
        if (ale_->game_over(false)) {
          ale_->reset_game();
          break;
        }
      }
    }
    lives_ = ale_->lives();
    pool_.Reset(ale_->getScreen().getArray());
    ResizeIntoStack();
    stack_.FillWithNewest();
    reward_ = 0.0;
    raw_reward_ = 0.f;
    terminated_ = false;
    game_over_ = false;
    discount_ = 1.f;
  }

  void Step(const ActionView& action) override {
    Frames frames{this, action_set_[action.Scalar(fields_.action)]};
    SkipResult skip = SkipAndPool(frames, frame_skip_, &pool_);
    int64_t total = skip.reward;
    game_over_ = skip.game_over;
    ResizeIntoStack();
    int lives = ale_->lives();
    bool life_lost = lives < lives_;
    lives_ = lives;
    raw_reward_ = static_cast<float>(total);
    reward_ = reward_clip_ ? static_cast<double>((total > 0) - (total < 0))
                           : static_cast<double>(total);
    // A life lost with lives left ends the training episode; the game goes
    // on at the next reset.
    bool life_episode_over = episodic_life_ && life_lost && lives > 0;
    terminated_ = game_over_ || life_episode_over;
    continue_game_ = !game_over_ && life_episode_over;
    discount_ =
        terminated_ || (zero_discount_on_life_loss_ && life_lost) ? 0.f : 1.f;
  }

  void Write(const Output& out) override {
    stack_.CopyTo(out.Get(fields_.obs));
    *out.Get(fields_.lives) = lives_;
    *out.Get(fields_.reward) = raw_reward_;
    *out.Get(fields_.terminated) = game_over_ ? 1 : 0;
    const ale::ALERAM& ram = ale_->getRAM();
    std::memcpy(out.Get(fields_.ram), ram.array(),
                std::min<std::size_t>(ram.size(), kRamBytes));
    *out.Get(fields_.discount) = discount_;
  }

  // Snapshots: ALE's cloneState with its generator (the console, the
  // game's settings, frame counters, mode and difficulty), the sticky
  // actions, the TIA's frame in progress and ALE's screen (ale_state.h),
  // then the env's own: the frame pool, the frame stack, lives and the
  // flags of the last step, and whether the next reset reloads the ROM with
  // which seed.
  void SaveState(StateWriter* writer) const override {
    writer->Put(loaded_, reseeded_, ale_seed_);
    if (loaded_) {
      ale::ALEState state = ale_->cloneState(/*include_rng=*/true);
      const TiaFrame tia = GetTiaFrame(*ale_);
      const ale::ALEScreen& screen = ale_->getScreen();
      std::vector<uint8_t> stack(stack_.size());
      stack_.CopyTo(stack.data());
      writer->Put(state.serialize(), GetStickyActions(*ale_->environment),
                  tia.buffers, tia.partial, tia.greyed, tia.pointer, tia.frames,
                  std::vector<uint8_t>(screen.getArray(),
                                       screen.getArray() + screen.arraySize()),
                  pool_.frame_planes(), pool_.kept_screen(), pool_.kept_blank(),
                  stack);
    }
    writer->Put(lives_, raw_reward_, discount_, game_over_, continue_game_);
  }

  void LoadState(StateReader* reader) override {
    bool loaded = false;
    bool reseeded = true;
    int32_t ale_seed = 0;
    reader->Get(&loaded, &reseeded, &ale_seed);
    if (loaded) {
      std::string state;
      StickyActions sticky;
      TiaFrame tia;
      std::vector<uint8_t> screen;
      std::vector<uint8_t> frame;
      std::vector<uint8_t> kept;
      bool kept_blank = true;
      std::vector<uint8_t> stack;
      reader->Get(&state, &sticky, &tia.buffers, &tia.partial, &tia.greyed,
                  &tia.pointer, &tia.frames, &screen, &frame, &kept,
                  &kept_blank, &stack);
      if (!loaded_) {
        ale_seed_ = ale_seed;
        LoadGame();
      }
      const ale::ALEScreen& ale_screen = ale_->getScreen();
      if (screen.size() != ale_screen.arraySize() ||
          stack.size() != stack_.size() ||
          frame.size() != pool_.frame_planes().size() ||
          kept.size() != pool_.kept_screen().size()) {
        throw SnapshotError("the Atari state's frames are not of this game");
      }
      CheckAleState(state);
      CheckSystemLoads(state);
      try {
        ale_->restoreState(ale::ALEState(state));
        SetTiaFrame(tia, ale_.get());
      } catch (const std::exception& e) {
        throw SnapshotError(std::string("ALE refused the state: ") + e.what());
      } catch (const char* e) {  // ALE's Deserializer throws C strings
        throw SnapshotError(std::string("ALE refused the state: ") + e);
      }
      SetStickyActions(sticky, ale_->environment.get());
      std::copy(screen.begin(), screen.end(), ale_screen.getArray());
      pool_.Restore(frame, kept, kept_blank);
      stack_.Restore(stack.data());
    }
    reader->Get(&lives_, &raw_reward_, &discount_, &game_over_,
                &continue_game_);
    ale_seed_ = ale_seed;
    // An env saved before it loaded its ROM loads it at its first reset.
    reseeded_ = reseeded || !loaded;
  }

 private:
  // The emulator as SkipAndPool drives it: one action, frame by frame.
  struct Frames {
    AtariEnv* env;
    ale::Action action;
    int Act() { return env->ale_->act(action); }
    bool GameOver() const { return env->ale_->game_over(false); }
    const uint8_t* Screen() const { return env->ale_->getScreen().getArray(); }
  };

  template <typename T>
  static void CheckChoice(const Options& options, const char* name,
                          const std::vector<T>& choices) {
    int64_t v = options.Get<int64_t>(name);
    if (v == -1 || std::find(choices.begin(), choices.end(),
                             static_cast<T>(v)) != choices.end()) {
      return;
    }
    std::string valid;
    for (T c : choices) {
      valid += (valid.empty() ? "" : ", ") + std::to_string(c);
    }
    throw std::invalid_argument(
        std::string(name) + " " + std::to_string(v) + " is not available for " +
        options.Get<std::string>("task") + "; choose -1 (the game's default) " +
        "or one of " + valid);
  }

  // ale-py's seed_game: SeedSequence(seed).generate_state(2) gives the seed
  // of its np_random (the no-op counts) and ALE's seed (as an int32).
  void OnSeed(uint64_t seed) override {
    const std::vector<uint32_t> words =
        random::SeedSequence(seed).GenerateState32(2);
    np_random_ = random::Generator(uint64_t{words[0]});
    ale_seed_ = static_cast<int32_t>(words[1]);
    reseeded_ = true;
  }

  // ALEState::serialize's framing (ale_state.cpp): six ints, the
  // emulator's state (an int length, its bytes), two ints; the emulator's
  // state opens with the ROM's md5 (an int length, the digest). ALE reads a
  // length it is given as it is (a huge one allocates that much), and a
  // System::loadState that fails on another ROM's md5 returns false and
  // ALE goes on reading the rest into this emulator, so both are checked.
  static std::string AleMd5(const std::string& state) {
    constexpr std::size_t kInts = 6 * 4;
    auto int_at = [&](std::size_t at) {
      int32_t v = 0;
      std::memcpy(&v, state.data() + at, 4);
      return v;
    };
    if (state.size() < kInts + 4 + 4 + 8) {
      throw SnapshotError("the Atari state's emulator state is truncated");
    }
    const int32_t inner = int_at(kInts);
    if (inner < 4 ||
        static_cast<std::size_t>(inner) != state.size() - kInts - 4 - 8) {
      throw SnapshotError("the Atari state's emulator state is corrupt");
    }
    const int32_t md5 = int_at(kInts + 4);
    if (md5 < 0 || md5 > inner - 4) {
      throw SnapshotError("the Atari state's emulator state is corrupt");
    }
    return state.substr(kInts + 8, static_cast<std::size_t>(md5));
  }
  void CheckAleState(const std::string& state) const {
    if (AleMd5(state) != rom_md5_) {
      throw SnapshotError("the Atari state is of another ROM");
    }
  }
  // ALE's restoreState ignores what System::loadState returns: a device
  // that finds its part corrupt (another device's name, a bank out of the
  // cartridge's range) returns false, and so does any exception inside,
  // and ALE reads the settings and the generator on from wherever it
  // stopped. The console loads the emulator's state here first (the
  // restore loads it again), so a state it refuses is refused whole; the
  // pool puts the env's own state back.
  //
  // M6532::load reads its RAM's size from the state and writes that many
  // bytes into its 128 (past them, up to the state's end); every "M6532"
  // string (the RIOT's part opens with it) must be followed by 128.
  void CheckSystemLoads(const std::string& state) {
    constexpr std::size_t kInts = 6 * 4;
    int32_t inner = 0;
    std::memcpy(&inner, state.data() + kInts, 4);  // AleMd5 checked it
    const std::string emulator_state =
        state.substr(kInts + 4, static_cast<std::size_t>(inner));
    const std::string riot("\x05\0\0\0M6532", 9);
    for (std::size_t at = emulator_state.find(riot); at != std::string::npos;
         at = emulator_state.find(riot, at + 1)) {
      int32_t ram = 0;
      if (at + riot.size() + 4 <= emulator_state.size()) {
        std::memcpy(&ram, emulator_state.data() + at + riot.size(), 4);
      }
      if (ram != 128) {
        throw SnapshotError(
            "the Atari state is corrupt: the RIOT's RAM is not 128 bytes");
      }
    }
    ale::stella::Deserializer emulator(emulator_state);
    if (!ale_->theOSystem->console().system().loadState(rom_md5_, emulator)) {
      throw SnapshotError(
          "the Atari state is corrupt: the emulator (ALE's System::loadState) "
          "refused it");
    }
  }

  void LoadGame() {
    // ALE reads its seed when the ROM loads; it drives sticky actions (and
    // the random room layouts of some game modes).
    ale_->setInt("random_seed", ale_seed_);
    ale_->loadROM(rom_->path());
    if (mode_ >= 0) {
      ale_->setMode(static_cast<ale::game_mode_t>(mode_));
    }
    if (difficulty_ >= 0) {
      ale_->setDifficulty(static_cast<ale::difficulty_t>(difficulty_));
    }
    ale_->reset_game();
    rom_md5_ = AleMd5(ale_->cloneState(true).serialize());
    if (!loaded_) {
      const ale::ALEScreen& screen = ale_->getScreen();
      screen_height_ = static_cast<int>(screen.height());
      screen_width_ = static_cast<int>(screen.width());
      pool_ = FramePool(
          channels_, static_cast<std::size_t>(screen_height_) * screen_width_);
      resizer_ =
          Resizer(screen_height_, screen_width_, height_, width_, area_resize_);
      loaded_ = true;
    }
    // The palette depends on the cartridge's TV format.
    ale::ColourPalette& palette = ale_->theOSystem->colourPalette();
    uint8_t table[3][256];
    for (int v = 0; v < 256; ++v) {
      uint32_t rgb = palette.getRGB(v);
      if (channels_ == 1) {
        // Screens hold even palette indices; the odd entry after each holds
        // its grayscale value.
        table[0][v] = v < 255 ? palette.getGrayscale(v) : 0;
      } else {
        table[0][v] = static_cast<uint8_t>(rgb >> 16);
        table[1][v] = static_cast<uint8_t>(rgb >> 8);
        table[2][v] = static_cast<uint8_t>(rgb);
      }
    }
    for (int c = 0; c < channels_; ++c) {
      pool_.SetPalette(c, table[c]);
    }
  }

  void ResizeIntoStack() {
    std::size_t plane =
        static_cast<std::size_t>(screen_height_) * screen_width_;
    std::size_t out_plane = static_cast<std::size_t>(height_) * width_;
    uint8_t* dst = stack_.Next();
    for (int c = 0; c < channels_; ++c) {
      resizer_.Apply(pool_.frame() + c * plane, dst + c * out_plane);
    }
    stack_.Push();
  }

  Fields fields_;
  std::shared_ptr<const RomInfo> rom_;
  std::vector<unsigned char> render_buffer_;
  int stack_num_, frame_skip_, noop_max_;
  bool episodic_life_, zero_discount_on_life_loss_, reward_clip_;
  int height_, width_, channels_;
  int mode_, difficulty_;
  float repeat_action_probability_;
  bool area_resize_;
  bool fire_reset_ = false;
  ale::ActionVect action_set_;
  std::unique_ptr<ale::ALEInterface> ale_;
  bool loaded_ = false;
  // The md5 that opens this ROM's emulator states (CheckAleState).
  std::string rom_md5_;
  bool reseeded_ = true;
  int32_t ale_seed_ = 0;
  int screen_height_ = 0, screen_width_ = 0;
  FramePool pool_{1, 0};
  Resizer resizer_;
  FrameStack stack_;
  int lives_ = 0;
  float raw_reward_ = 0.f;
  float discount_ = 1.f;
  bool game_over_ = false;
  bool continue_game_ = false;
};

}  // namespace envpool::atari

#endif  // ENVPOOL_ATARI_ATARI_ENV_H_
