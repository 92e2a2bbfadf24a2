// The pool: `num_envs` envs stepped by worker threads into output batches.
//
// Sync mode (batch_size == num_envs): every `Send` fills its own batch, in the
// order of the env ids sent.  Async mode: envs write into the current batch in
// the order they finish, and `Recv` returns batches of `batch_size`.
// Batches ("blocks") are reused once the reader releases them. Which thread
// steps which env, and when, is the Scheduler's (scheduler.h).
#ifndef ENVPOOL_CORE_POOL_H_
#define ENVPOOL_CORE_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "envpool/core/array.h"
#include "envpool/core/env.h"
#include "envpool/core/render_job.h"
#include "envpool/core/scheduler.h"

namespace envpool {

enum class AutoresetMode { kNextStep = 0, kSameStep = 1, kDisabled = 2 };

struct PoolConfig {
  std::string task_id;  // for error messages, e.g. "CartPole-v1"
  int num_envs = 1;
  int batch_size = 0;  // 0: num_envs
  // Threads that step envs, 0: min(batch_size, hardware threads). In sync
  // mode the calling thread is one of them.
  int num_threads = 0;
  int thread_affinity_offset = -1;
  std::vector<uint64_t> seeds;  // one per env
  AutoresetMode autoreset_mode = AutoresetMode::kNextStep;
  int64_t max_episode_steps = 0;  // <= 0: no truncation
  // Report each finished episode's return and length in the step that ends
  // it, so training loops need no wrapper.
  bool episode_statistics = false;
  // SchedulerConfig::yields_under_contention (tests that count which thread
  // steps each env turn it off).
  bool yields_under_contention = true;
};

// The columns of a batch: the env's state arrays, then the pool's own.
struct BlockLayout {
  std::vector<ArraySpec> columns;
  int num_state = 0;
  int reward = -1;
  int terminated = -1;
  int truncated = -1;
  int env_id = -1;
  int elapsed_step = -1;
  int players_env_id = -1;  // multi-player only
  int players_id = -1;      // multi-player only: each row's player index
  // same_step autoreset only: the last state of ended episodes.
  int final_state = -1;  // first of num_state columns
  int final_elapsed_step = -1;
  int final_mask = -1;
  // episode_statistics only: return and length of episodes that ended.
  int episode_return = -1;
  int episode_length = -1;
  int episode_mask = -1;
  int rows_per_env = 1;

  static BlockLayout Make(const EnvSpec& spec, const PoolConfig& config);
};

class Block {
 public:
  Block(const BlockLayout& layout, int capacity, int id);

  void* Row(int column, int row) {
    return data_[column].get() + row * row_bytes_[column];
  }
  void* Column(int column) { return data_[column].get(); }
  int id() const { return id_; }
  int capacity() const { return capacity_; }
  int target() const { return target_; }
  int player_rows() const { return player_rows_.load(); }
  void SetReward(int row, double reward);

 private:
  friend class Pool;
  friend class Output;
  void Prepare(int target, int first_env = -1);

  int id_;
  int capacity_;
  std::vector<std::unique_ptr<uint8_t[]>> data_;
  std::vector<std::size_t> row_bytes_;
  std::vector<std::size_t> column_bytes_;
  std::vector<uint8_t> per_player_;  // per column: rows per player, not env
  int reward_column_;
  DType reward_dtype_;
  bool reward_per_player_;
  // The pool's own columns that every turn writes (WritePoolColumns), one
  // row per env, typed: found once here rather than per env and column.
  bool* terminated_;
  bool* truncated_;
  int32_t* env_ids_;
  int32_t* elapsed_steps_;
  int target_ = 0;
  // A sync step's batch of envs first_env_.. in rows 0.. (its env_id column
  // need not be read to know them), or -1.
  int first_env_ = -1;
  // Written as the batch fills, by each thread that claims or fills rows: on
  // a line apart from the pointers above, which every turn reads.
  alignas(64) int acquired_ = 0;  // async slots handed out, under Pool::mu_
  std::atomic<int> written_{0};
  std::atomic<int> player_rows_{0};
  bool ready_ = false;  // guarded by Pool::mu_
};

class Pool {
 public:
  Pool(const EnvClass& env_class, const Options& options, PoolConfig config);
  // A pool of what `factory` builds (PrepareEnvs: options that vary per env).
  Pool(const EnvFactory& factory, PoolConfig config);
  ~Pool();
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  const EnvSpec& spec() const { return spec_; }
  const BlockLayout& layout() const { return layout_; }
  const PoolConfig& config() const { return config_; }
  bool is_sync() const { return config_.batch_size == config_.num_envs; }
  // The worker threads that step envs (the scheduler's reserve, which steps
  // only in the caller's place, not counted).
  int num_threads() const { return scheduler_.stepping_workers(); }

  // Where the action of `env_id` for action array `field` is stored before
  // `Send`: ActionRowsPerEnv(field) consecutive rows (one per player for an
  // array declared per_player).  Only valid for envs that are not in flight.
  void* ActionRow(int env_id, int field) {
    return action_data_[field].get() + env_id * action_env_bytes_[field];
  }
  int ActionRowsPerEnv(int field) const {
    return spec_.action.specs()[field].per_player ? layout_.rows_per_env : 1;
  }

  // Throws std::invalid_argument (out of range, repeated) or
  // std::runtime_error (in flight, ended with autoreset disabled). `doing`
  // ends the in-flight message: what the caller would do to the env once
  // its result is received.
  void CheckSendable(const int* env_ids, int n, bool reset,
                     const char* doing = "sending to it again") const;
  // The message of an env id outside 0..num_envs-1 (`id` as written: the
  // binding reads ids wider than int).
  std::string OutOfRangeMessage(const std::string& id) const {
    return "env_id " + id + " is out of range: " + config_.task_id +
           " has num_envs=" + std::to_string(config_.num_envs);
  }
  // Whether a send (a reset, or not) refuses envs whose episode ended: a
  // step with autoreset disabled.
  bool RefusesEnded(bool reset) const {
    return !reset && config_.autoreset_mode == AutoresetMode::kDisabled;
  }
  // Counts the changes that can make an env unsendable (a send, a loaded
  // state): ids that passed CheckSendable after this read E need no second
  // check in a Send that still reads E.
  uint64_t sendable_epoch() const {
    return sendable_epoch_.load(std::memory_order_acquire);
  }
  static constexpr uint64_t kUnchecked = ~uint64_t{0};
  // Steps (or resets) the given envs; `seeds` is null or one seed per env.
  // `checked_at`: the sendable_epoch() at which the caller checked the ids.
  void Send(const int* env_ids, int n, bool reset, const uint64_t* seeds,
            uint64_t checked_at = kUnchecked);
  // The next batch if it is ready, else null (nothing waited for or
  // stepped). Throws std::runtime_error when the pool is closed.
  std::shared_ptr<Block> TryRecv();
  // Waits for the next batch, at most `timeout_ns` when that is >= 0
  // (then null if none was ready; nothing is taken).  Throws
  // std::runtime_error when none can come.
  std::shared_ptr<Block> Recv(int64_t timeout_ns = -1);
  // The reader no longer uses the block: it may be written again.
  void Release(int block_id);
  // Stops the workers and ends the envs. In a process forked from the one
  // that made the pool, does nothing (see forked_away).
  void Close();
  bool closed() const { return closed_.load(); }
  // Whether this process is a fork of the one that made the pool: the
  // worker threads did not come along, and a lock that one of them held at
  // the fork stays held. Such a pool cannot step, and cannot be closed or
  // destroyed either (joining the threads, or destroying a condition
  // variable they waited on, would wait forever): its owner leaves it be.
  bool forked_away() const;
  // Why a forked-away pool refuses a call.
  static const char* ForkedAwayMessage();

  // Renders the given envs (none may be in flight, each must have been
  // reset) into `rgb`, one spec().render_height x render_width x 3 frame
  // per env in the order given; several envs are drawn by the workers.
  // Throws like CheckSendable, and std::runtime_error naming the env when
  // its Render throws.
  void Render(const int* env_ids, int n, int camera_id, uint8_t* rgb);
  // The "ansi" text of one env.
  std::string RenderText(int env_id);

  // Snapshots (snapshot.h): one self-contained state per env, in the
  // order given, and their restoration into envs of a pool of the same id
  // and options. None of the envs may be in flight. SetState reads every
  // state before it changes any env, and on a state that cannot be read
  // (SnapshotError) or an env that fails to load it, leaves the envs as
  // they were. std::logic_error where the spec does not declare snapshots.
  std::vector<std::string> GetState(const int* env_ids, int n);
  void SetState(const int* env_ids, int n,
                const std::vector<std::string>& states);

  // Test hooks (see Env::GetState); the env must not be in flight.
  std::vector<double> GetEnvState(int env_id);
  void SetEnvState(int env_id, const std::vector<double>& state);

  // Mean cost of one env step, for the choice between inline and threads.
  int64_t step_cost_ns() const { return scheduler_.cost().ns(); }

 private:
  std::string SaveEnv(int env_id) const;
  void LoadEnv(int env_id, const std::string& state);
  void CheckSnapshots(const int* env_ids, int n);  // requires mu_

  // What a turn did to the env's episode.
  struct Outcome {
    bool started_episode = false;  // reset (asked for, first, or autoreset)
    bool terminated = false;
    bool truncated = false;
  };
  // Where a turn's result goes.
  struct Row {
    Block* block;
    int slot;        // the env's row
    int player_row;  // its first player row
    int players;
  };

  // requires mu_; first_env: see Block::first_env_
  std::shared_ptr<Block> TakeFreeBlock(int target, int first_env = -1);
  Block* RunTask(const Task& task);
  // The phases of RunTask, run per env. Inline (defined and used in pool.cc
  // only): called out of line (through the PLT of the shared library), each
  // returned its small struct through memory, written a field at a time and
  // read back whole by RunTask, a stalled load (no store forwarding) per
  // env; inlined, the structs stay in registers.
  inline Outcome Advance(const Task& task, Env* env, std::string* error);
  inline Row ClaimRow(const Task& task, const Env& env);
  // Asks for the lines an env's turn reads first (the env, its action, its
  // record), a few envs ahead in a chunk: an async chunk's envs are scattered
  // over the arrays, and without it each turn waited for lines that another
  // thread wrote last.
  void PrefetchTurn(int id) const;
  static constexpr std::size_t kPrefetchAhead = 4;
  // Async mode: up to `wanted` next rows of the batch being filled, rows
  // *first.. of *block; returns how many (requires mu_).
  int NextAsyncRows(int wanted, Block** block, int* first);
  // Async mode: claims the rows of a chunk of several steps (cheap envs)
  // before they run, under one lock, instead of one lock per turn: the rows
  // come back in the chunk's order, as they would from one thread, and the
  // chunk is short (about Scheduler::kChunkNs of work), so a batch waits little
  // longer.
  void ClaimRows(TaskChunk* tasks);
  // Whether the batch at the front is ready (mu_ held).
  bool FrontReadyLocked() const {
    return !outstanding_.empty() && outstanding_.front()->ready_;
  }
  // Takes the ready batch at the front (mu_ held): its envs leave flight.
  std::shared_ptr<Block> TakeFront();
  inline void WritePoolColumns(int id, const Outcome& outcome, const Row& row,
                               const Env& env);
  void StartNextEpisode(int id, const Row& row, Env* env, const Output& out,
                        std::string* error);
  // Counts `rows` written rows into the block; the last makes it ready.
  void CountRowsIn(Block* block, int rows);
  // The rows a thread writes, counted in with one atomic add per run of rows
  // of the same block rather than one per row: the count is a cache line
  // that every stepping thread writes. A block is counted in at the latest
  // when the thread's chunk of tasks ends (async), or when the thread finds
  // no more tasks queued (sync: see WorkerLoop).
  class RowTally {
   public:
    explicit RowTally(Pool* pool) : pool_(pool) {}
    void Add(Block* block) {
      if (block != block_) {
        Flush();
        block_ = block;
      }
      ++rows_;
    }
    void Flush() {
      if (rows_ > 0) {
        pool_->CountRowsIn(block_, rows_);
      }
      block_ = nullptr;
      rows_ = 0;
    }

   private:
    Pool* pool_;
    Block* block_ = nullptr;
    int rows_ = 0;
  };
  // Runs `body`, keeping the first exception's message in `error`.
  template <typename F>
  void Guarded(int env_id, std::string* error, F&& body);
  void WorkerLoop(int index);
  void CheckRenderable(const int* env_ids, int n);  // requires mu_
  // Runs the tasks a thread took from the scheduler, timing its steps into
  // `sampler`, the thread's own. The rows it writes are counted in at its
  // end, or, where `held` is given, added to that tally, which the thread
  // counts in once it takes no more chunks (a sync batch's rows: see
  // WorkerLoop).
  void RunChunk(TaskChunk* chunk, ChunkSampler* sampler, RowTally* held);
  void RunInline(TaskChunk* tasks);

  PoolConfig config_;
  EnvSpec spec_;
  BlockLayout layout_;
  std::vector<std::unique_ptr<Env>> envs_;
  // The pool's record of one env, read and written at each of its turns,
  // in a cache line of its own: an async pool's envs are scattered over
  // the threads, and arrays of these fields had 8 to 64 envs in each line,
  // written by one thread and then by another.
  struct alignas(64) EnvRecord {
    int64_t elapsed = 0;
    double episode_return = 0.0;
    uint8_t ended = 0;  // episode over, waiting for a reset
    // Never reset: the first send to such an env is its seeded reset, as in
    // EnvPool (the action is ignored), so no env is ever stepped unstarted.
    uint8_t unstarted = 1;
  };
  std::vector<EnvRecord> records_;
  std::vector<uint8_t> in_flight_;  // sent, not yet returned by Recv
  std::vector<uint64_t> seeds_;     // per env: the seed of its reset in flight
  std::vector<std::unique_ptr<uint8_t[]>> action_data_;
  std::vector<std::size_t> action_env_bytes_;  // all rows of one env
  std::vector<std::vector<const void*>> action_views_;
  // Per action array: bytes from one player's row to the next (0: one row
  // per env); whether any array is per player (the envs must then write
  // max_num_players player rows).
  std::vector<std::size_t> action_player_strides_;
  bool per_player_actions_ = false;

  // From here on, fields that a send or a recv writes: on lines apart from
  // the ones above, which every turn reads.
  //
  // Written only with send_mu_ held (see sendable_epoch()).
  alignas(64) std::atomic<uint64_t> sendable_epoch_{0};
  void BumpSendableEpoch() {
    sendable_epoch_.store(sendable_epoch_.load(std::memory_order_relaxed) + 1,
                          std::memory_order_release);
  }
  // Envs in flight: changed under mu_, read without it by CheckSendable
  // (a send is checked again under mu_ where the sendable epoch moved since
  // that check, so a stale read only skips a first, unlocked check).
  std::atomic<int> pending_{0};
  // Batches and their order, guarded by mu_.
  std::mutex mu_;
  std::condition_variable ready_cv_;
  std::vector<std::shared_ptr<Block>> blocks_;
  std::vector<int> free_blocks_;
  std::deque<std::shared_ptr<Block>> outstanding_;  // in the order of Recv
  Block* filling_ = nullptr;                        // async: current batch

  // Which thread steps which env; the tasks for the workers (its lock and
  // counts on lines of their own).
  alignas(64) Scheduler scheduler_;
  // Counts the blocks that became ready: a sync Recv polls it briefly
  // before it sleeps on ready_cv_.
  std::atomic<uint64_t> ready_blocks_{0};
  std::vector<std::thread> workers_;
  std::atomic<bool> closed_{false};
  // The count of forks this process descends from when the pool was made.
  uint64_t made_after_forks_ = 0;
  std::atomic<int> recv_callers_{0};  // threads inside Recv (they step envs)
  RenderJob render_;    // the frames being drawn (one Render at a time)
  std::string error_;   // guarded by mu_: first exception thrown by an env
  std::mutex send_mu_;  // serializes Send, which reuses inline_tasks_
  TaskChunk inline_tasks_;
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_POOL_H_
