#include "envpool/core/pool.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <numeric>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "envpool/core/testing/test_envs.h"

namespace envpool {
namespace {

using testing::CounterEnv;
using testing::DuelEnv;
using testing::TeamEnv;

// Each step sleeps 300 us, but env 0's fifth step 60 ms; the observation is
// the index of the thread that ran the env's last turn (threads are numbered
// as they first run one).
class ThreadEnv : public Env {
 public:
  struct Fields {
    Field<int32_t> obs;
    Field<int64_t> action;
  };
  static Options DefaultOptions() { return Options{}; }
  static void Declare(const Options& /*options*/, EnvSpec* spec,
                      Fields* fields) {
    fields->obs = spec->state.Add<int32_t>("obs", {});
    fields->action = spec->action.AddDiscrete<int64_t>("action", 2);
  }
  ThreadEnv(const Options& /*options*/, const Fields& fields) {
    fields_ = fields;
  }
  void Reset() override { terminated_ = false; }
  void Step(const ActionView& /*action*/) override {
    ++steps_;
    std::this_thread::sleep_for(
        std::chrono::microseconds(env_id_ == 0 && steps_ == 5 ? 60000 : 300));
  }
  void Write(const Output& out) override {
    *out.Get(fields_.obs) = ThreadIndex();
  }
  // The calling thread's index.
  static int ThreadIndex() {
    static std::atomic<int> next{0};
    thread_local const int mine = next.fetch_add(1);
    return mine;
  }

 private:
  Fields fields_;
  int steps_ = 0;
};

// CounterEnv, declared as an env whose steps run outside the stepping thread.
class ElsewhereEnv : public CounterEnv {
 public:
  using CounterEnv::CounterEnv;
  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    CounterEnv::Declare(options, spec, fields);
    spec->steps_elsewhere = true;
  }
};

class PoolTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    RegisterEnv<CounterEnv>("Counter");
    RegisterEnv<TeamEnv>("Team");
    RegisterEnv<DuelEnv>("Duel");
    RegisterEnv<ThreadEnv>("Thread");
    RegisterEnv<ElsewhereEnv>("Elsewhere");
  }

  static std::unique_ptr<Pool> Make(
      int num_envs, int batch_size, int num_threads,
      AutoresetMode mode = AutoresetMode::kNextStep, int64_t sleep_us = 0,
      int64_t max_steps = 0, const std::string& type = "Counter",
      bool yields_under_contention = true) {
    const EnvClass& env_type = FindEnvClass(type);
    Options options = env_type.defaults;
    if (type == "Counter") {
      options.Set("sleep_us", sleep_us);
    }
    PoolConfig config;
    config.task_id = "Counter-v0";
    config.num_envs = num_envs;
    config.batch_size = batch_size;
    config.num_threads = num_threads;
    config.autoreset_mode = mode;
    config.max_episode_steps = max_steps;
    config.yields_under_contention = yields_under_contention;
    for (int i = 0; i < num_envs; ++i) {
      config.seeds.push_back(100 + i);
    }
    return std::make_unique<Pool>(env_type, options, config);
  }

  template <typename T>
  static T At(const std::shared_ptr<Block>& block, int column, int row) {
    return static_cast<const T*>(block->Column(column))[row];
  }

  static void SetActions(Pool* pool, const std::vector<int>& ids,
                         int64_t action) {
    for (int id : ids) {
      *static_cast<int64_t*>(pool->ActionRow(id, 0)) = action;
    }
  }

  // Many rounds of recv and send: each env's step count must advance by
  // exactly one per send, whatever thread ran it, and each batch must hold
  // batch_size distinct envs.
  static void ExpectEveryEnvStepsInOrder(Pool* pool, int rounds) {
    const int n = pool->config().num_envs;
    const int batch = pool->config().batch_size;
    std::vector<int> all(n);
    std::iota(all.begin(), all.end(), 0);
    pool->Send(all.data(), n, true, nullptr);
    std::vector<int> steps(n, 0);
    for (int round = 0; round < rounds; ++round) {
      auto block = pool->Recv();
      std::vector<int> ids;
      for (int k = 0; k < batch; ++k) {
        int id = At<int32_t>(block, pool->layout().env_id, k);
        int elapsed = At<int32_t>(block, pool->layout().elapsed_step, k);
        // reset, 5 steps to the end of the episode, then the autoreset
        EXPECT_EQ(elapsed, steps[id] % 6);
        ids.push_back(id);
        ++steps[id];
      }
      EXPECT_EQ(std::set<int>(ids.begin(), ids.end()).size(),
                static_cast<std::size_t>(batch));
      pool->Release(block->id());
      SetActions(pool, ids, 1);
      pool->Send(ids.data(), batch, false, nullptr);
    }
  }
};

TEST_F(PoolTest, SyncResultsFollowSendOrder) {
  auto pool = Make(4, 0, 2);
  std::vector<int> all{0, 1, 2, 3};
  pool->Send(all.data(), 4, true, nullptr);
  auto block = pool->Recv();
  ASSERT_EQ(block->target(), 4);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(At<int32_t>(block, pool->layout().env_id, k), k);
    EXPECT_EQ(At<int32_t>(block, pool->layout().elapsed_step, k), 0);
  }
  pool->Release(block->id());
  std::vector<int> some{3, 1};
  SetActions(pool.get(), some, 7);
  pool->Send(some.data(), 2, false, nullptr);
  block = pool->Recv();
  ASSERT_EQ(block->target(), 2);
  EXPECT_EQ(At<int32_t>(block, pool->layout().env_id, 0), 3);
  EXPECT_EQ(At<int32_t>(block, pool->layout().env_id, 1), 1);
  EXPECT_EQ(At<float>(block, pool->layout().reward, 0), 7.0f);
  EXPECT_EQ(At<int32_t>(block, pool->layout().elapsed_step, 1), 1);
}

TEST_F(PoolTest, AsyncRecvReturnsBatchSizeEnvsOnce) {
  auto pool = Make(8, 3, 2, AutoresetMode::kNextStep, 200);
  std::vector<int> all(8);
  std::iota(all.begin(), all.end(), 0);
  pool->Send(all.data(), 8, true, nullptr);
  std::multiset<int> seen;
  for (int round = 0; round < 2; ++round) {
    auto block = pool->Recv();
    ASSERT_EQ(block->target(), 3);
    for (int k = 0; k < 3; ++k) {
      seen.insert(At<int32_t>(block, pool->layout().env_id, k));
    }
    pool->Release(block->id());
  }
  EXPECT_EQ(seen.size(), 6u);
  EXPECT_EQ(std::set<int>(seen.begin(), seen.end()).size(), 6u);
  // Two envs are still in flight: a third batch of 3 could never arrive.
  EXPECT_THROW(pool->Recv(), std::runtime_error);
}

TEST_F(PoolTest, NextStepAutoresetStartsEpisodeOnTheFollowingStep) {
  auto pool = Make(1, 0, 1);
  std::vector<int> id{0};
  pool->Send(id.data(), 1, true, nullptr);
  pool->Release(pool->Recv()->id());
  const BlockLayout& layout = pool->layout();
  for (int step = 1; step <= 5; ++step) {
    SetActions(pool.get(), id, 1);
    pool->Send(id.data(), 1, false, nullptr);
    auto block = pool->Recv();
    EXPECT_EQ(At<bool>(block, layout.terminated, 0), step == 5);
    pool->Release(block->id());
  }
  SetActions(pool.get(), id, 9);
  pool->Send(id.data(), 1, false, nullptr);
  auto block = pool->Recv();
  EXPECT_FALSE(At<bool>(block, layout.terminated, 0));
  EXPECT_EQ(At<float>(block, layout.reward, 0), 0.0f);
  EXPECT_EQ(At<int32_t>(block, layout.elapsed_step, 0), 0);
}

TEST_F(PoolTest, SameStepAutoresetKeepsFinalState) {
  auto pool = Make(1, 0, 1, AutoresetMode::kSameStep);
  std::vector<int> id{0};
  pool->Send(id.data(), 1, true, nullptr);
  pool->Release(pool->Recv()->id());
  const BlockLayout& layout = pool->layout();
  std::shared_ptr<Block> block;
  for (int step = 1; step <= 5; ++step) {
    SetActions(pool.get(), id, 2);
    pool->Send(id.data(), 1, false, nullptr);
    block = pool->Recv();
    EXPECT_EQ(At<bool>(block, layout.final_mask, 0), step == 5);
    if (step < 5) {
      pool->Release(block->id());
    }
  }
  EXPECT_TRUE(At<bool>(block, layout.terminated, 0));
  EXPECT_EQ(At<float>(block, layout.reward, 0), 2.0f);
  // New episode in obs, the ended one in final:obs.
  EXPECT_EQ(At<int64_t>(block, 0, 1), 0);
  EXPECT_EQ(At<int64_t>(block, layout.final_state, 1), 5);
  EXPECT_EQ(At<int32_t>(block, layout.final_elapsed_step, 0), 5);
  EXPECT_EQ(At<int32_t>(block, layout.elapsed_step, 0), 0);
}

TEST_F(PoolTest, DisabledAutoresetRefusesToStepAnEndedEpisode) {
  auto pool = Make(1, 0, 1, AutoresetMode::kDisabled);
  std::vector<int> id{0};
  pool->Send(id.data(), 1, true, nullptr);
  pool->Release(pool->Recv()->id());
  for (int step = 1; step <= 5; ++step) {
    pool->Send(id.data(), 1, false, nullptr);
    pool->Release(pool->Recv()->id());
  }
  EXPECT_THROW(pool->Send(id.data(), 1, false, nullptr), std::runtime_error);
  pool->Send(id.data(), 1, true, nullptr);
  pool->Release(pool->Recv()->id());
  pool->Send(id.data(), 1, false, nullptr);
}

TEST_F(PoolTest, MaxEpisodeStepsTruncates) {
  auto pool = Make(1, 0, 1, AutoresetMode::kNextStep, 0, 3);
  std::vector<int> id{0};
  pool->Send(id.data(), 1, true, nullptr);
  pool->Release(pool->Recv()->id());
  for (int step = 1; step <= 3; ++step) {
    pool->Send(id.data(), 1, false, nullptr);
    auto block = pool->Recv();
    EXPECT_EQ(At<bool>(block, pool->layout().truncated, 0), step == 3);
    EXPECT_FALSE(At<bool>(block, pool->layout().terminated, 0));
    pool->Release(block->id());
  }
}

TEST_F(PoolTest, BadSendsAreRejectedBeforeAnythingRuns) {
  auto pool = Make(3, 0, 1);
  std::vector<int> bad{0, 3};
  EXPECT_THROW(pool->Send(bad.data(), 2, true, nullptr), std::invalid_argument);
  std::vector<int> twice{1, 1};
  EXPECT_THROW(pool->Send(twice.data(), 2, true, nullptr),
               std::invalid_argument);
  EXPECT_THROW(pool->Recv(), std::runtime_error);
  std::vector<int> one{1};
  pool->Send(one.data(), 1, true, nullptr);
  EXPECT_THROW(pool->Send(one.data(), 1, true, nullptr), std::runtime_error);
}

TEST_F(PoolTest, IdsCheckedBeforeAnotherSendAreCheckedAgain) {
  // The binding checks a send's ids before it takes the pool's lock; Send
  // checks them again only if another send came in between.
  auto pool = Make(4, 2, 1);
  std::vector<int> ids{2, 0};
  pool->Send(ids.data(), 2, true, nullptr);
  pool->Release(pool->Recv()->id());
  const uint64_t checked_at = pool->sendable_epoch();
  pool->CheckSendable(ids.data(), 2, false);
  std::vector<int> other{0};
  pool->Send(other.data(), 1, false, nullptr);  // another thread's, say
  EXPECT_THROW(pool->Send(ids.data(), 2, false, nullptr, checked_at),
               std::runtime_error);
  // Nothing of it went out: env 2 is not in flight, env 0 once.
  std::vector<int> two{2};
  pool->Send(two.data(), 1, false, nullptr, pool->sendable_epoch());
  auto block = pool->Recv();
  std::multiset<int> got;
  for (int row = 0; row < 2; ++row) {
    got.insert(At<int32_t>(block, pool->layout().env_id, row));
  }
  EXPECT_EQ(got, (std::multiset<int>{0, 2}));
}

TEST_F(PoolTest, SeedsMakeRolloutsReproducible) {
  auto a = Make(2, 0, 1);
  auto b = Make(2, 0, 2);
  std::vector<int> ids{0, 1};
  a->Send(ids.data(), 2, true, nullptr);
  b->Send(ids.data(), 2, true, nullptr);
  auto ba = a->Recv();
  auto bb = b->Recv();
  EXPECT_EQ(At<int64_t>(ba, 0, 0), At<int64_t>(bb, 0, 0));
  EXPECT_EQ(At<int64_t>(ba, 0, 2), At<int64_t>(bb, 0, 2));
  EXPECT_NE(At<int64_t>(ba, 0, 0), At<int64_t>(ba, 0, 2));
  std::vector<uint64_t> seeds{5, 5};
  a->Send(ids.data(), 2, true, seeds.data());
  auto again = a->Recv();
  EXPECT_EQ(At<int64_t>(again, 0, 0), At<int64_t>(again, 0, 2));
  // Each env gets the seed at its position in the send, on a pool whose
  // worker takes the resets from the queue.
  b->Release(bb->id());
  std::vector<int> reversed{1, 0};
  std::vector<uint64_t> other{5, 9};
  b->Send(reversed.data(), 2, true, other.data());
  auto swapped = b->Recv();
  EXPECT_EQ(At<int32_t>(swapped, b->layout().env_id, 0), 1);
  EXPECT_EQ(At<int64_t>(swapped, 0, 0), At<int64_t>(again, 0, 0));
  EXPECT_NE(At<int64_t>(swapped, 0, 2), At<int64_t>(again, 0, 0));
}

TEST_F(PoolTest, MultiPlayerRowsCarryTheirEnvId) {
  auto pool = Make(4, 0, 2, AutoresetMode::kNextStep, 0, 0, "Team");
  std::vector<int> all{0, 1, 2, 3};
  pool->Send(all.data(), 4, true, nullptr);
  pool->Release(pool->Recv()->id());
  SetActions(pool.get(), all, 2);
  pool->Send(all.data(), 4, false, nullptr);
  auto block = pool->Recv();
  const BlockLayout& layout = pool->layout();
  int rows = block->player_rows();
  EXPECT_GE(rows, 4);
  EXPECT_LE(rows, 12);
  std::vector<int> per_env(4, 0);
  for (int r = 0; r < rows; ++r) {
    int env = At<int32_t>(block, layout.players_env_id, r);
    int player = At<int32_t>(block, 0, r);
    EXPECT_EQ(At<float>(block, layout.reward, r), 2.0f * player);
    ++per_env[env];
  }
  for (int count : per_env) {
    EXPECT_GE(count, 1);
  }
}

// Per-player actions: env i's rows are ActionRow(i, 0)[0..players), and
// player p's row reaches the env as ActionView::Get(field, p), whichever
// thread steps it.
TEST_F(PoolTest, PerPlayerActionsReachEachPlayer) {
  for (int batch : {0, 3}) {
    auto pool = Make(6, batch, 2, AutoresetMode::kNextStep, 0, 0, "Duel");
    ASSERT_EQ(pool->ActionRowsPerEnv(0), 2);
    const BlockLayout& layout = pool->layout();
    std::vector<int> all{0, 1, 2, 3, 4, 5};
    pool->Send(all.data(), 6, true, nullptr);
    std::vector<int> ids;
    int total_stepped = 0;
    for (int round = 0; round < 8; ++round) {
      auto block = pool->Recv();
      const int n = block->target();
      ASSERT_EQ(block->player_rows(), 2 * n);
      ids.clear();
      std::vector<int> elapsed(6, 0);
      for (int k = 0; k < n; ++k) {
        ids.push_back(At<int32_t>(block, layout.env_id, k));
        elapsed[ids.back()] = At<int32_t>(block, layout.elapsed_step, k);
        // info:steps is per env: the env's row, not its first player's.
        EXPECT_EQ(At<int32_t>(block, 1, k), elapsed[ids.back()]);
      }
      int stepped = 0;
      for (int r = 0; r < 2 * n; ++r) {
        const int env = At<int32_t>(block, layout.players_env_id, r);
        const int player = static_cast<int>(At<float>(block, 0, 3 * r));
        if (elapsed[env] == 0) {
          continue;  // a reset: no action was read
        }
        ++stepped;
        // The action sent to (env, player) is (env + player) % 3.
        EXPECT_EQ(At<float>(block, layout.reward, r),
                  (env + player) % 3 + 10.0f * player);
      }
      total_stepped += stepped;
      pool->Release(block->id());
      for (int id : ids) {
        auto* rows = static_cast<int64_t*>(pool->ActionRow(id, 0));
        rows[0] = id % 3;
        rows[1] = (id + 1) % 3;
      }
      pool->Send(ids.data(), static_cast<int>(ids.size()), false, nullptr);
    }
    pool->Release(pool->Recv()->id());
    EXPECT_GT(total_stepped, 12);
  }
}

TEST_F(PoolTest, CloseWhileEnvsAreSteppingJoinsCleanly) {
  auto pool = Make(8, 0, 2, AutoresetMode::kNextStep, 20000);
  std::vector<int> all{0, 1, 2, 3, 4, 5, 6, 7};
  pool->Send(all.data(), 8, true, nullptr);
  pool->Release(pool->Recv()->id());
  // One measured round, so the pool knows these steps are slow and hands the
  // next ones to its workers.
  pool->Send(all.data(), 8, false, nullptr);
  pool->Release(pool->Recv()->id());
  ASSERT_GT(pool->step_cost_ns() * 8, 40000);
  pool->Send(all.data(), 8, false, nullptr);
  std::thread waiter([&] { EXPECT_THROW(pool->Recv(), std::runtime_error); });
  // The waiter helps with one 20 ms step at a time, so it is still waiting.
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  pool->Close();
  waiter.join();
  EXPECT_THROW(pool->Send(all.data(), 8, false, nullptr), std::runtime_error);
}

TEST_F(PoolTest, AnEnvWhoseStepFailedIsNotWrittenAndThePoolGoesOn) {
  // An env whose step threw may be half-way through it (a family's buffers
  // not yet allocated, say): its Write could read anything. The error comes
  // out of the batch's Recv; the next steps go on.
  const EnvClass& env_type = FindEnvClass("Counter");
  Options options = env_type.defaults;
  options.Set("fail_at_step", int64_t{2});
  PoolConfig config;
  config.task_id = "Counter-v0";
  config.num_envs = 2;
  config.batch_size = 2;
  config.num_threads = 1;
  config.seeds = {1, 2};
  Pool pool(env_type, options, config);
  std::vector<int> all{0, 1};
  const int before = CounterEnv::WritesAfterAFailedStep().load();
  pool.Send(all.data(), 2, true, nullptr);
  pool.Release(pool.Recv()->id());
  SetActions(&pool, all, 1);
  pool.Send(all.data(), 2, false, nullptr);
  pool.Release(pool.Recv()->id());
  pool.Send(all.data(), 2, false, nullptr);
  EXPECT_THROW(
      {
        try {
          pool.Recv();
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find("fail_at_step"),
                    std::string::npos);
          throw;
        }
      },
      std::runtime_error);
  EXPECT_EQ(CounterEnv::WritesAfterAFailedStep().load(), before);
  pool.Send(all.data(), 2, false, nullptr);
  auto block = pool.Recv();
  EXPECT_EQ(block->target(), 2);
  pool.Release(block->id());
}

TEST_F(PoolTest, APoolIsForkedAwayInAForkedChildOnly) {
  auto pool = Make(4, 2, 2, AutoresetMode::kNextStep);
  std::vector<int> all{0, 1, 2, 3};
  pool->Send(all.data(), 4, true, nullptr);
  EXPECT_FALSE(pool->forked_away());
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Only async-signal-safe calls from here: the child leaves the pool as
    // it is, and its Close does nothing.
    const bool away = pool->forked_away();
    pool->Close();
    _exit(away && !pool->closed() ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  // The parent's pool goes on.
  EXPECT_FALSE(pool->forked_away());
  pool->Release(pool->Recv()->id());
  pool->Release(pool->Recv()->id());
}

TEST_F(PoolTest, AsyncStressEveryEnvStepsInOrder) {
  auto pool = Make(16, 4, 3, AutoresetMode::kNextStep, 1, 1000000);
  ExpectEveryEnvStepsInOrder(pool.get(), 3000);
}

TEST_F(PoolTest, AsyncCallersOnSeveralThreadsEachGetTheirOwnEnvs) {
  // Several threads each receive a batch and send it back: every batch holds
  // distinct envs in range, none of them in flight or held by another thread.
  const int n = 32;
  const int batch = 8;
  auto pool = Make(n, batch, 0, AutoresetMode::kNextStep, 0, 1000000);
  std::vector<int> all(n);
  std::iota(all.begin(), all.end(), 0);
  pool->Send(all.data(), n, true, nullptr);
  std::vector<std::atomic<int>> held(n);
  std::atomic<int> faults{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&] {
      while (!stop.load()) {
        std::shared_ptr<Block> block;
        try {
          block = pool->Recv(1000000);
        } catch (const std::exception&) {
          return;
        }
        if (!block) {
          continue;
        }
        std::vector<int> ids;
        for (int k = 0; k < batch; ++k) {
          const int id = At<int32_t>(block, pool->layout().env_id, k);
          if (id < 0 || id >= n || held[id].fetch_add(1) != 0) {
            faults.fetch_add(1);
            continue;
          }
          ids.push_back(id);
        }
        pool->Release(block->id());
        for (int id : ids) {
          held[id].fetch_sub(1);
        }
        try {
          pool->Send(ids.data(), static_cast<int>(ids.size()), false, nullptr);
        } catch (const std::exception&) {
          faults.fetch_add(1);
        }
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  stop.store(true);
  for (auto& caller : callers) {
    caller.join();
  }
  EXPECT_EQ(faults.load(), 0);
}

TEST_F(PoolTest, AsyncCheapEnvsFillEveryBatchAcrossChunks) {
  // Envs of a few ns a step: a thread runs many turns at once (the first
  // resets, queued before any step is timed, in chunks; later sends inline),
  // whose rows run over from one batch into the next (a thread counts its
  // rows in per run of rows of the same batch, see RowTally).
  auto pool = Make(64, 5, 3, AutoresetMode::kNextStep, 0, 1000000);
  ExpectEveryEnvStepsInOrder(pool.get(), 5000);
}

TEST_F(PoolTest, EnvsKeepTheirThreadFromStepToStep) {
  // An env's state stays in one core's cache where the same thread steps it
  // each turn. One queue that all threads take from gives about one turn in
  // two on the env's last thread (one in three for the async workers here);
  // a queue per thread, with stealing only when a thread runs dry, nearly
  // all of them. An async recv keeps no envs, so in async mode the turns
  // this thread runs (where the machine has a core for it) do not count.
  const int n = 24;
  const int caller = ThreadEnv::ThreadIndex();
  for (int batch : {n, n / 2}) {
    // Other work on the machine (tests run side by side) would otherwise
    // make the caller leave its envs to the reserve now and then.
    auto pool =
        Make(n, batch, 3, AutoresetMode::kNextStep, 0, 0, "Thread", false);
    std::vector<int> all(n);
    std::iota(all.begin(), all.end(), 0);
    pool->Send(all.data(), n, true, nullptr);
    std::vector<int> last(n, -1);
    int same = 0;
    int turns = 0;
    for (int round = 0; round < 60 * n / batch; ++round) {
      auto block = pool->Recv();
      std::vector<int> ids;
      for (int k = 0; k < batch; ++k) {
        const int id = At<int32_t>(block, pool->layout().env_id, k);
        const int thread = At<int32_t>(block, 0, k);
        const bool counted =
            batch == n || (thread != caller && last[id] != caller);
        if (round >= 10 * n / batch && counted) {
          same += thread == last[id] ? 1 : 0;
          ++turns;
        }
        last[id] = thread;
        ids.push_back(id);
      }
      pool->Release(block->id());
      pool->Send(ids.data(), batch, false, nullptr);
    }
    ASSERT_GT(turns, 10 * n) << "batch_size " << batch;
    EXPECT_GE(same, turns * 8 / 10) << "batch_size " << batch;
  }
}

TEST_F(PoolTest, AsyncEnvsBehindASlowStepAreTakenByOtherThreads) {
  // Env 0's fifth step takes 60 ms, and the envs queued on that thread
  // behind it must not wait for it while the others go round (about 400
  // recvs); with one queue each env came back within about num_envs recvs.
  const int n = 8;
  auto pool = Make(n, 1, 2, AutoresetMode::kNextStep, 0, 0, "Thread");
  std::vector<int> all(n);
  std::iota(all.begin(), all.end(), 0);
  pool->Send(all.data(), n, true, nullptr);
  std::vector<int> last(n, -1);
  int longest = 0;
  for (int round = 0; round < 1500; ++round) {
    auto block = pool->Recv();
    const int id = At<int32_t>(block, pool->layout().env_id, 0);
    if (id != 0 && last[id] >= 0) {
      longest = std::max(longest, round - last[id]);
    }
    last[id] = round;
    pool->Release(block->id());
    pool->Send(&id, 1, false, nullptr);
  }
  EXPECT_LT(longest, 60);
}

// A sync pool of one stepping thread: its first steps, not yet timed, go to
// the reserve worker, whose first chunk times them as cheap; from then on the
// reserve leaves the queued envs to the caller, which must be woken from its
// wait to step them (without that it waited forever, in about one pool in 4).
TEST_F(PoolTest, CallerStepsWhatTheReserveLeavesOnceStepsAreTimed) {
  for (int round = 0; round < 40; ++round) {
    auto pool = Make(64, 64, 1);
    ExpectEveryEnvStepsInOrder(pool.get(), 3);
  }
}

// By default an async pool leaves the caller a core (a worker fewer than
// min(batch_size, cores)), except for envs whose steps run elsewhere.
TEST_F(PoolTest, AsyncDefaultGivesEnvsSteppedElsewhereAWorkerPerCore) {
  const int cores =
      std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  if (cores < 2) {
    GTEST_SKIP() << "one core: both defaults are one worker";
  }
  const int batch = 4;
  const int threads = std::min(batch, cores);
  const auto mode = AutoresetMode::kNextStep;
  EXPECT_EQ(Make(8, batch, 0, mode)->num_threads(), threads - 1);
  EXPECT_EQ(Make(8, batch, 0, mode, 0, 0, "Elsewhere")->num_threads(), threads);
  // Sync pools, and pools given num_threads, are the same for both.
  EXPECT_EQ(Make(8, 8, 0, mode, 0, 0, "Elsewhere")->num_threads(),
            std::min(8, cores) - 1);
  EXPECT_EQ(Make(8, batch, 1, mode, 0, 0, "Elsewhere")->num_threads(), 1);
  // Its envs step as any others.
  auto pool = Make(6, 3, 0, mode, 0, 0, "Elsewhere");
  ExpectEveryEnvStepsInOrder(pool.get(), 200);
}

TEST_F(PoolTest, AsyncRenderOfReturnedEnvsWhileOthersStep) {
  // The workers draw the returned envs' frames while the other envs of an
  // async pool step on them; each frame shows its env's step count.
  const int n = 8;
  auto pool = Make(n, 4, 3, AutoresetMode::kNextStep, 50, 1000000);
  const int w = pool->spec().render_width;
  const int h = pool->spec().render_height;
  ASSERT_GT(w * h, 0);
  std::vector<int> all(n);
  std::iota(all.begin(), all.end(), 0);
  pool->Send(all.data(), n, true, nullptr);
  std::vector<uint8_t> frames(4 * w * h * 3);
  for (int round = 0; round < 300; ++round) {
    auto block = pool->Recv();
    std::vector<int> ids;
    std::vector<int64_t> steps;
    for (int k = 0; k < 4; ++k) {
      ids.push_back(At<int32_t>(block, pool->layout().env_id, k));
      steps.push_back(At<int32_t>(block, pool->layout().elapsed_step, k));
    }
    pool->Release(block->id());
    pool->Render(ids.data(), 4, 0, frames.data());
    for (int k = 0; k < 4; ++k) {
      // the green channel is the env's step in its episode (5 steps long)
      EXPECT_EQ(frames[k * w * h * 3 + 1], steps[k] % 256) << round;
    }
    std::vector<int> busy;
    for (int id = 0; id < n; ++id) {
      if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
        busy.push_back(id);
      }
    }
    EXPECT_THROW(pool->Render(busy.data(), 1, 0, frames.data()),
                 std::runtime_error);
    SetActions(pool.get(), ids, 1);
    pool->Send(ids.data(), 4, false, nullptr);
  }
}

TEST(OptionsTest, TableOptionsKeepTheirRowsAndRefuseOtherTypes) {
  Options options{{"table", OptionTable()}, {"flag", false}};
  OptionTable table{{"HEALTH", {0.005, -0.003}}, {"2", {0.5}}};
  options.Set("table", table);
  EXPECT_EQ(options.Get<OptionTable>("table"), table);
  EXPECT_THROW(options.Set("table", OptionValue(int64_t{1})),
               std::invalid_argument);
  EXPECT_THROW(options.Set("flag", OptionValue(table)), std::invalid_argument);
  EXPECT_STREQ(Options::TypeName(OptionValue(table)), "dict");
}

TEST(OptionsTest, ListOptionsKeepTheirIntsAndRefuseOtherTypes) {
  Options options{{"pos", OptionInts{1, 1}}, {"size", int64_t{8}}};
  options.Set("pos", OptionInts{3, -1, 7});
  EXPECT_EQ(options.Get<OptionInts>("pos"), (OptionInts{3, -1, 7}));
  EXPECT_THROW(options.Set("pos", OptionValue(int64_t{1})),
               std::invalid_argument);
  EXPECT_THROW(options.Set("size", OptionValue(OptionInts{1})),
               std::invalid_argument);
  EXPECT_STREQ(Options::TypeName(OptionValue(OptionInts{})), "list of int");
}

TEST(OptionsTest, NameListOptionsKeepTheirNamesAndRefuseInts) {
  Options options{{"tasks", OptionStrings{"microwave", "kettle"}},
                  {"pos", OptionInts{1, 1}}};
  options.Set("tasks", OptionStrings{"bottom burner"});
  EXPECT_EQ(options.Get<OptionStrings>("tasks"),
            (OptionStrings{"bottom burner"}));
  EXPECT_THROW(options.Set("tasks", OptionValue(OptionInts{1})),
               std::invalid_argument);
  EXPECT_THROW(options.Set("pos", OptionValue(OptionStrings{"a"})),
               std::invalid_argument);
  EXPECT_STREQ(Options::TypeName(OptionValue(OptionStrings{})), "list of str");
}

class IdEnv : public Env {
 public:
  int id() const { return env_id_; }
  void Reset() override {}
  void Step(const ActionView& /*action*/) override {}
  void Write(const Output& /*out*/) override {}
};

TEST(EnvTest, SetEnvIdIsWhatTheEnvSees) {
  IdEnv env;
  EXPECT_EQ(env.id(), 0);
  env.SetEnvId(5);
  EXPECT_EQ(env.id(), 5);
}

}  // namespace
}  // namespace envpool
