#include "envpool/core/pool.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <thread>
#include <utility>

namespace envpool {
namespace {

// The scheduler's view of a pool: its sizes and what its envs' steps need.
SchedulerConfig SchedulerConfigOf(const PoolConfig& config,
                                  const EnvSpec& spec) {
  SchedulerConfig scheduler;
  scheduler.num_envs = config.num_envs;
  scheduler.batch_size =
      config.batch_size == 0 ? config.num_envs : config.batch_size;
  scheduler.num_threads = config.num_threads;
  scheduler.steps_elsewhere = spec.steps_elsewhere;
  scheduler.yields_under_contention = config.yields_under_contention;
  scheduler.cores =
      std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return scheduler;
}

ArraySpec PoolColumn(const char* name, DType dtype, bool per_player) {
  ArraySpec spec;
  spec.name = name;
  spec.dtype = dtype;
  spec.per_player = per_player;
  return spec;
}

std::string EnvName(int env_id) { return "env " + std::to_string(env_id); }

}  // namespace

BlockLayout BlockLayout::Make(const EnvSpec& spec, const PoolConfig& config) {
  BlockLayout layout;
  bool multi = spec.max_num_players > 1;
  layout.rows_per_env = spec.max_num_players;
  layout.columns = spec.state.specs();
  if (!multi) {
    // One player: a row per player is a row per env (a family of games
    // declares its observation per player whatever the game's count).
    for (ArraySpec& column : layout.columns) {
      column.per_player = false;
    }
  }
  layout.num_state = static_cast<int>(layout.columns.size());
  auto add = [&](ArraySpec column) {
    layout.columns.push_back(std::move(column));
    return static_cast<int>(layout.columns.size()) - 1;
  };
  layout.reward = add(PoolColumn("reward", spec.reward_dtype, multi));
  layout.terminated = add(PoolColumn("terminated", DType::kBool, false));
  layout.truncated = add(PoolColumn("truncated", DType::kBool, false));
  layout.env_id = add(PoolColumn("env_id", DType::kInt32, false));
  layout.elapsed_step = add(PoolColumn("elapsed_step", DType::kInt32, false));
  if (multi) {
    layout.players_env_id =
        add(PoolColumn("players.env_id", DType::kInt32, true));
    layout.players_id = add(PoolColumn("players.id", DType::kInt32, true));
  }
  if (config.autoreset_mode == AutoresetMode::kSameStep) {
    layout.final_state = static_cast<int>(layout.columns.size());
    for (int i = 0; i < layout.num_state; ++i) {
      ArraySpec column = layout.columns[i];
      column.name = "final:" + column.name;
      add(column);
    }
    layout.final_elapsed_step =
        add(PoolColumn("final:elapsed_step", DType::kInt32, false));
    layout.final_mask = add(PoolColumn("final_mask", DType::kBool, false));
  }
  if (config.episode_statistics) {
    layout.episode_return =
        add(PoolColumn("episode.r", DType::kFloat64, false));
    layout.episode_length = add(PoolColumn("episode.l", DType::kInt32, false));
    layout.episode_mask = add(PoolColumn("episode_mask", DType::kBool, false));
  }
  return layout;
}

Block::Block(const BlockLayout& layout, int capacity, int id)
    : id_(id),
      capacity_(capacity),
      reward_column_(layout.reward),
      reward_dtype_(layout.columns[layout.reward].dtype),
      reward_per_player_(layout.columns[layout.reward].per_player) {
  for (const ArraySpec& column : layout.columns) {
    int rows = column.per_player ? capacity * layout.rows_per_env : capacity;
    std::size_t row_bytes = column.RowBytes();
    std::size_t bytes = row_bytes * rows;
    // Zeroed, so rows an env does not write read as zero, never garbage.
    data_.push_back(
        std::make_unique<uint8_t[]>(std::max<std::size_t>(bytes, 1)));
    row_bytes_.push_back(row_bytes);
    column_bytes_.push_back(bytes);
    per_player_.push_back(column.per_player ? 1 : 0);
  }
  terminated_ = static_cast<bool*>(Column(layout.terminated));
  truncated_ = static_cast<bool*>(Column(layout.truncated));
  env_ids_ = static_cast<int32_t*>(Column(layout.env_id));
  elapsed_steps_ = static_cast<int32_t*>(Column(layout.elapsed_step));
}

void Block::Prepare(int target, int first_env) {
  target_ = target;
  first_env_ = first_env;
  acquired_ = 0;
  written_.store(0);
  player_rows_.store(0);
  ready_ = false;
}

void* Output::Row(int state_index, int player) const {
  // The first columns of a block are the env's state arrays, in order; an
  // array declared per env (a multi-player env's info, say) has the env's
  // row, not a player's.
  return block_->Row(state_index, block_->per_player_[state_index] != 0
                                      ? player_row_ + player
                                      : slot_);
}

void Output::SetReward(double reward, int player) const {
  block_->SetReward(block_->reward_per_player_ ? player_row_ + player : slot_,
                    reward);
}

void Block::SetReward(int row, double reward) {
  void* dst = Row(reward_column_, row);
  switch (reward_dtype_) {
    case DType::kFloat32:
      *static_cast<float*>(dst) = static_cast<float>(reward);
      break;
    case DType::kFloat64:
      *static_cast<double*>(dst) = reward;
      break;
    default:
      throw std::logic_error("reward must be float32 or float64");
  }
}

namespace {

// How many forks this process descends from (counted in each child), so that
// a pool can tell that it was made in another process.
std::atomic<uint64_t> forks_behind{0};

uint64_t ForksBehind() {
  static const int registered =
      pthread_atfork(nullptr, nullptr, [] { forks_behind.fetch_add(1); });
  (void)registered;
  return forks_behind.load(std::memory_order_relaxed);
}

}  // namespace

bool Pool::forked_away() const { return ForksBehind() != made_after_forks_; }

const char* Pool::ForkedAwayMessage() {
  return "this env pool was made in another process (before os.fork()): its "
         "threads are not in this one, so it cannot step here; make a new "
         "pool in this process";
}

// Declared once: every env gets the same handles.
Pool::Pool(const EnvClass& env_class, const Options& options, PoolConfig config)
    : Pool(env_class.prepare(options), std::move(config)) {}

Pool::Pool(const EnvFactory& factory, PoolConfig config)
    : config_(std::move(config)),
      spec_(factory.spec),
      scheduler_(SchedulerConfigOf(config_, spec_)),
      made_after_forks_(ForksBehind()) {
  if (config_.batch_size == 0) {
    config_.batch_size = config_.num_envs;
  }
  layout_ = BlockLayout::Make(spec_, config_);
  int n = config_.num_envs;
  records_.assign(n, EnvRecord{});
  in_flight_.assign(n, 0);
  seeds_.assign(n, 0);
  for (const ArraySpec& a : spec_.action.specs()) {
    const int rows = a.per_player ? layout_.rows_per_env : 1;
    action_env_bytes_.push_back(a.RowBytes() * rows);
    action_player_strides_.push_back(a.per_player ? a.RowBytes() : 0);
    action_data_.push_back(std::make_unique<uint8_t[]>(std::max<std::size_t>(
        a.RowBytes() * rows * static_cast<std::size_t>(n), 1)));
    per_player_actions_ = per_player_actions_ || a.per_player;
  }
  action_views_.resize(n);
  for (int i = 0; i < n; ++i) {
    for (int f = 0; f < spec_.action.size(); ++f) {
      action_views_[i].push_back(ActionRow(i, f));
    }
  }

  // Build the envs in parallel: some families load files at construction.
  envs_.resize(n);
  int builders = std::max(
      1, std::min(n, static_cast<int>(std::thread::hardware_concurrency())));
  std::vector<std::exception_ptr> errors(builders);
  std::vector<std::thread> threads;
  for (int b = 0; b < builders; ++b) {
    threads.emplace_back([&, b] {
      pthread_setname_np(pthread_self(), "envpool-make");
      try {
        for (int i = b; i < n; i += builders) {
          envs_[i] = factory.create(i);
          envs_[i]->SetEnvId(i);
          envs_[i]->Seed(config_.seeds.at(i));
        }
      } catch (...) {
        errors[b] = std::current_exception();
      }
    });
  }
  for (auto& t : threads) {
    t.join();
  }
  for (auto& e : errors) {
    if (e) {
      std::rethrow_exception(e);
    }
  }

  for (int i = 0; i < scheduler_.workers(); ++i) {
    workers_.emplace_back([this, i] { WorkerLoop(i); });
  }
}

Pool::~Pool() { Close(); }

void Pool::Close() {
  if (forked_away() || closed_.exchange(true)) {
    return;
  }
  scheduler_.Close();
  { std::lock_guard<std::mutex> lock(mu_); }
  ready_cv_.notify_all();
  for (auto& t : workers_) {
    if (t.joinable()) {
      t.join();
    }
  }
  // A Render waiting for frames the cleared queue will never draw returns
  // now that no worker can write into its buffer.
  render_.StopDrawing();
  // The envs end here rather than with the pool object: an env may hold an
  // engine process or open files that close() is expected to release.  No
  // Send runs inline and no Recv helps the workers any more.
  std::lock_guard<std::mutex> send_lock(send_mu_);
  while (recv_callers_.load() > 0) {
    ready_cv_.notify_all();
    std::this_thread::yield();
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& env : envs_) {
    env.reset();
  }
}

namespace {

// The calling thread's table of env ids seen in one send, cleared.
uint8_t* SeenTable(std::vector<uint8_t>* seen, int num_envs) {
  seen->assign(static_cast<std::size_t>(num_envs), 0);
  return seen->data();
}

}  // namespace

void Pool::CheckSendable(const int* env_ids, int n, bool reset,
                         const char* doing) const {
  if (n == 0) {
    throw std::invalid_argument("no env ids given");
  }
  // Ids in increasing order (step's, and most sends) cannot repeat; others
  // are checked against a table, per thread, so that a send does not
  // allocate (several threads may check at once: the Python binding checks
  // before it takes the pool's lock).
  const bool increasing = Increasing(env_ids, n);
  // A sync step sends every env in order with none in flight: ids in range
  // at both ends of an increasing run are all in range, and with no env in
  // flight (and episodes that reset by themselves) nothing else can fail,
  // so that the caller, whose work here the stepping threads wait for,
  // checks a batch of cheap envs in a few instructions an env.
  if (increasing && env_ids[0] >= 0 && env_ids[n - 1] < config_.num_envs &&
      pending_.load(std::memory_order_relaxed) == 0 && !RefusesEnded(reset)) {
    return;
  }
  thread_local std::vector<uint8_t> seen;
  // First without a branch per env (an async send's ids, in the order their
  // envs finished, come here every batch): the ids in range, then none seen
  // twice, in flight or (with autoreset off) ended; only a send that fails
  // is looked at again, env by env, for the error to raise.
  const int num_envs = config_.num_envs;
  unsigned out_of_range = 0;
  for (int k = 0; k < n; ++k) {
    out_of_range |= static_cast<unsigned>(static_cast<unsigned>(env_ids[k]) >=
                                          static_cast<unsigned>(num_envs));
  }
  if (out_of_range == 0) {
    uint8_t* const seen_ids = increasing ? nullptr : SeenTable(&seen, num_envs);
    const uint8_t* const in_flight = in_flight_.data();
    const EnvRecord* const records =
        RefusesEnded(reset) ? records_.data() : nullptr;
    unsigned bad = 0;
    for (int k = 0; k < n; ++k) {
      const int id = env_ids[k];
      if (seen_ids != nullptr) {
        bad |= seen_ids[id];
        seen_ids[id] = 1;
      }
      bad |= in_flight[id];
      if (records != nullptr) {
        bad |= records[id].ended;
      }
    }
    if (bad == 0) {
      return;
    }
  }
  if (!increasing) {
    seen.assign(config_.num_envs, 0);
  }
  for (int k = 0; k < n; ++k) {
    int id = env_ids[k];
    if (id < 0 || id >= config_.num_envs) {
      throw std::invalid_argument(OutOfRangeMessage(std::to_string(id)));
    }
    if (!increasing) {
      if (seen[id]) {
        throw std::invalid_argument("env_id " + std::to_string(id) +
                                    " appears twice in one call");
      }
      seen[id] = 1;
    }
    if (in_flight_[id]) {
      throw std::runtime_error(
          EnvName(id) + " is already in flight: recv() its result before " +
          doing);
    }
    // (The mode first: a record is written by the thread that stepped the
    // env, and reading it would move its line here for every env.)
    if (RefusesEnded(reset) && records_[id].ended) {
      throw std::runtime_error(
          EnvName(id) +
          " has ended its episode and autoreset_mode is 'disabled': reset it "
          "with reset(env_id=...) first");
    }
  }
}

std::shared_ptr<Block> Pool::TakeFreeBlock(int target, int first_env) {
  std::shared_ptr<Block> block;
  if (!free_blocks_.empty()) {
    block = blocks_[free_blocks_.back()];
    free_blocks_.pop_back();
  } else {
    int capacity = config_.batch_size;
    block = std::make_shared<Block>(layout_, capacity,
                                    static_cast<int>(blocks_.size()));
    blocks_.push_back(block);
  }
  block->Prepare(target, first_env);
  return block;
}

void Pool::Send(const int* env_ids, int n, bool reset, const uint64_t* seeds,
                uint64_t checked_at) {
  // One send at a time (callers may come from several threads).
  std::lock_guard<std::mutex> send_lock(send_mu_);
  if (closed_.load()) {
    throw std::runtime_error("the pool is closed");
  }
  Block* sync_block = nullptr;
  // A sync step's ids: its envs' rows, flags and homes are runs.
  const bool consecutive = Consecutive(env_ids, n);
  {
    const auto lock = LockPolling(mu_);
    // Held under the pool's lock, which the stepping threads take for the
    // rows of async batches: an async send's ids checked by the binding a
    // moment ago are not checked again unless something came in between.
    if (checked_at != sendable_epoch_.load(std::memory_order_relaxed)) {
      CheckSendable(env_ids, n, reset);
    }
    if (is_sync()) {
      auto block = TakeFreeBlock(n, consecutive ? env_ids[0] : -1);
      sync_block = block.get();
      outstanding_.push_back(std::move(block));
    }
    if (consecutive) {
      std::memset(&in_flight_[env_ids[0]], 1, n);
    } else {
      // (The byte stores may alias the vector: its data pointer read once.)
      uint8_t* const in_flight = in_flight_.data();
      for (int k = 0; k < n; ++k) {
        in_flight[env_ids[k]] = 1;
      }
    }
    pending_.fetch_add(n, std::memory_order_relaxed);
    // Last: a check that reads the new epoch sees these envs in flight.
    BumpSendableEpoch();
  }
  if (seeds != nullptr) {
    // Read by the env's turn, which the queue's lock (or this thread) orders
    // after this write.
    for (int k = 0; k < n; ++k) {
      seeds_[env_ids[k]] = seeds[k];
    }
  }
  const Task::Kind kind = reset ? Task::Kind::kReset : Task::Kind::kStep;
  if (scheduler_.SendsInline(n)) {
    // Each task built in its slot: a task built aside and then copied in
    // was written a field at a time and read back whole, a stalled load (no
    // store forwarding) per env.
    TaskChunk& tasks = inline_tasks_;
    tasks.resize(static_cast<std::size_t>(n));
    Task* const slots = tasks.data();
    const bool has_seed = seeds != nullptr;
    for (int k = 0; k < n; ++k) {
      slots[k] = Task{env_ids[k], k, sync_block, 0, kind, has_seed};
    }
    RunInline(&tasks);
    return;
  }
  scheduler_.Enqueue(env_ids, n,
                     Task{0, 0, sync_block, 0, kind, seeds != nullptr},
                     consecutive);
}

void Pool::RunInline(TaskChunk* tasks) {
  int64_t start = NowNs();
  ClaimRows(tasks);
  RowTally tally(this);
  for (const Task& t : *tasks) {
    tally.Add(RunTask(t));
  }
  tally.Flush();
  if (tasks->front().kind == Task::Kind::kStep) {
    scheduler_.cost().AddInline((NowNs() - start) /
                                static_cast<int64_t>(tasks->size()));
  }
}

void Pool::PrefetchTurn(int id) const {
  // The env's vtable, then the members a step writes: the last ones of Env
  // (its reward and flags; its generators come before them) and the first
  // ones of the env's own class, which follow.
  const auto env = reinterpret_cast<uintptr_t>(envs_[id].get());
  __builtin_prefetch(reinterpret_cast<const void*>(env));
  __builtin_prefetch(reinterpret_cast<const void*>(env + sizeof(Env) - 16), 1);
  __builtin_prefetch(reinterpret_cast<const void*>(env + sizeof(Env) + 48), 1);
  __builtin_prefetch(action_views_[id].data());
  if (!action_data_.empty()) {
    __builtin_prefetch(action_data_[0].get() + id * action_env_bytes_[0]);
  }
  __builtin_prefetch(&records_[id], 1);
}

void Pool::RunChunk(TaskChunk* tasks, ChunkSampler* sampler, RowTally* held) {
  int64_t start = NowNs();
  ClaimRows(tasks);
  const TaskChunk& chunk = *tasks;
  bool steps_only = true;
  RowTally own(this);
  RowTally& tally = held != nullptr ? *held : own;
  // An async chunk's envs are scattered, a sync chunk's consecutive (the
  // processor sees that pattern for itself).
  const Task* const end = chunk.data() + chunk.size();
  const std::size_t ahead = is_sync() ? chunk.size() : kPrefetchAhead;
  for (const Task& task : chunk) {
    if (&task + ahead < end) {
      PrefetchTurn((&task + ahead)->env_id);
    }
    if (task.kind == Task::Kind::kFrame) {
      render_.Draw(envs_[task.env_id].get(), task.env_id, task.slot);
      steps_only = false;
    } else {
      tally.Add(RunTask(task));
      steps_only = steps_only && task.kind == Task::Kind::kStep;
    }
  }
  own.Flush();
  // The estimate is of steps only (see StepCost).
  if (steps_only) {
    const bool caller_could_step = scheduler_.CallerMayStep();
    if (sampler->Add(&scheduler_.cost(), NowNs() - start,
                     static_cast<int64_t>(chunk.size())) &&
        !caller_could_step && scheduler_.CallerMayStep()) {
      // From now on the reserve leaves queued envs to the caller: wake a
      // caller waiting in Recv, which may step them now.
      std::lock_guard<std::mutex> lock(mu_);
      ready_cv_.notify_all();
    }
  }
}

void Pool::WorkerLoop(int index) {
  // Named, so that a profiler, top -H or a test can tell the pool's threads
  // from the process's others (at most 15 characters).
  pthread_setname_np(pthread_self(), "envpool-worker");
  if (config_.thread_affinity_offset >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    int cores = static_cast<int>(std::thread::hardware_concurrency());
    CPU_SET((config_.thread_affinity_offset + index) % std::max(cores, 1),
            &set);
    pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
  }
  TaskChunk chunk;
  ChunkSampler sampler;
  // A sync batch's rows are counted in once the thread finds no more of its
  // tasks queued, not at the end of each chunk: the count is a line that
  // every stepping thread writes, and a batch of cheap envs is a few chunks
  // a thread. A thread's rows wait for nothing meanwhile: the batch is not
  // ready before the thread's next chunk of it is done either. (The reserve
  // takes only when the caller may not, so it counts each chunk in.)
  const bool holds_rows =
      is_sync() &&
      !(scheduler_.has_reserve() && index == scheduler_.stepping_workers());
  RowTally tally(this);
  while (true) {
    if (!(holds_rows && scheduler_.TryTake(index, &chunk))) {
      tally.Flush();
      if (!scheduler_.TakeOrWait(index, &chunk)) {
        break;
      }
    }
    RunChunk(&chunk, &sampler, holds_rows ? &tally : nullptr);
  }
  tally.Flush();
}

// One env's turn, in the order of its lifecycle: reset or step, claim a row
// of a batch, write the env's arrays and the pool's columns, start the next
// episode at once in same_step mode. Returns the block of the row, which the
// caller counts in (see RowTally).
Block* Pool::RunTask(const Task& task) {
  Env& env = *envs_[task.env_id];
  std::string error;
  const Outcome outcome = Advance(task, &env, &error);
  const Row row = ClaimRow(task, env);
  Output out(row.block, row.slot, row.player_row);
  // An env whose reset or step threw may be half-way through it: it is not
  // written (the next batch taken raises the error), and its row still gets
  // the pool's columns, which say which env it is.
  if (error.empty()) {
    Guarded(task.env_id, &error, [&] {
      if (per_player_actions_ && row.players != layout_.rows_per_env) {
        // The caller sends max_num_players action rows per env, so that its
        // batch of actions does not depend on the last results.
        throw std::logic_error(
            "it has " + std::to_string(row.players) +
            " players, but an env with per-player actions must always have "
            "max_num_players=" +
            std::to_string(layout_.rows_per_env));
      }
      env.Write(out);
      if (outcome.started_episode) {
        for (int p = 0; p < row.players; ++p) {
          out.SetReward(0.0, p);
        }
      } else {
        env.WriteReward(out);
      }
    });
  }
  WritePoolColumns(task.env_id, outcome, row, env);
  if (config_.autoreset_mode == AutoresetMode::kSameStep &&
      records_[task.env_id].ended) {
    StartNextEpisode(task.env_id, row, &env, out, &error);
  }
  if (!error.empty()) {
    std::lock_guard<std::mutex> lock(mu_);
    if (error_.empty()) {
      error_ = error;
    }
  }
  return row.block;
}

template <typename F>
void Pool::Guarded(int env_id, std::string* error, F&& body) {
  try {
    body();
  } catch (const std::exception& e) {
    if (error->empty()) {
      *error = config_.task_id + " " + EnvName(env_id) + ": " + e.what();
    }
  }
}

Pool::Outcome Pool::Advance(const Task& task, Env* env, std::string* error) {
  const int id = task.env_id;
  // A never-reset env's first turn is its (seeded) reset, whatever was sent.
  // Locals, captured by value, and the outcome built from them at the end:
  // an outcome the guarded body wrote through a reference lived in memory,
  // a byte at a time, and was read back whole (a stalled load per env).
  EnvRecord& record = records_[id];
  const bool started =
      task.kind == Task::Kind::kReset || record.unstarted ||
      (record.ended && config_.autoreset_mode == AutoresetMode::kNextStep);
  Guarded(id, error, [this, &task, &record, env, id, started] {
    if (started) {
      if (task.has_seed) {
        env->Seed(seeds_[id]);
      }
      env->Reset();
      record.elapsed = 0;
      record.unstarted = 0;
    } else {
      env->Step(ActionView(&action_views_[id], &action_player_strides_));
      ++record.elapsed;
    }
  });
  const bool terminated = !started && env->terminated();
  // As gymnasium's TimeLimit: an episode that terminates on its last allowed
  // step is both terminated and truncated.
  const bool truncated =
      !started && ((config_.max_episode_steps > 0 &&
                    record.elapsed >= config_.max_episode_steps) ||
                   env->truncated());
  record.ended = terminated || truncated;
  return Outcome{started, terminated, truncated};
}

int Pool::NextAsyncRows(int wanted, Block** block, int* first) {
  if (filling_ == nullptr) {
    auto fresh = TakeFreeBlock(config_.batch_size);
    filling_ = fresh.get();
    outstanding_.push_back(std::move(fresh));
  }
  *block = filling_;
  *first = filling_->acquired_;
  const int rows = std::min(wanted, filling_->target_ - *first);
  filling_->acquired_ += rows;
  if (filling_->acquired_ == filling_->target_) {
    filling_ = nullptr;
  }
  return rows;
}

void Pool::ClaimRows(TaskChunk* tasks) {
  // Steps only, once steps have been timed: the chunk is then about
  // Scheduler::kChunkNs of work. Before, or with resets (whose cost the
  // estimate does not know), a chunk may be a large share of the queue, and one
  // that claimed a whole batch would hold it until its last env is done.
  if (is_sync() || tasks->size() < 2 || scheduler_.cost().ns() == 0) {
    return;
  }
  for (const Task& task : *tasks) {
    if (task.kind != Task::Kind::kStep || task.block != nullptr) {
      return;
    }
  }
  // The chunk's rows a batch at a time: the block's count is written once
  // per batch, not per env.
  const auto lock = LockPolling(mu_);
  Task* task = tasks->data();
  for (int left = static_cast<int>(tasks->size()); left > 0;) {
    Block* block = nullptr;
    int first = 0;
    const int rows = NextAsyncRows(left, &block, &first);
    for (int k = 0; k < rows; ++k) {
      task[k].block = block;
      task[k].slot = first + k;
    }
    task += rows;
    left -= rows;
  }
}

Pool::Row Pool::ClaimRow(const Task& task, const Env& env) {
  // Sync mode, or a chunk's turn (ClaimRows): the row is fixed already.
  // Async: the next free row of the batch being filled, now that the result
  // is known.
  Row row{task.block, task.slot, 0, env.NumPlayers()};
  if (row.block == nullptr) {
    const auto lock = LockPolling(mu_);
    NextAsyncRows(1, &row.block, &row.slot);
  }
  row.player_row = layout_.rows_per_env == 1
                       ? row.slot
                       : row.block->player_rows_.fetch_add(row.players);
  return row;
}

void Pool::WritePoolColumns(int id, const Outcome& outcome, const Row& row,
                            const Env& env) {
  Block* block = row.block;
  const int slot = row.slot;
  block->terminated_[slot] = outcome.terminated;
  block->truncated_[slot] = outcome.truncated;
  block->env_ids_[slot] = id;
  EnvRecord& record = records_[id];
  block->elapsed_steps_[slot] = static_cast<int32_t>(record.elapsed);
  if (layout_.players_env_id >= 0) {
    for (int p = 0; p < row.players; ++p) {
      *static_cast<int32_t*>(
          block->Row(layout_.players_env_id, row.player_row + p)) = id;
      *static_cast<int32_t*>(
          block->Row(layout_.players_id, row.player_row + p)) = p;
    }
  }
  const bool ended = record.ended != 0;
  if (layout_.episode_mask >= 0) {
    record.episode_return =
        outcome.started_episode ? 0.0 : record.episode_return + env.reward();
    *static_cast<bool*>(block->Row(layout_.episode_mask, slot)) = ended;
    *static_cast<double*>(block->Row(layout_.episode_return, slot)) =
        ended ? record.episode_return : 0.0;
    *static_cast<int32_t*>(block->Row(layout_.episode_length, slot)) =
        ended ? static_cast<int32_t>(record.elapsed) : 0;
  }
  if (layout_.final_mask >= 0) {
    *static_cast<bool*>(block->Row(layout_.final_mask, slot)) = ended;
  }
}

void Pool::StartNextEpisode(int id, const Row& row, Env* env, const Output& out,
                            std::string* error) {
  // Keep the last state of the episode, then start the next one in the same
  // step, as gymnasium's AutoresetMode.SAME_STEP does.
  Block* block = row.block;
  for (int c = 0; c < layout_.num_state; ++c) {
    const ArraySpec& column = layout_.columns[c];
    int first = column.per_player ? row.player_row : row.slot;
    int rows = column.per_player ? row.players : 1;
    std::memcpy(block->Row(layout_.final_state + c, first),
                block->Row(c, first), column.RowBytes() * rows);
  }
  *static_cast<int32_t*>(block->Row(layout_.final_elapsed_step, row.slot)) =
      static_cast<int32_t>(records_[id].elapsed);
  Guarded(id, error, [&] {
    env->Reset();
    env->Write(out);
  });
  records_[id] = EnvRecord{0, 0.0, 0, 0};
  *static_cast<int32_t*>(block->Row(layout_.elapsed_step, row.slot)) = 0;
}

void Pool::CountRowsIn(Block* block, int rows) {
  // Read the target first: once the count is in, the block may be received
  // and reused by another batch.
  const int target = block->target_;
  if (block->written_.fetch_add(rows) + rows == target) {
    {
      const auto lock = LockPolling(mu_);
      block->ready_ = true;
      ready_blocks_.fetch_add(1, std::memory_order_release);
    }
    // Outside the lock: a waiter woken while the lock is still held would
    // only sleep again on it.
    ready_cv_.notify_all();
  }
}

std::shared_ptr<Block> Pool::TryRecv() {
  if (closed_.load()) {
    throw std::runtime_error("the pool is closed");
  }
  const auto lock = LockPolling(mu_);
  if (!FrontReadyLocked() || closed_.load()) {
    return nullptr;
  }
  return TakeFront();
}

std::shared_ptr<Block> Pool::Recv(int64_t timeout_ns) {
  // Counted before closed_ is read: Close either sees this caller or this
  // caller sees closed_.
  recv_callers_.fetch_add(1);
  struct Leave {
    std::atomic<int>* callers;
    ~Leave() { callers->fetch_sub(1); }
  } leave{&recv_callers_};
  if (closed_.load()) {
    throw std::runtime_error("the pool is closed");
  }
  {
    const auto lock = LockPolling(mu_);
    if (FrontReadyLocked() && !closed_.load()) {
      // The batch is there: taken under this one lock (the stepping threads
      // take it too, for every chunk).
      return TakeFront();
    }
    bool can_arrive = is_sync() ? !outstanding_.empty()
                                : pending_.load(std::memory_order_relaxed) >=
                                      config_.batch_size;
    if (!can_arrive) {
      throw std::runtime_error(
          "recv() would wait forever: " +
          std::to_string(pending_.load(std::memory_order_relaxed)) +
          " envs are in flight and a batch needs " +
          std::to_string(is_sync() ? 1 : config_.batch_size) +
          "; send() actions or reset first");
    }
  }
  const auto deadline =
      std::chrono::steady_clock::now() +
      std::chrono::nanoseconds(std::max<int64_t>(timeout_ns, 0));
  // Kept from call to call: a chunk of cheap envs is a few kilobytes.
  thread_local TaskChunk chunk;
  // The calling thread's timed chunks, kept from one Recv to the next of
  // the same pool (a thread that turns to another pool starts afresh).
  thread_local struct {
    const Pool* pool = nullptr;
    ChunkSampler sampler;
  } caller;
  if (caller.pool != this) {
    caller.pool = this;
    caller.sampler = ChunkSampler{};
  }
  ChunkSampler& sampler = caller.sampler;
  bool polled = false;
  while (true) {
    {
      std::unique_lock<std::mutex> lock = LockPolling(mu_);
      if (closed_.load()) {
        throw std::runtime_error("the pool was closed while waiting in recv()");
      }
      // Taken under the lock that found it ready: another thread's Recv may
      // take it as soon as the lock is let go.
      if (FrontReadyLocked()) {
        return TakeFront();
      }
      // Whether this thread helps the workers while the batch is being
      // filled: asked again at each turn, since the step-cost estimate that
      // decides it may change during the wait (RunChunk then wakes it).
      auto wakeup = [&] {
        return FrontReadyLocked() || closed_.load() ||
               (scheduler_.RecvSteps() && scheduler_.queued() > 0);
      };
      const bool steps = scheduler_.RecvSteps();
      if (timeout_ns >= 0 && std::chrono::steady_clock::now() >= deadline) {
        return nullptr;  // nothing taken: a later Recv gets the batch
      }
      if (scheduler_.queued() == 0 && is_sync() && timeout_ns != 0 && !polled &&
          steps) {
        // The rest of a sync batch is on the workers' last envs. The caller
        // is one of the stepping threads (a core of its own), so it polls
        // for a while, as an idle worker does, before it sleeps (see
        // Scheduler::CallerSpinNs). It polls no later than the deadline of
        // a timeout. A caller that steps no env (a contended pool, or
        // steps too long for it) sleeps at once: its core is the workers'.
        polled = true;
        const uint64_t seen = ready_blocks_.load(std::memory_order_acquire);
        lock.unlock();
        int64_t until = NowNs() + scheduler_.CallerSpinNs();
        if (timeout_ns > 0) {
          until = std::min<int64_t>(
              until, std::chrono::duration_cast<std::chrono::nanoseconds>(
                         deadline.time_since_epoch())
                         .count());
        }
        PollUntil(until, [&] {
          return closed_.load() ||
                 scheduler_.queued(std::memory_order_relaxed) != 0 ||
                 ready_blocks_.load(std::memory_order_acquire) != seen;
        });
        continue;
      }
      polled = false;
      if (!steps || scheduler_.queued() == 0) {
        if (timeout_ns < 0) {
          ready_cv_.wait(lock, wakeup);
        } else if (!ready_cv_.wait_until(lock, deadline, wakeup)) {
          return nullptr;
        }
        continue;
      }
    }
    if (scheduler_.TryTake(scheduler_.callers_home(), &chunk)) {
      if (!is_sync()) {
        // An async batch may be ready after any chunk: looked at after each.
        RunChunk(&chunk, &sampler, nullptr);
      } else {
        // A sync batch is ready only once no task of it is left: the rows
        // are counted in once, as a worker's are (see WorkerLoop).
        RowTally tally(this);
        do {
          RunChunk(&chunk, &sampler, &tally);
        } while (scheduler_.RecvSteps() &&
                 scheduler_.TryTake(scheduler_.callers_home(), &chunk));
        tally.Flush();
      }
    }
  }
}

std::shared_ptr<Block> Pool::TakeFront() {
  std::shared_ptr<Block> block = outstanding_.front();
  outstanding_.pop_front();
  int n = block->target_;
  if (block->first_env_ >= 0) {
    // A sync step's batch: its env_id column, half of it written on other
    // cores, is not read here.
    std::memset(&in_flight_[block->first_env_], 0, n);
  } else {
    const int32_t* ids =
        static_cast<const int32_t*>(block->Column(layout_.env_id));
    for (int k = 0; k < n; ++k) {
      in_flight_[ids[k]] = 0;
    }
  }
  pending_.fetch_sub(n, std::memory_order_relaxed);
  if (!error_.empty()) {
    std::string error = std::move(error_);
    error_.clear();
    free_blocks_.push_back(block->id());
    throw std::runtime_error(error);
  }
  return block;
}

void Pool::CheckRenderable(const int* env_ids, int n) {
  CheckSendable(env_ids, n, true, "rendering it");
  for (int k = 0; k < n; ++k) {
    if (records_[env_ids[k]].unstarted) {
      throw std::runtime_error(EnvName(env_ids[k]) +
                               " has not been reset yet: nothing to render");
    }
  }
}

void Pool::Render(const int* env_ids, int n, int camera_id, uint8_t* rgb) {
  std::lock_guard<std::mutex> send_lock(send_mu_);
  if (closed_.load()) {
    throw std::runtime_error("the pool is closed");
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    CheckRenderable(env_ids, n);
  }
  // Sends wait for send_mu_, so none of these envs starts a turn meanwhile.
  render_.Begin(rgb, spec_.render_width, spec_.render_height, camera_id, n);
  if (workers_.empty() || n == 1) {
    for (int k = 0; k < n; ++k) {
      render_.Draw(envs_[env_ids[k]].get(), env_ids[k], k);
    }
  } else {
    scheduler_.Enqueue(env_ids, n,
                       Task{0, 0, nullptr, 0, Task::Kind::kFrame, false});
    render_.Wait();
  }
  render_.ThrowIfFailed();
}

std::string Pool::RenderText(int env_id) {
  std::lock_guard<std::mutex> send_lock(send_mu_);
  if (closed_.load()) {
    throw std::runtime_error("the pool is closed");
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    CheckRenderable(&env_id, 1);
  }
  try {
    return envs_[env_id]->RenderText();
  } catch (const std::exception& e) {
    throw std::runtime_error(EnvName(env_id) + ": " + e.what());
  }
}

std::vector<double> Pool::GetEnvState(int env_id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_.load()) {
    throw std::runtime_error("the pool is closed");
  }
  CheckSendable(&env_id, 1, true, "reading its state");
  return envs_[env_id]->GetState();
}

void Pool::SetEnvState(int env_id, const std::vector<double>& state) {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_.load()) {
    throw std::runtime_error("the pool is closed");
  }
  CheckSendable(&env_id, 1, true, "setting its state");
  envs_[env_id]->SetState(state);
  // A state put in place is a started episode.
  records_[env_id].unstarted = 0;
}

namespace {

// A state's header: what it is, which format, which id; then a checksum of
// the body, so that a corrupted state is refused rather than loaded.
constexpr char kStateMagic[8] = {'E', 'P', 'S', 'T', 'A', 'T', 'E', '\0'};
constexpr uint32_t kStateFormat = 1;

uint64_t Checksum(const char* data, std::size_t size) {  // FNV-1a
  uint64_t hash = 14695981039346656037ULL;
  for (std::size_t i = 0; i < size; ++i) {
    hash = (hash ^ static_cast<uint8_t>(data[i])) * 1099511628211ULL;
  }
  return hash;
}

}  // namespace

void Pool::CheckSnapshots(const int* env_ids, int n) {
  if (!spec_.snapshots) {
    throw std::logic_error(config_.task_id +
                           " does not support get_state/set_state yet");
  }
  CheckSendable(env_ids, n, true, "saving or loading its state");
}

std::string Pool::SaveEnv(int env_id) const {
  std::string body;
  StateWriter writer(&body);
  const EnvRecord& record = records_[env_id];
  writer.Put(record.elapsed, record.ended, record.unstarted,
             record.episode_return);
  const Env& env = *envs_[env_id];
  env.SaveBaseState(&writer);
  env.SaveState(&writer);
  std::string state;
  StateWriter header(&state);
  header.PutBytes(kStateMagic, sizeof(kStateMagic));
  header.Put(kStateFormat, config_.task_id, Checksum(body.data(), body.size()));
  state += body;
  return state;
}

void Pool::LoadEnv(int env_id, const std::string& state) {
  StateReader reader(state.data(), state.size());
  char magic[sizeof(kStateMagic)] = {};
  reader.GetBytes(magic, sizeof(magic));
  if (std::memcmp(magic, kStateMagic, sizeof(magic)) != 0) {
    throw SnapshotError("not a state of an envpool env");
  }
  uint32_t format = 0;
  reader.Get(&format);
  if (format != kStateFormat) {
    throw SnapshotError("a state of format " + std::to_string(format) +
                        "; this envpool reads format " +
                        std::to_string(kStateFormat));
  }
  std::string task_id;
  uint64_t checksum = 0;
  reader.Get(&task_id, &checksum);
  if (task_id != config_.task_id) {
    throw SnapshotError("a state of " + task_id + " cannot be restored into " +
                        config_.task_id);
  }
  const char* body = state.data() + (state.size() - reader.left());
  if (Checksum(body, reader.left()) != checksum) {
    throw SnapshotError("the state of " + task_id + " is corrupt");
  }
  int64_t elapsed = 0;
  uint8_t ended = 0;
  uint8_t unstarted = 0;
  double episode_return = 0;
  reader.Get(&elapsed, &ended, &unstarted, &episode_return);
  Env& env = *envs_[env_id];
  env.LoadBaseState(&reader);
  env.LoadState(&reader);
  if (reader.left() != 0) {
    throw SnapshotError("the state of " + task_id +
                        " has bytes its env does not read: another build or "
                        "options");
  }
  records_[env_id] = EnvRecord{elapsed, episode_return, ended, unstarted};
  // An ended env cannot be stepped with autoreset off.
  BumpSendableEpoch();
}

std::vector<std::string> Pool::GetState(const int* env_ids, int n) {
  std::lock_guard<std::mutex> send_lock(send_mu_);
  if (closed_.load()) {
    throw std::runtime_error("the pool is closed");
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    CheckSnapshots(env_ids, n);
  }
  // Sends wait for send_mu_, so none of these envs starts a turn meanwhile.
  std::vector<std::string> states;
  states.reserve(n);
  for (int k = 0; k < n; ++k) {
    states.push_back(SaveEnv(env_ids[k]));
  }
  return states;
}

void Pool::SetState(const int* env_ids, int n,
                    const std::vector<std::string>& states) {
  std::lock_guard<std::mutex> send_lock(send_mu_);
  if (closed_.load()) {
    throw std::runtime_error("the pool is closed");
  }
  if (static_cast<int>(states.size()) != n) {
    throw std::invalid_argument(std::to_string(states.size()) + " states for " +
                                std::to_string(n) + " envs");
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    CheckSnapshots(env_ids, n);
  }
  // Each env's own state first, to put back where a state fails to load.
  std::vector<std::string> before;
  before.reserve(n);
  for (int k = 0; k < n; ++k) {
    before.push_back(SaveEnv(env_ids[k]));
  }
  int k = 0;
  try {
    for (; k < n; ++k) {
      LoadEnv(env_ids[k], states[k]);
    }
  } catch (...) {
    for (int j = 0; j <= k && j < n; ++j) {
      LoadEnv(env_ids[j], before[j]);
    }
    throw;
  }
}

void Pool::Release(int block_id) {
  std::lock_guard<std::mutex> lock(mu_);
  free_blocks_.push_back(block_id);
}

}  // namespace envpool
