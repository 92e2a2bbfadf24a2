#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/array.h"
#include "envpool/core/env.h"

namespace envpool {
namespace {

struct Registry {
  std::mutex mu;
  std::map<std::string, EnvClass> classes;
  std::map<std::string, std::string> asset_dirs;
};

Registry& GlobalRegistry() {
  static Registry registry;
  return registry;
}

}  // namespace

std::size_t DTypeSize(DType dtype) {
  switch (dtype) {
    case DType::kBool:
    case DType::kUInt8:
    case DType::kInt8:
      return 1;
    case DType::kInt32:
    case DType::kFloat32:
      return 4;
    case DType::kInt64:
    case DType::kFloat64:
      return 8;
  }
  return 0;
}

const char* DTypeName(DType dtype) {
  switch (dtype) {
    case DType::kBool:
      return "bool";
    case DType::kUInt8:
      return "uint8";
    case DType::kInt8:
      return "int8";
    case DType::kInt32:
      return "int32";
    case DType::kInt64:
      return "int64";
    case DType::kFloat32:
      return "float32";
    case DType::kFloat64:
      return "float64";
  }
  return "?";
}

Options CommonOptions() {
  // 2**31 - 1: EnvPool's "no limit"; ids register their own.
  // The render options reach every env (Declare resolves the frame size);
  // render_mode "" is None in Python.
  return Options{{"max_episode_steps", int64_t{2147483647}},
                 {"render_mode", std::string()},
                 {"render_width", int64_t{0}},
                 {"render_height", int64_t{0}},
                 {"render_camera_id", int64_t{-1}}};
}

void DeclareRendering(const Options& options, EnvSpec* spec,
                      std::vector<std::string> modes, int width, int height,
                      int fps, bool any_size, int num_cameras) {
  // Options made without the common ones (an env built by a C++ test from
  // its own defaults) render nothing and take the reference's size.
  auto get_int = [&](const char* name, int64_t fallback) {
    return options.Has(name) ? options.Get<int64_t>(name) : fallback;
  };
  const std::string mode = options.Has("render_mode")
                               ? options.Get<std::string>("render_mode")
                               : std::string();
  std::string listed;
  for (const auto& m : modes) {
    listed += (listed.empty() ? "'" : ", '") + m + "'";
  }
  if (!mode.empty() &&
      std::find(modes.begin(), modes.end(), mode) == modes.end()) {
    throw std::invalid_argument("option 'render_mode' must be None or one of " +
                                listed + ", got '" + mode + "'");
  }
  constexpr int64_t kMaxSide = 8192;
  int64_t w = get_int("render_width", 0);
  int64_t h = get_int("render_height", 0);
  auto check_side = [&](const char* name, int64_t value, int native) {
    if (value < 0 || value > kMaxSide) {
      throw std::invalid_argument(
          std::string("option '") + name + "' must be in 0.." +
          std::to_string(kMaxSide) + " (0: the reference's " +
          std::to_string(native) + "), got " + std::to_string(value));
    }
    if (!any_size && value != 0 && value != native) {
      throw std::invalid_argument(
          std::string("option '") + name + "' must be 0 or " +
          std::to_string(native) + ": this env renders at " +
          std::to_string(width) + "x" + std::to_string(height) + " only, got " +
          std::to_string(value));
    }
  };
  check_side("render_width", w, width);
  check_side("render_height", h, height);
  int64_t camera = get_int("render_camera_id", -1);
  if (camera != -1 && (camera < 0 || camera >= num_cameras)) {
    throw std::invalid_argument(
        "option 'render_camera_id' must be -1 (the default view)" +
        (num_cameras > 0
             ? " or a camera in 0.." + std::to_string(num_cameras - 1)
             : std::string(": this env has no cameras")) +
        ", got " + std::to_string(camera));
  }
  spec->render_modes = std::move(modes);
  spec->render_width = static_cast<int>(w != 0 ? w : width);
  spec->render_height = static_cast<int>(h != 0 ? h : height);
  spec->render_fps = fps;
}

std::string& RegistrationPrefix() {
  thread_local std::string prefix;
  return prefix;
}

void RegisterEnvClass(EnvClass env_class) {
  Registry& registry = GlobalRegistry();
  std::lock_guard<std::mutex> lock(registry.mu);
  env_class.name = RegistrationPrefix() + env_class.name;
  std::string name = env_class.name;
  registry.classes[name] = std::move(env_class);
}

const EnvClass& FindEnvClass(const std::string& name) {
  Registry& registry = GlobalRegistry();
  std::lock_guard<std::mutex> lock(registry.mu);
  auto it = registry.classes.find(name);
  if (it == registry.classes.end()) {
    std::string known;
    for (const auto& [key, value] : registry.classes) {
      known += (known.empty() ? "" : ", ") + key;
    }
    throw std::invalid_argument("unknown env class '" + name +
                                "'; registered: " + known);
  }
  return it->second;
}

std::vector<std::string> RegisteredEnvClasses() {
  Registry& registry = GlobalRegistry();
  std::lock_guard<std::mutex> lock(registry.mu);
  std::vector<std::string> names;
  for (const auto& [key, value] : registry.classes) {
    names.push_back(key);
  }
  return names;
}

void SetFamilyAssetDir(const std::string& family, const std::string& dir) {
  Registry& registry = GlobalRegistry();
  std::lock_guard<std::mutex> lock(registry.mu);
  registry.asset_dirs[family] = dir;
}

std::string FamilyAssetDir(const std::string& family) {
  Registry& registry = GlobalRegistry();
  std::lock_guard<std::mutex> lock(registry.mu);
  auto it = registry.asset_dirs.find(family);
  return it == registry.asset_dirs.end() ? std::string() : it->second;
}

}  // namespace envpool
