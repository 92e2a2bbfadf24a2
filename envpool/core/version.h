// The version of envpool a header set belongs to. A plugin compiled against
// these headers records it (plugin.h), and the core refuses a plugin whose
// version is not its own: the classes a plugin shares with the core (Env,
// Options, EnvClass) may change between versions.
#ifndef ENVPOOL_CORE_VERSION_H_
#define ENVPOOL_CORE_VERSION_H_

// Kept equal to VERSION in the root BUILD and envpool.__version__
// (envpool/python/tests/test_plugins.py checks both).
#define ENVPOOL_VERSION "0.1.0"

// The C++ standard library a plugin and the core must share: std::string,
// std::function and std::map cross between them.
#if defined(_LIBCPP_VERSION)
#define ENVPOOL_CXX_STDLIB "libc++"
#elif defined(_GLIBCXX_USE_CXX11_ABI) && _GLIBCXX_USE_CXX11_ABI
#define ENVPOOL_CXX_STDLIB "libstdc++ (C++11 ABI)"
#else
#define ENVPOOL_CXX_STDLIB "libstdc++ (pre-C++11 ABI)"
#endif

#endif  // ENVPOOL_CORE_VERSION_H_
