#include "envpool/core/action_check.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "envpool/core/pool.h"

namespace envpool {
namespace {

// IEEE half precision, which numpy's float16 and XLA's F16 hold.
double HalfToDouble(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  double magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(mantissa, -24);
  } else if (exponent == 0x1f) {
    magnitude = mantissa != 0 ? std::numeric_limits<double>::quiet_NaN()
                              : std::numeric_limits<double>::infinity();
  } else {
    magnitude = std::ldexp(mantissa + 1024, exponent - 25);
  }
  return (bits & 0x8000) != 0 ? -magnitude : magnitude;
}

template <typename S>
S Load(const char* p) {
  S value;
  std::memcpy(&value, p, sizeof(S));
  return value;
}

// Element `i` of `data`, converted to T as static_cast converts.
template <typename T>
T ReadElement(const void* data, ElementType type, int64_t i) {
  const char* p = static_cast<const char*>(data) + i * type.size;
  switch (type.kind) {
    case 'b':
      return static_cast<T>(Load<uint8_t>(p) != 0);
    case 'i':
      switch (type.size) {
        case 1:
          return static_cast<T>(Load<int8_t>(p));
        case 2:
          return static_cast<T>(Load<int16_t>(p));
        case 4:
          return static_cast<T>(Load<int32_t>(p));
        default:
          return static_cast<T>(Load<int64_t>(p));
      }
    case 'u':
      switch (type.size) {
        case 1:
          return static_cast<T>(Load<uint8_t>(p));
        case 2:
          return static_cast<T>(Load<uint16_t>(p));
        case 4:
          return static_cast<T>(Load<uint32_t>(p));
        default:
          return static_cast<T>(Load<uint64_t>(p));
      }
    default:
      switch (type.size) {
        case 2:
          return static_cast<T>(HalfToDouble(Load<uint16_t>(p)));
        case 4:
          return static_cast<T>(Load<float>(p));
        default:
          return static_cast<T>(Load<double>(p));
      }
  }
}

ElementType ElementTypeOf(DType dtype) {
  switch (dtype) {
    case DType::kBool:
      return {'b', 1};
    case DType::kUInt8:
      return {'u', 1};
    case DType::kInt8:
      return {'i', 1};
    case DType::kInt32:
      return {'i', 4};
    case DType::kInt64:
      return {'i', 8};
    case DType::kFloat32:
      return {'f', 4};
    case DType::kFloat64:
      return {'f', 8};
  }
  return {'?', 0};
}

bool IsFloating(DType dtype) {
  return dtype == DType::kFloat32 || dtype == DType::kFloat64;
}

std::string ShapeText(const std::vector<int64_t>& shape) {
  std::string text = "(";
  for (std::size_t d = 0; d < shape.size(); ++d) {
    text += (d ? ", " : "") + std::to_string(shape[d]);
  }
  return text + (shape.size() == 1 ? ",)" : ")");
}

// Whether `shape` is lead[0..leads) followed by `tail`.
bool ShapeIs(const std::vector<int64_t>& shape, const int64_t* lead,
             std::size_t leads, const std::vector<int64_t>& tail) {
  return shape.size() == leads + tail.size() &&
         std::equal(lead, lead + leads, shape.begin()) &&
         std::equal(tail.begin(), tail.end(), shape.begin() + leads);
}

void CheckShape(const ArraySpec& spec, const std::string& task_id, int n,
                int rows_per_env, const std::vector<int64_t>& shape) {
  // Compared in place: the shapes are only built for the message.
  const int64_t rows = static_cast<int64_t>(n) * rows_per_env;
  // A one-element action may also come as one number per row: (rows,).
  const bool one_per_row =
      spec.NumElements() == 1 && shape.size() == 1 && shape[0] == rows;
  // Per-player rows may also come grouped by env: (n, rows_per_env, ...).
  const int64_t by_env_lead[2] = {n, rows_per_env};
  if (ShapeIs(shape, &rows, 1, spec.shape) || one_per_row ||
      (rows_per_env > 1 && ShapeIs(shape, by_env_lead, 2, spec.shape))) {
    return;
  }
  std::vector<int64_t> expected{rows};
  expected.insert(expected.end(), spec.shape.begin(), spec.shape.end());
  std::vector<int64_t> grouped{n, rows_per_env};
  grouped.insert(grouped.end(), spec.shape.begin(), spec.shape.end());
  if (rows_per_env > 1) {
    throw std::invalid_argument(
        "action '" + spec.name + "' of " + task_id +
        " takes one row per player: shape " + ShapeText(expected) + " for " +
        std::to_string(n) + " envs of " + std::to_string(rows_per_env) +
        " players (the actions of an env consecutive, in player order), or " +
        ShapeText(grouped) + ", got " + ShapeText(shape));
  }
  throw std::invalid_argument("action '" + spec.name + "' of " + task_id +
                              " must have shape " + ShapeText(expected) +
                              " for " + std::to_string(n) + " envs, got " +
                              ShapeText(shape) +
                              ": send one row per env (the action_space of "
                              "envpool.make's pools is one env's space, as in "
                              "EnvPool; gymnasium.make_vec('envpool/" +
                              task_id + "') has batched spaces)");
}

// Whether every value is below `bound` as an unsigned number, that is in
// 0..bound-1 for signed values: branch-free passes for the usual integer
// actions (the calling thread checks every env's action while the stepping
// threads wait for it).
template <typename S>
bool AllBelow(const void* data, int64_t total, uint64_t bound) {
  const auto* values = static_cast<const S*>(data);
  // Values whose bits together are below the bound are all below it (and
  // none negative): one OR a value, in four lanes that do not wait for one
  // another.
  uint64_t lanes[4] = {0, 0, 0, 0};
  int64_t k = 0;
  for (; k + 4 <= total; k += 4) {
    for (int j = 0; j < 4; ++j) {
      lanes[j] |= static_cast<uint64_t>(values[k + j]);
    }
  }
  for (; k < total; ++k) {
    lanes[0] |= static_cast<uint64_t>(values[k]);
  }
  if ((lanes[0] | lanes[1] | lanes[2] | lanes[3]) < bound) {
    return true;
  }
  // A negative value converts to a number above any bound.
  uint64_t above = 0;
  int64_t i = 0;
  for (; i + 8 <= total; i += 8) {
    for (int j = 0; j < 8; ++j) {
      above |=
          static_cast<uint64_t>(static_cast<uint64_t>(values[i + j]) >= bound);
    }
  }
  for (; i < total; ++i) {
    above |= static_cast<uint64_t>(static_cast<uint64_t>(values[i]) >= bound);
  }
  return above == 0;
}

// Who element `i` of the values belongs to: "env 3", or "env 3 player 1"
// with several rows per env.
std::string OwnerOf(const int* ids, int64_t i, int64_t per_row,
                    int rows_per_env) {
  const int64_t row = i / per_row;
  std::string owner = "env " + std::to_string(ids[row / rows_per_env]);
  if (rows_per_env > 1) {
    owner += " player " + std::to_string(row % rows_per_env);
  }
  return owner;
}

void CheckValues(const ArraySpec& spec, const std::string& task_id,
                 const int* ids, const ActionValues& values, int64_t total,
                 int rows_per_env) {
  const int64_t per_env = spec.NumElements();
  auto action_of = [&](int64_t i) {
    return "action for " + OwnerOf(ids, i, per_env, rows_per_env) + " is ";
  };
  const ElementType type = values.type;
  const bool floating = type.kind == 'f';
  if (IsFloating(spec.dtype)) {
    if (!floating) {
      return;
    }
    for (int64_t i = 0; i < total; ++i) {
      const double x = ReadElement<double>(values.data, type, i);
      if (!std::isfinite(x)) {
        throw std::invalid_argument(
            "action for " + OwnerOf(ids, i, per_env, rows_per_env) +
            " contains " + (std::isnan(x) ? "NaN" : PythonFloatRepr(x)) +
            " at index " + std::to_string(i % per_env) + ": " + task_id +
            " takes finite values");
      }
    }
    return;
  }
  const bool discrete = spec.num_values > 0;
  if (discrete && !floating) {
    const auto bound = static_cast<uint64_t>(spec.num_values);
    if ((type.kind == 'i' && type.size == 8 &&
         AllBelow<int64_t>(values.data, total, bound)) ||
        (type.kind == 'i' && type.size == 4 &&
         AllBelow<int32_t>(values.data, total, bound))) {
      return;
    }
  }
  if (!discrete && !floating) {
    return;
  }
  const std::string range =
      discrete ? "0.." + std::to_string(spec.num_values - 1) : std::string();
  for (int64_t i = 0; i < total; ++i) {
    if (floating) {
      const double x = ReadElement<double>(values.data, type, i);
      // Below 2**63 in magnitude, so that it converts to int64 exactly.
      if (!(std::isfinite(x) && x == std::floor(x) && std::fabs(x) < 9.0e18)) {
        throw std::invalid_argument(
            action_of(i) + PythonFloatRepr(x) + ", but " + task_id +
            " takes whole numbers" +
            (discrete ? " in " + range : std::string()));
      }
    }
    if (!discrete) {
      continue;
    }
    if (type.kind == 'u' && type.size == 8) {
      const auto v = ReadElement<uint64_t>(values.data, type, i);
      if (v >= static_cast<uint64_t>(spec.num_values)) {
        throw std::invalid_argument(action_of(i) + std::to_string(v) +
                                    ", but " + task_id + " takes " + range);
      }
      continue;
    }
    const auto v = ReadElement<int64_t>(values.data, type, i);
    if (v < 0 || v >= spec.num_values) {
      throw std::invalid_argument(action_of(i) + std::to_string(v) + ", but " +
                                  task_id + " takes " + range);
    }
  }
}

template <typename T>
void Convert(const ActionValues& values, int64_t first, int64_t count,
             void* row) {
  auto* out = static_cast<T*>(row);
  for (int64_t e = 0; e < count; ++e) {
    if constexpr (std::is_same_v<T, bool>) {
      out[e] = ReadElement<double>(values.data, values.type, first + e) != 0;
    } else {
      out[e] = ReadElement<T>(values.data, values.type, first + e);
    }
  }
}

}  // namespace

bool IsReadable(ElementType type) {
  switch (type.kind) {
    case 'b':
      return type.size == 1;
    case 'i':
    case 'u':
      return type.size == 1 || type.size == 2 || type.size == 4 ||
             type.size == 8;
    case 'f':
      return type.size == 2 || type.size == 4 || type.size == 8;
    default:
      return false;
  }
}

void CheckAction(const ArraySpec& spec, const std::string& task_id,
                 const int* ids, int n, const ActionValues& values,
                 int rows_per_env) {
  if (!IsReadable(values.type)) {
    throw std::logic_error("action values of an unreadable element type");
  }
  CheckShape(spec, task_id, n, rows_per_env, values.shape);
  CheckValues(spec, task_id, ids, values, spec.NumElements() * n * rows_per_env,
              rows_per_env);
}

namespace {

// The rows of envs ids[0..n) from `data`, kBytes each (0: `bytes` each).
// The row of the env kAhead envs on is announced for writing (prefetchw,
// which x86-64 processors without it take as a no-op): about eight lines
// ahead for the small rows of discrete actions, so that as many transfers
// from the stepping threads' caches overlap.
template <std::size_t kBytes>
__attribute__((target("prfchw"))) void CopyRows(Pool* pool, int field,
                                                const int* ids, int n,
                                                const char* data,
                                                std::size_t bytes = kBytes) {
  constexpr int kAhead = kBytes > 0 && kBytes <= 8 ? 512 / kBytes : 8;
  for (int k = 0; k < n; ++k) {
    if (k + kAhead < n) {
      __builtin_prefetch(pool->ActionRow(ids[k + kAhead], field), 1);
    }
    void* row = pool->ActionRow(ids[k], field);
    if constexpr (kBytes > 0) {
      std::memcpy(row, data + k * kBytes, kBytes);
    } else {
      std::memcpy(row, data + k * bytes, bytes);
    }
  }
}

}  // namespace

void CheckAndWriteAction(Pool* pool, int field, const int* ids, int n,
                         const ActionValues& values) {
  const ArraySpec& spec = pool->spec().action.specs()[field];
  const int rows = pool->ActionRowsPerEnv(field);
  CheckAction(spec, pool->config().task_id, ids, n, values, rows);
  // An env's rows are consecutive in the values and in the pool.
  const int64_t per_env = spec.NumElements() * rows;
  const ElementType own = ElementTypeOf(spec.dtype);
  const bool same_type =
      own.kind == values.type.kind && own.size == values.type.size;
  const std::size_t row_bytes = spec.RowBytes() * rows;
  const char* data = static_cast<const char*>(values.data);
  if (same_type && Consecutive(ids, n)) {
    // A sync step's actions: one copy (the rows of a field are contiguous).
    std::memcpy(pool->ActionRow(ids[0], field), data, n * row_bytes);
    return;
  }
  if (same_type) {
    // Each env's rows to their place (an async send's ids come in the order
    // their results did). A row is in a line the stepping thread read last,
    // so each write waits for the line to come over: the writes ahead are
    // announced, so that the transfers overlap, and the common sizes are
    // copied without a call.
    switch (row_bytes) {
      case 4:
        CopyRows<4>(pool, field, ids, n, data);
        return;
      case 8:
        CopyRows<8>(pool, field, ids, n, data);
        return;
      default:
        CopyRows<0>(pool, field, ids, n, data, row_bytes);
        return;
    }
  }
  for (int k = 0; k < n; ++k) {
    void* row = pool->ActionRow(ids[k], field);
    const int64_t first = k * per_env;
    switch (spec.dtype) {
      case DType::kBool:
        Convert<bool>(values, first, per_env, row);
        break;
      case DType::kUInt8:
        Convert<uint8_t>(values, first, per_env, row);
        break;
      case DType::kInt8:
        Convert<int8_t>(values, first, per_env, row);
        break;
      case DType::kInt32:
        Convert<int32_t>(values, first, per_env, row);
        break;
      case DType::kInt64:
        Convert<int64_t>(values, first, per_env, row);
        break;
      case DType::kFloat32:
        Convert<float>(values, first, per_env, row);
        break;
      case DType::kFloat64:
        Convert<double>(values, first, per_env, row);
        break;
    }
  }
}

std::string PythonFloatRepr(double x) {
  if (std::isnan(x)) {
    return "nan";
  }
  if (std::isinf(x)) {
    return x > 0 ? "inf" : "-inf";
  }
  // The shortest digits that read back as x, as Python's repr picks them.
  char buffer[64];
  const auto result =
      std::to_chars(buffer, buffer + sizeof(buffer), std::fabs(x),
                    std::chars_format::scientific);
  const std::string scientific(buffer, result.ptr);
  const std::size_t e = scientific.find('e');
  std::string digits = scientific.substr(0, e);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  const int exponent = std::stoi(scientific.substr(e + 1));
  const std::string sign = std::signbit(x) ? "-" : "";
  // Python writes 1e-05 and 1e+16 with an exponent, 0.0001 and
  // 1000000000000000.0 without.
  if (exponent < -4 || exponent >= 16) {
    std::string mantissa = digits.substr(0, 1);
    if (digits.size() > 1) {
      mantissa += "." + digits.substr(1);
    }
    const int magnitude = std::abs(exponent);
    return sign + mantissa + (exponent < 0 ? "e-" : "e+") +
           (magnitude < 10 ? "0" : "") + std::to_string(magnitude);
  }
  const int point = exponent + 1;  // digits before the decimal point
  const int count = static_cast<int>(digits.size());
  if (point <= 0) {
    return sign + "0." + std::string(-point, '0') + digits;
  }
  if (point < count) {
    return sign + digits.substr(0, point) + "." + digits.substr(point);
  }
  return sign + digits + std::string(point - count, '0') + ".0";
}

}  // namespace envpool
