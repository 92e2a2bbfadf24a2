#include "envpool/metaworld/task_sampling.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "envpool/metaworld/tasks.h"

namespace envpool::metaworld {
namespace {

// env_dict.py's benchmark lists, in their order (_make_tasks' order).
const std::vector<std::string>& Mt10Classes() {
  static const std::vector<std::string> names{"reach-v3",
                                              "push-v3",
                                              "pick-place-v3",
                                              "door-open-v3",
                                              "drawer-open-v3",
                                              "drawer-close-v3",
                                              "button-press-topdown-v3",
                                              "peg-insert-side-v3",
                                              "window-open-v3",
                                              "window-close-v3"};
  return names;
}

const std::vector<std::string>& Ml10TrainClasses() {
  static const std::vector<std::string> names{
      "reach-v3",           "push-v3",         "pick-place-v3",
      "door-open-v3",       "drawer-close-v3", "button-press-topdown-v3",
      "peg-insert-side-v3", "window-open-v3",  "sweep-v3",
      "basketball-v3"};
  return names;
}

const std::vector<std::string>& Ml10TestClasses() {
  static const std::vector<std::string> names{"drawer-open-v3", "door-close-v3",
                                              "shelf-place-v3", "sweep-into-v3",
                                              "lever-pull-v3"};
  return names;
}

const std::vector<std::string>& Ml45TrainClasses() {
  static const std::vector<std::string> names{"assembly-v3",
                                              "basketball-v3",
                                              "button-press-topdown-v3",
                                              "button-press-topdown-wall-v3",
                                              "button-press-v3",
                                              "button-press-wall-v3",
                                              "coffee-button-v3",
                                              "coffee-pull-v3",
                                              "coffee-push-v3",
                                              "dial-turn-v3",
                                              "disassemble-v3",
                                              "door-close-v3",
                                              "door-open-v3",
                                              "drawer-close-v3",
                                              "drawer-open-v3",
                                              "faucet-open-v3",
                                              "faucet-close-v3",
                                              "hammer-v3",
                                              "handle-press-side-v3",
                                              "handle-press-v3",
                                              "handle-pull-side-v3",
                                              "handle-pull-v3",
                                              "lever-pull-v3",
                                              "pick-place-wall-v3",
                                              "pick-out-of-hole-v3",
                                              "push-back-v3",
                                              "pick-place-v3",
                                              "plate-slide-v3",
                                              "plate-slide-side-v3",
                                              "plate-slide-back-v3",
                                              "plate-slide-back-side-v3",
                                              "peg-insert-side-v3",
                                              "peg-unplug-side-v3",
                                              "soccer-v3",
                                              "stick-push-v3",
                                              "stick-pull-v3",
                                              "push-wall-v3",
                                              "push-v3",
                                              "reach-wall-v3",
                                              "reach-v3",
                                              "shelf-place-v3",
                                              "sweep-into-v3",
                                              "sweep-v3",
                                              "window-open-v3",
                                              "window-close-v3"};
  return names;
}

const std::vector<std::string>& Ml45TestClasses() {
  static const std::vector<std::string> names{"bin-picking-v3", "box-close-v3",
                                              "hand-insert-v3", "door-lock-v3",
                                              "door-unlock-v3"};
  return names;
}

// ALL_V3_ENVIRONMENTS' order, the tasks' task_id.
const std::vector<std::string>& Mt50Classes() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (int id = 0; id < static_cast<int>(Tasks().size()); ++id) {
      all.emplace_back(TaskById(id).name);
    }
    return all;
  }();
  return names;
}

constexpr const char* kBenchmarks = "MT1, MT10, MT50, ML1, ML10 or ML45";

std::string NumGoalsError(int64_t num_goals) {
  return "option 'num_goals' (Meta-World's _N_GOALS, the task vectors per "
         "class) must be in [1, " +
         std::to_string(kMaxTaskVariations) + "], got " +
         std::to_string(num_goals);
}

}  // namespace

std::vector<std::string> BenchmarkClasses(const std::string& benchmark,
                                          const std::string& split,
                                          const std::string& task_name) {
  if (split != "train" && split != "test") {
    throw std::invalid_argument(
        "option 'split' must be \"train\" or \"test\", got \"" + split + "\"");
  }
  const bool test = split == "test";
  if (test &&
      (benchmark == "MT1" || benchmark == "MT10" || benchmark == "MT50")) {
    throw std::invalid_argument("benchmark " + benchmark +
                                " has no test tasks: option 'split' must be "
                                "\"train\" for MT benchmarks");
  }
  if (benchmark == "MT1" || benchmark == "ML1") {
    FindTask(task_name);
    return {task_name};
  }
  if (benchmark == "MT10") {
    return Mt10Classes();
  }
  if (benchmark == "MT50") {
    return Mt50Classes();
  }
  if (benchmark == "ML10") {
    return test ? Ml10TestClasses() : Ml10TrainClasses();
  }
  if (benchmark == "ML45") {
    return test ? Ml45TestClasses() : Ml45TrainClasses();
  }
  throw std::invalid_argument("option 'benchmark' must be \"\" (none) or " +
                              std::string(kBenchmarks) + ", got \"" +
                              benchmark + "\"");
}

std::shared_ptr<const TaskVectors> BenchmarkTaskVectors(
    const std::string& benchmark, const std::string& split,
    const std::string& task_name, uint32_t seed, int num_goals) {
  if (num_goals < 1 || num_goals > kMaxTaskVariations) {
    throw std::invalid_argument(NumGoalsError(num_goals));
  }
  const std::vector<std::string> classes =
      BenchmarkClasses(benchmark, split, task_name);
  using Key = std::tuple<std::string, std::string, std::string, uint32_t, int>;
  static std::mutex mutex;
  static std::map<Key, std::shared_ptr<const TaskVectors>> cache;
  const bool one_class = benchmark == "MT1" || benchmark == "ML1";
  const Key key{benchmark, split, one_class ? task_name : "", seed, num_goals};
  std::lock_guard<std::mutex> lock(mutex);
  auto found = cache.find(key);
  if (found != cache.end()) {
    return found->second;
  }
  // ML1's test tasks come from seed + 1 (as a Python int: 2**32 - 1 + 1
  // would be refused by np.random.seed; BenchmarkTaskName refuses it).
  const uint32_t stream_seed =
      benchmark == "ML1" && split == "test" ? seed + 1 : seed;
  random::RandomState rng(stream_seed);
  auto vectors = std::make_shared<TaskVectors>();
  for (const std::string& name : classes) {
    const TaskConfig& task = FindTask(name);
    std::vector<std::vector<double>> of_class;
    of_class.reserve(num_goals);
    // _N_GOALS resets per class: with another number the stream runs on
    // into the next class from another place, so every later class's
    // vectors change too.
    for (int j = 0; j < num_goals; ++j) {
      // reset() runs reset_model() twice; the second run's vector is kept.
      DrawPlacement(task, &rng);
      of_class.push_back(DrawPlacement(task, &rng));
    }
    vectors->push_back(std::move(of_class));
  }
  cache.emplace(key, vectors);
  return vectors;
}

std::string BenchmarkTaskName(const Options& options) {
  const auto task_name = options.Get<std::string>("task_name");
  const auto benchmark = options.Get<std::string>("benchmark");
  const auto sampling = options.Get<std::string>("task_sampling");
  if (sampling != "random" && sampling != "pseudorandom") {
    throw std::invalid_argument(
        "option 'task_sampling' must be \"random\" or \"pseudorandom\" "
        "(Meta-World's task_select), got \"" +
        sampling + "\"");
  }
  if (benchmark.empty()) {
    // The benchmark's options mean nothing without one: refuse them rather
    // than play per-episode draws the caller did not ask for.
    const bool defaults =
        options.Get<std::string>("split") == "train" &&
        options.Get<int64_t>("benchmark_seed") == 0 &&
        options.Get<int64_t>("task_index") == 0 &&
        options.Get<int64_t>("num_goals") == kDefaultTaskVariations &&
        options.Get<int64_t>("task_vector") == -1 &&
        options.Get<int64_t>("task_vectors_per_class") == -1 &&
        options.Get<int64_t>("task_vector_stride") == 1 &&
        options.Get<int64_t>("task_vector_offset") == 0 && sampling == "random";
    if (!defaults) {
      throw std::invalid_argument(
          "options 'split', 'benchmark_seed', 'task_index', 'num_goals', "
          "'task_sampling', 'task_vector', 'task_vectors_per_class', "
          "'task_vector_stride' and 'task_vector_offset' choose a Meta-World "
          "benchmark's tasks: give "
          "option 'benchmark' too (" +
          std::string(kBenchmarks) + ")");
    }
    return task_name;
  }
  const auto seed = options.Get<int64_t>("benchmark_seed");
  const int64_t max_seed =
      benchmark == "ML1" ? int64_t{4294967294} : int64_t{4294967295};
  if (seed < 0 || seed > max_seed) {
    throw std::invalid_argument(
        "option 'benchmark_seed' must be in [0, " + std::to_string(max_seed) +
        "] (np.random.seed's range" +
        (benchmark == "ML1" ? std::string(", ML1's test split seeds + 1")
                            : std::string()) +
        "), got " + std::to_string(seed));
  }
  const auto num_goals = options.Get<int64_t>("num_goals");
  if (num_goals < 1 || num_goals > kMaxTaskVariations) {
    throw std::invalid_argument(NumGoalsError(num_goals));
  }
  const auto vector = options.Get<int64_t>("task_vector");
  if (vector < -1 || vector >= num_goals) {
    throw std::invalid_argument(
        "option 'task_vector' must be -1 (sample per reset) or in [0, " +
        std::to_string(num_goals) + ") (num_goals), got " +
        std::to_string(vector));
  }
  const auto per_class = options.Get<int64_t>("task_vectors_per_class");
  const auto stride = options.Get<int64_t>("task_vector_stride");
  const auto offset = options.Get<int64_t>("task_vector_offset");
  if (per_class != -1 && (per_class < 1 || per_class > num_goals)) {
    throw std::invalid_argument(
        "option 'task_vectors_per_class' must be -1 (all num_goals) or in "
        "[1, " +
        std::to_string(num_goals) +
        "] (Meta-World's total_tasks_per_cls, at most num_goals), got " +
        std::to_string(per_class));
  }
  const int64_t listed = per_class == -1 ? num_goals : per_class;
  if (stride < 1 || offset < 0 || offset >= stride || offset >= listed) {
    throw std::invalid_argument(
        "options 'task_vector_stride' (k >= 1) and 'task_vector_offset' (i in "
        "[0, k) and below task_vectors_per_class) choose vectors i, i + k, "
        "... of the class, got k = " +
        std::to_string(stride) + ", i = " + std::to_string(offset));
  }
  const std::vector<std::string> classes =
      BenchmarkClasses(benchmark, options.Get<std::string>("split"), task_name);
  const auto index = options.Get<int64_t>("task_index");
  if (index < 0 || index >= static_cast<int64_t>(classes.size())) {
    throw std::invalid_argument(
        "option 'task_index' must be in [0, " + std::to_string(classes.size()) +
        ") for " + benchmark + "'s " + options.Get<std::string>("split") +
        " split, got " + std::to_string(index));
  }
  return classes[index];
}

void GoalBounds(const Options& options, std::array<double, 3>* low,
                std::array<double, 3>* high) {
  const auto benchmark = options.Get<std::string>("benchmark");
  std::vector<std::string> classes{options.Get<std::string>("task_name")};
  if (!benchmark.empty()) {
    classes = BenchmarkClasses(benchmark, options.Get<std::string>("split"),
                               classes[0]);
  }
  for (std::size_t c = 0; c < classes.size(); ++c) {
    const TaskConfig& task = FindTask(classes[c]);
    for (int k = 0; k < 3; ++k) {
      (*low)[k] =
          c == 0 ? task.goal_low[k] : std::min((*low)[k], task.goal_low[k]);
      (*high)[k] =
          c == 0 ? task.goal_high[k] : std::max((*high)[k], task.goal_high[k]);
    }
  }
}

std::unique_ptr<TaskSampler> TaskSampler::Make(const Options& options) {
  const auto benchmark = options.Get<std::string>("benchmark");
  if (benchmark.empty()) {
    return nullptr;
  }
  BenchmarkTaskName(options);  // checks the options
  auto sampler = std::unique_ptr<TaskSampler>(new TaskSampler());
  sampler->vectors_ = BenchmarkTaskVectors(
      benchmark, options.Get<std::string>("split"),
      options.Get<std::string>("task_name"),
      static_cast<uint32_t>(options.Get<int64_t>("benchmark_seed")),
      static_cast<int>(options.Get<int64_t>("num_goals")));
  sampler->class_index_ = static_cast<int>(options.Get<int64_t>("task_index"));
  sampler->pseudorandom_ =
      options.Get<std::string>("task_sampling") == "pseudorandom";
  sampler->fixed_ = options.Get<int64_t>("task_vector");
  // The wrapper's list: make_ml_envs' tasks[:per_class][offset::stride].
  auto per_class = options.Get<int64_t>("task_vectors_per_class");
  if (per_class == -1) {
    per_class = options.Get<int64_t>("num_goals");
  }
  const auto stride = options.Get<int64_t>("task_vector_stride");
  for (int64_t j = options.Get<int64_t>("task_vector_offset"); j < per_class;
       j += stride) {
    sampler->order_.push_back(j);
  }
  return sampler;
}

const std::vector<double>& TaskSampler::Next(random::Generator* np_random) {
  if (fixed_ >= 0) {
    current_ = fixed_;
  } else if (pseudorandom_) {
    position_ = (position_ + 1) % static_cast<int64_t>(order_.size());
    if (position_ == 0) {
      np_random->Shuffle(&order_);
    }
    current_ = order_[position_];
  } else {
    current_ = order_[np_random->Choice(static_cast<int64_t>(order_.size()))];
  }
  return (*vectors_)[class_index_][current_];
}

void TaskSampler::Save(StateWriter* writer) const {
  writer->Put(current_, order_, position_);
}

const std::vector<double>& TaskSampler::Load(StateReader* reader) {
  const std::size_t size = order_.size();
  reader->Get(&current_, &order_, &position_);
  const auto num_goals = static_cast<int64_t>((*vectors_)[class_index_].size());
  if (current_ < 0 || current_ >= num_goals || order_.size() != size) {
    throw std::invalid_argument(
        "the snapshot's task sampling state does not fit this env");
  }
  return (*vectors_)[class_index_][current_];
}

}  // namespace envpool::metaworld
