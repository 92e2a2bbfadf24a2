// The watchdog of the ViZDoom engine processes: no env, and so no pool, ever
// hangs on an engine that stopped answering.
//
// Each env drives its own engine process, and ViZDoom's client waits for it
// without a timeout (its message queues).  The client's receive (patched,
// see third_party/vizdoom/vizdoom.BUILD) asks EngineStall every second it
// waits: once the engine has neither answered nor used any CPU time for
// kStallSeconds while it sleeps or is stopped, it cannot be working on an
// answer (an engine only sleeps waiting for its client); it is killed and
// the wait ends with an error, which the pool raises at recv.  An engine
// that never appears (kMissingSeconds) ends the wait too.  A close kills an
// engine that has not quit after kStallSeconds, so a close never hangs
// either.
#ifndef ENVPOOL_VIZDOOM_ENGINE_WATCHDOG_H_
#define ENVPOOL_VIZDOOM_ENGINE_WATCHDOG_H_

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "ViZDoom.h"

namespace envpool::vizdoom {

constexpr int kStallSeconds = 10;
constexpr int kMissingSeconds = 30;

// One engine process as /proc shows it.
struct EngineProcess {
  pid_t pid = -1;
  char state = '?';        // R, S, D, T, ... of /proc/<pid>/stat
  uint64_t cpu_ticks = 0;  // user + system time, in clock ticks
  std::string wchan;       // where it sleeps in the kernel, if it says
};

// The engine child of this process started for ViZDoom instance `id` (its
// command line holds "+viz_instance_id <id>"); pid -1 when there is none or
// /proc cannot be read.
EngineProcess FindEngine(const std::string& id) noexcept;

// Asked with the client's queue ("ViZDoomMQCtr<id>") and the whole seconds
// its current wait has lasted: why the wait must end (the engine was killed
// or never appeared), or "" while the engine may still answer.  A call with
// fewer seconds than the last one for that queue starts a new wait.
std::string EngineStall(const std::string& queue, int seconds);

// Installs EngineStall as the client's receive hook (once per process).
void WatchEngines();

// DoomGame::close() asks the engine to quit and waits for it to end; the
// engine `pid` (the game's, -1 when unknown) is killed when it has not ended
// after kStallSeconds.  Never throws: a failing close still ends the game.
void CloseOrKillEngine(::vizdoom::DoomGame* game, pid_t pid) noexcept;

}  // namespace envpool::vizdoom

#endif  // ENVPOOL_VIZDOOM_ENGINE_WATCHDOG_H_
