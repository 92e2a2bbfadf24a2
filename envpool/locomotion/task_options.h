// The options every locomotion id takes (EnvPool 1.2.7's set for the whole
// family), and the checks the single-walker tasks share: soccer's own
// options are accepted there only at their defaults.
#ifndef ENVPOOL_LOCOMOTION_TASK_OPTIONS_H_
#define ENVPOOL_LOCOMOTION_TASK_OPTIONS_H_

#include <cstdint>
#include <stdexcept>
#include <string>

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

}  // namespace envpool::locomotion

#endif  // ENVPOOL_LOCOMOTION_TASK_OPTIONS_H_
