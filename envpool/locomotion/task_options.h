// The options every locomotion id takes (EnvPool 1.2.7's set for the whole
// family), the checks the single-walker tasks share (soccer's own options
// are accepted there only at their defaults), and how every id declares its
// float64 observations.
#ifndef ENVPOOL_LOCOMOTION_TASK_OPTIONS_H_
#define ENVPOOL_LOCOMOTION_TASK_OPTIONS_H_

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/core/options.h"

namespace envpool::locomotion {

// The family's options with a task's name and time limit (seconds).
inline Options LocomotionOptions(const std::string& task_name,
                                 double time_limit) {
  return Options{
      {"max_episode_steps", int64_t{2147483647}},
      {"task_name", task_name},
      {"team_size", int64_t{2}},
      {"time_limit", time_limit},
      {"disable_walker_contacts", false},
      {"enable_field_box", false},
      {"terminate_on_goal", true},
      {"keep_aspect_ratio", false},
  };
}

// The option time_limit, which must be a positive number of seconds.
inline double CheckedTimeLimit(const Options& options) {
  const double time_limit = options.Get<double>("time_limit");
  if (!(time_limit > 0.0)) {
    throw std::invalid_argument(
        "option 'time_limit' must be a positive number of seconds, got " +
        std::to_string(time_limit));
  }
  return time_limit;
}

// Throws unless soccer's options keep their defaults (a task of one walker).
inline void RequireSoccerDefaults(const Options& options,
                                  const std::string& task) {
  if (options.Get<int64_t>("team_size") != 2 ||
      options.Get<bool>("disable_walker_contacts") ||
      options.Get<bool>("enable_field_box") ||
      !options.Get<bool>("terminate_on_goal") ||
      options.Get<bool>("keep_aspect_ratio")) {
    throw std::invalid_argument(
        "options 'team_size', 'disable_walker_contacts', 'enable_field_box', "
        "'terminate_on_goal' and 'keep_aspect_ratio' are soccer's: " +
        task + " takes only their defaults");
  }
}

// An observation's dm_control key and shape.
struct ObservationKey {
  std::string name;
  std::vector<int64_t> shape;
};

// The float64 observations `keys` ("obs:<key>", unbounded, one row per
// player where `per_player`), in the keys' order.
inline std::vector<Field<double>> AddFloatObservations(
    const std::vector<ObservationKey>& keys, EnvSpec* spec,
    bool per_player = false) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<Field<double>> fields;
  for (const ObservationKey& key : keys) {
    ArraySpec array;
    array.name = "obs:" + key.name;
    array.dtype = DType::kFloat64;
    array.shape = key.shape;
    array.low = {-kInf};
    array.high = {kInf};
    array.per_player = per_player;
    fields.push_back(spec->state.Add<double>(array));
  }
  return fields;
}

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_TASK_OPTIONS_H_
