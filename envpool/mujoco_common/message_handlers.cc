#include "envpool/mujoco_common/message_handlers.h"

#include <mujoco/mujoco.h>

#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <string>

namespace envpool::mujoco_common {
namespace {

void ThrowOnError(const char* message) {
  throw std::runtime_error(std::string("MuJoCo error: ") + message);
}

void PrintWarning(const char* message) {
  if (!IsQuietWarning(message)) {
    std::fprintf(stderr, "MuJoCo warning: %s\n", message);
  }
}

}  // namespace

bool IsQuietWarning(const std::string& message) {
  return message.find("'settotalmass' is deprecated") != std::string::npos;
}

void InstallMessageHandlers() {
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  if (mju_user_error == nullptr) {
    mju_user_error = ThrowOnError;
  }
  if (mju_user_warning == nullptr) {
    mju_user_warning = PrintWarning;
  }
}

}  // namespace envpool::mujoco_common
