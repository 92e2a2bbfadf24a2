// Typed array specifications shared by every env family.
//
// An env declares its observation, info and action arrays once, as `Field<T>`
// handles.  The handle carries the element type, so writing a double into a
// float32 field does not compile, and a declaration whose dtype disagrees
// with `T` is rejected when the spec is built.
#ifndef ENVPOOL_CORE_ARRAY_H_
#define ENVPOOL_CORE_ARRAY_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace envpool {

enum class DType : uint8_t {
  kBool,
  kUInt8,
  kInt8,
  kInt32,
  kInt64,
  kFloat32,
  kFloat64
};

template <typename T>
struct DTypeOf;
template <>
struct DTypeOf<bool> {
  static constexpr DType value = DType::kBool;
};
template <>
struct DTypeOf<uint8_t> {
  static constexpr DType value = DType::kUInt8;
};
template <>
struct DTypeOf<int8_t> {
  static constexpr DType value = DType::kInt8;
};
template <>
struct DTypeOf<int32_t> {
  static constexpr DType value = DType::kInt32;
};
template <>
struct DTypeOf<int64_t> {
  static constexpr DType value = DType::kInt64;
};
template <>
struct DTypeOf<float> {
  static constexpr DType value = DType::kFloat32;
};
template <>
struct DTypeOf<double> {
  static constexpr DType value = DType::kFloat64;
};

std::size_t DTypeSize(DType dtype);
const char* DTypeName(DType dtype);

// One array of an env's interface, described for a single env (or a single
// player of a multi-player env); the pool adds the leading batch dimension.
struct ArraySpec {
  std::string name;
  DType dtype = DType::kFloat32;
  std::vector<int64_t> shape;
  // Bounds: empty means unbounded, one value applies to every element,
  // otherwise one value per element.
  std::vector<double> low;
  std::vector<double> high;
  // > 0: the array holds indices 0..num_values-1 (a Discrete space).
  int64_t num_values = 0;
  // Rows are per player rather than per env (multi-player envs only).
  // A state array then has one row per player the env writes (NumPlayers);
  // an action array one row per player of every env, max_num_players of
  // them, the actions of an env consecutive in player order: an env with
  // per-player actions has a fixed player count (see docs/multiplayer.md).
  bool per_player = false;
  // Every element is 0 or 1 (a MultiBinary space; dm_env: a BoundedArray
  // of 0..1). Declared int8 with low 0 and high 1, gymnasium's MultiBinary
  // dtype and bounds (Schema::Add checks).
  bool binary = false;

  int64_t NumElements() const {
    int64_t n = 1;
    for (int64_t d : shape) {
      n *= d;
    }
    return n;
  }
  std::size_t RowBytes() const {
    return static_cast<std::size_t>(NumElements()) * DTypeSize(dtype);
  }
};

template <typename T>
struct Field {
  int index = -1;
};

// An ordered list of arrays; `Add` returns the typed handle used to access
// the array later.
class Schema {
 public:
  template <typename T>
  Field<T> Add(ArraySpec spec) {
    if (spec.dtype != DTypeOf<T>::value) {
      throw std::logic_error("array '" + spec.name + "' is declared as " +
                             DTypeName(spec.dtype) +
                             " but accessed with another C++ type");
    }
    if (spec.binary && (spec.dtype != DType::kInt8 || spec.num_values > 0 ||
                        spec.low != std::vector<double>{0.0} ||
                        spec.high != std::vector<double>{1.0})) {
      throw std::logic_error("binary array '" + spec.name +
                             "' must be int8 with low {0} and high {1}, "
                             "gymnasium's MultiBinary");
    }
    specs_.push_back(std::move(spec));
    return Field<T>{static_cast<int>(specs_.size()) - 1};
  }

  template <typename T>
  Field<T> Add(std::string name, std::vector<int64_t> shape,
               std::vector<double> low = {}, std::vector<double> high = {}) {
    ArraySpec spec;
    spec.name = std::move(name);
    spec.dtype = DTypeOf<T>::value;
    spec.shape = std::move(shape);
    spec.low = std::move(low);
    spec.high = std::move(high);
    return Add<T>(std::move(spec));
  }

  // A scalar holding one of `num_values` indices (a Discrete space); one per
  // player when `per_player`.
  template <typename T>
  Field<T> AddDiscrete(std::string name, int64_t num_values,
                       bool per_player = false) {
    ArraySpec spec;
    spec.name = std::move(name);
    spec.dtype = DTypeOf<T>::value;
    spec.num_values = num_values;
    spec.low = {0.0};
    spec.high = {static_cast<double>(num_values - 1)};
    spec.per_player = per_player;
    return Add<T>(std::move(spec));
  }

  const std::vector<ArraySpec>& specs() const { return specs_; }
  std::vector<ArraySpec>& mutable_specs() { return specs_; }
  int size() const { return static_cast<int>(specs_.size()); }

 private:
  std::vector<ArraySpec> specs_;
};

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace envpool

#endif  // ENVPOOL_CORE_ARRAY_H_
