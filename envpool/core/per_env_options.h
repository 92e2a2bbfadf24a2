// Options given per env: `gravity=[-10, -9, -8, -7]` for a pool of four envs
// gives env i the i-th value. The pool declares its arrays once, so only an
// option the spaces do not depend on may vary; each env is built from its own
// options (and its own Declare's handles, equal to every other env's).
#ifndef ENVPOOL_CORE_PER_ENV_OPTIONS_H_
#define ENVPOOL_CORE_PER_ENV_OPTIONS_H_

#include <map>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/core/options.h"

namespace envpool {

// Option name -> one value per env (a bool, int or float option).
using PerEnvOptions = std::map<std::string, std::vector<OptionValue>>;

// `options` with each per-env option set to env `env_id`'s value.
Options OptionsOfEnv(const Options& options, const PerEnvOptions& per_env,
                     int env_id);

// What a pool of `num_envs` envs of `env_class` needs when the options in
// `per_env` differ per env (the spec is env 0's; create(i) builds env i
// from its own options). Throws std::invalid_argument naming the option
// when it is unknown, not a bool/int/float, the pool's (max_episode_steps,
// the render options), has not num_envs values, a value is refused by the
// env's Declare, or the spaces depend on it.
EnvFactory PrepareEnvs(const EnvClass& env_class, const Options& options,
                       const PerEnvOptions& per_env, int num_envs);

// Whether two specs give the same spaces and batch layout.
bool SameSpec(const EnvSpec& a, const EnvSpec& b);

}  // namespace envpool

#endif  // ENVPOOL_CORE_PER_ENV_OPTIONS_H_
