#include "envpool/vizdoom/engine_watchdog.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <sstream>
#include <system_error>
#include <thread>

namespace vizdoom {
// third_party/vizdoom/watched_receive.inc: asked every second the client
// waits for its engine.
extern std::string (*receiveStallHook)(const std::string& queue, int seconds);
}  // namespace vizdoom

namespace envpool::vizdoom {
namespace {

EngineProcess FindEngineOrThrow(const std::string& id) {
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

// The hook: a failure of the check itself never ends a wait.
std::string EngineStallHook(const std::string& queue, int seconds) noexcept {
  try {
    return EngineStall(queue, seconds);
  } catch (...) {
    return std::string();
  }
}

}  // namespace

EngineProcess FindEngine(const std::string& id) noexcept {
  try {
    return FindEngineOrThrow(id);
  } catch (...) {
    return EngineProcess();  // /proc unreadable: treated as not found
  }
}

std::string EngineStall(const std::string& queue, int seconds) {
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

void WatchEngines() {
  static std::once_flag once;
  std::call_once(once, [] { ::vizdoom::receiveStallHook = &EngineStallHook; });
}

void CloseOrKillEngine(::vizdoom::DoomGame* game, pid_t pid) noexcept {
  if (game == nullptr) {
    return;
  }
  std::mutex mu;
  std::condition_variable cv;
  bool closed = false;
  std::thread killer;
  if (pid > 0) {
    try {
      killer = std::thread([&, id = game->getInstanceId()] {
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
    game->close();
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
}

}  // namespace envpool::vizdoom
