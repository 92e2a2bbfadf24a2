#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "envpool/core/array.h"
#include "envpool/core/env.h"

namespace envpool {
namespace {

struct Registry {
  std::mutex mu;
  std::map<std::string, EnvClass> classes;
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
  return Options{{"max_episode_steps", int64_t{2147483647}}};
}

void RegisterEnvClass(EnvClass env_class) {
  Registry& registry = GlobalRegistry();
  std::lock_guard<std::mutex> lock(registry.mu);
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

}  // namespace envpool
