#include "envpool/core/scheduler.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace envpool {

Scheduler::Scheduler(const SchedulerConfig& config)
    : yields_under_contention_(config.yields_under_contention),
      num_envs_(config.num_envs),
      batch_size_(config.batch_size),
      sync_(config.batch_size == config.num_envs) {
  PlanThreads(config);
  queues_.resize(static_cast<std::size_t>(workers_) + 1);
  for (TaskRing& queue : queues_) {
    queue.Reserve(static_cast<std::size_t>(num_envs_));
  }
  // The first homes deal the envs out to the threads that step, in runs of
  // consecutive ids: a sync batch puts env k in row k, and the rows of
  // cheap envs are a few bytes each, so that envs dealt out in turn would
  // have every cache line of every column written by all the threads at
  // once. In async mode Recv takes no envs of its own (see Take). The
  // reserve steps for the caller: it takes from the others' queues.
  const int homes = stepping_workers_ + (sync_ ? 1 : 0);
  home_.resize(static_cast<std::size_t>(num_envs_));
  for (std::size_t id = 0; id < home_.size(); ++id) {
    const int k =
        static_cast<int>(id * static_cast<std::size_t>(homes) / home_.size());
    home_[id] = k < stepping_workers_ ? k : callers_home();
  }
  moved_.assign(queues_.size(), 0);
  for (int k = 0; k < stepping_workers_; ++k) {
    run_queues_.push_back(k);
  }
  run_queues_.push_back(callers_home());
  run_starts_.push_back(0);
  for (const int queue : run_queues_) {
    run_starts_.push_back(
        run_starts_.back() +
        static_cast<int>(std::count(home_.begin(), home_.end(), queue)));
  }
}

void Scheduler::PlanThreads(const SchedulerConfig& config) {
  const int cores = std::max(1, config.cores);
  int num_threads = config.num_threads;
  const bool default_threads = num_threads <= 0;
  if (default_threads) {
    num_threads = std::min(config.batch_size, cores);
  }
  // num_threads counts the threads that step envs. In sync mode the calling
  // thread is one of them: it steps envs while it waits in Recv, so one
  // worker fewer keeps the threads from outnumbering the cores. An async
  // pool given num_threads has that many workers. By default it has one
  // worker fewer too, and the caller steps queued envs in Recv: the caller's
  // own work between recv and send needs a core, and with a worker on every
  // core it takes one from a worker, so that each batch handed to the caller
  // costs two context switches. Not so where a step's work runs elsewhere:
  // a worker then mostly waits, and with the caller stepping too, the envs
  // that run while the caller is away from the pool would be the one
  // worker's.
  workers_ = num_threads;
  if (sync_) {
    workers_ = num_threads - 1;
  } else if (default_threads && !config.steps_elsewhere) {
    workers_ = std::max(1, num_threads - 1);
  }
  // An async Recv steps queued envs itself only where that takes no core
  // from a worker, or where the workers would otherwise wait for it: with a
  // worker per core, a caller stepping too makes one thread more than cores,
  // and the kernel then time-slices envs on a core. But a batch smaller than
  // the workers leaves a worker with nothing queued while the caller wakes
  // up to send.
  caller_steps_ = sync_ || workers_ < cores || batch_size_ < workers_;
  // A caller busy in a long step takes no Ctrl-C, so it steps no env whose
  // step costs more than kCallerStepLimitNs; the reserve then steps in its
  // place, so that as many threads step as without that rule.
  stepping_workers_ = workers_;
  reserve_ = caller_steps_;
  workers_ += reserve_ ? 1 : 0;
}

int Scheduler::home(int env_id) {
  std::lock_guard<std::mutex> lock(mu_);
  return home_.at(static_cast<std::size_t>(env_id));
}

RunDelayWatch::~RunDelayWatch() {
  if (fd_ >= 0) {
    close(fd_);
  }
}

bool RunDelayWatch::ContendedNow(int64_t now_ns) {
  if (fd_ != -2 && now_ns - read_at_ns_ < kReadEveryNs) {
    return contended_;
  }
  read_at_ns_ = now_ns;
  // The file names the thread that opened it: a process forked since reads
  // its own thread's.
  const pid_t pid = getpid();
  if (fd_ != -2 && pid != pid_) {
    if (fd_ >= 0) {
      close(fd_);
    }
    fd_ = -2;
    seen_exec_ = -1;
  }
  if (fd_ == -2) {
    fd_ = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    pid_ = pid;
  }
  if (fd_ < 0) {
    return contended_;
  }
  // "<time on a core> <time waiting for one> <timeslices>", in ns.
  char text[96];
  const ssize_t size = pread(fd_, text, sizeof(text) - 1, 0);
  if (size > 0) {
    text[size] = '\0';
    long long exec_ns = 0;
    long long delay_ns = 0;
    if (std::sscanf(text, "%lld %lld", &exec_ns, &delay_ns) == 2) {
      Observe(exec_ns, delay_ns);
    }
  }
  return contended_;
}

bool Scheduler::WatchContention(bool marks) {
  // Per thread, whichever pool it serves (a thread's file stays open).
  thread_local RunDelayWatch watch;
  const int64_t now = NowNs();
  const bool contended = watch.ContendedNow(now);
  if (contended && marks) {
    MarkContended(now);
  }
  return contended;
}

void Scheduler::Enqueue(const int* env_ids, int n, const Task& like,
                        bool consecutive) {
  // A sync step's envs are consecutive ids, whose homes are runs of home_
  // (see the constructor): each run is found eight homes at a time and
  // queued as one entry, without another look at its ids.
  {
    const auto lock = LockPolling(mu_);
    if (homes_moved_) {
      DealSyncHomes();
    }
    // In runs of envs of one home.
    const int* const homes = home_.data();
    for (int k = 0; k < n;) {
      const int home = homes[env_ids[k]];
      if (consecutive) {
        const int first = env_ids[0];
        const int end = RunOfSameEnd(homes + first, k + 1, n, home);
        queues_[home].AppendConsecutive(first + k, end - k, k, like,
                                        &queued_tasks_);
        k = end;
        continue;
      }
      int end = k + 1;
      while (end < n && homes[env_ids[end]] == home) {
        ++end;
      }
      queues_[home].AppendRun(env_ids + k, end - k, k, like, &queued_tasks_);
      k = end;
    }
    num_tasks_.fetch_add(n);
  }
  // A worker counts itself sleeping under mu_ before it checks for tasks,
  // so one that missed these tasks is counted here.
  if (sleeping_workers_.load() > 0) {
    task_cv_.notify_all();
  }
  if (reserve_ && !CallerMayStep()) {
    reserve_cv_.notify_one();
  }
}

bool Scheduler::Take(int self, bool wait, TaskChunk* chunk) {
  chunk->clear();
  if (!wait && num_tasks_.load() == 0) {
    return false;
  }
  std::unique_lock<std::mutex> lock = LockPolling(mu_);
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
  // A thread takes the oldest tasks of its own queue (in a sync pool the
  // caller takes the newest: see PopsFromTheBack), with two exceptions.
  // - A task queued more than num_envs tasks before that one goes first,
  //   whoever takes it: a thread that falls behind (descheduled on a core
  //   it shares) does not hold its envs back while the others go round.
  // - A thread with nothing of its own takes, in async mode, the oldest
  //   task; in sync mode, the tasks of the fullest queue that its owner
  //   would come to last: the two then do not take turns at the same end,
  //   where each turn would move an env to the other thread.
  TaskRing* own = &queues_[self];
  TaskRing* oldest = nullptr;
  TaskRing* fullest = own;
  for (auto& queue : queues_) {
    if (!queue.empty() && (oldest == nullptr ||
                           static_cast<int32_t>(queue.front_order() -
                                                oldest->front_order()) < 0)) {
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
  bool front = !PopsFromTheBack(self);
  // An async Recv of cheap envs drains the queues in the order of the
  // sends, as one queue would, and keeps no envs: the caller steps only
  // while it waits, and a send that steps its envs inline (cheap envs) fills
  // the next batch before the queued ones, which would otherwise wait for a
  // worker. Where a step costs kCallerKeepsNs or more, it keeps the envs it
  // takes, as a worker does, and an env moves between cores only when one
  // thread takes it from the other's queue. The reserve, which steps in the
  // caller's place while the caller may not (when another process is seen
  // to compete for the cores), keeps none: envs it kept would stay on its
  // queue once the caller steps again, taken only by the caller and by the
  // workers' steals, each turn on another core.
  const bool is_reserve = reserve_ && self == stepping_workers_;
  // The step-cost estimate, read once for the choices of this take.
  const int64_t step_ns = cost_.ns();
  const bool keeps =
      sync_ ||
      (!is_reserve && (self != callers_home() || step_ns >= kCallerKeepsNs));
  if (!keeps) {
    source = oldest;
    front = true;
  } else if (own->empty()) {
    source = sync_ ? fullest : oldest;
    front =
        !sync_ || PopsFromTheBack(static_cast<int>(source - queues_.data()));
  } else if (static_cast<uint32_t>(own->front_order() - oldest->front_order()) >
             static_cast<uint32_t>(num_envs_)) {
    source = oldest;
    front = true;
  }
  // Cheap envs are taken several at a time, so that the lock is not paid
  // per env; a chunk stays a fair share of what is queued, and a thread
  // takes at most half of another's queue.
  const int64_t cost = std::max<int64_t>(step_ns, 1);
  // (A share of the stepping threads': the reserve steps only for the
  // caller.)
  const std::size_t threads = queues_.size() - (reserve_ ? 1 : 0);
  const std::size_t share =
      std::max<std::size_t>(1, static_cast<std::size_t>(queued) / threads);
  const std::size_t most =
      source == own ? source->size() : (source->size() + 1) / 2;
  std::size_t take = std::clamp<std::size_t>(
      static_cast<std::size_t>(kChunkNs / cost), 1, std::min(share, most));
  // A sync batch's fair share shrinks as the queues drain, to chunks of one
  // env at its end, whose take (the lock, the queues' lines, and the state of
  // envs taken from another thread) costs about as much as a cheap env's
  // step: there a thread takes at least kLeastSyncChunkNs of work, or all
  // it may take.
  if (sync_ && step_ns > 0) {
    take = std::max(take,
                    std::min(most, static_cast<std::size_t>(
                                       (kLeastSyncChunkNs + cost - 1) / cost)));
  }
  chunk->resize(take);
  Task* const taken = chunk->data();
  if (front) {
    source->PopFrontInto(taken, take);
  } else {
    source->PopBackInto(taken, take);
  }
  // A task on a thread's own queue is there because the thread is its env's
  // home already (an env has one task queued at most): only envs taken from
  // another queue move. In a sync pool the homes stay runs of consecutive
  // ids: the thread's run grows by as many envs at the next send
  // (DealSyncHomes). Moving the envs taken themselves would break the runs
  // into pieces, and the rows and per-env arrays at each end of a piece
  // would be written by two threads. The reserve, which steps in the
  // caller's place, takes no envs for good.
  if (keeps && source != own) {
    if (!sync_) {
      for (std::size_t i = 0; i < take; ++i) {
        home_[taken[i].env_id] = self;
      }
    } else if (!is_reserve) {
      moved_[self] += static_cast<int>(take);
      moved_[source - queues_.data()] -= static_cast<int>(take);
      homes_moved_ = true;
    }
  }
  num_tasks_.fetch_sub(static_cast<int>(take));
  return true;
}

void Scheduler::DealSyncHomes() {
  // Each run as long as before and the envs its queue took (the last one
  // the rest); only the envs between a run's old and new ends change home.
  const int runs = static_cast<int>(run_queues_.size());
  int old_first = run_starts_[0];
  for (int k = 0; k < runs; ++k) {
    const int first = run_starts_[k];
    const int old_end = run_starts_[k + 1];
    const int end =
        k + 1 == runs
            ? num_envs_
            : std::clamp(first + old_end - old_first + moved_[run_queues_[k]],
                         first, num_envs_);
    run_starts_[k + 1] = end;
    const auto fill = [&](int from, int to) {
      if (from < to) {
        std::fill(home_.begin() + from, home_.begin() + to, run_queues_[k]);
      }
    };
    fill(first, std::min(end, old_first));
    fill(std::max(first, old_end), end);
    old_first = old_end;
  }
  std::fill(moved_.begin(), moved_.end(), 0);
  homes_moved_ = false;
}

bool Scheduler::ReserveTakeOrWait(TaskChunk* chunk) {
  // No spin: the reserve steps envs of 20 ms and more. It looks again every
  // 50 ms, so that tasks queued before the estimate rose above the limit
  // wait no longer than that.
  constexpr auto kLookAgain = std::chrono::milliseconds(50);
  const int self = stepping_workers_;
  while (!closed_.load()) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      reserve_cv_.wait_for(lock, kLookAgain, [this] {
        return closed_.load() || (!CallerMayStep() && num_tasks_.load() > 0);
      });
    }
    if (!closed_.load() && !CallerMayStep() && Take(self, false, chunk)) {
      return true;
    }
  }
  return false;
}

bool Scheduler::TakeOrWait(int self, TaskChunk* chunk) {
  if (reserve_ && self == stepping_workers_) {
    return ReserveTakeOrWait(chunk);
  }
  while (!closed_.load()) {
    bool got = false;
    PollUntil(NowNs() + WorkerSpinNs(), [&] {
      got = Take(self, false, chunk);
      return got || closed_.load();
    });
    if (!got) {
      got = Take(self, true, chunk);
    }
    if (got) {
      return true;
    }
  }
  return false;
}

void Scheduler::Close() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    closed_.store(true);
    for (auto& queue : queues_) {
      queue.clear();
    }
    num_tasks_.store(0);
  }
  task_cv_.notify_all();
  reserve_cv_.notify_all();
}

}  // namespace envpool
