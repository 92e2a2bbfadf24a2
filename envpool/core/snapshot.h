// Snapshots of an env's state: the bytes `Pool::GetState` writes for one env
// and `Pool::SetState` reads back into an env of the same id and options.
//
// An env that supports snapshots sets `EnvSpec::snapshots` in Declare and
// overrides `Env::SaveState` and `Env::LoadState`, which write and read
// every member that the env's next steps depend on, in one order:
//
//   void SaveState(envpool::StateWriter* w) const override {
//     w->Put(x_, x_dot_, theta_, theta_dot_, steps_beyond_terminated_);
//   }
//   void LoadState(envpool::StateReader* r) override {
//     r->Get(&x_, &x_dot_, &theta_, &theta_dot_, &steps_beyond_terminated_);
//   }
//
// The pool saves what it and the Env base class own around that: the
// elapsed steps, whether the episode ended (a pending autoreset), the
// episode's return, the random generators (np_random_, rng_), reward and
// flags. A reader that runs past the end, or an env that leaves bytes
// unread, makes the state corrupt (SnapshotError), never garbage.
#ifndef ENVPOOL_CORE_SNAPSHOT_H_
#define ENVPOOL_CORE_SNAPSHOT_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace envpool {

// A state that cannot be read: truncated, corrupted, of another id or
// format. Python sees a ValueError.
class SnapshotError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class StateWriter {
 public:
  explicit StateWriter(std::string* out) : out_(out) {}

  // Values of trivially copyable types (numbers, flags, fixed arrays and
  // plain structs of them, the random generators), and vectors and strings
  // of those, with their lengths.
  template <typename... T>
  void Put(const T&... values) {
    (PutOne(values), ...);
  }
  void PutBytes(const void* data, std::size_t size) {
    out_->append(static_cast<const char*>(data), size);
  }

 private:
  template <typename T>
  void PutOne(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>,
                  "write the members of this type one by one");
    PutBytes(&value, sizeof(T));
  }
  template <typename T>
  void PutOne(const std::vector<T>& values) {
    PutOne(static_cast<uint64_t>(values.size()));
    if constexpr (std::is_trivially_copyable_v<T>) {
      PutBytes(values.data(), values.size() * sizeof(T));
    } else {
      for (const T& value : values) {
        PutOne(value);
      }
    }
  }
  void PutOne(const std::vector<bool>& values) {
    PutOne(static_cast<uint64_t>(values.size()));
    for (bool value : values) {
      PutOne(static_cast<uint8_t>(value));
    }
  }
  void PutOne(const std::string& value) {
    PutOne(static_cast<uint64_t>(value.size()));
    PutBytes(value.data(), value.size());
  }

  std::string* out_;
};

class StateReader {
 public:
  StateReader(const char* data, std::size_t size)
      : next_(data), end_(data + size) {}

  template <typename... T>
  void Get(T*... values) {
    (GetOne(values), ...);
  }
  void GetBytes(void* data, std::size_t size) {
    if (static_cast<std::size_t>(end_ - next_) < size) {
      throw SnapshotError("the state is truncated or corrupt");
    }
    if (size == 0) {
      return;  // an empty vector's data() may be null: memcpy must not see it
    }
    std::memcpy(data, next_, size);
    next_ += size;
  }
  std::size_t left() const { return static_cast<std::size_t>(end_ - next_); }

 private:
  template <typename T>
  void GetOne(T* value) {
    static_assert(std::is_trivially_copyable_v<T>,
                  "read the members of this type one by one");
    GetBytes(value, sizeof(T));
  }
  uint64_t GetLength(std::size_t element_size) {
    uint64_t size = 0;
    GetOne(&size);
    if (size > left() / std::max<std::size_t>(element_size, 1)) {
      throw SnapshotError("the state is truncated or corrupt");
    }
    return size;
  }
  template <typename T>
  void GetOne(std::vector<T>* values) {
    if constexpr (std::is_trivially_copyable_v<T>) {
      values->resize(GetLength(sizeof(T)));
      GetBytes(values->data(), values->size() * sizeof(T));
    } else {
      values->resize(GetLength(1));
      for (T& value : *values) {
        GetOne(&value);
      }
    }
  }
  void GetOne(std::vector<bool>* values) {
    values->resize(GetLength(1));
    for (std::size_t i = 0; i < values->size(); ++i) {
      uint8_t value = 0;
      GetOne(&value);
      (*values)[i] = value != 0;
    }
  }
  void GetOne(std::string* value) {
    value->resize(GetLength(1));
    GetBytes(value->data(), value->size());
  }

  const char* next_;
  const char* end_;
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_SNAPSHOT_H_
