// Loading an out-of-tree env package's native library (see plugin.h).
#ifndef ENVPOOL_CORE_PLUGIN_LOADER_H_
#define ENVPOOL_CORE_PLUGIN_LOADER_H_

#include <string>

namespace envpool {

// Loads the plugin library at `path` and registers its env classes as
// "<family>/<name>" (a package's "CartPole" is not envpool's). Returns
// "" on success, else why it was refused (not loadable, not a plugin, built
// against another envpool version or C++ standard library, its registration
// threw); the library is unloaded again when its registration did not run.
// Loading the same path twice registers once.
std::string LoadPlugin(const std::string& path, const std::string& family);

// What RegisterEnvClass puts before the names it registers on this thread
// (registry.cc): set by LoadPlugin while a plugin registers its classes.
std::string& RegistrationPrefix();

}  // namespace envpool

#endif  // ENVPOOL_CORE_PLUGIN_LOADER_H_
