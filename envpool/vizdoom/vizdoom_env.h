// ViZDoom 1.3.2 scenarios: each env drives its own engine process through
// ViZDoom's C++ client (DoomGame), in synchronous PLAYER mode with no window.
//
// One step is DoomGame::makeAction(buttons, frame_skip); the observation is
// the screen buffer, one plane per colour channel, resized to img_height x
// img_width (as cv2.resize does it, INTER_AREA or INTER_LINEAR) and stacked
// stack_num deep, oldest first.  The info holds game variables.  With the
// same cfg, the same set_seed and the same buttons every reset and step
// equals vizdoom's own Python DoomGame; docs/vizdoom.md states the rest.
//
// This header is the env: its options, spec, engine life cycle, step and
// observation.  What it uses, each readable alone: scenario_info.h (what
// the cfg tells before an engine starts), game_variables.h (the variable
// names), combined_actions.h (use_combined_action's Discrete action),
// reward_shaping.h (EnvPool's shaping), engine_watchdog.h (no hang on a
// stalled engine) and render_frame.h (the render() frame's pixels).
#ifndef ENVPOOL_VIZDOOM_VIZDOOM_ENV_H_
#define ENVPOOL_VIZDOOM_VIZDOOM_ENV_H_

#include <sys/types.h>

#include <algorithm>
#include <boost/interprocess/ipc/message_queue.hpp>
#include <boost/interprocess/shared_memory_object.hpp>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ViZDoom.h"
#include "envpool/core/env.h"
#include "envpool/render/frames.h"
#include "envpool/vizdoom/combined_actions.h"
#include "envpool/vizdoom/engine_watchdog.h"
#include "envpool/vizdoom/game_variables.h"
#include "envpool/vizdoom/render_frame.h"
#include "envpool/vizdoom/reward_shaping.h"
#include "envpool/vizdoom/scenario_info.h"

namespace envpool::vizdoom {

class VizdoomEnv : public Env {
 public:
  struct Fields {
    Field<uint8_t> obs;
    std::vector<Field<double>> variables;
    Field<double> action;     // use_combined_action=False
    Field<int64_t> combined;  // use_combined_action=True
    std::shared_ptr<const ScenarioInfo> scenario;
    std::shared_ptr<const std::vector<ComboDigit>> digits;
    std::shared_ptr<const RewardShaping> shaping;
  };

  static Options DefaultOptions() {
    return Options{
        {"cfg_path", std::string()},
        {"wad_path", std::string()},
        {"iwad_path", std::string()},
        {"vzd_path", std::string()},
        {"map_id", std::string("map01")},
        {"game_args", std::string()},
        {"lmp_save_dir", std::string()},
        {"img_height", int64_t{84}},
        {"img_width", int64_t{84}},
        {"stack_num", int64_t{4}},
        {"frame_skip", int64_t{4}},
        {"episodic_life", false},
        {"use_combined_action", false},
        {"force_speed", false},
        {"use_inter_area_resize", true},
        {"max_episode_steps", int64_t{525}},
        // EnvPool's shaping and combined-action options (RewardShaping,
        // CombinedActionDigits).  Without shaping the reward is the
        // scenario's, as ViZDoom's DoomGame gives it.
        {"reward_config", OptionTable()},
        {"selected_weapon_reward_config", OptionTable()},
        {"weapon_duration", int64_t{5}},
        {"delta_button_config", OptionTable()}};
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    auto positive = [&](const char* name, int64_t limit) {
      int64_t v = options.Get<int64_t>(name);
      if (v < 1 || v > limit) {
        throw std::invalid_argument("option '" + std::string(name) +
                                    "' must be in 1.." + std::to_string(limit) +
                                    ", got " + std::to_string(v));
      }
      return v;
    };
    int64_t stack_num = positive("stack_num", 64);
    positive("frame_skip", 1000);
    int64_t height = positive("img_height", 4096);
    int64_t width = positive("img_width", 4096);
    const std::string lmp_dir = options.Get<std::string>("lmp_save_dir");
    if (!lmp_dir.empty() && !std::filesystem::is_directory(lmp_dir)) {
      throw std::invalid_argument("option 'lmp_save_dir': " + lmp_dir +
                                  " is not a folder");
    }
    auto scenario = std::make_shared<const ScenarioInfo>(options);
    fields->scenario = scenario;
    // A step waits for the env's engine process to run its tics.
    spec->steps_elsewhere = true;
    fields->obs = spec->state.Add<uint8_t>(
        "obs", {stack_num * scenario->channels, height, width}, {0.0}, {255.0});
    fields->variables.clear();
    for (const std::string& name : scenario->info_variables) {
      fields->variables.push_back(spec->state.Add<double>("info:" + name, {}));
    }
    // vizdoom's gymnasium wrapper: render() is the state's screen (and the
    // depth and automap buffers the cfg enables) at the cfg's resolution,
    // DEFAULT_TICRATE (35) frames per second.
    const bool rgb_array =
        options.Has("render_mode") &&
        options.Get<std::string>("render_mode") == "rgb_array";
    if (rgb_array) {
      LayoutOf(scenario->format);  // throws for the palette format
      if (scenario->labels) {
        throw std::invalid_argument(
            "render_mode 'rgb_array': the cfg enables labels_buffer, which "
            "vizdoom's wrapper colours with its own table; it is not "
            "rendered here (disable labels_buffer_enabled)");
      }
    }
    DeclareRendering(options, spec, {"rgb_array"}, scenario->RenderWidth(),
                     scenario->screen_height,
                     static_cast<int>(::vizdoom::DEFAULT_TICRATE));
    int64_t num_buttons = static_cast<int64_t>(scenario->buttons.size());
    // Both read once per pool; a bad option is an error at make.
    fields->shaping = std::make_shared<const RewardShaping>(options);
    auto digits = std::make_shared<const std::vector<ComboDigit>>(
        CombinedActionDigits(scenario->buttons,
                             options.Get<OptionTable>("delta_button_config")));
    fields->digits = digits;
    if (options.Get<bool>("use_combined_action")) {
      fields->combined = spec->action.AddDiscrete<int64_t>(
          "action", CombinedActionCount(*digits));
    } else {
      fields->action = spec->action.Add<double>("action", {num_buttons});
    }
  }

  VizdoomEnv(const Options& options, const Fields& fields)
      : fields_(fields),
        scenario_(fields.scenario),
        options_(options),
        stack_num_(options.Get<int>("stack_num")),
        frame_skip_(options.Get<int>("frame_skip")),
        height_(options.Get<int>("img_height")),
        width_(options.Get<int>("img_width")),
        episodic_life_(options.Get<bool>("episodic_life")),
        combined_(options.Get<bool>("use_combined_action")),
        lmp_dir_(options.Get<std::string>("lmp_save_dir")),
        resizer_(scenario_->screen_height, scenario_->screen_width, height_,
                 width_, options.Get<bool>("use_inter_area_resize")),
        stack_(stack_num_, static_cast<std::size_t>(scenario_->channels) *
                               height_ * width_),
        plane_(static_cast<std::size_t>(scenario_->screen_height) *
               scenario_->screen_width),
        buttons_(scenario_->buttons.size(), 0.0),
        shaper_(*fields_.shaping) {
    for (const std::string& name : scenario_->info_variables) {
      variables_.push_back(GameVariableNamed(name));
    }
    if (options.Get<bool>("force_speed")) {
      auto it = std::find(scenario_->buttons.begin(), scenario_->buttons.end(),
                          ::vizdoom::SPEED);
      if (it != scenario_->buttons.end()) {
        speed_index_ = static_cast<int>(it - scenario_->buttons.begin());
      }
    }
    values_.assign(variables_.size(), 0.0);
    WatchEngines();
  }

  ~VizdoomEnv() override { DiscardEngine(); }

  void Reset() override {
    try {
      ResetEngine();
    } catch (...) {
      DiscardEngine();
      throw;
    }
  }

  void Step(const ActionView& action) override {
    if (game_ == nullptr) {
      throw std::runtime_error(
          "this env's ViZDoom engine ended after an error: reset the env "
          "(reset(env_id=...)) to start a new one");
    }
    try {
      StepEngine(action);
    } catch (...) {
      DiscardEngine();
      throw;
    }
  }

 private:
  // An engine that failed is closed (it may be dead or killed); the next
  // reset starts a new one.
  void DiscardEngine() noexcept {
    CloseEngine();
    fresh_ = false;
  }

  // Never hangs (see CloseOrKillEngine).
  void CloseEngine() noexcept {
    CloseOrKillEngine(game_.get(), engine_pid_);
    game_.reset();
    engine_pid_ = -1;
  }

  void ResetEngine() {
    if (fresh_) {
      // The engine OnSeed started is at its first episode's first state.
      fresh_ = false;
    } else if (game_ == nullptr || reseeded_) {
      // A reseeded reset starts a fresh engine: a running one carries state
      // between episodes (e.g. DAMAGECOUNT in DefendTheLine, the deathmatch
      // maps' bodies), so set_seed + new_episode would not give the episode
      // a fresh env of that seed plays.
      RestartEngine();
    } else {
      game_->newEpisode(NextRecording());
    }
    reseeded_ = false;
    PushScreen();
    stack_.FillWithNewest();
    ReadVariables();
    if (shaper_.active()) {
      shaper_.Start(GameVariables());
    }
    reward_ = 0.0;
    terminated_ = false;
  }

  void StepEngine(const ActionView& action) {
    if (combined_) {
      PressCombinedAction(*fields_.digits, action.Scalar(fields_.combined),
                          &buttons_);
    } else {
      const double* values = action.Get(fields_.action);
      buttons_.assign(values, values + buttons_.size());
    }
    if (speed_index_ >= 0) {
      buttons_[speed_index_] = 1.0;
    }
    reward_ = game_->makeAction(buttons_, frame_skip_);
    bool finished = game_->isEpisodeFinished();
    bool dead = !finished && game_->isPlayerDead();
    terminated_ = finished || (episodic_life_ && dead);
    if (dead && !episodic_life_) {
      // A multiplayer death (single-player deaths end the episode): the
      // player comes back at once and the episode goes on.
      game_->respawnPlayer();
    }
    if (finished) {
      // No state after the last tic: the last frame stays the newest.
      std::memcpy(stack_.Next(), stack_.Newest(), FrameBytes());
      stack_.Push();
    } else {
      PushScreen();
    }
    ReadVariables();
    if (shaper_.active() && !finished) {
      // EnvPool shapes no step that ends the episode (it reads no game
      // variables without a state): that step's shaping is 0.
      reward_ += shaper_.Step(GameVariables());
    }
  }

  // The current state's game variables, for the reward shaping.
  ReadGameVariable GameVariables() const {
    return [game = game_.get()](::vizdoom::GameVariable variable) {
      return game->getGameVariable(variable);
    };
  }

 public:
  // What vizdoom's gymnasium wrapper's render() returns: the current
  // state's screen buffer as RGB (GRAY8 repeated in the three channels),
  // then the depth buffer (repeated) and the automap; all black when there
  // is no state (the step that ended the episode, before the next reset).
  void Render(int width, int height, int /*camera_id*/, uint8_t* rgb) override {
    const int h = scenario_->screen_height;
    const int w = scenario_->screen_width;
    if (width != scenario_->RenderWidth() || height != h) {
      throw std::logic_error("the ViZDoom frame is not " +
                             std::to_string(width) + "x" +
                             std::to_string(height));
    }
    const std::size_t bytes = static_cast<std::size_t>(width) * height * 3;
    ::vizdoom::GameStatePtr state =
        game_ != nullptr ? game_->getState() : nullptr;
    if (state == nullptr || state->screenBuffer == nullptr) {
      std::memset(rgb, 0, bytes);
      return;
    }
    const PixelLayout layout = LayoutOf(scenario_->format);
    int x0 = 0;
    BlitRgb(state->screenBuffer->data(), layout, h, w, width, x0, rgb);
    x0 += w;
    if (scenario_->depth) {
      if (state->depthBuffer == nullptr) {
        throw std::runtime_error("ViZDoom returned no depth buffer");
      }
      BlitRgb(state->depthBuffer->data(), kDepthLayout, h, w, width, x0, rgb);
      x0 += w;
    }
    if (scenario_->automap) {
      if (state->automapBuffer == nullptr) {
        throw std::runtime_error("ViZDoom returned no automap buffer");
      }
      BlitRgb(state->automapBuffer->data(), layout, h, w, width, x0, rgb);
    }
  }

  void Write(const Output& out) override {
    stack_.CopyTo(out.Get(fields_.obs));
    for (std::size_t i = 0; i < values_.size(); ++i) {
      *out.Get(fields_.variables[i]) = values_[i];
    }
  }

 protected:
  // ViZDoom's engine takes an unsigned int seed: env i of a pool with seed s
  // is DoomGame.set_seed(s + i) before init(); reset(seed=t) restarts it so.
  // The pool seeds each env right after building it, in parallel: the first
  // seed starts the engine then, so a pool's engines start while it is made
  // (as EnvPool's do) rather than at the first reset.
  void OnSeed(uint64_t seed) override {
    seed_ = static_cast<unsigned int>(seed);
    if (game_ == nullptr) {
      RestartEngine();
      fresh_ = true;
    } else {
      reseeded_ = true;
      fresh_ = false;
    }
  }

 private:
  std::size_t FrameBytes() const {
    return static_cast<std::size_t>(scenario_->channels) * height_ * width_;
  }

  void RestartEngine() {
    CloseEngine();
    auto game = std::make_unique<::vizdoom::DoomGame>();
    game->loadConfig(options_.Get<std::string>("cfg_path"));
    game->setViZDoomPath(options_.Get<std::string>("vzd_path"));
    game->setDoomGamePath(options_.Get<std::string>("iwad_path"));
    game->setDoomScenarioPath(options_.Get<std::string>("wad_path"));
    game->setDoomMap(options_.Get<std::string>("map_id"));
    const std::string args = options_.Get<std::string>("game_args");
    if (!args.empty()) {
      game->addGameArgs(args);
    }
    // Steps are synchronous and nothing is shown, whatever the cfg says.
    game->setMode(::vizdoom::PLAYER);
    game->setWindowVisible(false);
    game->setSoundEnabled(false);
    // The engine reads its settings at start and writes them back at exit
    // (ZDoom's ini, rewritten in place): /dev/null, so that every engine
    // starts from the defaults and no engine reads what another one (of
    // any process) is writing, or the cvars it saved.
    game->setDoomConfigPath("/dev/null");
    // The engine makes its user folder ./_vizdoom at start: a check, then a
    // mkdir that is fatal when the folder appeared in between, so engines
    // starting together in a folder without it could kill each other
    // ("Failed to create ./_vizdoom/ directory: File exists").  It is made
    // here first (nothing happens when it exists, or cannot be made).
    std::error_code ec;
    std::filesystem::create_directory("_vizdoom", ec);
    game->setSeed(seed_);
    if (!game->init()) {
      throw std::runtime_error("the ViZDoom engine did not start");
    }
    game_ = std::move(game);
    engine_pid_ = FindEngine(game_->getInstanceId()).pid;
    UnlinkSharedNames();
    std::string recording = NextRecording();
    if (!recording.empty()) {
      game_->newEpisode(recording);
    }
  }

  // Both processes hold the shared memory and message queues open once the
  // engine runs; their names are removed at once, so the kernel frees them
  // when the last holder ends, even if neither gets to clean up (a killed
  // process).  The names are ViZDoom 1.3.2's (src/lib/ViZDoomController.h).
  void UnlinkSharedNames() {
    namespace bip = boost::interprocess;
    const std::string id = game_->getInstanceId();
    bip::shared_memory_object::remove(("ViZDoomSM" + id).c_str());
    bip::message_queue::remove(("ViZDoomMQDoom" + id).c_str());
    bip::message_queue::remove(("ViZDoomMQCtr" + id).c_str());
  }

  std::string NextRecording() {
    if (lmp_dir_.empty()) {
      return std::string();
    }
    // EnvPool's names: env_<env_id>_<episode>.lmp, so the envs of a pool
    // (and their episodes) write distinct files.
    return (std::filesystem::path(lmp_dir_) /
            ("env_" + std::to_string(env_id_) + "_" +
             std::to_string(episode_++) + ".lmp"))
        .string();
  }

  void PushScreen() {
    ::vizdoom::GameStatePtr state = game_->getState();
    if (state == nullptr || state->screenBuffer == nullptr) {
      throw std::runtime_error("ViZDoom returned no screen buffer");
    }
    const uint8_t* screen = state->screenBuffer->data();
    const int channels = scenario_->channels;
    const std::size_t out_plane = static_cast<std::size_t>(height_) * width_;
    uint8_t* dst = stack_.Next();
    if (scenario_->planar || channels == 1) {
      for (int c = 0; c < channels; ++c) {
        resizer_.Apply(screen + c * plane_, dst + c * out_plane);
      }
    } else {
      plane_buffer_.resize(plane_);
      for (int c = 0; c < channels; ++c) {
        for (std::size_t i = 0; i < plane_; ++i) {
          plane_buffer_[i] = screen[i * channels + c];
        }
        resizer_.Apply(plane_buffer_.data(), dst + c * out_plane);
      }
    }
    stack_.Push();
  }

  void ReadVariables() {
    for (std::size_t i = 0; i < variables_.size(); ++i) {
      values_[i] = game_->getGameVariable(variables_[i]);
    }
  }

  Fields fields_;
  std::shared_ptr<const ScenarioInfo> scenario_;
  Options options_;
  int stack_num_, frame_skip_, height_, width_;
  bool episodic_life_, combined_;
  std::string lmp_dir_;
  render::Resizer resizer_;
  render::FrameStack stack_;
  std::size_t plane_;
  std::vector<uint8_t> plane_buffer_;
  std::vector<double> buttons_;
  RewardShaper shaper_;  // of the pool's RewardShaping (fields_.shaping)
  int speed_index_ = -1;
  std::vector<::vizdoom::GameVariable> variables_;
  std::vector<double> values_;
  std::unique_ptr<::vizdoom::DoomGame> game_;
  pid_t engine_pid_ = -1;  // the engine process of game_
  unsigned int seed_ = 0;
  bool reseeded_ = false;
  bool fresh_ = false;  // the engine has just started: no new_episode needed
  int64_t episode_ = 0;
};

}  // namespace envpool::vizdoom

#endif  // ENVPOOL_VIZDOOM_VIZDOOM_ENV_H_
