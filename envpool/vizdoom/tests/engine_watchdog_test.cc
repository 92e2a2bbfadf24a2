// The engine watchdog without an engine: a wait for an engine that never
// appears ends.
#include "envpool/vizdoom/engine_watchdog.h"

#include <gtest/gtest.h>

#include <string>

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

}  // namespace
}  // namespace envpool::vizdoom
