#include "envpool/core/scheduler.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <numeric>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

namespace envpool {
namespace {

SchedulerConfig Config(int num_envs, int batch_size, int num_threads, int cores,
                       bool steps_elsewhere = false) {
  SchedulerConfig config;
  config.num_envs = num_envs;
  config.batch_size = batch_size;
  config.num_threads = num_threads;
  config.cores = cores;
  config.steps_elsewhere = steps_elsewhere;
  return config;
}

std::vector<int> Iota(int n) {
  std::vector<int> ids(n);
  std::iota(ids.begin(), ids.end(), 0);
  return ids;
}

void EnqueueSteps(Scheduler* scheduler, const std::vector<int>& ids) {
  scheduler->Enqueue(ids.data(), static_cast<int>(ids.size()),
                     Task{0, 0, nullptr, 0, Task::Kind::kStep, false});
}

// The home of each of the first `n` envs.
std::vector<int> Homes(Scheduler* scheduler, int n) {
  std::vector<int> homes;
  for (int id = 0; id < n; ++id) {
    homes.push_back(scheduler->home(id));
  }
  return homes;
}

// The envs of the tasks `self` takes at once (none: empty).
std::vector<int> Take(Scheduler* scheduler, int self) {
  TaskChunk chunk;
  std::vector<int> ids;
  if (scheduler->TryTake(self, &chunk)) {
    for (const Task& task : chunk) {
      ids.push_back(task.env_id);
    }
  }
  return ids;
}

// An estimate at which a thread takes one task at a time.
void OneTaskAChunk(Scheduler* scheduler) {
  scheduler->cost().AddInline(Scheduler::kChunkNs);
}

TEST(TaskRingTest, KeepsOrderAcrossTheEndAndRefusesMoreThanItsCapacity) {
  TaskRing ring;
  ring.Reserve(3);
  uint32_t order = 7;
  const Task like{0, 0, nullptr, 0, Task::Kind::kReset, true};
  for (int round = 0; round < 5; ++round) {
    // Two envs that are not consecutive (two runs) in a ring of three:
    // every other send wraps around the end.
    const int envs[2] = {3 * round + 1, 3 * round};
    ring.AppendRun(envs, 2, 10, like, &order);
    EXPECT_EQ(ring.size(), 2u);
    EXPECT_EQ(ring.front_order(), 7u + 2u * round);
    const Task back = ring.PopBack();
    EXPECT_EQ(back.env_id, 3 * round);
    EXPECT_EQ(back.slot, 11);
    EXPECT_EQ(back.order, 8u + 2u * round);
    EXPECT_EQ(back.kind, Task::Kind::kReset);
    EXPECT_TRUE(back.has_seed);
    const Task front = ring.PopFront();
    EXPECT_EQ(front.env_id, 3 * round + 1);
    EXPECT_EQ(front.slot, 10);
    EXPECT_EQ(front.order, 7u + 2u * round);
    EXPECT_TRUE(ring.empty());
  }
  EXPECT_EQ(order, 7u + 10u);
  const int three[3] = {0, 1, 2};
  ring.AppendRun(three, 2, 0, like, &order);
  EXPECT_THROW(ring.AppendRun(three, 2, 0, like, &order), std::logic_error);
  EXPECT_EQ(ring.size(), 2u);  // nothing of a refused send is queued
  ring.AppendRun(three + 2, 1, 2, like, &order);
  EXPECT_EQ(ring.size(), 3u);
  ring.clear();
  EXPECT_TRUE(ring.empty());
}

TEST(TaskRingTest, ARunOfConsecutiveEnvsGivesEachTaskItsOwnEnvSlotAndOrder) {
  TaskRing ring;
  ring.Reserve(8);
  uint32_t order = 100;
  Block* const block = reinterpret_cast<Block*>(0x40);
  const Task like{0, 0, block, 0, Task::Kind::kStep, false};
  // Envs 3..6, then 0 and 1: two runs, slots 5..10.
  const int envs[6] = {3, 4, 5, 6, 0, 1};
  ring.AppendRun(envs, 6, 5, like, &order);
  EXPECT_EQ(order, 106u);
  EXPECT_EQ(ring.size(), 6u);
  // Taken from both ends, as a thief and the owner take them.
  const Task a = ring.PopFront();
  const Task b = ring.PopBack();
  const Task c = ring.PopBack();
  const Task d = ring.PopFront();
  EXPECT_EQ(ring.front_order(), 102u);
  const Task e = ring.PopBack();
  const Task f = ring.PopFront();
  EXPECT_TRUE(ring.empty());
  const TaskChunk taken{a, d, f, e, c, b};
  for (int k = 0; k < 6; ++k) {
    EXPECT_EQ(taken[k].env_id, envs[k]) << k;
    EXPECT_EQ(taken[k].slot, 5 + k) << k;
    EXPECT_EQ(taken[k].order, 100u + k) << k;
    EXPECT_EQ(taken[k].block, block) << k;
    EXPECT_EQ(taken[k].kind, Task::Kind::kStep) << k;
  }
  // A run emptied from its back and a new one queued behind it.
  ring.AppendRun(envs, 2, 0, like, &order);
  ring.AppendRun(envs + 4, 1, 0, like, &order);
  EXPECT_EQ(ring.PopBack().env_id, 0);
  EXPECT_EQ(ring.PopBack().env_id, 4);
  EXPECT_EQ(ring.PopFront().env_id, 3);
  EXPECT_TRUE(ring.empty());
}

TEST(TaskRingTest, ChunksPoppedAcrossRunsAreTheTasksPoppedOneByOne) {
  // Two rings queued alike: one popped a chunk at a time, the other a task
  // at a time; chunks span runs from either end.
  TaskRing chunked;
  TaskRing single;
  uint32_t chunked_order = 40;
  uint32_t single_order = 40;
  const Task like{0, 0, nullptr, 0, Task::Kind::kStep, false};
  const int envs[7] = {2, 3, 4, 9, 10, 11, 12};
  for (TaskRing* ring : {&chunked, &single}) {
    ring->Reserve(12);
    uint32_t* order = ring == &chunked ? &chunked_order : &single_order;
    ring->AppendRun(envs, 7, 0, like, order);        // runs 2..4 and 9..12
    ring->AppendConsecutive(20, 4, 7, like, order);  // one run, 20..23
  }
  EXPECT_EQ(chunked.size(), 11u);
  EXPECT_EQ(chunked_order, 51u);
  TaskChunk taken(11);
  chunked.PopFrontInto(taken.data(), 4);      // 2, 3, 4, 9
  chunked.PopBackInto(taken.data() + 4, 5);   // 23, 22, 21, 20, 12
  chunked.PopFrontInto(taken.data() + 9, 2);  // 10, 11
  EXPECT_TRUE(chunked.empty());
  TaskChunk expected;
  for (int k = 0; k < 4; ++k) {
    expected.push_back(single.PopFront());
  }
  for (int k = 0; k < 5; ++k) {
    expected.push_back(single.PopBack());
  }
  for (int k = 0; k < 2; ++k) {
    expected.push_back(single.PopFront());
  }
  const int env_order[11] = {2, 3, 4, 9, 23, 22, 21, 20, 12, 10, 11};
  for (int k = 0; k < 11; ++k) {
    EXPECT_EQ(taken[k].env_id, env_order[k]) << k;
    EXPECT_EQ(taken[k].env_id, expected[k].env_id) << k;
    EXPECT_EQ(taken[k].slot, expected[k].slot) << k;
    EXPECT_EQ(taken[k].order, expected[k].order) << k;
  }
  // Env 20 is slot 7 and the eighth queued: order 47.
  EXPECT_EQ(taken[7].slot, 7);
  EXPECT_EQ(taken[7].order, 47u);
}

TEST(SchedulerTest, ConsecutiveAndOtherSendsQueueTheSameTasks) {
  // A send of consecutive ids is queued a run per home without looking at
  // its ids one by one; it must give the tasks a send of the same envs in
  // another form gives.
  for (bool consecutive : {true, false}) {
    Scheduler scheduler(Config(16, 16, 3, 4));
    OneTaskAChunk(&scheduler);
    // Envs 2..13, over the three homes; or the same with two swapped.
    std::vector<int> ids(12);
    for (int k = 0; k < 12; ++k) {
      ids[k] = 2 + k;
    }
    if (!consecutive) {
      std::swap(ids[3], ids[4]);
    }
    scheduler.Enqueue(ids.data(), 12,
                      Task{0, 0, nullptr, 0, Task::Kind::kStep, false});
    EXPECT_EQ(scheduler.queued(), 12);
    std::vector<int> seen(16, 0);
    for (int self = 0; self <= scheduler.callers_home(); ++self) {
      TaskChunk chunk;
      while (scheduler.TryTake(self, &chunk)) {
        for (const Task& task : chunk) {
          ++seen[task.env_id];
          EXPECT_EQ(ids[task.slot], task.env_id) << consecutive;
        }
      }
    }
    for (int id = 0; id < 16; ++id) {
      EXPECT_EQ(seen[id], id >= 2 && id < 14 ? 1 : 0) << id;
    }
  }
}

TEST(SchedulerTest, ThreadsPerMode) {
  // Sync: the caller is one of min(batch_size, cores) stepping threads (once
  // a step has been timed: see CallerStepsNoExpensiveEnv).
  Scheduler sync(Config(8, 8, 0, 4));
  sync.cost().AddInline(1'000'000);
  EXPECT_EQ(sync.stepping_workers(), 3);
  EXPECT_TRUE(sync.RecvSteps());
  // ... and a reserve that steps in its place where it may not.
  EXPECT_TRUE(sync.has_reserve());
  EXPECT_EQ(sync.workers(), 4);
  // Async by default: a worker fewer, and the caller steps in Recv.
  Scheduler async(Config(8, 4, 0, 2));
  async.cost().AddInline(1'000'000);
  EXPECT_EQ(async.stepping_workers(), 1);
  EXPECT_TRUE(async.RecvSteps());
  EXPECT_TRUE(async.has_reserve());
  // Envs stepped elsewhere: a worker per thread, and the caller, with a
  // worker on every core, does not step.
  Scheduler elsewhere(Config(8, 4, 0, 2, true));
  EXPECT_EQ(elsewhere.workers(), 2);
  EXPECT_FALSE(elsewhere.RecvSteps());
  EXPECT_FALSE(elsewhere.has_reserve());
  // num_threads given: that many workers in async mode (the caller steps
  // only where a batch is smaller than the workers), one fewer in sync mode.
  EXPECT_EQ(Scheduler(Config(8, 4, 2, 2)).workers(), 2);
  Scheduler four(Config(8, 4, 2, 2));
  four.cost().AddInline(1'000'000);
  EXPECT_FALSE(four.RecvSteps());
  Scheduler one(Config(8, 1, 2, 2));
  one.cost().AddInline(1'000'000);
  EXPECT_TRUE(one.RecvSteps());
  // Sync with one stepping thread: the caller (and the reserve).
  EXPECT_EQ(Scheduler(Config(8, 8, 1, 2)).stepping_workers(), 0);
  EXPECT_EQ(Scheduler(Config(8, 8, 1, 2)).workers(), 1);
  // A pool of one thread has at least that worker in async mode.
  EXPECT_EQ(Scheduler(Config(8, 1, 0, 8)).stepping_workers(), 1);
}

TEST(SchedulerTest, SendsInlineWhereAHandOffCostsMore) {
  Scheduler sync(Config(64, 64, 0, 2));
  // Not timed yet: to the workers, a sync batch of one env too.
  EXPECT_FALSE(sync.CheaperInline(1));
  EXPECT_FALSE(sync.SendsInline(2));
  EXPECT_FALSE(sync.SendsInline(1));
  sync.cost().AddInline(1000);
  EXPECT_TRUE(sync.SendsInline(9));  // 9 us of work
  EXPECT_FALSE(sync.SendsInline(10));
  // A sync batch of one env leaves nothing to run in parallel.
  EXPECT_TRUE(sync.SendsInline(1));
  // Only a worker standing by: inline once timed.
  Scheduler alone(Config(8, 8, 1, 2));
  EXPECT_FALSE(alone.SendsInline(8));
  alone.cost().AddInline(1'000'000);
  EXPECT_TRUE(alone.SendsInline(8));
  // A Recv of cheap envs steps even where the caller otherwise would not.
  Scheduler elsewhere(Config(8, 4, 0, 2, true));
  ASSERT_FALSE(elsewhere.RecvSteps());
  elsewhere.cost().AddInline(100);
  EXPECT_TRUE(elsewhere.RecvSteps());
}

TEST(SchedulerTest, CallerStepsNoExpensiveEnv) {
  // A caller busy in one long step takes no Ctrl-C: it steps an env only
  // once steps are timed at most kCallerStepLimitNs; the workers (a worker
  // standing by, where the caller is the only stepping thread) take the rest.
  for (const SchedulerConfig& config :
       {Config(1, 1, 0, 2), Config(8, 8, 1, 2), Config(8, 8, 0, 2),
        Config(8, 4, 0, 2)}) {
    Scheduler scheduler(config);
    EXPECT_GE(scheduler.workers(), 1);
    EXPECT_FALSE(scheduler.CallerMayStep());  // not timed yet
    EXPECT_FALSE(scheduler.SendsInline(1));
    EXPECT_FALSE(scheduler.RecvSteps());
    scheduler.cost().AddInline(Scheduler::kCallerStepLimitNs);
    EXPECT_TRUE(scheduler.CallerMayStep());
    EXPECT_TRUE(scheduler.RecvSteps());
    scheduler.cost().AddInline(Scheduler::kCallerStepLimitNs * 9);  // 1/8
    EXPECT_FALSE(scheduler.CallerMayStep());
    EXPECT_FALSE(scheduler.SendsInline(1));
    EXPECT_FALSE(scheduler.RecvSteps());
  }
  // The worker standing by takes the envs from the caller's queue.
  Scheduler alone(Config(4, 4, 1, 2));
  for (int id = 0; id < 4; ++id) {
    EXPECT_EQ(alone.home(id), alone.callers_home());
  }
}

TEST(SchedulerTest, CallerLeavesItsEnvsToTheReserveWhileContended) {
  // Envs of 100 us: not cheap enough to step inline.
  for (bool sync : {true, false}) {
    Scheduler scheduler(sync ? Config(8, 8, 0, 2) : Config(8, 4, 0, 2));
    ASSERT_TRUE(scheduler.has_reserve());
    scheduler.cost().AddInline(100'000);
    EXPECT_FALSE(scheduler.Contended());
    EXPECT_TRUE(scheduler.CallerMayStep());
    EXPECT_TRUE(scheduler.RecvSteps());
    const int64_t now = NowNs();
    scheduler.MarkContended(now);
    EXPECT_TRUE(scheduler.Contended());
    EXPECT_FALSE(scheduler.CallerMayStep());
    EXPECT_FALSE(scheduler.RecvSteps());
    EXPECT_FALSE(scheduler.SendsInline(1));
    // The reserve steps the caller's envs meanwhile.
    EnqueueSteps(&scheduler, {5});
    TaskChunk chunk;
    ASSERT_TRUE(scheduler.TakeOrWait(scheduler.stepping_workers(), &chunk));
    EXPECT_EQ(chunk.front().env_id, 5);
    // Marked kContendedHoldNs ago: over.
    scheduler.MarkContended(now - Scheduler::kContendedHoldNs - 1);
    EXPECT_FALSE(scheduler.Contended());
    EXPECT_TRUE(scheduler.CallerMayStep());
    EXPECT_TRUE(scheduler.RecvSteps());
    // Cheap envs are still stepped inline: a hand-off costs more. (Sixty
    // samples of 100 ns bring the estimate from 100 us below the budget.)
    for (int k = 0; k < 60; ++k) {
      scheduler.cost().AddInline(100);
    }
    scheduler.MarkContended(NowNs());
    EXPECT_TRUE(scheduler.SendsInline(8));
  }
  // A pool told not to yield is never contended.
  SchedulerConfig steady = Config(8, 8, 0, 2);
  steady.yields_under_contention = false;
  Scheduler scheduler(steady);
  scheduler.cost().AddInline(100'000);
  scheduler.MarkContended(NowNs());
  EXPECT_FALSE(scheduler.Contended());
  EXPECT_TRUE(scheduler.CallerMayStep());
}

TEST(SchedulerTest, StepCostWeighsNewSamples) {
  StepCost inline_cost;
  EXPECT_EQ(inline_cost.ns(), 0);
  inline_cost.AddInline(800);  // the first sample is taken whole
  EXPECT_EQ(inline_cost.ns(), 800);
  inline_cost.AddInline(1600);
  EXPECT_EQ(inline_cost.ns(), (800 * 7 + 1600) / 8);
  StepCost chunk_cost;
  chunk_cost.AddChunk(800);
  chunk_cost.AddChunk(2400);
  EXPECT_EQ(chunk_cost.ns(), (800 * 15 + 2400) / 16);
}

TEST(SchedulerTest, ChunkSamplerSumsShortChunksAndGivesALongOneAtOnce) {
  StepCost cost;
  ChunkSampler sampler;
  // Nothing timed yet: the first chunk is a sample at once, however short.
  EXPECT_TRUE(sampler.Add(&cost, 4000, 10));
  EXPECT_EQ(cost.ns(), 400);
  // Short chunks are summed until they reach kSampleNs, then given as one
  // sample of their mean.
  constexpr int64_t kChunk = ChunkSampler::kSampleNs / 4;
  for (int k = 0; k < 3; ++k) {
    EXPECT_FALSE(sampler.Add(&cost, kChunk, kChunk / 500));
    EXPECT_EQ(cost.ns(), 400);
  }
  EXPECT_TRUE(sampler.Add(&cost, kChunk, kChunk / 500));
  EXPECT_EQ(cost.ns(), (400 * 15 + 500) / 16);
  // A chunk of kSampleNs or more is a sample of its own at once, after what
  // was summed before it, and not averaged in among cheap steps: one env
  // step of 20 ms after many cheap ones moves the estimate by 20 ms / 16.
  EXPECT_FALSE(sampler.Add(&cost, 1000, 10));
  const int64_t before = cost.ns();
  EXPECT_TRUE(sampler.Add(&cost, 20'000'000, 1));
  const int64_t summed = (before * 15 + 100) / 16;
  EXPECT_EQ(cost.ns(), (summed * 15 + 20'000'000) / 16);
  // Nothing is left over from before the long chunk.
  EXPECT_FALSE(sampler.Add(&cost, ChunkSampler::kSampleNs - 1, 1));
}

TEST(SchedulerTest, SpinGrowsWithTheStepWithinBoundsAndIsShortUnderContention) {
  Scheduler scheduler(Config(8, 8, 0, 2));
  EXPECT_EQ(scheduler.SpinNs(false), Scheduler::kMinSpinNs);
  scheduler.cost().AddInline(50000);
  EXPECT_EQ(scheduler.SpinNs(false), Scheduler::kSpinSteps * 50000);
  EXPECT_EQ(scheduler.SpinNs(true), Scheduler::kContendedSpinNs);
  Scheduler slow(Config(8, 8, 0, 2));
  slow.cost().AddInline(10000000);
  EXPECT_EQ(slow.SpinNs(false), Scheduler::kMaxSpinNs);
  EXPECT_EQ(slow.SpinNs(true), Scheduler::kContendedSpinNs);
}

TEST(RunDelayWatchTest, ContendedWhereAWindowWaitedOverItsShare) {
  constexpr int64_t kWindow = RunDelayWatch::kWindowNs;
  RunDelayWatch watch;
  // The first reading is a baseline: the times before it are old.
  int64_t exec = 500 * kWindow;
  int64_t delay = 400 * kWindow;
  watch.Observe(exec, delay);
  EXPECT_FALSE(watch.Contended());
  // Waiting 2% of the time (being woken), a tenth of a window a reading:
  // never contended.
  for (int k = 0; k < 40; ++k) {
    exec += kWindow / 10;
    delay += kWindow / 500;
    watch.Observe(exec, delay);
    EXPECT_FALSE(watch.Contended()) << k;
  }
  // Nor a burst of a fifth of a window in one reading, which tips one
  // window but not the next.
  delay += kWindow / 5;
  watch.Observe(exec, delay);
  for (int k = 0; k < 25; ++k) {
    exec += kWindow / 10;
    watch.Observe(exec, delay);
    EXPECT_FALSE(watch.Contended()) << k;
  }
  // A third of the time, as beside a busy process: contended once a whole
  // window has been seen, not before.
  const int64_t windows = watch.windows();
  while (watch.windows() == windows) {
    EXPECT_FALSE(watch.Contended());
    exec += kWindow / 15;
    delay += kWindow / 30;
    watch.Observe(exec, delay);
  }
  // The window under way when the waits began is mixed, and a verdict
  // takes two whole windows: two more.
  for (int k = 0; k < 30; ++k) {
    exec += kWindow / 15;
    delay += kWindow / 30;
    watch.Observe(exec, delay);
  }
  EXPECT_TRUE(watch.Contended());
  EXPECT_GE(watch.windows(), windows + 3);
  // The verdict stands until the next whole window says otherwise.
  exec += kWindow / 2;
  watch.Observe(exec, delay);
  EXPECT_TRUE(watch.Contended());
  exec += kWindow;
  watch.Observe(exec, delay);
  EXPECT_FALSE(watch.Contended());
}

TEST(RunDelayWatchTest, ReadsTheThreadsOwnTimes) {
  // Busy for three windows: at least one whole window of runnable time is
  // judged from the thread's own times (the verdict depends on the load).
  if (access("/proc/thread-self/schedstat", R_OK) != 0) {
    GTEST_SKIP() << "no run delay on this system";
  }
  RunDelayWatch watch;
  const int64_t until = NowNs() + 3 * RunDelayWatch::kWindowNs;
  while (NowNs() < until) {
    watch.ContendedNow(NowNs());
  }
  EXPECT_GE(watch.windows(), 1);
}

TEST(RunDelayWatchTest, AForkedProcessReadsItsOwnThread) {
  // The file opened before the fork names the parent's thread, which waits
  // here without running: a child still reading it would see no time pass.
  if (access("/proc/thread-self/schedstat", R_OK) != 0) {
    GTEST_SKIP() << "no run delay on this system";
  }
  RunDelayWatch watch;
  auto busy = [&watch] {
    const int64_t until = NowNs() + 3 * RunDelayWatch::kWindowNs;
    while (NowNs() < until) {
      watch.ContendedNow(NowNs());
    }
  };
  busy();
  const int64_t before = watch.windows();
  ASSERT_GE(before, 1);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    busy();
    _exit(watch.windows() > before ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

TEST(SchedulerTest, EnvsAreDealtToTheSteppingThreadsInRuns) {
  // Sync: the workers and the caller, each a run of consecutive ids (a
  // sync batch's rows), so that no two threads write one cache line of a
  // column of cheap envs' rows.
  Scheduler sync(Config(6, 6, 3, 4));
  ASSERT_EQ(sync.stepping_workers(), 2);
  const int c = sync.callers_home();
  EXPECT_EQ(Homes(&sync, 6), (std::vector<int>{0, 0, 1, 1, c, c}));
  // Runs as even as the count allows.
  Scheduler uneven(Config(8, 8, 3, 4));
  EXPECT_EQ(Homes(&uneven, 8), (std::vector<int>{0, 0, 0, 1, 1, 1, c, c}));
  // Async: the workers only.
  Scheduler async(Config(6, 3, 2, 4));
  ASSERT_EQ(async.stepping_workers(), 2);
  EXPECT_EQ(Homes(&async, 6), (std::vector<int>{0, 0, 0, 1, 1, 1}));
}

TEST(SchedulerTest, TasksCarryTheirPositionInTheSend) {
  Scheduler scheduler(Config(4, 4, 0, 2));
  const std::vector<int> ids{3, 1, 2, 0};
  scheduler.Enqueue(ids.data(), 4,
                    Task{0, 0, nullptr, 0, Task::Kind::kReset, true});
  EXPECT_EQ(scheduler.queued(), 4);
  TaskChunk chunk;
  std::vector<int> slot_of(4, -1);
  while (scheduler.TryTake(0, &chunk)) {
    for (const Task& task : chunk) {
      EXPECT_EQ(task.kind, Task::Kind::kReset);
      EXPECT_TRUE(task.has_seed);
      slot_of[task.env_id] = task.slot;
    }
  }
  EXPECT_EQ(slot_of, (std::vector<int>{3, 1, 2, 0}));
  EXPECT_EQ(scheduler.queued(), 0);
}

TEST(SchedulerTest, SyncThreadTakesItsOwnThenTheNewestOfTheFullest) {
  Scheduler scheduler(Config(8, 8, 3, 4));
  OneTaskAChunk(&scheduler);
  EnqueueSteps(&scheduler, Iota(8));  // 0 1 2 | 3 4 5 | 6 7
  EXPECT_EQ(Take(&scheduler, 0), std::vector<int>{0});
  EXPECT_EQ(Take(&scheduler, 0), std::vector<int>{1});
  EXPECT_EQ(Take(&scheduler, 0), std::vector<int>{2});
  // Nothing of its own: the back of the fullest queue.
  EXPECT_EQ(Take(&scheduler, 0), std::vector<int>{5});
  // The owner goes on from the front.
  EXPECT_EQ(Take(&scheduler, 1), std::vector<int>{3});
}

TEST(SchedulerTest, SyncHomesStayRunsThatGrowByTheEnvsTaken) {
  Scheduler scheduler(Config(8, 8, 3, 4));
  OneTaskAChunk(&scheduler);
  const int c = scheduler.callers_home();
  EnqueueSteps(&scheduler, Iota(8));  // 0 1 2 | 3 4 5 | 6 7
  for (int id : {0, 1, 2}) {
    EXPECT_EQ(Take(&scheduler, 0), std::vector<int>{id});
  }
  EXPECT_EQ(Take(&scheduler, 0), std::vector<int>{5});
  EXPECT_EQ(Take(&scheduler, 1), std::vector<int>{3});
  EXPECT_EQ(Take(&scheduler, 1), std::vector<int>{4});
  // The caller takes its own from the back.
  EXPECT_EQ(Take(&scheduler, c), std::vector<int>{7});
  EXPECT_EQ(Take(&scheduler, c), std::vector<int>{6});
  // Until the next send the homes are as they were.
  EXPECT_EQ(scheduler.home(5), 1);
  // Then thread 0's run is one env longer and thread 1's one shorter, and
  // env 5, taken once, is back on thread 1: the runs stay whole.
  EnqueueSteps(&scheduler, Iota(8));
  EXPECT_EQ(Homes(&scheduler, 8), (std::vector<int>{0, 0, 0, 0, 1, 1, c, c}));
  for (int id : {0, 1, 2, 3}) {
    EXPECT_EQ(Take(&scheduler, 0), std::vector<int>{id});
  }
  EXPECT_EQ(Take(&scheduler, 1), std::vector<int>{4});
}

TEST(SchedulerTest, SyncWorkerAndCallerMeetAndTheEnvsTakenAreThoseThatMove) {
  Scheduler scheduler(Config(8, 8, 2, 2));  // one worker; homes: 0-3, 4-7
  OneTaskAChunk(&scheduler);
  const int c = scheduler.callers_home();
  for (int start = 4; start > 2; --start) {  // where the caller's run starts
    EnqueueSteps(&scheduler, Iota(8));
    // The worker from its run's start, the caller from its run's end.
    EXPECT_EQ(Take(&scheduler, 0), std::vector<int>{0});
    for (int id = 7; id >= start; --id) {
      EXPECT_EQ(Take(&scheduler, c), std::vector<int>{id});
    }
    // Out of its own, the caller takes the worker's last env, next to its
    // own run, which then starts there.
    EXPECT_EQ(Take(&scheduler, c), std::vector<int>{start - 1});
    while (!Take(&scheduler, 0).empty()) {
    }
  }
  EnqueueSteps(&scheduler, Iota(8));
  EXPECT_EQ(Homes(&scheduler, 8), (std::vector<int>{0, 0, c, c, c, c, c, c}));
}

TEST(SchedulerTest, SyncHomesStayRunsInOrderWhoeverTakes) {
  // Three workers and the caller take a random thread at a time; each send
  // deals runs 0, 1, 2, caller, each as long as before and what its thread
  // took from the others.
  Scheduler scheduler(Config(32, 32, 4, 4));
  OneTaskAChunk(&scheduler);
  const std::vector<int> threads{0, 1, 2, scheduler.callers_home()};
  std::mt19937 rng(7);
  std::vector<int> lengths(4, 8);
  for (int round = 0; round < 50; ++round) {
    EnqueueSteps(&scheduler, Iota(32));
    std::vector<int> homes = Homes(&scheduler, 32);
    std::vector<int> expected;
    for (int k = 0; k < 4; ++k) {
      expected.insert(expected.end(), lengths[k], threads[k]);
    }
    ASSERT_EQ(homes, expected) << "round " << round;
    while (scheduler.queued() > 0) {
      const int k = static_cast<int>(rng() % 4);
      for (int id : Take(&scheduler, threads[k])) {
        if (homes[id] != threads[k]) {
          ++lengths[k];
          --lengths[std::find(threads.begin(), threads.end(), homes[id]) -
                    threads.begin()];
        }
      }
    }
  }
}

TEST(SchedulerTest, SyncReserveTakesNoEnvsForGood) {
  Scheduler scheduler(Config(4, 4, 2, 2));  // homes: 0-1 worker, 2-3 caller
  ASSERT_TRUE(scheduler.has_reserve());
  OneTaskAChunk(&scheduler);
  const int c = scheduler.callers_home();
  const int reserve = scheduler.stepping_workers();
  EnqueueSteps(&scheduler, Iota(4));
  EXPECT_EQ(Take(&scheduler, reserve), std::vector<int>{1});
  EXPECT_EQ(Take(&scheduler, reserve), std::vector<int>{2});
  EXPECT_EQ(Take(&scheduler, 0), std::vector<int>{0});
  EXPECT_EQ(Take(&scheduler, c), std::vector<int>{3});
  EnqueueSteps(&scheduler, Iota(4));
  EXPECT_EQ(Homes(&scheduler, 4), (std::vector<int>{0, 0, c, c}));
}

TEST(SchedulerTest, AsyncReserveTakesInSendOrderAndKeepsNoEnvs) {
  // One worker, the caller and the reserve; every env's home is the worker.
  Scheduler scheduler(Config(8, 4, 0, 2));
  ASSERT_TRUE(scheduler.has_reserve());
  OneTaskAChunk(&scheduler);
  const int reserve = scheduler.stepping_workers();
  EnqueueSteps(&scheduler, {5, 2});
  EXPECT_EQ(Take(&scheduler, reserve), std::vector<int>{5});
  EXPECT_EQ(Take(&scheduler, reserve), std::vector<int>{2});
  EXPECT_EQ(scheduler.home(5), 0);
  EXPECT_EQ(scheduler.home(2), 0);
}

TEST(SchedulerTest, AsyncThreadWithNothingOfItsOwnTakesTheOldest) {
  Scheduler scheduler(Config(8, 4, 2, 2));  // homes: 0-3, 4-7
  OneTaskAChunk(&scheduler);
  EnqueueSteps(&scheduler, {0, 4, 1, 5, 2, 6, 3, 7});
  for (int id : {0, 1, 2, 3}) {
    EXPECT_EQ(Take(&scheduler, 0), std::vector<int>{id});
  }
  EXPECT_EQ(Take(&scheduler, 0), std::vector<int>{4});
  EXPECT_EQ(Take(&scheduler, 0), std::vector<int>{5});
  EXPECT_EQ(scheduler.home(5), 0);
}

TEST(SchedulerTest, AsyncCallerOfCheapEnvsTakesInSendOrderAndKeepsNoEnvs) {
  Scheduler scheduler(Config(8, 4, 2, 2));  // homes: 0-3, 4-7
  // One task a chunk would take a step of 10 us: here a step is under
  // kCallerKeepsNs, and a chunk takes what a fair share allows.
  scheduler.cost().AddInline(Scheduler::kCallerKeepsNs - 1);
  EnqueueSteps(&scheduler, {5, 2, 7, 4});
  std::vector<int> taken;
  for (int k = 0; k < 4 && taken.size() < 4; ++k) {
    const std::vector<int> chunk = Take(&scheduler, scheduler.callers_home());
    taken.insert(taken.end(), chunk.begin(), chunk.end());
  }
  std::sort(taken.begin(), taken.end());
  EXPECT_EQ(taken, (std::vector<int>{2, 4, 5, 7}));
  EXPECT_EQ(Homes(&scheduler, 8), (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_TRUE(Take(&scheduler, scheduler.callers_home()).empty());
}

TEST(SchedulerTest, AsyncCallerKeepsTheEnvsItStepsWhereAStepCostsMore) {
  Scheduler scheduler(Config(8, 4, 2, 2));  // homes: 0-3, 4-7
  const int c = scheduler.callers_home();
  OneTaskAChunk(&scheduler);  // a step of 10 us: over kCallerKeepsNs
  EnqueueSteps(&scheduler, {5, 2, 7, 4});
  // With nothing of its own, the caller takes the oldest task, and keeps
  // its env.
  EXPECT_EQ(Take(&scheduler, c), std::vector<int>{5});
  EXPECT_EQ(Take(&scheduler, c), std::vector<int>{2});
  EXPECT_EQ(scheduler.home(5), c);
  EXPECT_EQ(scheduler.home(2), c);
  // Their next tasks go to the caller's queue, which it takes first; a
  // worker with nothing of its own takes the oldest task (7, still thread
  // 1's) and keeps it.
  EnqueueSteps(&scheduler, {2, 5});
  EXPECT_EQ(Take(&scheduler, c), std::vector<int>{2});
  EXPECT_EQ(Take(&scheduler, 0), std::vector<int>{7});
  EXPECT_EQ(scheduler.home(7), 0);
  EXPECT_EQ(Take(&scheduler, c), std::vector<int>{5});
  EXPECT_EQ(Take(&scheduler, 1), std::vector<int>{4});
  EXPECT_TRUE(Take(&scheduler, c).empty());
}

TEST(SchedulerTest, ATaskQueuedNumEnvsTasksEarlierGoesFirst) {
  // Env 0 waits on thread 0's queue while thread 1 steps env 2 over and
  // over; once env 0's task is more than num_envs tasks older than thread
  // 1's own oldest, thread 1 takes it.
  for (int turns : {3, 4}) {
    Scheduler scheduler(Config(4, 2, 2, 2));  // homes: 0-1, 2-3
    OneTaskAChunk(&scheduler);
    EnqueueSteps(&scheduler, {0});  // order 0
    for (int turn = 0; turn < turns; ++turn) {
      EnqueueSteps(&scheduler, {2});
      ASSERT_EQ(Take(&scheduler, 1), std::vector<int>{2});
    }
    EnqueueSteps(&scheduler, {3});  // order turns + 1
    const int expected = turns + 1 > 4 ? 0 : 3;
    EXPECT_EQ(Take(&scheduler, 1), std::vector<int>{expected})
        << turns << " turns";
  }
}

TEST(SchedulerTest, CheapEnvsAreTakenInChunksOfAFairShare) {
  Scheduler scheduler(Config(8, 8, 2, 2));  // one worker; homes: 0-3, 4-7
  scheduler.cost().AddInline(1);
  EnqueueSteps(&scheduler, Iota(8));  // 0 1 2 3 | 4 5 6 7
  // A share is the queued tasks over the queues: all of its own four.
  EXPECT_EQ(Take(&scheduler, 0), (std::vector<int>{0, 1, 2, 3}));
  // Of another's queue at most half, from the end its owner comes to last:
  // the caller's front (it takes its own from the back), next to the run
  // of the worker.
  EXPECT_EQ(Take(&scheduler, 0), (std::vector<int>{4, 5}));
  // Three workers and the caller, four envs each.
  Scheduler four(Config(16, 16, 4, 4));
  four.cost().AddInline(1);
  EnqueueSteps(&four, Iota(16));
  EXPECT_EQ(Take(&four, 0), (std::vector<int>{0, 1, 2, 3}));
  // A share is 12 / 4 = 3, and at most half of the fullest: 2.
  EXPECT_EQ(Take(&four, 0), (std::vector<int>{7, 6}));
  EXPECT_EQ(Take(&four, 0), (std::vector<int>{11, 10}));
  // Expensive envs: one at a time.
  Scheduler slow(Config(8, 8, 2, 2));
  slow.cost().AddInline(Scheduler::kChunkNs * 2);
  EnqueueSteps(&slow, Iota(8));
  EXPECT_EQ(Take(&slow, 0), std::vector<int>{0});
}

TEST(SchedulerTest, SyncChunksAreAtLeastAFewMicrosecondsOfWork) {
  // One worker and the caller, homes 0-3 and 4-7, steps of 1 us. With four
  // tasks queued a fair share is two, but a sync take is at least
  // kLeastSyncChunkNs of work (three envs) where it may take as many.
  static_assert(Scheduler::kLeastSyncChunkNs > 2000 &&
                Scheduler::kLeastSyncChunkNs <= 3000);
  Scheduler sync(Config(8, 8, 2, 2));
  const int caller = sync.callers_home();
  sync.cost().AddInline(1000);
  EnqueueSteps(&sync, Iota(8));
  EXPECT_EQ(Take(&sync, 0), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(Take(&sync, caller), (std::vector<int>{7, 6, 5}));
  // Of another's queue still at most half (from the end its owner comes to
  // last).
  EnqueueSteps(&sync, {0, 1, 2, 3});
  EXPECT_EQ(Take(&sync, caller), (std::vector<int>{4}));
  EXPECT_EQ(Take(&sync, caller), (std::vector<int>{3, 2}));
  // An async take keeps to the fair share; so does a sync one before a
  // step has been timed, and one of steps of kLeastSyncChunkNs or more.
  Scheduler async(Config(8, 4, 0, 2));  // one worker and the caller
  async.cost().AddInline(1000);
  EnqueueSteps(&async, Iota(4));
  EXPECT_EQ(Take(&async, 0).size(), 2U);
  Scheduler untimed(Config(8, 8, 2, 2));
  EnqueueSteps(&untimed, Iota(8));
  EXPECT_EQ(Take(&untimed, 0).size(), 4U);
  EXPECT_EQ(Take(&untimed, untimed.callers_home()).size(), 2U);
  Scheduler slow(Config(8, 8, 2, 2));
  slow.cost().AddInline(Scheduler::kLeastSyncChunkNs);
  EnqueueSteps(&slow, Iota(8));
  EXPECT_EQ(Take(&slow, 0).size(), 4U);
  EXPECT_EQ(Take(&slow, slow.callers_home()).size(), 2U);
}

TEST(SchedulerTest, SleepingWorkerWakesForATaskAndCloseEndsItsWait) {
  Scheduler scheduler(Config(4, 4, 2, 2));
  ASSERT_EQ(scheduler.stepping_workers(), 1);
  std::atomic<int> taken{-1};
  std::atomic<bool> ended{false};
  std::thread worker([&] {
    TaskChunk chunk;
    while (scheduler.TakeOrWait(0, &chunk)) {
      taken.store(chunk.front().env_id);
    }
    ended.store(true);
  });
  // Past the worker's spin, so that it sleeps.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EnqueueSteps(&scheduler, {2});
  while (taken.load() != 2) {
    std::this_thread::yield();
  }
  EnqueueSteps(&scheduler, {1});  // dropped by Close, or taken before it
  scheduler.Close();
  worker.join();
  EXPECT_TRUE(ended.load());
  EXPECT_EQ(scheduler.queued(), 0);
  EXPECT_TRUE(scheduler.closed());
}

TEST(SchedulerTest, ReserveStepsOnlyWhatTheCallerMayNot) {
  Scheduler scheduler(Config(4, 4, 1, 2));  // sync: the caller, the reserve
  ASSERT_TRUE(scheduler.has_reserve());
  const int reserve = scheduler.stepping_workers();
  scheduler.cost().AddInline(1000);  // cheap: the caller's
  std::atomic<int> taken{-1};
  std::thread worker([&] {
    TaskChunk chunk;
    while (scheduler.TakeOrWait(reserve, &chunk)) {
      taken.store(chunk.front().env_id);
    }
  });
  EnqueueSteps(&scheduler, {1});
  // Past the reserve's look again: it left the task to the caller.
  std::this_thread::sleep_for(std::chrono::milliseconds(120));
  EXPECT_EQ(taken.load(), -1);
  TaskChunk chunk;
  ASSERT_TRUE(scheduler.TryTake(scheduler.callers_home(), &chunk));
  EXPECT_EQ(chunk.front().env_id, 1);
  // Expensive steps: the reserve's.
  scheduler.cost().AddInline(Scheduler::kCallerStepLimitNs * 100);
  EnqueueSteps(&scheduler, {2});
  while (taken.load() != 2) {
    std::this_thread::yield();
  }
  scheduler.Close();
  worker.join();
}

// Workers and a caller take turns of envs that are queued again by whoever
// steps them, as the pool's threads do: every turn is taken exactly once,
// never while the env's previous turn is still running (run under TSAN).
TEST(SchedulerTest, ConcurrentThreadsTakeEveryTurnOnce) {
  for (int batch : {16, 8}) {
    const int n = 16;
    const int turns = 400;
    Scheduler scheduler(Config(n, batch, 3, 4));
    std::vector<std::atomic<int>> count(n);
    std::vector<std::atomic<int>> running(n);
    std::atomic<int> done{0};
    std::atomic<bool> overlap{false};
    auto run = [&](const TaskChunk& chunk) {
      for (const Task& task : chunk) {
        const int id = task.env_id;
        if (running[id].fetch_add(1) != 0) {
          overlap.store(true);
        }
        const int turn = count[id].fetch_add(1) + 1;
        running[id].fetch_sub(1);
        if (turn < turns) {
          scheduler.Enqueue(&id, 1, task);
        } else {
          done.fetch_add(1);
        }
      }
    };
    std::vector<std::thread> workers;
    for (int w = 0; w < scheduler.workers(); ++w) {
      workers.emplace_back([&, w] {
        TaskChunk chunk;
        while (scheduler.TakeOrWait(w, &chunk)) {
          run(chunk);
        }
      });
    }
    EnqueueSteps(&scheduler, Iota(n));
    TaskChunk chunk;
    while (done.load() < n) {
      if (scheduler.TryTake(scheduler.callers_home(), &chunk)) {
        run(chunk);
      }
    }
    scheduler.Close();
    for (auto& worker : workers) {
      worker.join();
    }
    EXPECT_FALSE(overlap.load());
    for (int id = 0; id < n; ++id) {
      EXPECT_EQ(count[id].load(), turns) << "env " << id;
    }
  }
}

}  // namespace
}  // namespace envpool
