#include "envpool/core/per_env_options.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace envpool {
namespace {

bool SameArrays(const Schema& a, const Schema& b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (int i = 0; i < a.size(); ++i) {
    const ArraySpec& x = a.specs()[i];
    const ArraySpec& y = b.specs()[i];
    if (x.name != y.name || x.dtype != y.dtype || x.shape != y.shape ||
        x.low != y.low || x.high != y.high || x.num_values != y.num_values ||
        x.per_player != y.per_player) {
      return false;
    }
  }
  return true;
}

// Options the pool reads once for all its envs.
bool IsPoolOption(const std::string& name) {
  return name == "max_episode_steps" || name.rfind("render_", 0) == 0;
}

std::string ValueText(const OptionValue& value) {
  if (const bool* b = std::get_if<bool>(&value)) {
    return *b ? "True" : "False";
  }
  if (const int64_t* i = std::get_if<int64_t>(&value)) {
    return std::to_string(*i);
  }
  if (const double* d = std::get_if<double>(&value)) {
    return std::to_string(*d);
  }
  return "?";
}

}  // namespace

bool SameSpec(const EnvSpec& a, const EnvSpec& b) {
  return SameArrays(a.state, b.state) && SameArrays(a.action, b.action) &&
         a.reward_dtype == b.reward_dtype &&
         a.max_num_players == b.max_num_players &&
         a.render_modes == b.render_modes && a.render_width == b.render_width &&
         a.render_height == b.render_height && a.render_fps == b.render_fps &&
         a.steps_elsewhere == b.steps_elsewhere;
}

Options OptionsOfEnv(const Options& options, const PerEnvOptions& per_env,
                     int env_id) {
  Options own = options;
  for (const auto& [name, values] : per_env) {
    own.Set(name, values.at(env_id));
  }
  return own;
}

EnvFactory PrepareEnvs(const EnvClass& env_class, const Options& options,
                       const PerEnvOptions& per_env, int num_envs) {
  if (per_env.empty()) {
    return env_class.prepare(options);
  }
  for (const auto& [name, values] : per_env) {
    if (!options.Has(name)) {
      throw std::invalid_argument("unknown option '" + name + "'");
    }
    const OptionValue& value =
        std::find_if(options.items().begin(), options.items().end(),
                     [&](const auto& item) { return item.first == name; })
            ->second;
    if (!std::holds_alternative<bool>(value) &&
        !std::holds_alternative<int64_t>(value) &&
        !std::holds_alternative<double>(value)) {
      throw std::invalid_argument(
          "option '" + name +
          "' cannot vary per env: only bool, int and float options can");
    }
    if (IsPoolOption(name)) {
      throw std::invalid_argument(
          "option '" + name +
          "' cannot vary per env: the pool applies it to every env; give one "
          "value");
    }
    if (static_cast<int>(values.size()) != num_envs) {
      throw std::invalid_argument(
          "option '" + name + "' has " + std::to_string(values.size()) +
          " values; give one value, or one per env (num_envs=" +
          std::to_string(num_envs) + ")");
    }
  }
  // Env 0's spec is the pool's: every env's Declare must give the same.
  // Varying one option at a time names the one the spaces depend on.
  const Options first = OptionsOfEnv(options, per_env, 0);
  EnvFactory factory = env_class.prepare(first);
  for (const auto& [name, values] : per_env) {
    for (int i = 1; i < num_envs; ++i) {
      if (values[i] == values[0]) {
        continue;
      }
      Options varied = first;
      varied.Set(name, values[i]);
      if (!SameSpec(env_class.prepare(varied).spec, factory.spec)) {
        throw std::invalid_argument(
            "option '" + name +
            "' cannot vary per env: the env's spaces depend on it (env 0 "
            "with " +
            ValueText(values[0]) + " and env " + std::to_string(i) + " with " +
            ValueText(values[i]) + " differ); give one value");
      }
    }
  }
  // Each env is built from its own options, by the factory of its own
  // Declare (equal handles: the specs are the same).
  // Envs with the same values share one.
  auto factories = std::make_shared<std::vector<EnvFactory>>();
  auto factory_of_env = std::make_shared<std::vector<int>>(num_envs, 0);
  factories->push_back(std::move(factory));
  std::vector<int> first_env_of_factory = {0};
  auto same_values = [&](int i, int j) {
    return std::all_of(per_env.begin(), per_env.end(), [&](const auto& item) {
      return item.second[i] == item.second[j];
    });
  };
  for (int i = 1; i < num_envs; ++i) {
    auto found =
        std::find_if(first_env_of_factory.begin(), first_env_of_factory.end(),
                     [&](int j) { return same_values(i, j); });
    if (found != first_env_of_factory.end()) {
      (*factory_of_env)[i] =
          static_cast<int>(found - first_env_of_factory.begin());
      continue;
    }
    EnvFactory own = env_class.prepare(OptionsOfEnv(options, per_env, i));
    if (!SameSpec(own.spec, factories->front().spec)) {
      throw std::invalid_argument(
          "the options given per env together change the env's spaces (env 0 "
          "and env " +
          std::to_string(i) + " differ); vary fewer of them");
    }
    (*factory_of_env)[i] = static_cast<int>(factories->size());
    factories->push_back(std::move(own));
    first_env_of_factory.push_back(i);
  }
  EnvFactory result;
  result.spec = factories->front().spec;
  result.create = [factories, factory_of_env](int env_id) {
    return (*factories)[(*factory_of_env)[env_id]].create(env_id);
  };
  return result;
}

}  // namespace envpool
