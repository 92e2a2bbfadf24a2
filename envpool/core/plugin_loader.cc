#include "envpool/core/plugin_loader.h"

#include <dlfcn.h>

#include <fstream>
#include <iterator>
#include <map>
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

// The marker of plugin.h's stamp, spelled here rather than included: the
// loader must not depend on the header a plugin is built with.
constexpr char kStampMarker[] = "envpool-plugin-stamp\n";

// The stamp's "<key>=<value>" lines, read from the file without loading it;
// empty when the file has none (a library built before stamps, or no plugin).
std::map<std::string, std::string> ReadStamp(const std::string& path) {
  std::map<std::string, std::string> stamp;
  std::ifstream file(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)),
                          std::istreambuf_iterator<char>());
  const std::size_t at = bytes.find(kStampMarker);
  if (at == std::string::npos) {
    return stamp;
  }
  std::size_t line = at + sizeof(kStampMarker) - 1;
  const std::size_t end = bytes.find('\0', line);
  while (line < end) {
    std::size_t next = bytes.find('\n', line);
    if (next == std::string::npos || next > end) {
      next = end;
    }
    const std::string entry = bytes.substr(line, next - line);
    const std::size_t eq = entry.find('=');
    if (eq != std::string::npos) {
      stamp[entry.substr(0, eq)] = entry.substr(eq + 1);
    }
    line = next + 1;
  }
  return stamp;
}

// Why a library built against `version`, `digest` and `stdlib` cannot run
// in this core, or "" when it can. A digest of "" means the library names
// none (built before digests existed).
std::string Mismatch(const std::string& path, const std::string& version,
                     const std::string& digest, const std::string& stdlib) {
  if (version != ENVPOOL_VERSION) {
    return "the env plugin was built against envpool " + version +
           ", but this is envpool " + ENVPOOL_VERSION + Rebuild(path);
  }
  if (digest.empty()) {
    return "the env plugin was built against envpool " + version +
           " headers (no digest), not this envpool " + ENVPOOL_VERSION + "'s" +
           Rebuild(path);
  }
  if (digest != ENVPOOL_HEADERS_DIGEST) {
    return "the env plugin was built against envpool " + version +
           " with other env headers (digest " + digest +
           ") than this envpool " + ENVPOOL_VERSION + "'s (digest " +
           ENVPOOL_HEADERS_DIGEST + ")" + Rebuild(path);
  }
  if (stdlib != ENVPOOL_CXX_STDLIB) {
    return "the env plugin was built with " + stdlib + ", but envpool " +
           ENVPOOL_VERSION + " with " + ENVPOOL_CXX_STDLIB + Rebuild(path);
  }
  return "";
}

}  // namespace

std::string LoadPlugin(const std::string& path, const std::string& family) {
  static std::mutex mu;
  static std::set<std::string> loaded;
  std::lock_guard<std::mutex> lock(mu);
  if (loaded.count(path) != 0) {
    return "";
  }
  // A stamped library (plugin.h) is checked before it is loaded: loading
  // runs its static constructors, which must not run in a core they were not
  // built for.
  const auto stamp = ReadStamp(path);
  if (!stamp.empty()) {
    auto get = [&stamp](const char* key) {
      auto it = stamp.find(key);
      return it == stamp.end() ? std::string() : it->second;
    };
    std::string refused =
        Mismatch(path, get("version"), get("digest"), get("stdlib"));
    if (!refused.empty()) {
      return refused;
    }
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
  // An unstamped library (built before stamps) is checked now, through the
  // functions every plugin exports; the digest and standard library are read
  // only once the version matches: a plugin of another version may lack them.
  const std::string built_for = version();
  const bool readable =
      built_for == ENVPOOL_VERSION && digest != nullptr && stdlib != nullptr;
  const std::string refused =
      readable ? Mismatch(path, built_for, digest(), stdlib())
               : Mismatch(path, built_for, "", "");
  if (!refused.empty()) {
    dlclose(handle);
    return refused;
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
