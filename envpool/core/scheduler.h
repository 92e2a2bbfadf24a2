// The scheduler of a pool's stepping threads: how many there are, which
// thread steps which env, when an idle thread sleeps, and whether a batch is
// worth handing to the threads at all. The pool queues tasks (an env's turn
// or a frame to draw) and runs what its threads take; what a task does and
// where its result goes is the pool's business (pool.h). docs/scheduler.md
// says why each rule below is there and what was measured.
//
// Threads: `workers()` worker threads, numbered 0..workers()-1, take tasks in
// a loop (TakeOrWait); a thread waiting in the pool's Recv takes tasks while
// it waits (TryTake with callers_home()).
//
// Homes: one queue per worker and one for the threads in Recv (the last).
// An env's task goes on the queue of its home thread, so that it tends to be
// stepped on the same core, where its state is still in the cache; a thread
// with nothing of its own queued takes from the others. In async mode an
// env's home is the thread that took its last task; in sync mode the homes
// are runs of consecutive ids, each thread's run growing at the next send by
// the envs it took from the others (DealSyncHomes).
//
// The pool queues at most one task per env at a time (an env has at most one
// turn in flight, and a frame is drawn only of an env that is not in flight),
// so no queue ever holds more than num_envs tasks.
#ifndef ENVPOOL_CORE_SCHEDULER_H_
#define ENVPOOL_CORE_SCHEDULER_H_

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace envpool {

// Scans of a send's env ids (and of their homes), which the calling thread
// runs over every env of a send while the stepping threads wait for it:
// eight ids at a time and no early exit within them, so that they cost
// about an instruction an env.
//
// Whether ids[k] == ids[0] + k for every k: a run of envs, whose rows of a
// per-env array are one contiguous range.
inline bool Consecutive(const int* ids, int n) {
  const int first = n > 0 ? ids[0] : 0;
  unsigned off = 0;
  int k = 0;
  for (; k + 8 <= n; k += 8) {
    for (int j = 0; j < 8; ++j) {
      off |= static_cast<unsigned>(ids[k + j] ^ (first + k + j));
    }
  }
  for (; k < n; ++k) {
    off |= static_cast<unsigned>(ids[k] ^ (first + k));
  }
  return off == 0;
}

// Whether ids[k] < ids[k + 1] for every k (so none repeats).
inline bool Increasing(const int* ids, int n) {
  unsigned bad = 0;
  int k = 1;
  for (; k + 8 <= n; k += 8) {
    for (int j = 0; j < 8; ++j) {
      bad |= static_cast<unsigned>(ids[k + j] <= ids[k + j - 1]);
    }
  }
  for (; k < n; ++k) {
    bad |= static_cast<unsigned>(ids[k] <= ids[k - 1]);
  }
  return bad == 0;
}

// The first k' >= k with values[k'] != v, or n: where a run of v in
// values[k..n) ends, compared eight at a time.
inline int RunOfSameEnd(const int* values, int k, int n, int v) {
  for (; k + 8 <= n; k += 8) {
    unsigned other = 0;
    for (int j = 0; j < 8; ++j) {
      other |= static_cast<unsigned>(values[k + j] ^ v);
    }
    if (other != 0) {
      break;
    }
  }
  while (k < n && values[k] == v) {
    ++k;
  }
  return k;
}

class Block;  // a batch of results (pool.h); the scheduler only carries it

// One queued unit of work for one env: a turn (a step or a reset) whose
// result goes to a row of a batch, or one frame of a render job.
//
// 24 bytes: a taker builds one per env it takes into its chunk and the pool
// reads it back per turn (the queues keep runs of them: see TaskRing; the
// seed of a reset is kept by the pool, per env).
//
// No member has a default: a task made with fewer initializers than members
// has the rest zero (order 0, a step, no seed), and one made without any is
// left unwritten, so that a chunk grows without writing its tasks twice (see
// TaskChunk).
struct Task {
  enum class Kind : uint8_t { kStep, kReset, kFrame };
  int env_id;
  // A turn: its row of the batch where known before it runs (sync mode, or
  // claimed ahead by the pool). A frame: its index in the render job.
  int slot;
  Block* block;    // a turn: the batch of `slot`, or null (async)
  uint32_t order;  // when it was queued (see Enqueue), mod 2^32
  Kind kind;
  bool has_seed;  // a reset with a seed the pool keeps for the env
};
static_assert(sizeof(Task) <= 24, "a task is cache traffic: keep it small");
static_assert(std::is_trivially_default_constructible_v<Task>,
              "a chunk's tasks are written once, by the pop");

// An allocator whose vectors grow without writing the new elements (a
// default-initialized Task is left as it is).
template <typename T>
struct UninitializedAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <typename U>
  explicit UninitializedAllocator(const UninitializedAllocator<U>& /*other*/) {}
  template <typename U>
  void construct(U* p) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

// The tasks a thread takes at once: resized to what it takes, then written
// whole by the queue's pop (a resize of a std::vector<Task> wrote each task
// a first time, in the thread's turn).
using TaskChunk = std::vector<Task, UninitializedAllocator<Task>>;

// The tasks of one queue, kept as runs: the tasks one send queues for
// consecutive envs of one home are one entry (first env, slot and order, and
// a count), and a taker builds each task as it takes it. A sync send of
// cheap envs would otherwise write a task per env into the other threads'
// queues while they wait for it: lines that the taker read last, each write
// a transfer between cores (sync CartPole-v1 at 1024 envs spent about a
// tenth of the calling thread's time writing them). The entries lie in a
// ring of fixed capacity, so that queueing never allocates.
//
// Aligned to a cache line: the queues lie side by side, and a thread's
// queue shared a line with its neighbour's, which the other thread writes.
class alignas(64) TaskRing {
 public:
  void Reserve(std::size_t capacity) { runs_.resize(capacity); }
  bool empty() const { return size_ == 0; }
  // Tasks queued (not runs).
  std::size_t size() const { return size_; }
  // When the oldest task was queued (the queue must not be empty).
  uint32_t front_order() const { return runs_[head_].first_order; }
  // Queues a task like `like` for each of envs[0..n), with slots
  // first_slot.. and orders *order.. (advanced by n): a run per stretch of
  // consecutive ids.
  void AppendRun(const int* envs, int n, int first_slot, const Task& like,
                 uint32_t* order) {
    if (size_ + static_cast<std::size_t>(n) > runs_.size()) {
      throw std::logic_error("more tasks queued than envs");
    }
    for (int k = 0; k < n;) {
      int end = k + 1;
      while (end < n && envs[end] == envs[end - 1] + 1) {
        ++end;
      }
      // Runs are at most tasks, so the ring has room (checked above).
      Run& run = runs_[Index(runs_size_)];
      run = Run{envs[k],    first_slot + k, *order,       end - k,
                like.block, like.kind,      like.has_seed};
      ++runs_size_;
      *order += static_cast<uint32_t>(end - k);
      k = end;
    }
    size_ += static_cast<std::size_t>(n);
  }
  // Queues a task like `like` for each of envs first_env.. (n of them), with
  // slots first_slot.. and orders *order.. (advanced by n): one run.
  void AppendConsecutive(int first_env, int n, int first_slot, const Task& like,
                         uint32_t* order) {
    if (size_ + static_cast<std::size_t>(n) > runs_.size()) {
      throw std::logic_error("more tasks queued than envs");
    }
    runs_[Index(runs_size_)] = Run{first_env,  first_slot, *order,       n,
                                   like.block, like.kind,  like.has_seed};
    ++runs_size_;
    *order += static_cast<uint32_t>(n);
    size_ += static_cast<std::size_t>(n);
  }
  // Pops the k oldest (PopFront) or newest (PopBack) tasks into out[0..k),
  // in the order those would return them, a run at a time: the run's
  // fields are read once and written back once, where a pop per task made
  // each task wait for the last one's stores to the run.
  void PopFrontInto(Task* out, std::size_t k) {
    while (k > 0) {
      Run& run = runs_[head_];
      const int m = static_cast<int>(
          std::min<std::size_t>(k, static_cast<std::size_t>(run.count)));
      const Run taken = run;
      for (int i = 0; i < m; ++i) {
        out[i] = taken.At(i);
      }
      run.first_env += m;
      run.first_slot += m;
      run.first_order += static_cast<uint32_t>(m);
      run.count -= m;
      if (run.count == 0) {
        head_ = Index(1);
        --runs_size_;
      }
      size_ -= static_cast<std::size_t>(m);
      out += m;
      k -= static_cast<std::size_t>(m);
    }
  }
  void PopBackInto(Task* out, std::size_t k) {
    while (k > 0) {
      Run& run = runs_[Index(runs_size_ - 1)];
      const int m = static_cast<int>(
          std::min<std::size_t>(k, static_cast<std::size_t>(run.count)));
      const Run taken = run;
      for (int i = 0; i < m; ++i) {
        out[i] = taken.At(taken.count - 1 - i);
      }
      run.count -= m;
      if (run.count == 0) {
        --runs_size_;
      }
      size_ -= static_cast<std::size_t>(m);
      out += m;
      k -= static_cast<std::size_t>(m);
    }
  }
  Task PopFront() {
    Task task;
    PopFrontInto(&task, 1);
    return task;
  }
  Task PopBack() {
    Task task;
    PopBackInto(&task, 1);
    return task;
  }
  void clear() {
    head_ = 0;
    runs_size_ = 0;
    size_ = 0;
  }

 private:
  // Task i of a run: env first_env + i, slot first_slot + i, queued as
  // first_order + i.
  struct Run {
    int first_env;
    int first_slot;
    uint32_t first_order;
    int count;
    Block* block;
    Task::Kind kind;
    bool has_seed;
    Task At(int i) const {
      return Task{first_env + i, first_slot + i,
                  block,         first_order + static_cast<uint32_t>(i),
                  kind,          has_seed};
    }
  };
  std::size_t Index(std::size_t offset) const {
    std::size_t i = head_ + offset;
    return i >= runs_.size() ? i - runs_.size() : i;
  }
  std::vector<Run> runs_;
  std::size_t head_ = 0;
  std::size_t runs_size_ = 0;
  std::size_t size_ = 0;
};

// The estimated cost of one env step, from timed runs of steps only: a reset
// may cost far less (or more) than a step, and the estimate decides what the
// next steps do. 0 until a step has been timed.
class StepCost {
 public:
  int64_t ns() const { return ns_.load(std::memory_order_relaxed); }
  // A send stepped on the calling thread, timed per env: weighs 1/8.
  void AddInline(int64_t per_env_ns) { Mix(per_env_ns, 8); }
  // Chunks of tasks run by a stepping thread, timed per env (given by its
  // ChunkSampler): weighs 1/16.
  void AddChunk(int64_t per_env_ns) { Mix(per_env_ns, 16); }

 private:
  // Threads that time steps at once may lose one another's sample: the
  // estimate is a hint, not a count.
  void Mix(int64_t sample, int64_t weight) {
    const int64_t old = ns_.load(std::memory_order_relaxed);
    ns_.store(old == 0 ? sample : (old * (weight - 1) + sample) / weight,
              std::memory_order_relaxed);
  }
  std::atomic<int64_t> ns_{0};
};

// One stepping thread's timed chunks, given to a StepCost together: each
// chunk's own sample wrote the estimate's cache line, which every stepping
// thread and every send reads, so that a sync batch of cheap envs, a few
// chunks a thread, moved that line between the cores several times. Chunks
// shorter than kSampleNs are summed until they reach it and given as one
// sample of their mean; a longer chunk, and any chunk while nothing has been
// timed, is a sample of its own at once (what was summed before it first),
// so that a step that became slow is not averaged away among cheap ones.
class ChunkSampler {
 public:
  static constexpr int64_t kSampleNs = 50000;
  // A chunk of `envs` steps that took `ns` in all; returns whether it wrote
  // the estimate.
  bool Add(StepCost* cost, int64_t ns, int64_t envs) {
    if (envs <= 0) {
      return false;
    }
    if (ns >= kSampleNs || cost->ns() == 0) {
      Flush(cost);
      cost->AddChunk(ns / envs);
      return true;
    }
    ns_ += ns;
    envs_ += envs;
    if (ns_ < kSampleNs) {
      return false;
    }
    Flush(cost);
    return true;
  }

 private:
  void Flush(StepCost* cost) {
    if (envs_ > 0) {
      cost->AddChunk(ns_ / envs_);
    }
    ns_ = 0;
    envs_ = 0;
  }
  int64_t ns_ = 0;
  int64_t envs_ = 0;
};

inline int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
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

// Locks `mu`, trying for up to kLockPollNs before it sleeps on it. The
// pool's and the scheduler's locks are held for a microsecond or so, but a
// std::mutex found taken puts the thread to sleep in the kernel at once,
// and waking it costs about 100 us on a virtual machine: a sync recv that
// saw its batch become ready while the worker still held the lock to
// announce it then slept on the lock, in most batches of cheap envs.
inline constexpr int64_t kLockPollNs = 20000;
inline std::unique_lock<std::mutex> LockPolling(std::mutex& mu) {
  if (!mu.try_lock() &&
      !PollUntil(NowNs() + kLockPollNs, [&] { return mu.try_lock(); })) {
    mu.lock();
  }
  return std::unique_lock<std::mutex>(mu, std::adopt_lock);
}

// Whether another process competes with the pool's threads for the cores,
// as a learner beside the pool does: seen from one thread as the share of
// its runnable time that it spent waiting for a core (the kernel's run
// delay, /proc/thread-self/schedstat), fed in by the thread itself now and
// then (Scheduler::WatchContention). Threads of the pool alone, no more of
// them stepping than cores, wait for a core only while being woken (tens of
// microseconds a batch); beside a busy process each of three runnable
// threads on two cores waits about a third of the time. A count of the
// thread's involuntary context switches, used before, also counted the
// pool's own threads preempting one another on an otherwise idle machine.
class RunDelayWatch {
 public:
  // A window of this much runnable time (on a core or waiting for one) is
  // judged at once (long enough that a hiccup of a millisecond, a kernel
  // thread or the hypervisor, does not tip it) ...
  static constexpr int64_t kWindowNs = 20'000'000;
  // ... contended where over this percentage of it was waiting, in two
  // windows in a row (a burst of other work, a few milliseconds, on an
  // otherwise idle machine tips one window now and then).
  static constexpr int64_t kContendedPercent = 15;
  // Reads the thread's times at most this often (a system call).
  static constexpr int64_t kReadEveryNs = 1'000'000;

  RunDelayWatch() = default;
  RunDelayWatch(const RunDelayWatch&) = delete;
  RunDelayWatch& operator=(const RunDelayWatch&) = delete;
  ~RunDelayWatch();  // closes the file ContendedNow opened

  // The thread's time on a core and time waiting for one, so far.
  void Observe(int64_t exec_ns, int64_t delay_ns) {
    if (seen_exec_ >= 0) {
      exec_ += exec_ns - seen_exec_;
      delay_ += delay_ns - seen_delay_;
    }
    seen_exec_ = exec_ns;
    seen_delay_ = delay_ns;
    if (exec_ + delay_ >= kWindowNs) {
      const bool over = delay_ * 100 > kContendedPercent * (exec_ + delay_);
      contended_ = over && last_over_;
      last_over_ = over;
      ++windows_;
      exec_ = 0;
      delay_ = 0;
    }
  }
  // The verdict of the last two whole windows.
  bool Contended() const { return contended_; }
  // Whole windows judged so far.
  int64_t windows() const { return windows_; }
  // Observe()s the calling thread's own times if kReadEveryNs has passed
  // since its last read, then says whether it is Contended(). Always false
  // where the system does not give a thread's run delay.
  bool ContendedNow(int64_t now_ns);

 private:
  int64_t seen_exec_ = -1;
  int64_t seen_delay_ = 0;
  int64_t exec_ = 0;
  int64_t delay_ = 0;
  bool contended_ = false;
  bool last_over_ = false;  // the last whole window waited over the share
  int64_t windows_ = 0;
  int64_t read_at_ns_ = 0;
  int fd_ = -2;  // the thread's schedstat file; -2: not opened yet
  int pid_ = 0;  // the process that opened it
};

struct SchedulerConfig {
  int num_envs = 1;
  int batch_size = 1;  // == num_envs: sync mode
  // Threads that step envs as asked for; 0: the default (see Scheduler).
  int num_threads = 0;
  // The envs' steps run outside the stepping thread (EnvSpec).
  bool steps_elsewhere = false;
  int cores = 1;  // hardware threads
  // Whether the caller leaves the envs to the workers while another process
  // competes for the cores (see Scheduler::Contended); tests that count
  // which thread steps each env turn it off.
  bool yields_under_contention = true;
};

class Scheduler {
 public:
  // Below this estimated work a batch is stepped on the calling thread.
  static constexpr int64_t kInlineBudgetNs = 10000;
  // An idle thread polls for kSpinSteps x the estimated step cost, within
  // [kMinSpinNs, kMaxSpinNs], before it sleeps.
  static constexpr int64_t kMinSpinNs = 80000;
  static constexpr int64_t kMaxSpinNs = 500000;
  static constexpr int64_t kSpinSteps = 4;
  // ... but only this long while another process competes for the cores.
  static constexpr int64_t kContendedSpinNs = 5000;
  // A stepping thread seen waiting for a core (RunDelayWatch) marks the
  // pool contended for this long.
  static constexpr int64_t kContendedHoldNs = 100'000'000;
  // A thread takes at most about this much work from the queues at once.
  static constexpr int64_t kChunkNs = 10000;
  // ... and, in a sync pool, at least about this much, where there is that
  // much to take.
  static constexpr int64_t kLeastSyncChunkNs = 2500;
  // From this estimated step cost on, a thread waiting in an async Recv
  // keeps the envs it steps, as the workers do: moving an env's state to the
  // other core at every other turn then costs more than the send's split of
  // its ids by home (docs/scheduler.md).
  static constexpr int64_t kCallerKeepsNs = 200;
  // The calling thread steps an env only while its estimated step costs at
  // most this: a caller busy in a step takes no Ctrl-C (Python's signals
  // wait for it), and the binding looks at signals every 50 ms of a wait.
  static constexpr int64_t kCallerStepLimitNs = 20'000'000;

  explicit Scheduler(const SchedulerConfig& config);
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  bool is_sync() const { return sync_; }
  // The worker threads the pool starts: the stepping workers, then, where
  // the caller steps envs too, a reserve worker that steps instead of the
  // caller while the caller may not (CallerMayStep), so that as many
  // threads step either way.
  int workers() const { return workers_; }
  // The workers but the reserve.
  int stepping_workers() const { return stepping_workers_; }
  bool has_reserve() const { return reserve_; }
  // The home of the threads waiting in Recv.
  int callers_home() const { return workers_; }
  // The env's queue (tests): where its next task goes.
  int home(int env_id);

  StepCost& cost() { return cost_; }
  const StepCost& cost() const { return cost_; }
  // Whether a batch of n envs is cheaper to step on the calling thread than
  // to hand to the workers (false while no step has been timed).
  bool CheaperInline(int n) const {
    const int64_t cost_ns = cost_.ns();
    return cost_ns > 0 && cost_ns * n < kInlineBudgetNs;
  }
  // Whether the calling thread may step envs at all: while a step is not
  // estimated above kCallerStepLimitNs (nor unknown, before the first), and
  // not while the pool is Contended().
  bool CallerMayStep() const {
    const int64_t cost_ns = cost_.ns();
    return cost_ns > 0 && cost_ns <= kCallerStepLimitNs && !Contended();
  }
  // Whether a stepping thread of this pool was seen waiting for a core
  // (RunDelayWatch) within the last kContendedHoldNs. The caller then
  // steps no env (the reserve steps in its place): a thread that steps
  // uses more than its share of a contended core, and the kernel's fair
  // scheduler then makes it wait behind the other process when it next
  // wakes, so that the caller's own serial part (Python, the next send)
  // came late in every batch. A caller that only sends and receives is
  // woken at once, as the published EnvPool's is.
  //
  // A mark past its hold is cleared by the first look that finds it so,
  // so that an uncontended pool reads no clock here (the caller looks twice
  // a chunk, and a clock read costs about 25 ns on the development machine).
  bool Contended() const {
    int64_t until = contended_until_ns_.load(std::memory_order_relaxed);
    if (until == 0) {
      return false;
    }
    if (NowNs() < until) {
      return true;
    }
    // (Fails, harmlessly, where a thread marked the pool again meanwhile.)
    contended_until_ns_.compare_exchange_strong(until, 0,
                                                std::memory_order_relaxed);
    return false;
  }
  // Reads the calling thread's run delay (at most once a millisecond) and
  // returns whether it says contended; a stepping worker's verdict also
  // marks the pool (`marks`). The caller and the reserve do not mark it:
  // they sleep and are woken once a batch or more, and the wait to be
  // woken counts as run delay, which kept a pool marked on an idle machine.
  bool WatchContention(bool marks);
  // Marks the pool contended from now_ns on (WatchContention, and tests).
  void MarkContended(int64_t now_ns) {
    if (yields_under_contention_) {
      contended_until_ns_.store(now_ns + kContendedHoldNs,
                                std::memory_order_relaxed);
    }
  }
  // Whether a send of n envs is stepped on the sending thread: where that is
  // cheaper, or where the caller may step and a sync batch of one env leaves
  // nothing to run in parallel (the caller would only wait for the worker)
  // or the caller is the only stepping thread but the reserve.
  bool SendsInline(int n) const {
    return CheaperInline(n) ||
           (((sync_ && n == 1) || stepping_workers_ == 0) && CallerMayStep());
  }
  // Whether a thread waiting in Recv steps queued envs: where
  // caller_steps() and the caller may step, and wherever a send may step its
  // envs inline (cheap envs), since those envs then come back ahead of the
  // queued ones, which the caller must drain too or a queued env could wait
  // for a slow worker indefinitely.
  bool RecvSteps() const {
    return (caller_steps_ && CallerMayStep()) || CheaperInline(batch_size_);
  }
  // How long an idle thread polls before it sleeps: kSpinSteps x the
  // estimated step, within [kMinSpinNs, kMaxSpinNs], or kContendedSpinNs
  // while the thread waits for cores (WatchContention): for a thread in
  // Recv, and for a stepping worker (whose verdict marks the pool). Waking
  // a sleeping thread costs far more than a cheap step (about 100 us on a
  // virtual machine). In a sync batch of expensive envs the threads that
  // finish first wait for the others' last envs (up to one step), so the
  // spin grows with the step: a fixed spin shorter than a step would put
  // them to sleep in every batch. But a thread that polls while another
  // process competes for the cores holds a core that a stepping thread of
  // the pool may be waiting for; a sleep hands it over at once.
  int64_t CallerSpinNs() { return SpinNs(WatchContention(false)); }
  int64_t WorkerSpinNs() { return SpinNs(WatchContention(true)); }
  // The spin of a thread that is (or is not) waiting for cores.
  int64_t SpinNs(bool contended) const {
    return contended
               ? kContendedSpinNs
               : std::clamp(kSpinSteps * cost_.ns(), kMinSpinNs, kMaxSpinNs);
  }

  // Queues a task like `like` for each env (`slot` k for the k-th), on the
  // env's home queue, and wakes sleeping workers.
  void Enqueue(const int* env_ids, int n, const Task& like) {
    Enqueue(env_ids, n, like, Consecutive(env_ids, n));
  }
  // The same, where the sender knows already whether the ids are
  // Consecutive (a sync send scans its ids once).
  void Enqueue(const int* env_ids, int n, const Task& like, bool consecutive);
  // Tasks queued on all queues.
  int queued(std::memory_order order = std::memory_order_seq_cst) const {
    return num_tasks_.load(order);
  }
  // Takes one or more queued tasks (several when envs are cheap) for the
  // thread of home `self` into `chunk`, without waiting; false if none.
  // The tasks' envs then have `self` as their home (async mode, except for
  // callers, which keep no envs), or `self`'s run of homes grows by as many
  // envs at the next send (sync mode, except for the reserve).
  bool TryTake(int self, TaskChunk* chunk) { return Take(self, false, chunk); }
  // A worker's wait for tasks: polls for WorkerSpinNs(), then sleeps until
  // tasks are queued (the reserve: sleeps until tasks are queued that the
  // caller may not step). False once the scheduler is closed.
  bool TakeOrWait(int self, TaskChunk* chunk);
  // Drops the queued tasks; waiting workers return and take no more.
  void Close();
  bool closed() const { return closed_.load(); }

 private:
  bool Take(int self, bool wait, TaskChunk* chunk);
  // Whether the thread of queue `queue` takes its own tasks from the back
  // of its queue (its highest ids first): in a sync pool, the caller, whose
  // run of homes follows the last worker's. The two then step towards the
  // end of the worker's run, and a thread that runs out takes the envs next
  // to its own run, which its run then grows by (DealSyncHomes): the envs
  // taken are those that move for good, each moved once.
  bool PopsFromTheBack(int queue) const {
    return sync_ && stepping_workers_ > 0 && queue == callers_home();
  }
  // Sync pools: deals the envs out again in runs of consecutive ids, each
  // stepping thread's run as long as its last one and the envs it took from
  // the others since (requires mu_).
  void DealSyncHomes();
  bool ReserveTakeOrWait(TaskChunk* chunk);
  void PlanThreads(const SchedulerConfig& config);

  // In the order these had inside the pool, whose hot paths were timed with
  // them: the counters that spinning threads read (num_tasks_, closed_) and
  // the estimate that every send and take reads lie close together.
  std::mutex mu_;
  std::condition_variable task_cv_;
  std::vector<TaskRing> queues_;  // guarded by mu_
  std::vector<int> home_;         // per env: its queue, guarded by mu_
  // Sync pools: the envs each queue took from the others (negative: gave)
  // since the homes were last dealt (see DealSyncHomes), guarded by mu_.
  std::vector<int> moved_;
  bool homes_moved_ = false;  // guarded by mu_
  // Sync pools: the queues with a run of homes, in the order of the runs
  // (the stepping workers', then the caller's), and where each run starts
  // (one more: num_envs), guarded by mu_.
  std::vector<int> run_queues_;
  std::vector<int> run_starts_;
  uint32_t queued_tasks_ = 0;      // tasks ever queued, guarded by mu_
  std::atomic<int> num_tasks_{0};  // queued on all queues
  std::atomic<int> sleeping_workers_{0};
  std::condition_variable reserve_cv_;
  // Whether a thread in Recv steps queued envs while it waits.
  bool caller_steps_ = true;
  // From here on, read by every take and send and written seldom: on lines
  // apart from the lock and the counts above, which each take writes.
  alignas(64) std::atomic<bool> closed_{false};
  StepCost cost_;
  // Contended() until then (NowNs); 0: not marked, or the mark is past
  // its hold and a look cleared it.
  mutable std::atomic<int64_t> contended_until_ns_{0};
  bool yields_under_contention_;
  int num_envs_;
  int batch_size_;
  bool sync_;
  int workers_ = 0;           // threads the pool starts, the reserve included
  int stepping_workers_ = 0;  // those but the reserve: 0..n-1
  bool reserve_ = false;      // worker stepping_workers_ is the reserve
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_SCHEDULER_H_
