// The env's option checks, without an engine: a missing file names the
// option and the package that ships it.  The parts the env uses have their
// own tests (game_variables_test.cc, combined_actions_test.cc, ...).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "envpool/core/env.h"
#include "envpool/vizdoom/vizdoom_env.h"

namespace envpool::vizdoom {
namespace {

TEST(OptionsTest, MissingFilesNameTheOptionAndThePackage) {
  Options options = VizdoomEnv::DefaultOptions();
  options.Set("cfg_path", std::string("/nonexistent/basic.cfg"));
  try {
    DeclareFields<VizdoomEnv>(options);
    FAIL() << "no error for a missing cfg";
  } catch (const std::invalid_argument& e) {
    std::string message = e.what();
    EXPECT_NE(message.find("cfg_path"), std::string::npos) << message;
    EXPECT_NE(message.find("pip install vizdoom==1.3.2"), std::string::npos)
        << message;
  }
}

}  // namespace
}  // namespace envpool::vizdoom
