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

#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

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

// The functions of one loaded libenv.so. The first Load of a process opens
// the library; later calls return the same one.
struct Libenv {
  int (*version)();
  void* (*make)(int num, abi::OptionList options);
  int (*get_tensortypes)(void* env, int space, abi::TensorType* types);
  void (*set_buffers)(void* env, abi::Buffers* buffers);
  void (*observe)(void* env);
  void (*act)(void* env);
  void (*close)(void* env);

  static const Libenv& Load(const std::string& path) {
    static std::mutex mu;
    static std::unique_ptr<Libenv> loaded;
    std::lock_guard<std::mutex> lock(mu);
    if (loaded != nullptr) {
      return *loaded;
    }
    // RTLD_LOCAL: the Qt linked into the library stays private to it.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* why = dlerror();
      throw std::invalid_argument(
          "procgen's game library " + path +
          " could not be loaded: " + (why != nullptr ? why : "unknown error"));
    }
    auto lib = std::make_unique<Libenv>();  // kept for the process
    Resolve(handle, "libenv_version", &lib->version);
    Resolve(handle, "libenv_make", &lib->make);
    Resolve(handle, "libenv_get_tensortypes", &lib->get_tensortypes);
    Resolve(handle, "libenv_set_buffers", &lib->set_buffers);
    Resolve(handle, "libenv_observe", &lib->observe);
    Resolve(handle, "libenv_act", &lib->act);
    Resolve(handle, "libenv_close", &lib->close);
    if (lib->version() != abi::kVersion) {
      throw std::invalid_argument(path + " implements libenv version " +
                                  std::to_string(lib->version()) +
                                  ", expected " +
                                  std::to_string(abi::kVersion));
    }
    loaded = std::move(lib);
    return *loaded;
  }

  // Creating and closing instances is serialized: the first instance of a
  // process loads procgen's global asset cache.
  static std::mutex& InstanceMutex() {
    static std::mutex mu;
    return mu;
  }

 private:
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
