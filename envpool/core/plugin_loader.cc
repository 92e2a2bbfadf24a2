#include "envpool/core/plugin_loader.h"

#include <dlfcn.h>

#include <mutex>
#include <set>
#include <string>

#include "envpool/core/headers_digest.h"
#include "envpool/core/version.h"

namespace envpool {
namespace {

using StringFn = const char* (*)();
using RegisterFn = int (*)(char*, std::size_t);

std::string Rebuild(const std::string& path) {
  return ": rebuild its package against this envpool (pip install "
         "--no-build-isolation --force-reinstall <its source folder>), or "
         "install the envpool version it was built for; the library: " +
         path;
}

}  // namespace

std::string LoadPlugin(const std::string& path, const std::string& family) {
  static std::mutex mu;
  static std::set<std::string> loaded;
  std::lock_guard<std::mutex> lock(mu);
  if (loaded.count(path) != 0) {
    return "";
  }
  // RTLD_LAZY: a library built against another version may name core
  // functions this core lacks; binding them lazily lets the version check
  // below refuse it before any of them is called.
  void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* error = dlerror();
    return "cannot load the env plugin " + path + ": " +
           (error != nullptr ? error : "unknown error");
  }
  auto version =
      reinterpret_cast<StringFn>(dlsym(handle, "envpool_plugin_version"));
  auto digest = reinterpret_cast<StringFn>(
      dlsym(handle, "envpool_plugin_headers_digest"));
  auto stdlib =
      reinterpret_cast<StringFn>(dlsym(handle, "envpool_plugin_cxx_stdlib"));
  auto register_classes =
      reinterpret_cast<RegisterFn>(dlsym(handle, "envpool_plugin_register"));
  if (version == nullptr || register_classes == nullptr) {
    dlclose(handle);
    return "the library " + path +
           " is not an envpool env plugin: its source must end with "
           "ENVPOOL_PLUGIN() { envpool::RegisterEnv<...>(...); } (from "
           "envpool/core/plugin.h)";
  }
  const std::string built_for = version();
  if (built_for != ENVPOOL_VERSION) {
    dlclose(handle);
    return "the env plugin was built against envpool " + built_for +
           ", but this is envpool " + ENVPOOL_VERSION + Rebuild(path);
  }
  // Both read only now: a plugin of another version may lack them.
  if (digest == nullptr || stdlib == nullptr) {
    dlclose(handle);
    return "the env plugin was built against envpool " + built_for +
           " headers (no digest), not this envpool " + ENVPOOL_VERSION + "'s" +
           Rebuild(path);
  }
  const std::string built_digest = digest();
  if (built_digest != ENVPOOL_HEADERS_DIGEST) {
    dlclose(handle);
    return "the env plugin was built against envpool " + built_for +
           " with other env headers (digest " + built_digest +
           ") than this envpool " + ENVPOOL_VERSION + "'s (digest " +
           ENVPOOL_HEADERS_DIGEST + ")" + Rebuild(path);
  }
  const std::string built_with = stdlib();
  if (built_with != ENVPOOL_CXX_STDLIB) {
    dlclose(handle);
    return std::string("the env plugin was built with ") + built_with +
           ", but envpool " + ENVPOOL_VERSION + " with " + ENVPOOL_CXX_STDLIB +
           Rebuild(path);
  }
  char error[1024] = {0};
  RegistrationPrefix() = family + "/";
  const int failed = register_classes(error, sizeof(error));
  RegistrationPrefix().clear();
  if (failed != 0) {
    // Classes it registered before it threw keep pointing into the library:
    // it stays loaded.
    return "the env plugin " + path + " failed to register its envs: " + error;
  }
  loaded.insert(path);
  return "";
}

}  // namespace envpool
