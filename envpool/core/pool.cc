#include "envpool/core/pool.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <utility>

namespace envpool {
namespace {

// A batch is stepped on the calling thread below this estimated work: a
// hand-off to a worker and back costs about 5 us, and on two threads saves
// about half the batch's work. On 2 cores, timed in alternation against the
// former 20 us: CheetahRun (about 6 us a step) async num_envs=8,
// batch_size=4: 0.95 -> 0.98 of the machine's limit, sync num_envs=2: 0.55
// -> 0.78, sync num_envs=8: 1.01 -> 1.06; CartPole (0.3 us) sync
// num_envs=16 the same (inline either way), num_envs=64 0.97x of inline.
// (With 20 us, CheetahRun's batches of up to 4 envs ran on one thread
// whenever its estimate fell below 5 us, while the worker slept.)
constexpr int64_t kInlineBudgetNs = 10000;
// An idle worker polls for new tasks before it sleeps, and a sync Recv polls
// for the workers' last envs, for kSpinSteps x the estimated step cost,
// within [kMinSpinNs, kMaxSpinNs]. Waking a sleeping thread costs about
// 100 us on a virtual machine. In a sync batch of expensive envs the threads
// that finish first wait for the others' last envs (up to one step), so a
// fixed spin shorter than a step made HumanoidWalk's worker sleep in one
// batch of six at num_envs=8, about 15 us lost per 470 us batch (2 us with
// this spin).
constexpr int64_t kMinSpinNs = 80000;
constexpr int64_t kMaxSpinNs = 500000;
constexpr int64_t kSpinSteps = 4;
// A worker takes at most about this much work from the queue at once.
constexpr int64_t kChunkNs = 10000;

// Whether a batch of n envs, each estimated to cost cost_ns per step (0
// until steps have been timed), is cheaper to step on the calling thread.
bool CheaperInline(int64_t cost_ns, int n) {
  return cost_ns > 0 && cost_ns * n < kInlineBudgetNs;
}

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

ArraySpec PoolColumn(const char* name, DType dtype, bool per_player) {
  ArraySpec spec;
  spec.name = name;
  spec.dtype = dtype;
  spec.per_player = per_player;
  return spec;
}

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Polls done() until it holds or the clock passes until_ns (read every 16
// pauses); returns whether done() held.
template <typename Done>
bool PollUntil(int64_t until_ns, Done done) {
  for (int i = 1;; ++i) {
    if (done()) {
      return true;
    }
    CpuRelax();
    if (i % 16 == 0 && NowNs() >= until_ns) {
      return false;
    }
  }
}

std::string EnvName(int env_id) { return "env " + std::to_string(env_id); }

}  // namespace

BlockLayout BlockLayout::Make(const EnvSpec& spec, const PoolConfig& config) {
  BlockLayout layout;
  bool multi = spec.max_num_players > 1;
  layout.rows_per_env = spec.max_num_players;
  layout.columns = spec.state.specs();
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
  }
}

void Block::Prepare(int target) {
  target_ = target;
  acquired_ = 0;
  written_.store(0);
  player_rows_.store(0);
  ready_ = false;
}

void* Output::Row(int state_index, int player) const {
  // The first columns of a block are the env's state arrays, in order.
  return block_->Row(state_index, player_row_ + player);
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

Pool::Pool(const EnvClass& env_class, const Options& options, PoolConfig config)
    : config_(std::move(config)) {
  if (config_.batch_size == 0) {
    config_.batch_size = config_.num_envs;
  }
  // Declared once: every env gets the same handles.
  EnvFactory factory = env_class.prepare(options);
  spec_ = factory.spec;
  layout_ = BlockLayout::Make(spec_, config_);
  int n = config_.num_envs;
  elapsed_.assign(n, 0);
  episode_return_.assign(n, 0.0);
  ended_.assign(n, 0);
  unstarted_.assign(n, 1);
  in_flight_.assign(n, 0);
  seeds_.assign(n, 0);
  for (const ArraySpec& a : spec_.action.specs()) {
    action_row_bytes_.push_back(a.RowBytes());
    action_data_.push_back(std::make_unique<uint8_t[]>(a.RowBytes() * n));
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
          envs_[i] = factory.create();
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

  const int cores =
      std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  int num_threads = config_.num_threads;
  const bool default_threads = num_threads <= 0;
  if (default_threads) {
    num_threads = std::min(config_.batch_size, cores);
  }
  // num_threads counts the threads that step envs. In sync mode the calling
  // thread is one of them: it steps envs while it waits in Recv, so one
  // worker fewer keeps the threads from outnumbering the cores. An async
  // pool given num_threads has that many workers. By default it has one
  // worker fewer too, and the caller steps queued envs in Recv (below): the
  // caller's own work between recv and send needs a core, and with a worker
  // on every core it takes one from a worker, so that each batch handed to
  // the caller costs two context switches (CheetahRun at num_envs=8,
  // batch_size=4 on 2 cores: 0.67-0.74 of the machine's limit with two
  // workers, 0.83 with one worker and the caller, timed in alternation).
  // Not so where a step's work runs elsewhere (spec_.steps_elsewhere): a
  // worker then mostly waits, and with the caller stepping too, the envs
  // that run while the caller is away from the pool are the one worker's
  // (ViZDoom on 2 cores, batch_size = num_envs / 2, one worker and the
  // caller against two workers: Basic-v1 N=8 2,240 against 2,810-3,060
  // steps/s, D1Basic-v1 N=8 6,200-6,400 against 8,600-9,100, D3Battle-v1
  // N=16 3,900-4,200 against 6,600-6,900).
  int workers = num_threads;
  if (is_sync()) {
    workers = num_threads - 1;
  } else if (default_threads && !spec_.steps_elsewhere) {
    workers = std::max(1, num_threads - 1);
  }
  queues_.resize(static_cast<std::size_t>(workers) + 1);
  for (TaskRing& queue : queues_) {
    queue.Reserve(static_cast<std::size_t>(n));
  }
  for (int i = 0; i < workers; ++i) {
    workers_.emplace_back([this, i] { WorkerLoop(i); });
  }
  // An async Recv steps queued envs itself only where that takes no core
  // from a worker, or where the workers would otherwise wait for it: with a
  // worker per core, a caller stepping too makes one thread more than
  // cores, and the kernel then time-slices envs on a core (BipedalWalker at
  // num_envs=8, batch_size=4 on 2 cores: 0.84 of the machine's limit with
  // the caller stepping, 0.93 without). But a batch smaller than the
  // workers leaves a worker with nothing queued while the caller wakes up
  // to send (num_envs=2, batch_size=1: 0.81 stepping, 0.51 not).
  caller_steps_ = is_sync() || workers < cores || config_.batch_size < workers;
  // The first homes deal the envs out in turn to the threads that step. In
  // async mode Recv takes no envs of its own (see PopTasks).
  const int homes = workers + (is_sync() || workers == 0 ? 1 : 0);
  std::lock_guard<std::mutex> lock(task_mu_);
  home_.resize(envs_.size());
  for (std::size_t id = 0; id < home_.size(); ++id) {
    home_[id] = static_cast<int>(id % static_cast<std::size_t>(homes));
  }
}

Pool::~Pool() { Close(); }

void Pool::Close() {
  if (closed_.exchange(true)) {
    return;
  }
  {
    std::lock_guard<std::mutex> lock(task_mu_);
    for (auto& queue : queues_) {
      queue.clear();
    }
    num_tasks_.store(0);
  }
  task_cv_.notify_all();
  { std::lock_guard<std::mutex> lock(mu_); }
  ready_cv_.notify_all();
  for (auto& t : workers_) {
    if (t.joinable()) {
      t.join();
    }
  }
  // A Render waiting for frames the cleared queue will never draw returns
  // now that no worker can write into its buffer.
  {
    std::lock_guard<std::mutex> lock(render_mu_);
    render_.workers_joined = true;
  }
  render_cv_.notify_all();
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

void Pool::CheckSendable(const int* env_ids, int n, bool reset) const {
  if (n == 0) {
    throw std::invalid_argument("no env ids given");
  }
  // Ids in increasing order (step's, and most sends) cannot repeat; others
  // are checked against a table, per thread, so that a send does not
  // allocate (several threads may check at once: the Python binding checks
  // before it takes the pool's lock).
  bool increasing = true;
  for (int k = 1; k < n && increasing; ++k) {
    increasing = env_ids[k] > env_ids[k - 1];
  }
  thread_local std::vector<uint8_t> seen;
  if (!increasing) {
    seen.assign(config_.num_envs, 0);
  }
  for (int k = 0; k < n; ++k) {
    int id = env_ids[k];
    if (id < 0 || id >= config_.num_envs) {
      throw std::invalid_argument(
          "env_id " + std::to_string(id) +
          " is out of range: " + config_.task_id +
          " has num_envs=" + std::to_string(config_.num_envs));
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
          EnvName(id) +
          " is already in flight: recv() its result before sending to it "
          "again");
    }
    if (!reset && ended_[id] &&
        config_.autoreset_mode == AutoresetMode::kDisabled) {
      throw std::runtime_error(
          EnvName(id) +
          " has ended its episode and autoreset_mode is 'disabled': reset it "
          "with reset(env_id=...) first");
    }
  }
}

std::shared_ptr<Block> Pool::TakeFreeBlock(int target) {
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
  block->Prepare(target);
  return block;
}

void Pool::Send(const int* env_ids, int n, bool reset, const uint64_t* seeds) {
  // One send at a time (callers may come from several threads).
  std::lock_guard<std::mutex> send_lock(send_mu_);
  if (closed_.load()) {
    throw std::runtime_error("the pool is closed");
  }
  Block* sync_block = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    CheckSendable(env_ids, n, reset);
    if (is_sync()) {
      auto block = TakeFreeBlock(n);
      sync_block = block.get();
      outstanding_.push_back(std::move(block));
    }
    for (int k = 0; k < n; ++k) {
      in_flight_[env_ids[k]] = 1;
    }
    pending_ += n;
  }
  if (seeds != nullptr) {
    // Read by the env's turn, which the queue's lock (or this thread) orders
    // after this write.
    for (int k = 0; k < n; ++k) {
      seeds_[env_ids[k]] = seeds[k];
    }
  }
  // Step on the calling thread when a hand-off would cost more than the work
  // (known once steps have been timed), or when a sync batch of one env
  // leaves nothing to run in parallel (the caller would only wait for the
  // worker).
  const int64_t cost = step_cost_ns_.load(std::memory_order_relaxed);
  if (CheaperInline(cost, n) || (is_sync() && n == 1) || workers_.empty()) {
    std::vector<Task>& tasks = inline_tasks_;
    tasks.clear();
    for (int k = 0; k < n; ++k) {
      tasks.push_back(
          Task{env_ids[k], k, sync_block, 0, reset, seeds != nullptr, false});
    }
    RunInline(&tasks);
    return;
  }
  Enqueue(env_ids, n,
          Task{0, 0, sync_block, 0, reset, seeds != nullptr, false});
  if (sleeping_workers_.load() > 0) {
    task_cv_.notify_all();
  }
}

void Pool::RunInline(std::vector<Task>* tasks) {
  int64_t start = NowNs();
  ClaimRows(tasks);
  RowTally tally(this);
  for (const Task& t : *tasks) {
    tally.Add(RunTask(t));
  }
  tally.Flush();
  // The estimate is of steps: a reset may cost far less (or more) than a
  // step, and the estimate decides what the next steps do.
  if (tasks->front().reset) {
    return;
  }
  int64_t per_env = (NowNs() - start) / static_cast<int64_t>(tasks->size());
  int64_t old = step_cost_ns_.load(std::memory_order_relaxed);
  step_cost_ns_.store(old == 0 ? per_env : (old * 7 + per_env) / 8,
                      std::memory_order_relaxed);
}

void Pool::Enqueue(const int* env_ids, int n, const Task& like) {
  std::lock_guard<std::mutex> lock(task_mu_);
  for (int k = 0; k < n; ++k) {
    // Built whole, not copied from `like` and then written field by field:
    // the queue's copy of it would stall on those narrow stores.
    const int id = env_ids[k];
    queues_[home_[id]].push_back(Task{id, k, like.block, queued_tasks_++,
                                      like.reset, like.has_seed, like.render});
  }
  num_tasks_.fetch_add(n);
}

bool Pool::PopTasks(std::vector<Task>* chunk, bool wait, int self) {
  chunk->clear();
  if (!wait && num_tasks_.load() == 0) {
    return false;
  }
  std::unique_lock<std::mutex> lock(task_mu_);
  if (wait) {
    sleeping_workers_.fetch_add(1);
    task_cv_.wait(lock,
                  [this] { return num_tasks_.load() > 0 || closed_.load(); });
    sleeping_workers_.fetch_sub(1);
  }
  const int queued = num_tasks_.load();
  if (queued == 0) {
    return false;
  }
  // A thread takes the oldest tasks of its own queue, with two exceptions.
  // - A task queued more than num_envs tasks before that one goes first,
  //   whoever takes it: a thread that falls behind (descheduled on a core
  //   it shares) does not hold its envs back while the others go round.
  // - A thread with nothing of its own takes, in async mode, the oldest
  //   task; in sync mode, the newest ones of the fullest queue, which the
  //   owner would come to last: the two then do not take turns at the same
  //   end, where each turn would move an env to the other thread.
  TaskRing* own = &queues_[self];
  TaskRing* oldest = nullptr;
  TaskRing* fullest = own;
  for (auto& queue : queues_) {
    if (!queue.empty() && (oldest == nullptr ||
                           static_cast<int32_t>(queue.front().order -
                                                oldest->front().order) < 0)) {
      oldest = &queue;
    }
    if (queue.size() > fullest->size()) {
      fullest = &queue;
    }
  }
  if (oldest == nullptr) {
    return false;  // not reached: num_tasks_ counts the queues' tasks
  }
  TaskRing* source = own;
  bool front = true;
  // An async Recv drains the queues in the order of the sends, as one queue
  // would, and keeps no envs: the caller steps only while it waits, and a
  // Send that steps its envs inline (cheap envs) fills the next batch before
  // the queued ones, which would otherwise wait for a worker (CartPole, 8
  // envs, batch_size 3: with a worker slow to start, the caller's own four
  // envs filled 20 batches in a row).
  const bool keeps = is_sync() || self != callers_home();
  if (!keeps) {
    source = oldest;
  } else if (own->empty()) {
    source = is_sync() ? fullest : oldest;
    front = !is_sync();
  } else if (static_cast<uint32_t>(own->front().order - oldest->front().order) >
             envs_.size()) {
    source = oldest;
  }
  // Cheap envs are taken several at a time, so that the queue's lock is not
  // paid per env; a chunk stays a fair share of what is queued, and a thread
  // takes at most half of another's queue.
  int64_t cost =
      std::max<int64_t>(step_cost_ns_.load(std::memory_order_relaxed), 1);
  std::size_t share = std::max<std::size_t>(
      1, static_cast<std::size_t>(queued) / queues_.size());
  std::size_t most = source == own ? source->size() : (source->size() + 1) / 2;
  std::size_t take = std::clamp<std::size_t>(
      static_cast<std::size_t>(kChunkNs / cost), 1, std::min(share, most));
  for (std::size_t i = 0; i < take; ++i) {
    if (front) {
      chunk->push_back(source->front());
      source->pop_front();
    } else {
      chunk->push_back(source->back());
      source->pop_back();
    }
    if (keeps) {
      home_[chunk->back().env_id] = self;
    }
  }
  num_tasks_.fetch_sub(static_cast<int>(take));
  return true;
}

void Pool::RunChunk(std::vector<Task>* tasks) {
  int64_t start = NowNs();
  ClaimRows(tasks);
  const std::vector<Task>& chunk = *tasks;
  bool steps_only = true;
  RowTally tally(this);
  for (const Task& task : chunk) {
    if (task.render) {
      RunRender(task);
      steps_only = false;
    } else {
      tally.Add(RunTask(task));
      steps_only = steps_only && !task.reset;
    }
  }
  tally.Flush();
  if (!steps_only) {
    return;  // the estimate is of steps only, as in RunInline
  }
  int64_t cost = (NowNs() - start) / static_cast<int64_t>(chunk.size());
  int64_t old = step_cost_ns_.load(std::memory_order_relaxed);
  step_cost_ns_.store(old == 0 ? cost : (old * 15 + cost) / 16,
                      std::memory_order_relaxed);
}

int64_t Pool::SpinNs() const {
  const int64_t cost = step_cost_ns_.load(std::memory_order_relaxed);
  return std::clamp(kSpinSteps * cost, kMinSpinNs, kMaxSpinNs);
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
  std::vector<Task> chunk;
  while (!closed_.load()) {
    bool got = false;
    PollUntil(NowNs() + SpinNs(), [&] {
      got = PopTasks(&chunk, false, index);
      return got || closed_.load();
    });
    if (!got) {
      got = PopTasks(&chunk, true, index);
    }
    if (got) {
      RunChunk(&chunk);
    }
  }
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
  Guarded(task.env_id, &error, [&] {
    env.Write(out);
    if (outcome.started_episode) {
      for (int p = 0; p < row.players; ++p) {
        out.SetReward(0.0, p);
      }
    } else {
      env.WriteReward(out);
    }
  });
  WritePoolColumns(task.env_id, outcome, row, env);
  if (config_.autoreset_mode == AutoresetMode::kSameStep &&
      ended_[task.env_id]) {
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
  Outcome outcome;
  // A never-reset env's first turn is its (seeded) reset, whatever was sent.
  outcome.started_episode =
      task.reset || unstarted_[id] ||
      (ended_[id] && config_.autoreset_mode == AutoresetMode::kNextStep);
  Guarded(id, error, [&] {
    if (outcome.started_episode) {
      if (task.has_seed) {
        env->Seed(seeds_[id]);
      }
      env->Reset();
      elapsed_[id] = 0;
      unstarted_[id] = 0;
    } else {
      env->Step(ActionView(&action_views_[id]));
      ++elapsed_[id];
    }
  });
  outcome.terminated = !outcome.started_episode && env->terminated();
  // As gymnasium's TimeLimit: an episode that terminates on its last allowed
  // step is both terminated and truncated.
  outcome.truncated = !outcome.started_episode &&
                      ((config_.max_episode_steps > 0 &&
                        elapsed_[id] >= config_.max_episode_steps) ||
                       env->truncated());
  ended_[id] = outcome.terminated || outcome.truncated;
  return outcome;
}

void Pool::NextAsyncRow(Block** block, int* slot) {
  if (filling_ == nullptr) {
    auto fresh = TakeFreeBlock(config_.batch_size);
    filling_ = fresh.get();
    outstanding_.push_back(std::move(fresh));
  }
  *block = filling_;
  *slot = filling_->acquired_++;
  if (filling_->acquired_ == filling_->target_) {
    filling_ = nullptr;
  }
}

void Pool::ClaimRows(std::vector<Task>* tasks) {
  // Steps only, once steps have been timed: the chunk is then about
  // kChunkNs of work. Before, or with resets (whose cost the estimate does
  // not know), a chunk may be a large share of the queue, and one that
  // claimed a whole batch would hold it until its last env is done.
  if (is_sync() || tasks->size() < 2 ||
      step_cost_ns_.load(std::memory_order_relaxed) == 0) {
    return;
  }
  for (const Task& task : *tasks) {
    if (task.reset || task.render || task.block != nullptr) {
      return;
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (Task& task : *tasks) {
    NextAsyncRow(&task.block, &task.slot);
  }
}

Pool::Row Pool::ClaimRow(const Task& task, const Env& env) {
  // Sync mode, or a chunk's turn (ClaimRows): the row is fixed already.
  // Async: the next free row of the batch being filled, now that the result
  // is known.
  Row row{task.block, task.slot, 0, env.NumPlayers()};
  if (row.block == nullptr) {
    std::lock_guard<std::mutex> lock(mu_);
    NextAsyncRow(&row.block, &row.slot);
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
  *static_cast<bool*>(block->Row(layout_.terminated, slot)) =
      outcome.terminated;
  *static_cast<bool*>(block->Row(layout_.truncated, slot)) = outcome.truncated;
  *static_cast<int32_t*>(block->Row(layout_.env_id, slot)) = id;
  *static_cast<int32_t*>(block->Row(layout_.elapsed_step, slot)) =
      static_cast<int32_t>(elapsed_[id]);
  if (layout_.players_env_id >= 0) {
    for (int p = 0; p < row.players; ++p) {
      *static_cast<int32_t*>(
          block->Row(layout_.players_env_id, row.player_row + p)) = id;
    }
  }
  const bool ended = ended_[id] != 0;
  if (layout_.episode_mask >= 0) {
    episode_return_[id] =
        outcome.started_episode ? 0.0 : episode_return_[id] + env.reward();
    *static_cast<bool*>(block->Row(layout_.episode_mask, slot)) = ended;
    *static_cast<double*>(block->Row(layout_.episode_return, slot)) =
        ended ? episode_return_[id] : 0.0;
    *static_cast<int32_t*>(block->Row(layout_.episode_length, slot)) =
        ended ? static_cast<int32_t>(elapsed_[id]) : 0;
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
      static_cast<int32_t>(elapsed_[id]);
  Guarded(id, error, [&] {
    env->Reset();
    env->Write(out);
  });
  elapsed_[id] = 0;
  ended_[id] = 0;
  if (layout_.episode_mask >= 0) {
    episode_return_[id] = 0.0;
  }
  *static_cast<int32_t*>(block->Row(layout_.elapsed_step, row.slot)) = 0;
}

void Pool::CountRowsIn(Block* block, int rows) {
  // Read the target first: once the count is in, the block may be received
  // and reused by another batch.
  const int target = block->target_;
  if (block->written_.fetch_add(rows) + rows == target) {
    std::lock_guard<std::mutex> lock(mu_);
    block->ready_ = true;
    ready_blocks_.fetch_add(1, std::memory_order_release);
    ready_cv_.notify_all();
  }
}

bool Pool::FrontReady() {
  std::lock_guard<std::mutex> lock(mu_);
  return !outstanding_.empty() && outstanding_.front()->ready_;
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
    std::lock_guard<std::mutex> lock(mu_);
    bool can_arrive =
        is_sync() ? !outstanding_.empty() : pending_ >= config_.batch_size;
    if (!can_arrive) {
      throw std::runtime_error(
          "recv() would wait forever: " + std::to_string(pending_) +
          " envs are in flight and a batch needs " +
          std::to_string(is_sync() ? 1 : config_.batch_size) +
          "; send() actions or reset first");
    }
  }
  auto front_ready = [this] {
    return !outstanding_.empty() && outstanding_.front()->ready_;
  };
  const auto deadline =
      std::chrono::steady_clock::now() +
      std::chrono::nanoseconds(std::max<int64_t>(timeout_ns, 0));
  // Help the workers while the batch is being filled: where caller_steps_,
  // and wherever a Send may step its envs inline (cheap envs), since those
  // envs then come back ahead of the queued ones, which the caller must
  // drain too or a queued env could wait for a slow worker indefinitely.
  const int64_t cost = step_cost_ns_.load(std::memory_order_relaxed);
  const bool steps = caller_steps_ || CheaperInline(cost, config_.batch_size);
  std::vector<Task> chunk;
  bool polled = false;
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (front_ready() || closed_.load()) {
        break;
      }
      auto wakeup = [&] {
        return front_ready() || closed_.load() ||
               (steps && num_tasks_.load() > 0);
      };
      if (timeout_ns >= 0 && std::chrono::steady_clock::now() >= deadline) {
        return nullptr;  // nothing taken: a later Recv gets the batch
      }
      if (num_tasks_.load() == 0 && is_sync() && timeout_ns != 0 && !polled) {
        // The rest of a sync batch is on the workers' last envs. The caller
        // is one of the stepping threads (a core of its own), so it polls
        // for a while, as an idle worker does, before it sleeps: waking a
        // sleeping thread costs about 100 us on a virtual machine (see
        // kMinSpinNs). It polls no later than the deadline of a timeout.
        polled = true;
        const uint64_t seen = ready_blocks_.load(std::memory_order_acquire);
        lock.unlock();
        int64_t until = NowNs() + SpinNs();
        if (timeout_ns > 0) {
          until = std::min<int64_t>(
              until, std::chrono::duration_cast<std::chrono::nanoseconds>(
                         deadline.time_since_epoch())
                         .count());
        }
        PollUntil(until, [&] {
          return closed_.load() ||
                 num_tasks_.load(std::memory_order_relaxed) != 0 ||
                 ready_blocks_.load(std::memory_order_acquire) != seen;
        });
        continue;
      }
      polled = false;
      if (!steps || num_tasks_.load() == 0) {
        if (timeout_ns < 0) {
          ready_cv_.wait(lock, wakeup);
        } else if (!ready_cv_.wait_until(lock, deadline, wakeup)) {
          return nullptr;
        }
        continue;
      }
    }
    if (PopTasks(&chunk, false, callers_home())) {
      RunChunk(&chunk);
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_.load()) {
    throw std::runtime_error("the pool was closed while waiting in recv()");
  }
  std::shared_ptr<Block> block = outstanding_.front();
  outstanding_.pop_front();
  int n = block->target_;
  const int32_t* ids =
      static_cast<const int32_t*>(block->Column(layout_.env_id));
  for (int k = 0; k < n; ++k) {
    in_flight_[ids[k]] = 0;
  }
  pending_ -= n;
  if (!error_.empty()) {
    std::string error = std::move(error_);
    error_.clear();
    free_blocks_.push_back(block->id());
    throw std::runtime_error(error);
  }
  return block;
}

void Pool::CheckRenderable(const int* env_ids, int n) {
  CheckSendable(env_ids, n, true);
  for (int k = 0; k < n; ++k) {
    if (unstarted_[env_ids[k]]) {
      throw std::runtime_error(EnvName(env_ids[k]) +
                               " has not been reset yet: nothing to render");
    }
  }
}

void Pool::RunRender(const Task& task) {
  std::string error;
  try {
    envs_[task.env_id]->Render(spec_.render_width, spec_.render_height,
                               render_.camera_id,
                               render_.rgb + task.slot * render_.frame_bytes);
  } catch (const std::exception& e) {
    error = EnvName(task.env_id) + ": " + e.what();
  }
  std::lock_guard<std::mutex> lock(render_mu_);
  if (!error.empty() && render_.error.empty()) {
    render_.error = error;
  }
  if (--render_.left == 0) {
    render_cv_.notify_all();
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
  render_.rgb = rgb;
  render_.frame_bytes = static_cast<std::size_t>(spec_.render_width) *
                        static_cast<std::size_t>(spec_.render_height) * 3;
  render_.camera_id = camera_id;
  render_.error.clear();
  render_.left = n;
  if (workers_.empty() || n == 1) {
    for (int k = 0; k < n; ++k) {
      RunRender(Task{env_ids[k], k, nullptr, 0, false, false, true});
    }
  } else {
    Enqueue(env_ids, n, Task{0, 0, nullptr, 0, false, false, true});
    task_cv_.notify_all();
    std::unique_lock<std::mutex> lock(render_mu_);
    render_cv_.wait(
        lock, [this] { return render_.left == 0 || render_.workers_joined; });
  }
  std::lock_guard<std::mutex> lock(render_mu_);
  if (render_.left > 0) {
    throw std::runtime_error("the pool was closed while rendering");
  }
  if (!render_.error.empty()) {
    throw std::runtime_error(render_.error);
  }
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
  CheckSendable(&env_id, 1, true);
  return envs_[env_id]->GetState();
}

void Pool::SetEnvState(int env_id, const std::vector<double>& state) {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_.load()) {
    throw std::runtime_error("the pool is closed");
  }
  CheckSendable(&env_id, 1, true);
  envs_[env_id]->SetState(state);
  // A state put in place is a started episode.
  unstarted_[env_id] = 0;
}

void Pool::Release(int block_id) {
  std::lock_guard<std::mutex> lock(mu_);
  free_blocks_.push_back(block_id);
}

}  // namespace envpool
