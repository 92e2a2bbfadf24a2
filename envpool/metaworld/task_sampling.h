// Meta-World's benchmarks (metaworld/__init__.py: MT1, MT10, MT50, ML1,
// ML10, ML45): their task classes, the 50 task vectors per class that
// `_make_tasks` draws from the benchmark's seed, and the choice of a vector
// per reset that Meta-World's RandomTaskSelectWrapper and
// PseudoRandomTaskSelectWrapper make.
//
// `_make_tasks` seeds the global np.random (a legacy RandomState) with the
// benchmark's seed and, for each class of the split in order, resets a
// fresh env _N_GOALS times (50, or the num_goals of Meta-World's MT
// registrations), keeping each reset's last task vector. A reset runs
// the class's reset_model() twice, and each run draws the vector (redrawn
// while the object and the goal are too close), so the stream runs on
// across the classes: a class's vectors depend on every class before it.
// The classes' reset spaces, goal spaces and redraw rules are the task
// table's (tasks.h), the env's own.
#ifndef ENVPOOL_METAWORLD_TASK_SAMPLING_H_
#define ENVPOOL_METAWORLD_TASK_SAMPLING_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "envpool/core/options.h"
#include "envpool/core/random.h"
#include "envpool/core/snapshot.h"

namespace envpool::metaworld {

// Meta-World's _N_GOALS, the task vectors per class: the option num_goals'
// default, and the most this project makes (MT50 with 10,000 per class is
// 500,000 vectors, about 45 MB, drawn in well under a second).
inline constexpr int kDefaultTaskVariations = 50;
inline constexpr int kMaxTaskVariations = 10000;

// The task classes of a benchmark's split ("train" or "test"); MT1 and ML1
// have the one class `task_name`. Throws std::invalid_argument naming the
// valid values.
std::vector<std::string> BenchmarkClasses(const std::string& benchmark,
                                          const std::string& split,
                                          const std::string& task_name);

// The split's task vectors as Meta-World's benchmark of seed `seed` makes
// them with _N_GOALS = num_goals: vectors[c][j] is the j-th of class c
// (BenchmarkClasses' order), j < num_goals. Computed once per (benchmark,
// split, task_name, seed, num_goals) and shared.
using TaskVectors = std::vector<std::vector<std::vector<double>>>;
std::shared_ptr<const TaskVectors> BenchmarkTaskVectors(
    const std::string& benchmark, const std::string& split,
    const std::string& task_name, uint32_t seed,
    int num_goals = kDefaultTaskVariations);

// The task class an env of these options plays: task_name without a
// benchmark, else the split's class task_index. Checks the benchmark
// options (std::invalid_argument naming the option).
std::string BenchmarkTaskName(const Options& options);

// The goal's observation bounds of a pool with these options when the goal
// is shown: the task's goal_space, or with a benchmark the union of its
// split's classes' (every env of the pool declares the same space).
void GoalBounds(const Options& options, std::array<double, 3>* low,
                std::array<double, 3>* high);

// The task vector each reset of one env plays, chosen among its class's
// num_goals as Meta-World's task-select wrappers choose, from the env's
// np_random: "random" (RandomTaskSelectWrapper: np_random.choice(n) per
// reset, n the list's length),
// "pseudorandom" (PseudoRandomTaskSelectWrapper sampling on each reset:
// the next of the list, which np_random.shuffle reorders whenever it starts
// over), or one fixed vector (task_vector >= 0: set_task once). The list
// is the class's first task_vectors_per_class vectors (-1: all), every
// task_vector_stride-th from task_vector_offset (make_ml_envs' split of a
// class among meta_batch_size envs).
class TaskSampler {
 public:
  // Null when the options name no benchmark.
  static std::unique_ptr<TaskSampler> Make(const Options& options);

  const std::vector<double>& Next(random::Generator* np_random);
  void Save(StateWriter* writer) const;
  // Reads what Save wrote; returns the vector of the last reset.
  const std::vector<double>& Load(StateReader* reader);

 private:
  std::shared_ptr<const TaskVectors> vectors_;
  int class_index_ = 0;
  bool pseudorandom_ = false;
  int64_t fixed_ = -1;
  // The vector of the last reset, the wrapper's list of the vectors'
  // indices (pseudorandom: in its shuffled order) and its position in it.
  int64_t current_ = 0;
  std::vector<int64_t> order_;
  int64_t position_ = -1;
};

}  // namespace envpool::metaworld

#endif  // ENVPOOL_METAWORLD_TASK_SAMPLING_H_
