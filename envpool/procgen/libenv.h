// gym3's libenv C interface (version 1), as procgen's libenv.so exports it,
// and the loader of that library.
//
// An instance holds `num` games. The caller hands it buffers once
// (libenv_set_buffers): per game, one pointer per observation, action and
// info tensor, plus the reward and `first` arrays. libenv_act steps every
// game with the action in its action buffer; libenv_observe writes the
// observation, reward, first flag and info of the current state. A game
// whose episode ended starts the next one inside the same act (its `first`
// is then set); action -1 ends the episode at once.
#ifndef ENVPOOL_PROCGEN_LIBENV_H_
#define ENVPOOL_PROCGEN_LIBENV_H_

#include <dlfcn.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace envpool::procgen {

namespace abi {

constexpr int kMaxNameLen = 128;
constexpr int kMaxNdim = 16;
constexpr int kVersion = 1;

enum DType : int { kUnused = 0, kUint8 = 1, kInt32 = 2, kFloat32 = 3 };
enum SpaceName : int { kObservation = 1, kAction = 2, kInfo = 3 };

union Value {
  uint8_t uint8;
  int32_t int32;
  float float32;
};

struct TensorType {
  char name[kMaxNameLen];
  int scalar_type;
  int dtype;
  int shape[kMaxNdim];
  int ndim;
  Value low;
  Value high;
};

struct Option {
  char name[kMaxNameLen];
  int dtype;
  int count;
  void* data;
};

struct OptionList {
  Option* items;
  int count;
};

struct Buffers {
  void** ob;
  float* rew;
  uint8_t* first;
  void** info;
  void** ac;
};

}  // namespace abi

// The functions of one loaded libenv.so.
//
// procgen's rendering (its Qt, linked into libenv.so) copies and drops
// shared default pens and brushes many times a frame, each an atomic add on
// one cache line of the library (on 2 cores a `perf` profile puts most of
// QBrush's copy on that add), so threads stepping games of one loaded
// library all write the same lines, where separate processes do not. Envs
// can be spread over several private copies of the library instead
// (ENVPOOL_PROCGEN_LIBRARY_COPIES=k, env i on copy i % k): copy j >= 1 is a
// copy of the file, opened with RTLD_LOCAL (its symbols, Qt and asset cache
// its own) and then removed. Each copy holds its own decoded assets (about
// 300 MB), and on 2 cores two copies were 6-8% slower than one (Starpilot
// sync, 16 envs: each core then runs both copies' code), so the default is
// one copy.
struct Libenv {
  int (*version)();
  void* (*make)(int num, abi::OptionList options);
  int (*get_tensortypes)(void* env, int space, abi::TensorType* types);
  void (*set_buffers)(void* env, abi::Buffers* buffers);
  void (*observe)(void* env);
  void (*act)(void* env);
  void (*close)(void* env);
  // procgen's own serialization of game `index` of an instance (its
  // state_test's get_state/set_state): get_state writes at most `length`
  // bytes and returns how many it wrote.
  int (*get_state)(void* env, int index, char* data, int length);
  void (*set_state)(void* env, int index, char* data, int length);
  // Making and closing instances of one copy is serialized: the first
  // instance of a copy loads its global asset cache.
  mutable std::mutex instance_mu;

  // Copy `copy` of the library at `path`: copy 0 is the file itself. The
  // first Load of a copy opens it; later calls return the same one. A copy
  // that cannot be made (no writable temporary folder) is copy 0.
  static const Libenv& Load(const std::string& path, int copy = 0) {
    static std::mutex mu;
    std::lock_guard<std::mutex> lock(mu);
    return LoadLocked(path, copy);
  }

  // How many copies envs are spread over: ENVPOOL_PROCGEN_LIBRARY_COPIES,
  // or 1 (every env on the file itself).
  static int Copies() {
    static const int copies = [] {
      const char* text = std::getenv("ENVPOOL_PROCGEN_LIBRARY_COPIES");
      int n = 1;
      if (text != nullptr && *text != '\0') {
        try {
          n = std::stoi(text);
        } catch (const std::exception&) {
          n = 0;
        }
        if (n < 1) {
          throw std::invalid_argument(
              "ENVPOOL_PROCGEN_LIBRARY_COPIES must be a positive integer, "
              "got '" +
              std::string(text) + "'");
        }
      }
      return std::clamp(n, 1, kMaxCopies);
    }();
    return copies;
  }

 private:
  // RTLD_LOCAL: the Qt linked into the library stays private to it.
  static constexpr int kFlags = RTLD_NOW | RTLD_LOCAL;
  static constexpr int kMaxCopies = 256;

  // A private copy of the library: the file copied into a new temporary
  // folder, opened, and removed again (the mapping keeps it alive).
  static void* OpenCopy(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path tmp = fs::temp_directory_path(ec);
    if (ec) {
      return nullptr;
    }
    std::string dir = (tmp / "envpool-procgen-XXXXXX").string();
    if (mkdtemp(dir.data()) == nullptr) {
      return nullptr;
    }
    const fs::path file = fs::path(dir) / "libenv.so";
    void* handle = nullptr;
    if (fs::copy_file(path, file, ec) && !ec) {
      handle = dlopen(file.c_str(), kFlags);
    }
    fs::remove_all(dir, ec);
    return handle;
  }

  static const Libenv& LoadLocked(const std::string& path, int copy) {
    static std::map<int, const Libenv*> loaded;
    static std::vector<std::unique_ptr<Libenv>> opened;  // kept for the process
    auto found = loaded.find(copy);
    if (found != loaded.end()) {
      return *found->second;
    }
    void* handle = copy > 0 ? OpenCopy(path) : dlopen(path.c_str(), kFlags);
    if (copy > 0 && handle == nullptr) {
      return *(loaded[copy] = &LoadLocked(path, 0));
    }
    opened.push_back(Open(path, handle));
    return *(loaded[copy] = opened.back().get());
  }

  static std::unique_ptr<Libenv> Open(const std::string& path, void* handle) {
    if (handle == nullptr) {
      const char* why = dlerror();
      throw std::invalid_argument(
          "procgen's game library " + path +
          " could not be loaded: " + (why != nullptr ? why : "unknown error"));
    }
    auto lib = std::make_unique<Libenv>();
    Resolve(handle, "libenv_version", &lib->version);
    Resolve(handle, "libenv_make", &lib->make);
    Resolve(handle, "libenv_get_tensortypes", &lib->get_tensortypes);
    Resolve(handle, "libenv_set_buffers", &lib->set_buffers);
    Resolve(handle, "libenv_observe", &lib->observe);
    Resolve(handle, "libenv_act", &lib->act);
    Resolve(handle, "libenv_close", &lib->close);
    Resolve(handle, "get_state", &lib->get_state);
    Resolve(handle, "set_state", &lib->set_state);
    if (lib->version() != abi::kVersion) {
      throw std::invalid_argument(path + " implements libenv version " +
                                  std::to_string(lib->version()) +
                                  ", expected " +
                                  std::to_string(abi::kVersion));
    }
    return lib;
  }

  template <typename F>
  static void Resolve(void* handle, const char* name, F* fn) {
    void* symbol = dlsym(handle, name);
    if (symbol == nullptr) {
      throw std::invalid_argument(std::string("procgen's libenv.so lacks ") +
                                  name);
    }
    *fn = reinterpret_cast<F>(symbol);
  }
};

}  // namespace envpool::procgen

#endif  // ENVPOOL_PROCGEN_LIBENV_H_
