// The Python module `envpool._core`: env types, specs and the pool.
//
// Results are returned without copies: each batch ("block") gets its numpy
// arrays once, and the same arrays are handed out again when the block is
// reused.  A block is reused only after Python has dropped every reference
// to its arrays (their reference count is back to the cache's own).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "envpool/core/action_check.h"
#include "envpool/core/env.h"
#include "envpool/core/per_env_options.h"
#include "envpool/core/plugin_loader.h"
#include "envpool/core/pool.h"
#include "envpool/core/version.h"
#include "envpool/core/xla.h"

namespace py = pybind11;

namespace envpool {
namespace {

py::dtype NumpyDType(DType dtype) { return py::dtype(DTypeName(dtype)); }

// A table's keys that are decimal integers come back as ints (ViZDoom's
// selected_weapon_reward_config {2: 0.0002}); a row of one number as that
// number, a longer row as a list.
py::object TableToPython(const OptionTable& table) {
  py::dict d;
  for (const auto& [key, row] : table) {
    // An int's key is its decimal text (TableFromPython), so a key is an
    // int exactly when it reads back as the same text.
    int64_t number = 0;
    const auto [end, error] =
        std::from_chars(key.data(), key.data() + key.size(), number);
    const bool integer = error == std::errc() &&
                         end == key.data() + key.size() &&
                         std::to_string(number) == key;
    py::object k =
        integer ? py::object(py::int_(number)) : py::object(py::str(key));
    if (row.size() == 1) {
      d[k] = py::float_(row[0]);
    } else {
      py::list values;
      for (double v : row) {
        values.append(py::float_(v));
      }
      d[k] = values;
    }
  }
  return d;
}

py::object ToPython(const OptionValue& value) {
  return std::visit(
      [](const auto& v) -> py::object {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, OptionTable>) {
          return TableToPython(v);
        } else {
          return py::cast(v);
        }
      },
      value);
}

double TableNumber(const std::string& name, const py::handle& value) {
  if (py::isinstance<py::bool_>(value) ||
      !(py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value) ||
        (py::hasattr(value, "dtype") && py::hasattr(value, "item")))) {
    throw py::type_error("option '" + name +
                         "' takes a dict of numbers or sequences of numbers, "
                         "got a value " +
                         std::string(py::repr(value)));
  }
  return value.cast<double>();
}

OptionTable TableFromPython(const std::string& name, const py::dict& dict) {
  OptionTable table;
  for (const auto& [key, value] : dict) {
    std::string k;
    if (py::isinstance<py::str>(key)) {
      k = key.cast<std::string>();
    } else if (py::isinstance<py::int_>(key) &&
               !py::isinstance<py::bool_>(key)) {
      k = std::to_string(key.cast<int64_t>());
    } else {
      throw py::type_error("option '" + name +
                           "' takes a dict with str or int keys, got the key " +
                           std::string(py::repr(key)));
    }
    std::vector<double> row;
    // A str is a sequence too: it goes to TableNumber, which refuses it.
    if (py::isinstance<py::sequence>(value) &&
        !py::isinstance<py::str>(value) && !py::hasattr(value, "item")) {
      for (const auto& item : value.cast<py::sequence>()) {
        row.push_back(TableNumber(name, item));
      }
    } else if (py::hasattr(value, "tolist") && py::hasattr(value, "ndim") &&
               value.attr("ndim").cast<int>() == 1) {
      for (const auto& item : value.attr("tolist")().cast<py::sequence>()) {
        row.push_back(TableNumber(name, item));
      }
    } else {
      row.push_back(TableNumber(name, value));
    }
    table[k] = std::move(row);
  }
  return table;
}

// A list or tuple of ints (Python's or numpy's integers, not bools), or a
// 1-d integer numpy array: a list option.
OptionInts IntsFromPython(const std::string& name, const py::handle& value) {
  py::object items = py::reinterpret_borrow<py::object>(value);
  if (py::hasattr(value, "tolist") && py::hasattr(value, "ndim")) {
    if (value.attr("ndim").cast<int>() != 1) {
      throw py::type_error("option '" + name +
                           "' takes a list of ints, got an array of shape " +
                           std::string(py::str(value.attr("shape"))));
    }
    items = value.attr("tolist")();
  }
  OptionInts ints;
  for (const auto& item : items.cast<py::sequence>()) {
    const bool integer =
        !py::isinstance<py::bool_>(item) &&
        (py::isinstance<py::int_>(item) ||
         (py::hasattr(item, "dtype") && py::hasattr(item, "item") &&
          py::isinstance<py::int_>(item.attr("item")())));
    if (!integer) {
      throw py::type_error("option '" + name + "' takes a list of ints, got " +
                           std::string(py::repr(value)));
    }
    ints.push_back(item.cast<int64_t>());
  }
  return ints;
}

// A list or tuple of str, or a 1-d numpy array of them: a list-of-names
// option (its default is an OptionStrings).
OptionStrings StringsFromPython(const std::string& name,
                                const py::handle& value) {
  py::object items = py::reinterpret_borrow<py::object>(value);
  if (py::hasattr(value, "tolist") && py::hasattr(value, "ndim")) {
    if (value.attr("ndim").cast<int>() != 1) {
      throw py::type_error("option '" + name +
                           "' takes a list of str, got an array of shape " +
                           std::string(py::str(value.attr("shape"))));
    }
    items = value.attr("tolist")();
  }
  OptionStrings names;
  for (const auto& item : items.cast<py::sequence>()) {
    if (!py::isinstance<py::str>(item)) {
      throw py::type_error("option '" + name + "' takes a list of str, got " +
                           std::string(py::repr(value)));
    }
    names.push_back(item.cast<std::string>());
  }
  return names;
}

bool IsSequence(const py::handle& value) {
  return py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value) ||
         (py::hasattr(value, "ndim") && py::hasattr(value, "tolist") &&
          value.attr("ndim").cast<int>() > 0);
}

OptionValue FromPython(const std::string& name, const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) {
    return value.cast<bool>();
  }
  if (py::isinstance<py::int_>(value)) {
    return value.cast<int64_t>();
  }
  if (py::isinstance<py::float_>(value)) {
    return value.cast<double>();
  }
  if (py::isinstance<py::str>(value)) {
    return value.cast<std::string>();
  }
  if (py::isinstance<py::dict>(value)) {
    return TableFromPython(name, value.cast<py::dict>());
  }
  if (IsSequence(value)) {
    return IntsFromPython(name, value);
  }
  // numpy scalars
  if (py::hasattr(value, "dtype") && py::hasattr(value, "item")) {
    return FromPython(name, value.attr("item")());
  }
  throw py::type_error(
      "option '" + name + "' has unsupported type " +
      std::string(py::str(py::type::handle_of(value).attr("__name__"))));
}

const OptionValue& ValueOf(const Options& options, const std::string& name) {
  for (const auto& [key, value] : options.items()) {
    if (key == name) {
      return value;
    }
  }
  throw std::invalid_argument("unknown option '" + name + "'");
}

// A list, tuple or 1-d array given for a bool, int or float option: one
// value per env (per_env_options.h).
bool IsPerEnv(const Options& options, const std::string& name,
              const py::handle& value) {
  const bool sequence =
      py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value) ||
      (py::hasattr(value, "ndim") && py::hasattr(value, "tolist") &&
       value.attr("ndim").cast<int>() == 1);
  if (!sequence) {
    return false;
  }
  if (!options.Has(name)) {
    return false;
  }
  const OptionValue& default_value = ValueOf(options, name);
  return std::holds_alternative<bool>(default_value) ||
         std::holds_alternative<int64_t>(default_value) ||
         std::holds_alternative<double>(default_value);
}

// The options of `type` with `overrides`; where `per_env` is given, a
// sequence for a bool, int or float option goes there (the options keep
// env 0's value).
Options ToOptions(const EnvClass& type, const py::dict& overrides,
                  PerEnvOptions* per_env = nullptr) {
  Options options = type.defaults;
  for (const auto& [key, value] : overrides) {
    std::string name = key.cast<std::string>();
    try {
      if (per_env != nullptr && IsPerEnv(options, name, value)) {
        py::object items = py::reinterpret_borrow<py::object>(value);
        if (py::hasattr(value, "tolist")) {
          items = value.attr("tolist")();
        }
        std::vector<OptionValue> values;
        for (const auto& item : items.cast<py::sequence>()) {
          // Set checks the type (and makes an int a float where it must).
          options.Set(name, FromPython(name, item));
          values.push_back(ValueOf(options, name));
        }
        if (values.empty()) {
          throw std::invalid_argument("option '" + name +
                                      "' was given no value");
        }
        options.Set(name, values.front());
        (*per_env)[name] = std::move(values);
        continue;
      }
      // A list option's items are read as its default's: names or ints.
      if (options.Has(name) &&
          std::holds_alternative<OptionStrings>(ValueOf(options, name)) &&
          IsSequence(value)) {
        options.Set(name, StringsFromPython(name, value));
      } else {
        options.Set(name, FromPython(name, value));
      }
    } catch (const std::invalid_argument& e) {
      throw py::type_error(e.what());
    }
  }
  return options;
}

py::dict DescribeArray(const ArraySpec& spec) {
  py::dict d;
  d["name"] = spec.name;
  d["dtype"] = DTypeName(spec.dtype);
  d["shape"] = py::tuple(py::cast(spec.shape));
  d["low"] = spec.low;
  d["high"] = spec.high;
  d["num_values"] = spec.num_values;
  d["per_player"] = spec.per_player;
  d["binary"] = spec.binary;
  return d;
}

py::dict Describe(const EnvSpec& spec) {
  py::list state;
  py::list action;
  for (const auto& a : spec.state.specs()) {
    py::dict array = DescribeArray(a);
    if (spec.max_num_players <= 1) {
      array["per_player"] = false;  // one player: a row per env (pool.cc)
    }
    state.append(array);
  }
  for (const auto& a : spec.action.specs()) {
    action.append(DescribeArray(a));
  }
  py::dict d;
  d["state"] = state;
  d["action"] = action;
  d["reward_dtype"] = DTypeName(spec.reward_dtype);
  d["max_num_players"] = spec.max_num_players;
  d["render_modes"] = py::cast(spec.render_modes);
  d["render_width"] = spec.render_width;
  d["render_height"] = spec.render_height;
  d["render_fps"] = spec.render_fps;
  d["snapshots"] = spec.snapshots;
  return d;
}

// Reads element `i` of a numpy buffer of the given kind and size.
template <typename T>
T ReadElement(const char* data, char kind, int size, int64_t i) {
  const char* p = data + i * size;
  switch (kind) {
    case 'b':
      return static_cast<T>(*reinterpret_cast<const bool*>(p));
    case 'i':
      switch (size) {
        case 1:
          return static_cast<T>(*reinterpret_cast<const int8_t*>(p));
        case 2:
          return static_cast<T>(*reinterpret_cast<const int16_t*>(p));
        case 4:
          return static_cast<T>(*reinterpret_cast<const int32_t*>(p));
        default:
          return static_cast<T>(*reinterpret_cast<const int64_t*>(p));
      }
    case 'u':
      switch (size) {
        case 1:
          return static_cast<T>(*reinterpret_cast<const uint8_t*>(p));
        case 2:
          return static_cast<T>(*reinterpret_cast<const uint16_t*>(p));
        case 4:
          return static_cast<T>(*reinterpret_cast<const uint32_t*>(p));
        default:
          return static_cast<T>(*reinterpret_cast<const uint64_t*>(p));
      }
    default:
      if (size == 4) {
        return static_cast<T>(*reinterpret_cast<const float*>(p));
      }
      return static_cast<T>(*reinterpret_cast<const double*>(p));
  }
}

// '=' native, '|' not applicable, '<' / '>' explicit (native when it is
// this machine's order).
bool IsNativeByteOrder(const py::dtype& dtype) {
  const char order = dtype.byteorder();
  constexpr char kNative =
      __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? '<' : '>';
  return order == '=' || order == '|' || order == kNative;
}

class PyPool {
 public:
  PyPool(const std::string& class_name, const py::dict& overrides,
         const std::string& task_id, int num_envs, int batch_size,
         int num_threads, int thread_affinity_offset,
         std::vector<uint64_t> seeds, int autoreset_mode,
         bool episode_statistics) {
    const EnvClass& type = FindEnvClass(class_name);
    PerEnvOptions per_env;
    Options options = ToOptions(type, overrides, &per_env);
    PoolConfig config;
    config.task_id = task_id;
    config.num_envs = num_envs;
    config.batch_size = batch_size;
    config.num_threads = num_threads;
    config.thread_affinity_offset = thread_affinity_offset;
    config.seeds = std::move(seeds);
    config.autoreset_mode = static_cast<AutoresetMode>(autoreset_mode);
    config.episode_statistics = episode_statistics;
    config.max_episode_steps = options.Get<int64_t>("max_episode_steps");
    {
      py::gil_scoped_release release;
      pool_ = std::make_unique<Pool>(
          PrepareEnvs(type, options, per_env, num_envs), std::move(config));
    }
    const BlockLayout& layout = pool_->layout();
    for (int c = 0; c < layout.num_state; ++c) {
      const std::string& name = layout.columns[c].name;
      if (name.rfind("info:", 0) == 0) {
        state_keys_.push_back(py::str(name.substr(5)));
        state_is_obs_.push_back(false);
      } else if (name.rfind("obs:", 0) == 0) {
        // "obs:achieved_goal:kettle" is obs["achieved_goal"]["kettle"]
        // (envpool/python/keys.py, obs_path): the last part is the key, the
        // ones before it the dicts that hold it.
        std::vector<py::str> dicts;
        std::size_t start = 4;
        for (std::size_t colon = name.find(':', start);
             colon != std::string::npos; colon = name.find(':', start)) {
          dicts.emplace_back(name.substr(start, colon - start));
          start = colon + 1;
        }
        state_keys_.push_back(py::str(name.substr(start)));
        state_is_obs_.push_back(true);
        obs_is_dict_ = true;
        obs_dicts_.resize(c + 1);
        obs_dicts_[c] = std::move(dicts);
      } else {
        state_keys_.push_back(py::str(name));
        state_is_obs_.push_back(true);
      }
    }
    const int n = pool_->config().num_envs;
    all_ids_.resize(n);
    std::iota(all_ids_.begin(), all_ids_.end(), 0);
    key_env_id_ = py::str("env_id");
    key_elapsed_ = py::str("elapsed_step");
    key_players_ = py::str("players");
    key_id_ = py::str("id");
    key_final_ = py::str("_envpool_final");
  }

  ~PyPool() {
    if (pool_ && pool_->forked_away()) {
      // Made in the process this one was forked from: its threads and locks
      // are that process's, and it is left as it is (Pool::forked_away).
      static_cast<void>(pool_.release());
      return;
    }
    Close();
  }

  void Close() {
    // Pool::Close does nothing in a process forked away from the pool.
    if (pool_ && !pool_->closed()) {
      py::gil_scoped_release release;
      pool_->Close();
    }
  }

  void Send(const py::handle& action, py::handle env_id) {
    CheckOpen();
    if (env_id.is_none() && PyDict_Check(action.ptr())) {
      // EnvPool's dict action may carry the env ids: {"action": a,
      // "env_id": ids} ("env_id" and "players.env_id" are not fields).
      PyObject* ids = PyDict_GetItemWithError(action.ptr(), key_env_id_.ptr());
      if (ids == nullptr && PyErr_Occurred() != nullptr) {
        throw py::error_already_set();
      }
      if (ids != nullptr) {
        env_id = ids;
      }
    }
    const int* ids = nullptr;
    int n = 0;
    ParseEnvIds(env_id, &ids, &n);
    const uint64_t checked_at = pool_->sendable_epoch();
    if (!LastBatchSentBack(ids, n, checked_at)) {
      pool_->CheckSendable(ids, n, false);
    }
    const auto& fields = pool_->spec().action.specs();
    if (fields.size() == 1 && !py::isinstance<py::dict>(action)) {
      WriteAction(0, action, ids, n);
    } else {
      if (!py::isinstance<py::dict>(action)) {
        throw py::type_error("the action of " + pool_->config().task_id +
                             " is a dict of arrays");
      }
      py::dict d = py::reinterpret_borrow<py::dict>(action);
      // Validate every field before writing any, so nothing is stepped on
      // error.
      for (std::size_t f = 0; f < fields.size(); ++f) {
        if (!d.contains(fields[f].name)) {
          throw py::value_error("action is missing '" + fields[f].name + "'");
        }
      }
      for (std::size_t f = 0; f < fields.size(); ++f) {
        WriteAction(static_cast<int>(f), d[py::str(fields[f].name)], ids, n);
      }
    }
    SendReleasingTheGil(ids, n, false, nullptr, checked_at);
  }

  void Reset(const py::handle& env_id, const py::handle& seeds) {
    CheckOpen();
    const int* ids = nullptr;
    int n = 0;
    if (env_id.is_none()) {
      ids = all_ids_.data();
      n = static_cast<int>(all_ids_.size());
    } else {
      ParseEnvIds(env_id, &ids, &n);
    }
    if (seeds.is_none()) {
      SendReleasingTheGil(ids, n, true, nullptr);
      return;
    }
    auto seed_list = seeds.cast<std::vector<uint64_t>>();
    if (static_cast<int>(seed_list.size()) != n) {
      throw py::value_error("reset got " + std::to_string(seed_list.size()) +
                            " seeds for " + std::to_string(n) + " envs");
    }
    SendReleasingTheGil(ids, n, true, seed_list.data());
  }

  py::tuple Recv() {
    CheckOpen();
    // A signal that came while the GIL was released (in a send that stepped
    // its envs on this thread, say) is raised here, before the batch is
    // taken: it stays for a later recv.
    if (PyErr_CheckSignals() != 0) {
      throw py::error_already_set();
    }
    std::shared_ptr<Block> block;
    // Read before the batch is taken: a send that comes after it moves it.
    uint64_t epoch = pool_->sendable_epoch();
    block = pool_->TryRecv();
    if (!block) {
      // Wait without the GIL, looking at Python's signals now and then, so
      // that Ctrl-C interrupts a long wait (the batch stays for a later
      // recv). The caller steps no env whose step is estimated above
      // Scheduler::kCallerStepLimitNs, so Ctrl-C is taken within about
      // kSignalCheckNs plus that.
      constexpr int64_t kSignalCheckNs = 50'000'000;
      while (true) {
        {
          py::gil_scoped_release release;
          epoch = pool_->sendable_epoch();
          block = pool_->Recv(kSignalCheckNs);
        }
        if (block) {
          break;
        }
        if (PyErr_CheckSignals() != 0) {
          throw py::error_already_set();
        }
      }
    }
    return Package(block, epoch);
  }

  py::tuple Step(const py::handle& action, py::handle env_id) {
    Send(action, env_id);
    return Recv();
  }

  // Frames of the given envs, (n, height, width, 3) uint8, drawn with the
  // GIL released into a new array (the caller may keep it).
  py::array Render(const py::handle& env_id, int camera_id) {
    CheckOpen();
    const EnvSpec& spec = pool_->spec();
    if (spec.render_width <= 0 || spec.render_height <= 0) {
      throw py::value_error(pool_->config().task_id +
                            " has no rgb_array rendering");
    }
    const int* ids = nullptr;
    int n = 0;
    ParseEnvIds(env_id, &ids, &n);
    std::vector<int> chosen(ids, ids + n);
    py::array_t<uint8_t> frames({static_cast<py::ssize_t>(n),
                                 static_cast<py::ssize_t>(spec.render_height),
                                 static_cast<py::ssize_t>(spec.render_width),
                                 py::ssize_t{3}});
    uint8_t* data = frames.mutable_data();
    {
      py::gil_scoped_release release;
      pool_->Render(chosen.data(), n, camera_id, data);
    }
    return frames;
  }
  std::string RenderText(int env_id) {
    CheckOpen();
    return pool_->RenderText(env_id);
  }

  // Snapshots (Pool::GetState/SetState), one bytes object per env.
  py::list SaveStates(const py::handle& env_id) {
    CheckOpen();
    const int* ids = nullptr;
    int n = 0;
    ParseEnvIds(env_id, &ids, &n);
    std::vector<int> chosen(ids, ids + n);
    std::vector<std::string> states;
    {
      py::gil_scoped_release release;
      states = pool_->GetState(chosen.data(), n);
    }
    py::list out;
    for (const std::string& state : states) {
      out.append(py::bytes(state));
    }
    return out;
  }
  void LoadStates(const py::handle& env_id, const py::list& states) {
    CheckOpen();
    const int* ids = nullptr;
    int n = 0;
    ParseEnvIds(env_id, &ids, &n);
    std::vector<int> chosen(ids, ids + n);
    std::vector<std::string> data;
    data.reserve(states.size());
    for (const py::handle& state : states) {
      if (!py::isinstance<py::bytes>(state)) {
        throw py::type_error("a state's data must be bytes");
      }
      data.push_back(state.cast<std::string>());
    }
    py::gil_scoped_release release;
    pool_->SetState(chosen.data(), n, data);
  }

  std::vector<double> GetState(int env_id) {
    CheckOpen();
    return pool_->GetEnvState(env_id);
  }
  void SetState(int env_id, const std::vector<double>& state) {
    CheckOpen();
    pool_->SetEnvState(env_id, state);
  }

  // The native pool's address, the attribute of the XLA custom calls.
  int64_t address() const {
    CheckOpen();
    return reinterpret_cast<int64_t>(pool_.get());
  }

  int num_threads() const { return pool_->num_threads(); }
  int64_t step_cost_ns() const { return pool_->step_cost_ns(); }
  int num_blocks() const { return static_cast<int>(cache_.size()); }
  bool closed() const { return !pool_ || pool_->closed(); }

 private:
  struct BlockArrays {
    std::shared_ptr<Block> block;
    std::vector<py::array> arrays;
    // The batch of a full block as Package first built it: later batches
    // of the block are copies of its dicts (see CopyDicts), the arrays
    // shared. None until a full batch of the block has been handed out.
    py::object whole;
    // References to each array that this entry holds (the list, and the
    // dicts of `whole`): an array with more is still the user's.
    std::vector<Py_ssize_t> own_refs;
  };

  // Send steps cheap envs on the calling thread. Work that may take longer
  // than a few microseconds (or whose cost is not known yet: the first
  // send, a reset) runs without the GIL, so other Python threads go on.
  void SendReleasingTheGil(const int* ids, int n, bool reset,
                           const uint64_t* seeds,
                           uint64_t checked_at = Pool::kUnchecked) {
    constexpr int64_t kHoldGilBelowNs = 5000;
    const int64_t cost = pool_->step_cost_ns();
    if (reset || cost == 0 || cost * n >= kHoldGilBelowNs) {
      // Another Python thread may use this object meanwhile: the ids and
      // seeds are ours for the call (all_ids_ never changes, and
      // ParseEnvIds's buffer is this thread's).
      std::vector<int> own_ids;
      if (ids == last_ids_.data()) {
        own_ids.assign(ids, ids + n);
        ids = own_ids.data();
      }
      std::vector<uint64_t> own_seeds;
      if (seeds != nullptr) {
        own_seeds.assign(seeds, seeds + n);
      }
      py::gil_scoped_release release;
      pool_->Send(ids, n, reset, seeds != nullptr ? own_seeds.data() : nullptr,
                  checked_at);
    } else {
      pool_->Send(ids, n, reset, seeds, checked_at);
    }
  }

  // Whether a step's ids are the envs of the last batch received, with
  // nothing sent or loaded since its recv (the sendable epoch read before
  // that batch was taken, `epoch` now): the async loop's
  // send(action, info["env_id"]). Those envs are in range, distinct and out
  // of flight, all that CheckSendable asks of them but with autoreset off,
  // where an env whose episode ended must be reset first.
  bool LastBatchSentBack(const int* ids, int n, uint64_t epoch) const {
    return epoch == last_ids_epoch_ && n > 0 &&
           static_cast<std::size_t>(n) == last_ids_.size() &&
           !pool_->RefusesEnded(false) &&
           std::memcmp(ids, last_ids_.data(), n * sizeof(int)) == 0;
  }

  void CheckOpen() const {
    if (!pool_ || pool_->closed()) {
      throw std::runtime_error("this env pool is closed");
    }
    if (pool_->forked_away()) {
      throw std::runtime_error(Pool::ForkedAwayMessage());
    }
  }

  void ParseEnvIds(const py::handle& env_id, const int** ids, int* n) {
    if (env_id.is_none()) {
      if (pool_->is_sync()) {
        *ids = all_ids_.data();
        *n = static_cast<int>(all_ids_.size());
      } else {
        // Async: the envs of the last batch received.
        *ids = last_ids_.data();
        *n = static_cast<int>(last_ids_.size());
        if (*n == 0) {
          throw py::value_error("send() needs env_id before the first recv()");
        }
      }
      return;
    }
    py::array arr = py::array::ensure(env_id);
    if (!arr) {
      throw py::type_error("env_id must be an integer array");
    }
    const py::dtype dtype = arr.dtype();
    char kind = dtype.kind();
    // An empty list is an empty float64 array to numpy: no ids, whatever
    // its dtype.
    if (arr.size() == 0) {
      *ids = nullptr;
      *n = 0;
      return;
    }
    if (kind != 'i' && kind != 'u') {
      throw py::type_error("env_id must hold integers, got dtype " +
                           std::string(py::str(dtype)));
    }
    if (arr.ndim() > 1) {
      throw py::value_error("env_id must be one-dimensional");
    }
    // Ids in the other byte order are read as their values, as actions are
    // (see WriteAction).
    if (!IsNativeByteOrder(dtype)) {
      arr = arr.attr("astype")(dtype.attr("newbyteorder")("="));
    }
    arr = py::array::ensure(arr, py::array::c_style);
    int64_t count = arr.size();
    // This thread's: a send keeps its ids while another Python thread uses
    // this object (the GIL released), without a copy of them.
    thread_local std::vector<int> id_buffer;
    id_buffer.resize(count);
    const char* data = static_cast<const char*>(arr.data());
    int size = static_cast<int>(arr.itemsize());
    if (kind == 'i' && size == sizeof(int32_t)) {
      // The dtype of the env_id a batch hands out: copied, and checked
      // without a branch per id; the loop below finds the error to raise.
      if (count > 0) {
        std::memcpy(id_buffer.data(), data, count * sizeof(int32_t));
      }
      unsigned out_of_range = 0;
      const auto num_envs = static_cast<unsigned>(pool_->config().num_envs);
      for (int64_t i = 0; i < count; ++i) {
        out_of_range |= static_cast<unsigned>(
            static_cast<unsigned>(id_buffer[i]) >= num_envs);
      }
      if (out_of_range == 0) {
        *ids = id_buffer.data();
        *n = static_cast<int>(count);
        return;
      }
    }
    const int num_envs = pool_->config().num_envs;
    const auto out_of_range = [&](const std::string& value) {
      return py::value_error(pool_->OutOfRangeMessage(value));
    };
    for (int64_t i = 0; i < count; ++i) {
      // Unsigned ids as unsigned: 2**64 - 1 is not -1.
      if (kind == 'u') {
        const auto value = ReadElement<uint64_t>(data, kind, size, i);
        if (value >= static_cast<uint64_t>(num_envs)) {
          throw out_of_range(std::to_string(value));
        }
        id_buffer[i] = static_cast<int>(value);
      } else {
        const auto value = ReadElement<int64_t>(data, kind, size, i);
        if (static_cast<uint64_t>(value) >= static_cast<uint64_t>(num_envs)) {
          throw out_of_range(std::to_string(value));
        }
        id_buffer[i] = static_cast<int>(value);
      }
    }
    *ids = id_buffer.data();
    *n = static_cast<int>(count);
  }

  // Converts `value` to a native, C-contiguous array of a readable type;
  // its shape and values are checked (and written) by the routine the XLA
  // custom call uses too (action_check.h).
  void WriteAction(int field, const py::handle& value, const int* ids, int n) {
    const ArraySpec& spec = pool_->spec().action.specs()[field];
    // (Not a default-constructed py::array, which is a new empty array.)
    py::array arr = py::isinstance<py::array>(value)
                        ? py::reinterpret_borrow<py::array>(value)
                        : py::array::ensure(value);
    if (!arr) {
      throw py::type_error("action '" + spec.name + "' must be array-like");
    }
    char kind = arr.dtype().kind();
    // Floats are accepted for integer actions when every value is a whole
    // number (EnvPool's examples send np.ones(n)); CheckAction checks.
    bool castable = kind == 'b' || kind == 'i' || kind == 'u' || kind == 'f';
    if (!castable) {
      throw py::type_error("action '" + spec.name + "' of dtype " +
                           std::string(py::str(arr.dtype())) +
                           " cannot be cast safely to " +
                           DTypeName(spec.dtype));
    }
    ElementType type{kind, static_cast<int>(arr.itemsize())};
    if (!IsReadable(type)) {
      // long double: read as float64, as numpy would cast it.
      arr = arr.attr("astype")("float64");
      type = ElementType{'f', 8};
    }
    // Non-native byte order and non-contiguous layouts are converted, values
    // preserved, as np.ascontiguousarray(a, native dtype) would.
    if (!IsNativeByteOrder(arr.dtype())) {
      arr = arr.attr("astype")(arr.dtype().attr("newbyteorder")("="));
    }
    if (!(arr.flags() & py::array::c_style)) {
      arr = py::array::ensure(arr, py::array::c_style);
    }
    ActionValues values;
    values.type = type;
    values.data = arr.data();
    values.shape.assign(arr.shape(), arr.shape() + arr.ndim());
    CheckAndWriteAction(pool_.get(), field, ids, n, values);
  }

  // Blocks handed to Python go back to the pool once only the cache still
  // refers to their arrays.
  void ReleaseUnused() {
    for (std::size_t i = 0; i < handed_out_.size();) {
      BlockArrays& entry = cache_[handed_out_[i]];
      bool unused = true;
      for (std::size_t a = 0; a < entry.arrays.size(); ++a) {
        if (Py_REFCNT(entry.arrays[a].ptr()) > entry.own_refs[a]) {
          unused = false;
          break;
        }
      }
      if (unused) {
        pool_->Release(handed_out_[i]);
        handed_out_[i] = handed_out_.back();
        handed_out_.pop_back();
      } else {
        ++i;
      }
    }
  }

  BlockArrays& ArraysOf(const std::shared_ptr<Block>& block) {
    int id = block->id();
    if (id >= static_cast<int>(cache_.size())) {
      cache_.resize(id + 1);
    }
    BlockArrays& entry = cache_[id];
    if (entry.block == block) {
      return entry;
    }
    entry.block = block;
    entry.arrays.clear();
    entry.whole = py::object();
    py::object owner = py::cast(block);
    const BlockLayout& layout = pool_->layout();
    for (const ArraySpec& column : layout.columns) {
      int rows = column.per_player ? block->capacity() * layout.rows_per_env
                                   : block->capacity();
      std::vector<py::ssize_t> shape{rows};
      shape.insert(shape.end(), column.shape.begin(), column.shape.end());
      int c = static_cast<int>(entry.arrays.size());
      entry.arrays.emplace_back(NumpyDType(column.dtype), shape,
                                block->Column(c), owner);
    }
    entry.own_refs.assign(entry.arrays.size(), 1);
    return entry;
  }

  py::object Rows(const py::array& full, int rows, bool partial) {
    if (!partial) {
      return full;
    }
    return full[py::slice(0, rows, 1)];
  }

  // `epoch`: the sendable epoch read before the batch was taken.
  py::tuple Package(const std::shared_ptr<Block>& block, uint64_t epoch) {
    ReleaseUnused();
    BlockArrays& entry = ArraysOf(block);
    handed_out_.push_back(block->id());
    const BlockLayout& layout = pool_->layout();
    int n = block->target();
    bool partial = n != block->capacity();
    int player_rows = block->player_rows();
    bool player_partial =
        layout.rows_per_env > 1 &&
        player_rows != block->capacity() * layout.rows_per_env;
    if (!pool_->is_sync()) {
      // A send without env_id goes to these envs. (Sync: to all, and the
      // env_id column, written on the stepping threads' cores, is not read.)
      const int32_t* ids =
          static_cast<const int32_t*>(block->Column(layout.env_id));
      last_ids_.assign(ids, ids + n);
      last_ids_epoch_ = epoch;
    }
    const bool whole = !partial && !player_partial;
    if (whole && entry.whole) {
      return CopyDicts(entry.whole);
    }
    py::tuple batch =
        Build(entry, block, n, partial, player_rows, player_partial);
    if (whole) {
      // Kept, and handed out as copies: dicts built a key at a time cost
      // more than the rest of a recv of cheap envs.
      entry.whole = batch;
      for (std::size_t a = 0; a < entry.arrays.size(); ++a) {
        entry.own_refs[a] = Py_REFCNT(entry.arrays[a].ptr());
      }
      return CopyDicts(batch);
    }
    return batch;
  }

  // A copy of `value` where it is a dict, and of every dict within it; a
  // tuple's items likewise (in a new tuple). Other values are shared.
  static py::object CopyDicts(const py::handle& value) {
    if (PyTuple_CheckExact(value.ptr())) {
      const Py_ssize_t size = PyTuple_GET_SIZE(value.ptr());
      py::tuple copy(size);
      for (Py_ssize_t i = 0; i < size; ++i) {
        PyTuple_SET_ITEM(
            copy.ptr(), i,
            CopyDicts(PyTuple_GET_ITEM(value.ptr(), i)).release().ptr());
      }
      return std::move(copy);
    }
    if (!PyDict_CheckExact(value.ptr())) {
      return py::reinterpret_borrow<py::object>(value);
    }
    py::object copy =
        py::reinterpret_steal<py::object>(PyDict_Copy(value.ptr()));
    if (!copy) {
      throw py::error_already_set();
    }
    // Replacing the value of a key during the walk leaves it valid.
    Py_ssize_t pos = 0;
    PyObject* key = nullptr;
    PyObject* item = nullptr;
    while (PyDict_Next(copy.ptr(), &pos, &key, &item)) {
      if (PyDict_CheckExact(item)) {
        py::object inner = CopyDicts(item);
        if (PyDict_SetItem(copy.ptr(), key, inner.ptr()) != 0) {
          throw py::error_already_set();
        }
      }
    }
    return copy;
  }

  // The batch of `block`'s first n rows (player_rows of the per-player
  // columns): new dicts holding the block's arrays, or views of their
  // first rows where the block is partial.
  py::tuple Build(BlockArrays& entry, const std::shared_ptr<Block>& block,
                  int n, bool partial, int player_rows, bool player_partial) {
    const BlockLayout& layout = pool_->layout();
    auto column = [&](int c) {
      bool per_player = layout.columns[c].per_player;
      return per_player ? Rows(entry.arrays[c], player_rows, player_partial)
                        : Rows(entry.arrays[c], n, partial);
    };
    py::object obs;
    py::dict obs_dict;
    // EnvPool's order: env_id, players, the env's own keys, elapsed_step.
    py::dict info;
    py::object env_ids = column(layout.env_id);
    info[key_env_id_] = env_ids;
    py::dict players;
    players[key_env_id_] =
        layout.players_env_id >= 0 ? column(layout.players_env_id) : env_ids;
    if (layout.players_id >= 0) {
      players[key_id_] = column(layout.players_id);
    }
    info[key_players_] = players;
    for (int c = 0; c < layout.num_state; ++c) {
      if (!state_is_obs_[c]) {
        info[state_keys_[c]] = column(c);
      } else if (obs_is_dict_) {
        py::dict holder = obs_dict;
        if (c < static_cast<int>(obs_dicts_.size())) {
          for (const py::str& key : obs_dicts_[c]) {
            if (!holder.contains(key)) {
              holder[key] = py::dict();
            }
            holder = holder[key].cast<py::dict>();
          }
        }
        holder[state_keys_[c]] = column(c);
      } else {
        obs = column(c);
      }
    }
    if (obs_is_dict_) {
      obs = obs_dict;
    }
    info[key_elapsed_] = column(layout.elapsed_step);
    if (layout.episode_mask >= 0) {
      // gymnasium's RecordEpisodeStatistics layout: info["episode"]["r"],
      // ["l"], and the mask info["_episode"].
      py::dict episode;
      episode["r"] = column(layout.episode_return);
      episode["l"] = column(layout.episode_length);
      info["episode"] = episode;
      info["_episode"] = column(layout.episode_mask);
    }
    if (layout.final_mask >= 0) {
      py::dict final_state;
      for (int c = 0; c < layout.num_state; ++c) {
        final_state[py::str(layout.columns[c].name)] =
            column(layout.final_state + c);
      }
      final_state["elapsed_step"] = column(layout.final_elapsed_step);
      final_state["mask"] = column(layout.final_mask);
      info[key_final_] = final_state;
    }
    return py::make_tuple(obs, column(layout.reward), column(layout.terminated),
                          column(layout.truncated), info);
  }

  std::unique_ptr<Pool> pool_;
  std::vector<py::str> state_keys_;
  std::vector<bool> state_is_obs_;
  // Per state column: the keys of the dicts that hold it in a nested dict
  // observation (empty for a key of the outer dict; shorter than the
  // columns when the last ones are not obs).
  std::vector<std::vector<py::str>> obs_dicts_;
  bool obs_is_dict_ = false;
  std::vector<int> all_ids_;
  std::vector<int> last_ids_;
  uint64_t last_ids_epoch_ = Pool::kUnchecked;
  std::vector<BlockArrays> cache_;
  std::vector<int> handed_out_;
  py::str key_env_id_;
  py::str key_elapsed_;
  py::str key_players_;
  py::str key_id_;
  py::str key_final_;
};

// A 1-D, C-contiguous array of `length` elements (any length where -1) of
// the native type `kind`/`size`: its data, else null.
const void* DataOfVector(const py::handle& value, char kind, int size,
                         py::ssize_t length) {
  if (!py::isinstance<py::array>(value)) {
    return nullptr;
  }
  const auto array = py::reinterpret_borrow<py::array>(value);
  if (array.ndim() != 1 || (length >= 0 && array.shape(0) != length) ||
      array.dtype().kind() != kind || array.itemsize() != size ||
      (array.flags() & py::array::c_style) == 0 ||
      !IsNativeByteOrder(array.dtype())) {
    return nullptr;
  }
  return array.data();
}

// A dm TimeStep's step_type and discount of a stepped batch, in one pass:
// step_type (int32) LAST where terminated or truncated, else FIRST where
// elapsed_step is 0, else MID (dm_env.StepType: FIRST 0, MID 1, LAST 2);
// discount (float32) 0 where terminated, else `discount` (a family's, as
// Atari's zero_discount_on_life_loss writes it) or 1 where None. Each numpy
// operation on a small batch costs about as much as a recv, and the general
// form takes six. None where the arrays are not what a pool hands out (1-D
// of one length: bool, bool, int32, and float32 or None): the caller then
// takes the general form.
py::object DmStepFields(const py::handle& terminated,
                        const py::handle& truncated,
                        const py::handle& elapsed_step,
                        const py::handle& discount) {
  const auto* ended =
      static_cast<const bool*>(DataOfVector(terminated, 'b', 1, -1));
  if (ended == nullptr) {
    return py::none();
  }
  const py::ssize_t n = py::reinterpret_borrow<py::array>(terminated).shape(0);
  const auto* cut =
      static_cast<const bool*>(DataOfVector(truncated, 'b', 1, n));
  const auto* elapsed =
      static_cast<const int32_t*>(DataOfVector(elapsed_step, 'i', 4, n));
  const float* kept = nullptr;
  if (!discount.is_none()) {
    kept = static_cast<const float*>(DataOfVector(discount, 'f', 4, n));
    if (kept == nullptr) {
      return py::none();
    }
  }
  if (cut == nullptr || elapsed == nullptr) {
    return py::none();
  }
  constexpr int32_t kFirst = 0;
  constexpr int32_t kMid = 1;
  constexpr int32_t kLast = 2;
  py::array_t<int32_t> step_type(n);
  py::array_t<float> discounts(n);
  int32_t* types = step_type.mutable_data();
  float* values = discounts.mutable_data();
  for (py::ssize_t k = 0; k < n; ++k) {
    types[k] = ended[k] || cut[k] ? kLast : (elapsed[k] == 0 ? kFirst : kMid);
    values[k] = ended[k] ? 0.0F : (kept != nullptr ? kept[k] : 1.0F);
  }
  return py::make_tuple(step_type, discounts);
}

// send, recv and step, the calls of every batch, are CPython methods of the
// Pool type, called without pybind11's dispatcher: its overload resolution
// and argument casting cost about 80 ns a call, a tenth of a recv of a small
// batch of cheap envs. Exceptions are translated as pybind11 translates
// them, the translators registered by this module included.
template <typename F>
PyObject* Translated(F&& call) {
  try {
    return call();
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (...) {
    py::detail::try_translate_exceptions();
  }
  return nullptr;
}

// The PyPool of `self`, an instance of Pool (the method descriptor checks
// its type).
PyPool* PoolOf(PyObject* self) {
  auto* instance = reinterpret_cast<py::detail::instance*>(self);
  const py::detail::value_and_holder held = instance->get_value_and_holder();
  if (!held.holder_constructed()) {
    throw py::type_error("Pool.__init__() was not called");
  }
  return held.value_ptr<PyPool>();
}

// `name(action, env_id=None)`'s arguments, given by position or keyword.
void ActionAndEnvId(const char* name, PyObject* const* args, Py_ssize_t nargs,
                    PyObject* kwnames, PyObject** action, PyObject** env_id) {
  *action = nargs > 0 ? args[0] : nullptr;
  *env_id = nargs > 1 ? args[1] : Py_None;
  if (nargs > 2) {
    throw py::type_error(std::string(name) +
                         "() takes at most 2 arguments (action, env_id)");
  }
  const Py_ssize_t keywords =
      kwnames != nullptr ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < keywords; ++k) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, k);
    PyObject* value = args[nargs + k];
    if (PyUnicode_CompareWithASCIIString(key, "action") == 0 && nargs < 1 &&
        *action == nullptr) {
      *action = value;
    } else if (PyUnicode_CompareWithASCIIString(key, "env_id") == 0 &&
               nargs < 2 && *env_id == Py_None) {
      *env_id = value;
    } else {
      throw py::type_error(std::string(name) +
                           "() got an unexpected or repeated argument '" +
                           py::str(key).cast<std::string>() + "'");
    }
  }
  if (*action == nullptr) {
    throw py::type_error(std::string(name) +
                         "() missing required argument 'action'");
  }
}

PyObject* FastSend(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                   PyObject* kwnames) {
  return Translated([&]() -> PyObject* {
    PyObject* action = nullptr;
    PyObject* env_id = nullptr;
    ActionAndEnvId("send", args, nargs, kwnames, &action, &env_id);
    PoolOf(self)->Send(action, env_id);
    Py_RETURN_NONE;
  });
}

PyObject* FastStep(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                   PyObject* kwnames) {
  return Translated([&]() -> PyObject* {
    PyObject* action = nullptr;
    PyObject* env_id = nullptr;
    ActionAndEnvId("step", args, nargs, kwnames, &action, &env_id);
    return PoolOf(self)->Step(action, env_id).release().ptr();
  });
}

PyObject* FastRecv(PyObject* self, PyObject* /*unused*/) {
  return Translated(
      [&]() -> PyObject* { return PoolOf(self)->Recv().release().ptr(); });
}

PyMethodDef kFastMethods[] = {
    {"send",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(FastSend)),
     METH_FASTCALL | METH_KEYWORDS,
     "send(action, env_id=None): step the envs env_id (all in sync mode, the "
     "last batch's in async mode) with action, one row each."},
    {"recv", FastRecv, METH_NOARGS,
     "recv(): the next batch, (obs, reward, terminated, truncated, info)."},
    {"step",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(FastStep)),
     METH_FASTCALL | METH_KEYWORDS,
     "step(action, env_id=None): send, then recv."},
};

}  // namespace
}  // namespace envpool

PYBIND11_MODULE(_core, m) {
  using envpool::PyPool;
  m.doc() = "envpool's engine: env types, specs and the pool";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) {
        std::rethrow_exception(p);
      }
    } catch (const std::invalid_argument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::out_of_range& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::logic_error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
  py::class_<envpool::Block, std::shared_ptr<envpool::Block>>(m, "_Block");
  m.def(
      "xla_targets",
      [] {
        py::dict targets;
        targets["envpool_send"] =
            py::capsule(reinterpret_cast<void*>(&envpool::XlaSend));
        targets["envpool_recv"] =
            py::capsule(reinterpret_cast<void*>(&envpool::XlaRecv));
        return targets;
      },
      "XLA FFI handlers (PyCapsules) for jax.ffi.register_ffi_target.");
  m.def("load_plugin", &envpool::LoadPlugin, py::arg("path"), py::arg("family"),
        "Registers the env classes of an env plugin library as "
        "\"<family>/<name>\"; returns \"\" or why it was refused "
        "(envpool/core/plugin.h).");
  m.attr("version") = ENVPOOL_VERSION;
  m.def("set_asset_dir", &envpool::SetFamilyAssetDir, py::arg("family"),
        py::arg("dir"),
        "Where the family's native code reads its files from (its "
        "registration.py's ASSET_DIR); set before its module is loaded.");
  m.def("asset_dir", &envpool::FamilyAssetDir, py::arg("family"),
        "The folder set_asset_dir gave the family (\"\" when none).");
  m.def("dm_step_fields", &envpool::DmStepFields, py::arg("terminated"),
        py::arg("truncated"), py::arg("elapsed_step"), py::arg("discount"),
        "A dm TimeStep's (step_type, discount) of a stepped batch, or None "
        "where the arrays are not a pool's (see timestep.dm_timestep).");
  m.def("env_classes", &envpool::RegisteredEnvClasses,
        "Names of the env classes registered by the loaded families.");
  m.def(
      "env_defaults",
      [](const std::string& name) {
        py::dict d;
        for (const auto& [key, value] :
             envpool::FindEnvClass(name).defaults.items()) {
          d[py::str(key)] = envpool::ToPython(value);
        }
        return d;
      },
      "The options of an env class with their defaults.");
  m.def(
      "describe",
      [](const std::string& name, const py::dict& overrides) {
        const envpool::EnvClass& env_class = envpool::FindEnvClass(name);
        envpool::PerEnvOptions per_env;
        envpool::Options options =
            envpool::ToOptions(env_class, overrides, &per_env);
        const int num_envs =
            per_env.empty() ? 1
                            : static_cast<int>(per_env.begin()->second.size());
        return envpool::Describe(
            envpool::PrepareEnvs(env_class, options, per_env, num_envs).spec);
      },
      "The arrays of an env class under the given options (a sequence for "
      "a bool, int or float option: one value per env).");
  auto pool_class = py::class_<PyPool>(m, "Pool");
  pool_class
      .def(py::init<const std::string&, const py::dict&, const std::string&,
                    int, int, int, int, std::vector<uint64_t>, int, bool>(),
           py::arg("env_class"), py::arg("options"), py::arg("task_id"),
           py::arg("num_envs"), py::arg("batch_size"), py::arg("num_threads"),
           py::arg("thread_affinity_offset"), py::arg("seeds"),
           py::arg("autoreset_mode"), py::arg("episode_statistics") = false)
      .def("reset", &PyPool::Reset, py::arg("env_id") = py::none(),
           py::arg("seeds") = py::none())
      .def("close", &PyPool::Close)
      .def("render", &PyPool::Render, py::arg("env_id"),
           py::arg("camera_id") = -1)
      .def("render_text", &PyPool::RenderText, py::arg("env_id"))
      .def("save_states", &PyPool::SaveStates, py::arg("env_id"))
      .def("load_states", &PyPool::LoadStates, py::arg("env_id"),
           py::arg("states"))
      .def("get_state", &PyPool::GetState)
      .def("set_state", &PyPool::SetState)
      .def_property_readonly("address", &PyPool::address)
      .def_property_readonly("num_threads", &PyPool::num_threads)
      .def_property_readonly("step_cost_ns", &PyPool::step_cost_ns)
      .def_property_readonly("num_blocks", &PyPool::num_blocks)
      .def_property_readonly("closed", &PyPool::closed);
  auto* type = reinterpret_cast<PyTypeObject*>(pool_class.ptr());
  for (PyMethodDef& def : envpool::kFastMethods) {
    py::object method =
        py::reinterpret_steal<py::object>(PyDescr_NewMethod(type, &def));
    if (!method) {
      throw py::error_already_set();
    }
    pool_class.attr(def.ml_name) = method;
  }
}
