// The engine watchdog without an engine: a wait for an engine that never
// appears ends, and a child process that looks like an engine (its command
// line names the instance) but sleeps without answering is killed.
#include "envpool/vizdoom/engine_watchdog.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

extern char** environ;

namespace envpool::vizdoom {
namespace {

TEST(StallTest, AWaitWithoutAnEngineEndsAfterHalfAMinute) {
  const std::string queue = "ViZDoomMQCtrNoSuchInst";
  EXPECT_EQ(FindEngine("NoSuchInst").pid, -1);
  for (int s = 1; s < kMissingSeconds; ++s) {
    EXPECT_EQ(EngineStall(queue, s), "") << s;
  }
  std::string why = EngineStall(queue, kMissingSeconds);
  EXPECT_NE(why.find("NoSuchInst has no engine process"), std::string::npos)
      << why;
  // A new wait starts over.
  EXPECT_EQ(EngineStall(queue, 3), "");
}

TEST(StallTest, ASleepingEngineIsKilledAfterTheStallSeconds) {
  // "sh -c 'read line' +viz_instance_id FakeInst": a child of this process
  // with an engine's marker, asleep in a read of a pipe nobody writes.
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[0], 0);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  char sh[] = "/bin/sh", c[] = "-c", script[] = "read line",
       marker[] = "+viz_instance_id", id[] = "FakeInst";
  char* argv[] = {sh, c, script, marker, id, nullptr};
  pid_t child = -1;
  ASSERT_EQ(posix_spawn(&child, sh, &actions, nullptr, argv, environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[0]);
  // Until it sleeps in its read.
  EngineProcess engine;
  for (int i = 0; i < 500; ++i) {
    engine = FindEngine("FakeInst");
    if (engine.pid == child && engine.state == 'S') {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(engine.pid, child);
  ASSERT_EQ(engine.state, 'S');
  // The stall is counted in the seconds the caller says it has waited.
  const std::string queue = "ViZDoomMQCtrFakeInst";
  std::string why;
  int seconds = 1;
  for (; seconds <= 2 * kStallSeconds && why.empty(); ++seconds) {
    why = EngineStall(queue, seconds);
  }
  EXPECT_NE(why.find("stopped answering"), std::string::npos) << why;
  EXPECT_NE(why.find("pid " + std::to_string(child)), std::string::npos) << why;
  EXPECT_GE(seconds - 1, kStallSeconds);
  if (why.empty()) {
    kill(child, SIGTERM);  // not killed: end it, and the check below fails
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
  close(fds[1]);
}

}  // namespace
}  // namespace envpool::vizdoom
