// Named options with typed defaults: the config of one env family.
#ifndef ENVPOOL_CORE_OPTIONS_H_
#define ENVPOOL_CORE_OPTIONS_H_

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace envpool {

// A table option: rows of numbers by name, a Python dict whose keys are
// str or int (kept as their decimal text) and whose values are a number or
// a sequence of numbers (e.g. ViZDoom's {"HEALTH": [0.005, -0.003]}).
using OptionTable = std::map<std::string, std::vector<double>>;

// A list option: a fixed number of integers, a Python list of ints (e.g.
// MiniGrid's agent_start_pos [1, 1]).
using OptionInts = std::vector<int64_t>;

// A list of names: a Python list of str (e.g. FrankaKitchen's
// tasks_to_complete ["microwave", "kettle"]); the env checks the names.
using OptionStrings = std::vector<std::string>;

using OptionValue = std::variant<bool, int64_t, double, std::string,
                                 OptionTable, OptionInts, OptionStrings>;

// An ordered set of options.  The type of each option is fixed by its
// default; `Set` with another type is an error that names the option.
class Options {
 public:
  Options() = default;
  Options(std::initializer_list<std::pair<std::string, OptionValue>> items)
      : items_(items) {}

  bool Has(const std::string& name) const { return Find(name) != nullptr; }

  // Adds an option, or replaces its default when it already exists.
  void Define(const std::string& name, OptionValue value) {
    if (OptionValue* v = Find(name)) {
      *v = std::move(value);
    } else {
      items_.emplace_back(name, std::move(value));
    }
  }

  void Set(const std::string& name, const OptionValue& value) {
    OptionValue* v = Find(name);
    if (v == nullptr) {
      throw std::invalid_argument("unknown option '" + name + "'");
    }
    if (v->index() == value.index()) {
      *v = value;
    } else if (std::holds_alternative<double>(*v) &&
               std::holds_alternative<int64_t>(value)) {
      *v = static_cast<double>(std::get<int64_t>(value));
    } else {
      throw std::invalid_argument("option '" + name + "' takes a " +
                                  TypeName(*v) + ", got a " + TypeName(value));
    }
  }

  template <typename T>
  T Get(const std::string& name) const {
    const OptionValue* v = Find(name);
    if (v == nullptr) {
      throw std::logic_error("option '" + name + "' is not defined");
    }
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string> ||
                  std::is_same_v<T, double> || std::is_same_v<T, OptionTable> ||
                  std::is_same_v<T, OptionInts> ||
                  std::is_same_v<T, OptionStrings>) {
      return std::get<T>(*v);
    } else if constexpr (std::is_floating_point_v<T>) {
      return static_cast<T>(std::get<double>(*v));
    } else {
      return static_cast<T>(std::get<int64_t>(*v));
    }
  }

  const std::vector<std::pair<std::string, OptionValue>>& items() const {
    return items_;
  }

  static const char* TypeName(const OptionValue& v) {
    static const char* names[] = {"bool", "int",         "float",      "str",
                                  "dict", "list of int", "list of str"};
    return names[v.index()];
  }

 private:
  const OptionValue* Find(const std::string& name) const {
    for (const auto& item : items_) {
      if (item.first == name) {
        return &item.second;
      }
    }
    return nullptr;
  }
  OptionValue* Find(const std::string& name) {
    return const_cast<OptionValue*>(std::as_const(*this).Find(name));
  }

  std::vector<std::pair<std::string, OptionValue>> items_;
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_OPTIONS_H_
