// An env package built outside this repository: its one native library
// registers its env classes with the installed envpool's core.
//
//   #include "envpool/core/plugin.h"
//   #include "my_env.h"
//
//   ENVPOOL_PLUGIN() { envpool::RegisterEnv<MyEnv>("MyEnv"); }
//
// The library is a plain shared object (no Python module, no pybind11)
// linked against libenvpool_core.so; envpool loads it with dlopen when one of
// the package's ids is first made (envpool/python/plugins.py), checks first
// that it was built against this very envpool (version and C++ standard
// library, and the digest of these headers: a development build whose
// headers changed within one version counts as another), then runs the
// registration body. A plugin of another version is refused with an error
// naming both versions, before any of its code runs: the loader reads the
// stamp below from the file before it loads the library, so not even the
// plugin's static constructors (which run at load) run in a process they were
// not built for.
#ifndef ENVPOOL_CORE_PLUGIN_H_
#define ENVPOOL_CORE_PLUGIN_H_

#include <cstddef>
#include <cstring>
#include <exception>

#include "envpool/core/env.h"
#include "envpool/core/headers_digest.h"
#include "envpool/core/version.h"

// What the loader reads before it calls anything else: plain C strings, so
// that reading them is safe whatever the plugin was built against.
#define ENVPOOL_PLUGIN_EXPORT extern "C" __attribute__((visibility("default")))

// The stamp: what the library was built against, as text in its own section
// of the file, which the loader finds without loading the library
// (plugin_loader.cc). Its lines read "<key>=<value>"; the marker opens it.
#define ENVPOOL_PLUGIN_STAMP_MARKER "envpool-plugin-stamp\n"
#define ENVPOOL_PLUGIN_STAMP                                     \
  ENVPOOL_PLUGIN_STAMP_MARKER "version=" ENVPOOL_VERSION         \
                              "\ndigest=" ENVPOOL_HEADERS_DIGEST \
                              "\nstdlib=" ENVPOOL_CXX_STDLIB "\n"

#define ENVPOOL_PLUGIN()                                                  \
  ENVPOOL_PLUGIN_EXPORT __attribute__((used, section(".envpool_plugin"))) \
  const char envpool_plugin_stamp[] = ENVPOOL_PLUGIN_STAMP;               \
  static void EnvpoolPluginRegisterClasses();                             \
  ENVPOOL_PLUGIN_EXPORT const char* envpool_plugin_version() {            \
    return ENVPOOL_VERSION;                                               \
  }                                                                       \
  ENVPOOL_PLUGIN_EXPORT const char* envpool_plugin_headers_digest() {     \
    return ENVPOOL_HEADERS_DIGEST;                                        \
  }                                                                       \
  ENVPOOL_PLUGIN_EXPORT const char* envpool_plugin_cxx_stdlib() {         \
    return ENVPOOL_CXX_STDLIB;                                            \
  }                                                                       \
  /* Returns 0, or 1 with the exception's message in `error`. */          \
  ENVPOOL_PLUGIN_EXPORT int envpool_plugin_register(char* error,          \
                                                    std::size_t size) {   \
    try {                                                                 \
      EnvpoolPluginRegisterClasses();                                     \
      return 0;                                                           \
    } catch (const std::exception& e) {                                   \
      std::strncpy(error, e.what(), size - 1);                            \
      error[size - 1] = '\0';                                             \
      return 1;                                                           \
    }                                                                     \
  }                                                                       \
  static void EnvpoolPluginRegisterClasses()

#endif  // ENVPOOL_CORE_PLUGIN_H_
