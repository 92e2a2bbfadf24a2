// ViZDoom 1.3.2 scenarios: each env drives its own engine process through
// ViZDoom's C++ client (DoomGame), in synchronous PLAYER mode with no window.
//
// One step is DoomGame::makeAction(buttons, frame_skip); the observation is
// the screen buffer, one plane per colour channel, resized to img_height x
// img_width (as cv2.resize does it, INTER_AREA or INTER_LINEAR) and stacked
// stack_num deep, oldest first.  The info holds game variables.  With the
// same cfg, the same set_seed and the same buttons every reset and step
// equals vizdoom's own Python DoomGame; docs/vizdoom.md states the rest.
#ifndef ENVPOOL_VIZDOOM_VIZDOOM_ENV_H_
#define ENVPOOL_VIZDOOM_VIZDOOM_ENV_H_

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <boost/interprocess/ipc/message_queue.hpp>
#include <boost/interprocess/shared_memory_object.hpp>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "ViZDoom.h"
#include "envpool/core/env.h"
#include "envpool/render/frames.h"

namespace vizdoom {
// third_party/vizdoom/watched_receive.inc: asked every second the client
// waits for its engine.
extern std::string (*receiveStallHook)(const std::string& queue, int seconds);
}  // namespace vizdoom

namespace envpool::vizdoom {

// The client waits for its engine without a timeout (ViZDoom's message
// queues), so an engine that stops answering would hang its env, and the
// pool, for good.  The client's receive (patched, see
// third_party/vizdoom/vizdoom.BUILD) asks EngineStall every second it
// waits: once the engine has neither answered nor used any CPU time for
// kStallSeconds while it sleeps or is stopped, it cannot be working on an
// answer (an engine only sleeps waiting for its client); it is killed and
// the wait ends with an error, which the pool raises at recv.  An engine
// that never appears (kMissingSeconds) ends the wait too.
constexpr int kStallSeconds = 10;
constexpr int kMissingSeconds = 30;

struct EngineProcess {
  pid_t pid = -1;
  char state = '?';
  uint64_t cpu_ticks = 0;
  std::string wchan;
};

// The engine child of this process started for ViZDoom instance `id` (its
// command line holds "+viz_instance_id <id>"); pid -1 when there is none.
inline EngineProcess FindEngineOrThrow(const std::string& id) {
  EngineProcess found;
  const pid_t self = getpid();
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() ||
        name.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    std::ifstream stat_file(entry.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(stat_file)),
                     std::istreambuf_iterator<char>());
    const std::size_t close = stat.rfind(')');
    if (close == std::string::npos) {
      continue;
    }
    // After "pid (comm)": state ppid pgrp session tty tpgid flags minflt
    // cminflt majflt cmajflt utime stime ...
    std::istringstream fields(stat.substr(close + 2));
    char state = '?';
    long ppid = 0;
    fields >> state >> ppid;
    if (ppid != self) {
      continue;
    }
    std::ifstream cmd_file(entry.path() / "cmdline");
    std::string cmdline((std::istreambuf_iterator<char>(cmd_file)),
                        std::istreambuf_iterator<char>());
    if (cmdline.find(std::string("+viz_instance_id") + '\0' + id + '\0') ==
        std::string::npos) {
      continue;
    }
    std::string skip;
    for (int i = 0; i < 9; ++i) {
      fields >> skip;
    }
    uint64_t utime = 0, stime = 0;
    fields >> utime >> stime;
    found.pid = static_cast<pid_t>(std::stol(name));
    found.state = state;
    found.cpu_ticks = utime + stime;
    std::ifstream wchan_file(entry.path() / "wchan");
    std::getline(wchan_file, found.wchan);
    break;
  }
  return found;
}

inline EngineProcess FindEngine(const std::string& id) noexcept {
  try {
    return FindEngineOrThrow(id);
  } catch (...) {
    return EngineProcess();  // /proc unreadable: treated as not found
  }
}

inline std::string EngineStall(const std::string& queue, int seconds) {
  struct Watch {
    int last_seconds = 0;  // of the current wait
    int since = 0;         // the engine last ran (or answered) then
    uint64_t cpu_ticks = 0;
  };
  static std::mutex mu;
  static std::map<std::string, Watch> watches;
  if (seconds < 2) {
    return std::string();
  }
  // "ViZDoomMQCtr<id>": the controller's queue of instance <id>.
  const std::string prefix = "ViZDoomMQCtr";
  const std::string id =
      queue.rfind(prefix, 0) == 0 ? queue.substr(prefix.size()) : queue;
  const EngineProcess engine = FindEngine(id);
  std::lock_guard<std::mutex> lock(mu);
  Watch& w = watches[queue];
  if (seconds <= w.last_seconds) {
    w = Watch();  // a new wait
  }
  w.last_seconds = seconds;
  if (engine.pid < 0) {
    if (seconds < kMissingSeconds) {
      return std::string();
    }
    watches.erase(queue);
    return "ViZDoom instance " + id + " has no engine process after " +
           std::to_string(seconds) + " s (it did not start or was reaped)";
  }
  const bool asleep =
      engine.state == 'S' || engine.state == 'T' || engine.state == 't';
  if (!asleep || engine.cpu_ticks != w.cpu_ticks) {
    w.cpu_ticks = engine.cpu_ticks;
    w.since = seconds;
    return std::string();
  }
  if (seconds - w.since < kStallSeconds) {
    return std::string();
  }
  watches.erase(queue);
  kill(engine.pid, SIGKILL);
  return "the ViZDoom engine (pid " + std::to_string(engine.pid) +
         ", instance " + id + ") stopped answering: it neither answered nor " +
         "ran for " + std::to_string(kStallSeconds) + " s (state " +
         std::string(1, engine.state) +
         (engine.wchan.empty() ? std::string()
                               : ", waiting in " + engine.wchan) +
         ") and was killed; reset the env to start a new engine";
}

// The hook: a failure of the check itself never ends a wait.
inline std::string EngineStallHook(const std::string& queue,
                                   int seconds) noexcept {
  try {
    return EngineStall(queue, seconds);
  } catch (...) {
    return std::string();
  }
}

inline void WatchEngines() {
  static std::once_flag once;
  std::call_once(once, [] { ::vizdoom::receiveStallHook = &EngineStallHook; });
}

// The game variables every env reports in its info, besides those its cfg
// lists (EnvPool 1.2.5's layout: D1Basic-v1 reports USER2, which its cfg
// does not list).
inline const std::vector<std::string>& CommonGameVariables() {
  static const std::vector<std::string> names = {
      "AMMO2",     "AMMO3",           "AMMO4",
      "AMMO5",     "AMMO6",           "AMMO7",
      "ARMOR",     "DAMAGECOUNT",     "DEATHCOUNT",
      "FRAGCOUNT", "HEALTH",          "HITCOUNT",
      "KILLCOUNT", "SELECTED_WEAPON", "SELECTED_WEAPON_AMMO",
      "USER2"};
  return names;
}

// The name of every game variable before USER1, in ViZDoom 1.3.2's enum
// order (its gameVariableToString misses some, e.g. DAMAGECOUNT).
inline const std::vector<std::string>& GameVariableNames() {
  static const std::vector<std::string> names = {"KILLCOUNT",
                                                 "ITEMCOUNT",
                                                 "SECRETCOUNT",
                                                 "FRAGCOUNT",
                                                 "DEATHCOUNT",
                                                 "HITCOUNT",
                                                 "HITS_TAKEN",
                                                 "DAMAGECOUNT",
                                                 "DAMAGE_TAKEN",
                                                 "HEALTH",
                                                 "ARMOR",
                                                 "DEAD",
                                                 "ON_GROUND",
                                                 "ATTACK_READY",
                                                 "ALTATTACK_READY",
                                                 "SELECTED_WEAPON",
                                                 "SELECTED_WEAPON_AMMO",
                                                 "AMMO0",
                                                 "AMMO1",
                                                 "AMMO2",
                                                 "AMMO3",
                                                 "AMMO4",
                                                 "AMMO5",
                                                 "AMMO6",
                                                 "AMMO7",
                                                 "AMMO8",
                                                 "AMMO9",
                                                 "WEAPON0",
                                                 "WEAPON1",
                                                 "WEAPON2",
                                                 "WEAPON3",
                                                 "WEAPON4",
                                                 "WEAPON5",
                                                 "WEAPON6",
                                                 "WEAPON7",
                                                 "WEAPON8",
                                                 "WEAPON9",
                                                 "POSITION_X",
                                                 "POSITION_Y",
                                                 "POSITION_Z",
                                                 "ANGLE",
                                                 "PITCH",
                                                 "ROLL",
                                                 "VIEW_HEIGHT",
                                                 "VELOCITY_X",
                                                 "VELOCITY_Y",
                                                 "VELOCITY_Z",
                                                 "CAMERA_POSITION_X",
                                                 "CAMERA_POSITION_Y",
                                                 "CAMERA_POSITION_Z",
                                                 "CAMERA_ANGLE",
                                                 "CAMERA_PITCH",
                                                 "CAMERA_ROLL",
                                                 "CAMERA_FOV",
                                                 "PLAYER_NUMBER",
                                                 "PLAYER_COUNT"};
  return names;
}

inline std::string GameVariableName(::vizdoom::GameVariable variable) {
  int v = static_cast<int>(variable);
  int user1 = static_cast<int>(::vizdoom::USER1);
  int frags = static_cast<int>(::vizdoom::PLAYER1_FRAGCOUNT);
  if (v >= user1) {
    return "USER" + std::to_string(v - user1 + 1);
  }
  if (v >= frags) {
    return "PLAYER" + std::to_string(v - frags + 1) + "_FRAGCOUNT";
  }
  return GameVariableNames().at(v);
}

inline ::vizdoom::GameVariable GameVariableNamed(const std::string& name) {
  for (int v = 0; v <= static_cast<int>(::vizdoom::USER60); ++v) {
    auto variable = static_cast<::vizdoom::GameVariable>(v);
    if (GameVariableName(variable) == name) {
      return variable;
    }
  }
  throw std::invalid_argument("ViZDoom has no game variable named " + name);
}

inline void RequireFile(const std::string& option, const std::string& path,
                        const std::string& what) {
  if (path.empty()) {
    throw std::invalid_argument(
        "option '" + option + "' is empty: pass the path of " + what +
        " (the scenarios, the engine and its IWADs ship with the vizdoom "
        "wheel: `pip install vizdoom==1.3.2`)");
  }
  if (!std::filesystem::is_regular_file(path)) {
    throw std::invalid_argument(
        "option '" + option + "': " + what + " " + path +
        " not found; it ships with the vizdoom wheel: `pip install "
        "vizdoom==1.3.2` (or pass " +
        option + "=<its path>)");
  }
}

inline ::vizdoom::Button ButtonNamed(const std::string& option,
                                     const std::string& name) {
  for (int b = 0; b <= static_cast<int>(::vizdoom::MOVE_UP_DOWN_DELTA); ++b) {
    auto button = static_cast<::vizdoom::Button>(b);
    if (::vizdoom::buttonToString(button) == name) {
      return button;
    }
  }
  throw std::invalid_argument("option '" + option +
                              "': ViZDoom has no button named " + name);
}

// EnvPool's reward shaping, added to the scenario's reward (docs/vizdoom.md):
// for every game variable of reward_config, {gain, loss}, a step adds
// gain * d when the variable rose by d and loss * d when it fell by d; and
// selected_weapon_reward_config[w] when weapon slot w has been the selected
// weapon for weapon_duration observations in a row (the reset's counts) and
// its ammo is above 0.  The step that ends the episode adds nothing.
struct RewardShaping {
  std::vector<::vizdoom::GameVariable> variables;
  std::vector<double> gain, loss;
  std::map<int, double> weapon;
  int weapon_duration = 0;

  bool active() const { return !variables.empty() || !weapon.empty(); }

  explicit RewardShaping(const Options& options) {
    std::vector<std::pair<::vizdoom::GameVariable, std::pair<double, double>>>
        rows;
    for (const auto& [name, row] : options.Get<OptionTable>("reward_config")) {
      ::vizdoom::GameVariable v;
      try {
        v = GameVariableNamed(name);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("option 'reward_config': " +
                                    std::string(e.what()));
      }
      if (row.size() != 2 || !std::isfinite(row[0]) || !std::isfinite(row[1])) {
        throw std::invalid_argument(
            "option 'reward_config': " + name +
            " takes [reward per unit of increase, reward per unit of "
            "decrease], two finite numbers");
      }
      rows.emplace_back(v, std::make_pair(row[0], row[1]));
    }
    // Summed in ViZDoom's game-variable order (as EnvPool sums them).
    std::sort(rows.begin(), rows.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [v, row] : rows) {
      variables.push_back(v);
      gain.push_back(row.first);
      loss.push_back(row.second);
    }
    for (const auto& [slot, row] :
         options.Get<OptionTable>("selected_weapon_reward_config")) {
      int w = -1;
      if (slot.size() == 1 && slot[0] >= '0' && slot[0] <= '9') {
        w = slot[0] - '0';
      }
      if (w < 0 || row.size() != 1 || !std::isfinite(row[0])) {
        throw std::invalid_argument(
            "option 'selected_weapon_reward_config' maps a weapon slot "
            "0..9 to one finite reward, got " +
            slot + ": " + std::to_string(row.size()) + " numbers");
      }
      weapon[w] = row[0];
    }
    int64_t duration = options.Get<int64_t>("weapon_duration");
    if (duration < 0 || duration > (int64_t{1} << 30)) {
      throw std::invalid_argument(
          "option 'weapon_duration' must be 0 or more, got " +
          std::to_string(duration));
    }
    weapon_duration = static_cast<int>(duration);
  }
};

// EnvPool's combined actions: Discrete(n) over every combination of the
// cfg's buttons in which buttons that undo each other are not pressed
// together.  One digit per group of the buttons the cfg lists: a binary
// button (ATTACK, USE, JUMP, CROUCH, TURN180, ALTATTACK, RELOAD, ZOOM, SPEED,
// STRAFE, LAND) is off or on; a pair (MOVE_RIGHT/MOVE_LEFT,
// MOVE_BACKWARD/MOVE_FORWARD, TURN_RIGHT/TURN_LEFT, LOOK_UP/LOOK_DOWN,
// MOVE_UP/MOVE_DOWN, SELECT_NEXT/PREV_WEAPON, SELECT_NEXT/PREV_ITEM) and the
// weapon slots SELECT_WEAPON1..SELECT_WEAPON0 are none or one of them; a
// delta button named in delta_button_config {name: [n, low, high]} takes one
// of n evenly spaced values from low to high.  The drop and activate buttons
// and the other delta buttons stay 0.  Digits are in ViZDoom's button order,
// the first the most significant; a group's choices are none, then its
// buttons in that order.
struct ComboDigit {
  std::vector<int> members;  // indices into the cfg's buttons, pressed with 1
  int delta = -1;            // or: the index of a delta button
  std::vector<double> values;
  int64_t Radix() const {
    return delta >= 0 ? static_cast<int64_t>(values.size())
                      : static_cast<int64_t>(members.size()) + 1;
  }
};

inline int ComboGroup(::vizdoom::Button button) {
  const int b = static_cast<int>(button);
  switch (button) {
    case ::vizdoom::MOVE_LEFT:
    case ::vizdoom::MOVE_FORWARD:
    case ::vizdoom::TURN_LEFT:
    case ::vizdoom::LOOK_DOWN:
    case ::vizdoom::MOVE_DOWN:
    case ::vizdoom::SELECT_PREV_WEAPON:
    case ::vizdoom::SELECT_PREV_ITEM:
      return b - 1;  // the pair of the button before it
    case ::vizdoom::DROP_SELECTED_WEAPON:
    case ::vizdoom::ACTIVATE_SELECTED_ITEM:
    case ::vizdoom::DROP_SELECTED_ITEM:
      return -1;  // never pressed
    default:
      break;
  }
  if (b >= ::vizdoom::SELECT_WEAPON1 && b <= ::vizdoom::SELECT_WEAPON0) {
    return ::vizdoom::SELECT_WEAPON1;
  }
  return b;
}

inline std::vector<ComboDigit> CombinedActionDigits(
    const std::vector<::vizdoom::Button>& buttons, const Options& options) {
  const OptionTable& deltas = options.Get<OptionTable>("delta_button_config");
  for (const auto& [name, row] : deltas) {
    ::vizdoom::Button button = ButtonNamed("delta_button_config", name);
    if (!::vizdoom::isDeltaButton(button)) {
      throw std::invalid_argument("option 'delta_button_config': " + name +
                                  " is not a delta button");
    }
    if (std::find(buttons.begin(), buttons.end(), button) == buttons.end()) {
      throw std::invalid_argument("option 'delta_button_config': " + name +
                                  " is not among the cfg's available_buttons");
    }
    if (row.size() != 3 || row[0] < 1 || row[0] > 1e6 ||
        row[0] != std::floor(row[0]) || !std::isfinite(row[1]) ||
        !std::isfinite(row[2])) {
      throw std::invalid_argument(
          "option 'delta_button_config': " + name +
          " takes [number of values (1 or more), lowest, highest]");
    }
  }
  std::map<int, ComboDigit> digits;
  for (std::size_t i = 0; i < buttons.size(); ++i) {
    const ::vizdoom::Button button = buttons[i];
    if (::vizdoom::isDeltaButton(button)) {
      auto it = deltas.find(::vizdoom::buttonToString(button));
      if (it == deltas.end()) {
        continue;
      }
      ComboDigit& digit = digits[static_cast<int>(button)];
      digit.delta = static_cast<int>(i);
      const int n = static_cast<int>(it->second[0]);
      const double low = it->second[1], high = it->second[2];
      for (int k = 0; k < n; ++k) {
        digit.values.push_back(n == 1       ? low
                               : k == n - 1 ? high
                                            : low + (high - low) / (n - 1) * k);
      }
      continue;
    }
    const int group = ComboGroup(button);
    if (group < 0) {
      continue;
    }
    ComboDigit& digit = digits[group];
    if (std::find_if(digit.members.begin(), digit.members.end(), [&](int m) {
          return buttons[m] == button;
        }) == digit.members.end()) {
      digit.members.push_back(static_cast<int>(i));
    }
  }
  std::vector<ComboDigit> out;
  for (auto& [group, digit] : digits) {
    std::sort(digit.members.begin(), digit.members.end(),
              [&](int a, int b) { return buttons[a] < buttons[b]; });
    out.push_back(std::move(digit));
  }
  return out;
}

inline int64_t CombinedActionCount(const std::vector<ComboDigit>& digits) {
  int64_t n = 1;
  for (const ComboDigit& digit : digits) {
    if (n > (int64_t{1} << 31) / digit.Radix()) {
      throw std::invalid_argument(
          "use_combined_action: the cfg's buttons make more than 2^31 "
          "combinations; list fewer buttons or use the Box action");
    }
    n *= digit.Radix();
  }
  return n;
}

// What the cfg tells before an engine starts: buttons, game variables and
// the screen layout.  Read once per pool.
struct ScenarioInfo {
  std::vector<::vizdoom::Button> buttons;
  std::vector<std::string> info_variables;  // sorted by name
  int screen_height = 0, screen_width = 0, channels = 0;
  bool planar = false;  // CRCGCB/CBCGCR: channel planes, else interleaved
  ::vizdoom::ScreenFormat format = ::vizdoom::CRCGCB;
  bool depth = false, labels = false, automap = false;  // extra buffers

  explicit ScenarioInfo(const Options& options) {
    const std::string cfg = options.Get<std::string>("cfg_path");
    RequireFile("cfg_path", cfg, "the scenario's cfg");
    RequireFile("wad_path", options.Get<std::string>("wad_path"),
                "the scenario's wad");
    RequireFile("iwad_path", options.Get<std::string>("iwad_path"), "the IWAD");
    RequireFile("vzd_path", options.Get<std::string>("vzd_path"),
                "the ViZDoom engine");
    ::vizdoom::DoomGame game;
    try {
      game.loadConfig(cfg);
    } catch (const std::exception& e) {
      throw std::invalid_argument("cfg_path " + cfg +
                                  " is not a ViZDoom cfg: " + e.what());
    }
    buttons = game.getAvailableButtons();
    if (buttons.empty()) {
      throw std::invalid_argument("cfg_path " + cfg +
                                  " lists no available_buttons");
    }
    std::set<std::string> names(CommonGameVariables().begin(),
                                CommonGameVariables().end());
    for (::vizdoom::GameVariable v : game.getAvailableGameVariables()) {
      names.insert(GameVariableName(v));
    }
    info_variables.assign(names.begin(), names.end());
    screen_height = game.getScreenHeight();
    screen_width = game.getScreenWidth();
    channels = game.getScreenChannels();
    format = game.getScreenFormat();
    planar = format == ::vizdoom::CRCGCB || format == ::vizdoom::CBCGCR;
    depth = game.isDepthBufferEnabled();
    labels = game.isLabelsBufferEnabled();
    automap = game.isAutomapBufferEnabled();
  }

  // The render frame: vizdoom's gymnasium wrapper puts the screen and then
  // the depth, labels and automap buffers the cfg enables side by side.
  int RenderWidth() const {
    return screen_width *
           (1 + static_cast<int>(depth) + static_cast<int>(labels) +
            static_cast<int>(automap));
  }
};

// Where red, green and blue are in one pixel of a screen-format buffer:
// byte (plane) offsets and the step between pixels.  planar: the offsets
// are of whole planes.
struct PixelLayout {
  int r = 0, g = 0, b = 0, step = 1;
  bool planar = false;
  bool gray = false;
};

inline PixelLayout LayoutOf(::vizdoom::ScreenFormat format) {
  switch (format) {
    case ::vizdoom::CRCGCB:
      return {0, 1, 2, 1, true, false};
    case ::vizdoom::CBCGCR:
      return {2, 1, 0, 1, true, false};
    case ::vizdoom::RGB24:
      return {0, 1, 2, 3, false, false};
    case ::vizdoom::BGR24:
      return {2, 1, 0, 3, false, false};
    case ::vizdoom::RGBA32:
      return {0, 1, 2, 4, false, false};
    case ::vizdoom::ARGB32:
      return {1, 2, 3, 4, false, false};
    case ::vizdoom::BGRA32:
      return {2, 1, 0, 4, false, false};
    case ::vizdoom::ABGR32:
      return {3, 2, 1, 4, false, false};
    case ::vizdoom::GRAY8:
      return {0, 0, 0, 1, false, true};
    default:
      throw std::invalid_argument(
          "render_mode 'rgb_array': the cfg's screen_format "
          "DOOM_256_COLORS8 (Doom palette indices) is not rendered; use "
          "RGB24, CRCGCB or GRAY8");
  }
}

// Copies an h x w screen-format buffer as RGB into columns [x0, x0 + w) of
// a frame `frame_width` pixels wide.
inline void BlitRgb(const uint8_t* src, const PixelLayout& layout, int h, int w,
                    int frame_width, int x0, uint8_t* rgb) {
  const std::size_t plane = static_cast<std::size_t>(h) * w;
  for (int y = 0; y < h; ++y) {
    uint8_t* dst = rgb + (static_cast<std::size_t>(y) * frame_width + x0) * 3;
    for (int x = 0; x < w; ++x, dst += 3) {
      const std::size_t i = static_cast<std::size_t>(y) * w + x;
      if (layout.planar) {
        dst[0] = src[layout.r * plane + i];
        dst[1] = src[layout.g * plane + i];
        dst[2] = src[layout.b * plane + i];
      } else {
        const uint8_t* px = src + i * layout.step;
        dst[0] = px[layout.r];
        dst[1] = px[layout.g];
        dst[2] = px[layout.b];
      }
    }
  }
}

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
        CombinedActionDigits(scenario->buttons, options));
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
        shaping_(*fields_.shaping) {
    shaping_values_.assign(shaping_.variables.size(), 0.0);
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

  // DoomGame::close() asks the engine to quit and waits for it to end; an
  // engine that does not (stopped, or stuck) is killed after
  // kStallSeconds, so a close never hangs either.
  void CloseEngine() noexcept {
    if (game_ == nullptr) {
      return;
    }
    std::mutex mu;
    std::condition_variable cv;
    bool closed = false;
    std::thread killer;
    if (engine_pid_ > 0) {
      try {
        killer =
            std::thread([&, pid = engine_pid_, id = game_->getInstanceId()] {
              std::unique_lock<std::mutex> lock(mu);
              if (!cv.wait_for(lock, std::chrono::seconds(kStallSeconds),
                               [&] { return closed; }) &&
                  FindEngine(id).pid == pid) {  // that engine, not a reuse
                kill(pid, SIGKILL);
              }
            });
      } catch (...) {
        // no thread to spare: a plain close
      }
    }
    try {
      game_->close();
    } catch (...) {
    }
    {
      std::lock_guard<std::mutex> lock(mu);
      closed = true;
    }
    cv.notify_all();
    if (killer.joinable()) {
      killer.join();
    }
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
    if (shaping_.active()) {
      StartShaping();
    }
    reward_ = 0.0;
    terminated_ = false;
  }

  void StepEngine(const ActionView& action) {
    if (combined_) {
      int64_t index = action.Scalar(fields_.combined);
      std::fill(buttons_.begin(), buttons_.end(), 0.0);
      const std::vector<ComboDigit>& digits = *fields_.digits;
      for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
        const int64_t radix = it->Radix();
        const auto choice = static_cast<std::size_t>(index % radix);
        index /= radix;
        if (it->delta >= 0) {
          buttons_[it->delta] = it->values[choice];
        } else if (choice > 0) {
          buttons_[it->members[choice - 1]] = 1.0;
        }
      }
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
    if (shaping_.active() && !finished) {
      // EnvPool shapes no step that ends the episode (it reads no game
      // variables without a state): that step's shaping is 0.
      reward_ += Shaping();
    }
  }

  void StartShaping() {
    for (std::size_t i = 0; i < shaping_values_.size(); ++i) {
      shaping_values_[i] = game_->getGameVariable(shaping_.variables[i]);
    }
    weapon_ = game_->getGameVariable(::vizdoom::SELECTED_WEAPON);
    weapon_run_ = 1;
  }

  // In EnvPool's precision: each term in double, summed into a float in
  // ViZDoom's game-variable order, the weapon's reward added last.
  float Shaping() {
    float r = 0.0F;
    for (std::size_t i = 0; i < shaping_values_.size(); ++i) {
      const double now = game_->getGameVariable(shaping_.variables[i]);
      const double d = now - shaping_values_[i];
      r = static_cast<float>(
          static_cast<double>(r) +
          (d > 0 ? d * shaping_.gain[i] : -d * shaping_.loss[i]));
      shaping_values_[i] = now;
    }
    const double weapon = game_->getGameVariable(::vizdoom::SELECTED_WEAPON);
    if (weapon == weapon_) {
      ++weapon_run_;
    } else {
      weapon_ = weapon;
      weapon_run_ = 1;
    }
    auto it = shaping_.weapon.find(static_cast<int>(weapon));
    if (it != shaping_.weapon.end() &&
        weapon_run_ >= shaping_.weapon_duration &&
        game_->getGameVariable(::vizdoom::SELECTED_WEAPON_AMMO) > 0) {
      r += static_cast<float>(it->second);
    }
    return r;
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
      BlitRgb(state->depthBuffer->data(), PixelLayout{0, 0, 0, 1, false, true},
              h, w, width, x0, rgb);
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
  const RewardShaping& shaping_;        // the pool's (fields_.shaping)
  std::vector<double> shaping_values_;  // at the last observation
  double weapon_ = -1;                  // SELECTED_WEAPON then
  int64_t weapon_run_ = 0;              // observations in a row with it
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
