// Rules of the toy_text envs, checked on single envs outside the pool.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/core/pool.h"
#include "envpool/toy_text/blackjack.h"
#include "envpool/toy_text/catch.h"
#include "envpool/toy_text/categorical.h"
#include "envpool/toy_text/cliff_walking.h"
#include "envpool/toy_text/frozen_lake.h"
#include "envpool/toy_text/nchain.h"
#include "envpool/toy_text/taxi.h"

namespace envpool::toy_text {
namespace {

// One env with a one-row output block, driven as the pool drives it.
template <typename E, typename Obs = int32_t>
class Harness {
 public:
  explicit Harness(const Options& overrides = {}, uint64_t seed = 0) {
    Options options = E::DefaultOptions();
    for (const auto& [key, value] : overrides.items()) {
      options.Set(key, value);
    }
    typename E::Fields fields;
    E::Declare(options, &spec_, &fields);
    layout_ = BlockLayout::Make(spec_, PoolConfig{});
    block_ = std::make_unique<Block>(layout_, 1, 0);
    env_ = std::make_unique<E>(options, fields);
    env_->Seed(seed);
    action_views_ = {&action_};
  }

  std::vector<Obs> Reset() {
    env_->Reset();
    return Write();
  }
  std::vector<Obs> Step(int64_t action) {
    action_ = action;
    env_->Step(ActionView(&action_views_));
    return Write();
  }
  Obs StepScalar(int64_t action) { return Step(action)[0]; }
  float reward() const {
    return *static_cast<const float*>(block_->Row(layout_.reward, 0));
  }
  bool terminated() const { return env_->terminated(); }
  E& env() { return *env_; }
  const EnvSpec& spec() const { return spec_; }

 private:
  std::vector<Obs> Write() {
    Output out(block_.get(), 0, 0);
    env_->Write(out);
    env_->WriteReward(out);
    const ArraySpec& obs = spec_.state.specs()[0];
    const Obs* data = static_cast<const Obs*>(block_->Row(0, 0));
    return {data, data + obs.NumElements()};
  }

  EnvSpec spec_;
  BlockLayout layout_;
  std::unique_ptr<Block> block_;
  std::unique_ptr<E> env_;
  int64_t action_ = 0;
  std::vector<const void*> action_views_;
};

// Counts of next observations over `n` single steps from `state`.
template <typename E>
std::map<int64_t, int> NextStateCounts(Harness<E>* h, double state,
                                       int64_t action, int n) {
  std::map<int64_t, int> counts;
  for (int i = 0; i < n; ++i) {
    h->Reset();
    h->env().SetState({state});
    ++counts[h->StepScalar(action)];
  }
  return counts;
}

TEST(FrozenLakeTest, SpacesFollowTheMapSize) {
  Harness<FrozenLakeEnv> small;
  EXPECT_EQ(small.spec().state.specs()[0].num_values, 16);
  EXPECT_EQ(small.spec().action.specs()[0].num_values, 4);
  Harness<FrozenLakeEnv> large({{"size", int64_t{8}}});
  EXPECT_EQ(large.spec().state.specs()[0].num_values, 64);
  EXPECT_THROW(Harness<FrozenLakeEnv>({{"size", int64_t{5}}}),
               std::invalid_argument);
}

TEST(FrozenLakeTest, SlipsToEitherSideWithAThirdEach) {
  Harness<FrozenLakeEnv> h({}, 7);
  EXPECT_EQ(h.Reset()[0], 0);
  // Cell 6 (row 1, col 2), action right: up to 2, right into the hole 7,
  // down to 10; never left to 5.
  auto counts = NextStateCounts(&h, 6, FrozenLakeEnv::kRight, 6000);
  EXPECT_EQ(counts.size(), 3U);
  for (int64_t next : {2, 7, 10}) {
    EXPECT_GT(counts[next], 1800) << next;
    EXPECT_LT(counts[next], 2200) << next;
  }
}

TEST(FrozenLakeTest, GoalPaysOneAndHolesEndWithZero) {
  Harness<FrozenLakeEnv> h({}, 3);
  int goals = 0;
  for (int i = 0; i < 600; ++i) {
    h.Reset();
    h.env().SetState({14});
    int64_t next = h.StepScalar(FrozenLakeEnv::kRight);
    // Up to 10, right to the goal 15, down stays at 14.
    EXPECT_TRUE(next == 10 || next == 14 || next == 15) << next;
    EXPECT_EQ(h.terminated(), next == 15);
    EXPECT_EQ(h.reward(), next == 15 ? 1.0F : 0.0F);
    goals += next == 15;
  }
  EXPECT_GT(goals, 150);
  EXPECT_LT(goals, 250);
  // Stepping into hole 5 from cell 1 (down is intended; left/right slips
  // go to 0 and 2).
  bool saw_hole = false;
  for (int i = 0; i < 100; ++i) {
    h.Reset();
    h.env().SetState({1});
    int64_t next = h.StepScalar(FrozenLakeEnv::kDown);
    EXPECT_TRUE(next == 0 || next == 2 || next == 5) << next;
    EXPECT_EQ(h.terminated(), next == 5);
    EXPECT_EQ(h.reward(), 0.0F);
    saw_hole |= next == 5;
  }
  EXPECT_TRUE(saw_hole);
  EXPECT_THROW(h.env().SetState({16}), std::invalid_argument);
}

TEST(FrozenLakeTest, EightByEightMapHasItsHoles) {
  Harness<FrozenLakeEnv> h({{"size", int64_t{8}}});
  h.Reset();
  std::string tiles;
  for (int cell = 0; cell < 64; ++cell) {
    tiles += h.env().Tile(cell);
  }
  EXPECT_EQ(tiles,
            "SFFFFFFFFFFFFFFFFFFHFFFFFFFFFHFFFFFHFFFFFHHFFFHFFHFFHFHFFFFHFFFG");
}

TEST(TaxiTest, DeliversThePassengerForTwenty) {
  Harness<TaxiEnv> h;
  h.Reset();
  // Taxi at R (0,0) with the passenger there, going to G (0,4).
  h.env().SetState({static_cast<double>(TaxiEnv::Encode(0, 0, 0, 1))});
  EXPECT_EQ(h.StepScalar(TaxiEnv::kPickup), TaxiEnv::Encode(0, 0, 4, 1));
  EXPECT_EQ(h.reward(), -1.0F);
  EXPECT_EQ(h.StepScalar(TaxiEnv::kPickup), TaxiEnv::Encode(0, 0, 4, 1));
  EXPECT_EQ(h.reward(), -10.0F);
  EXPECT_EQ(h.StepScalar(TaxiEnv::kEast), TaxiEnv::Encode(0, 1, 4, 1));
  // The wall east of (0,1).
  EXPECT_EQ(h.StepScalar(TaxiEnv::kEast), TaxiEnv::Encode(0, 1, 4, 1));
  EXPECT_EQ(h.reward(), -1.0F);
  EXPECT_EQ(h.StepScalar(TaxiEnv::kNorth), TaxiEnv::Encode(0, 1, 4, 1));
  EXPECT_EQ(h.StepScalar(TaxiEnv::kSouth), TaxiEnv::Encode(1, 1, 4, 1));
  EXPECT_EQ(h.StepScalar(TaxiEnv::kSouth), TaxiEnv::Encode(2, 1, 4, 1));
  // Dropping off away from any pad.
  EXPECT_EQ(h.StepScalar(TaxiEnv::kDropoff), TaxiEnv::Encode(2, 1, 4, 1));
  EXPECT_EQ(h.reward(), -10.0F);
  for (int col = 2; col <= 4; ++col) {
    EXPECT_EQ(h.StepScalar(TaxiEnv::kEast), TaxiEnv::Encode(2, col, 4, 1));
  }
  EXPECT_EQ(h.StepScalar(TaxiEnv::kEast), TaxiEnv::Encode(2, 4, 4, 1));
  EXPECT_EQ(h.StepScalar(TaxiEnv::kNorth), TaxiEnv::Encode(1, 4, 4, 1));
  EXPECT_EQ(h.StepScalar(TaxiEnv::kNorth), TaxiEnv::Encode(0, 4, 4, 1));
  EXPECT_FALSE(h.terminated());
  EXPECT_EQ(h.StepScalar(TaxiEnv::kDropoff), TaxiEnv::Encode(0, 4, 1, 1));
  EXPECT_EQ(h.reward(), 20.0F);
  EXPECT_TRUE(h.terminated());
}

TEST(TaxiTest, DropoffAtAnotherPadLeavesThePassengerThere) {
  Harness<TaxiEnv> h;
  h.Reset();
  // At Y (4,0) with the passenger aboard, destination B.
  h.env().SetState({static_cast<double>(TaxiEnv::Encode(4, 0, 4, 3))});
  EXPECT_EQ(h.StepScalar(TaxiEnv::kDropoff), TaxiEnv::Encode(4, 0, 2, 3));
  EXPECT_EQ(h.reward(), -1.0F);
  EXPECT_FALSE(h.terminated());
  // The wall east of Y.
  EXPECT_EQ(h.StepScalar(TaxiEnv::kEast), TaxiEnv::Encode(4, 0, 2, 3));
  EXPECT_EQ(h.StepScalar(TaxiEnv::kWest), TaxiEnv::Encode(4, 0, 2, 3));
}

TEST(TaxiTest, ResetCoversEveryStartStateAndNoOther) {
  Harness<TaxiEnv> h({}, 11);
  std::set<int64_t> seen;
  for (int i = 0; i < 20000; ++i) {
    int64_t s = h.Reset()[0];
    int destination = static_cast<int>(s % 4);
    int passenger = static_cast<int>((s / 4) % 5);
    ASSERT_LT(passenger, 4);
    ASSERT_NE(passenger, destination);
    seen.insert(s);
  }
  EXPECT_EQ(seen.size(), 300U);
}

TEST(CliffWalkingTest, CliffSendsBackToStartAndGoalEnds) {
  Harness<CliffWalkingEnv> h;
  EXPECT_EQ(h.Reset()[0], 36);
  EXPECT_EQ(h.StepScalar(CliffWalkingEnv::kRight), 36);
  EXPECT_EQ(h.reward(), -100.0F);
  EXPECT_FALSE(h.terminated());
  EXPECT_EQ(h.StepScalar(CliffWalkingEnv::kLeft), 36);
  EXPECT_EQ(h.reward(), -1.0F);
  EXPECT_EQ(h.StepScalar(CliffWalkingEnv::kUp), 24);
  double total = h.reward();
  for (int i = 1; i <= 11; ++i) {
    EXPECT_EQ(h.StepScalar(CliffWalkingEnv::kRight), 24 + i);
    total += h.reward();
    EXPECT_FALSE(h.terminated());
  }
  EXPECT_EQ(h.StepScalar(CliffWalkingEnv::kDown), 47);
  total += h.reward();
  EXPECT_TRUE(h.terminated());
  EXPECT_EQ(total, -13.0);
}

TEST(CliffWalkingTest, SlipperyMovesPerpendicularTwoThirdsOfTheTime) {
  Harness<CliffWalkingEnv> h({{"is_slippery", true}}, 5);
  // From 13 (row 1, col 1), action down: right to 14, down to 25, left to
  // 12; never up.
  auto counts = NextStateCounts(&h, 13, CliffWalkingEnv::kDown, 6000);
  EXPECT_EQ(counts.size(), 3U);
  for (int64_t next : {12, 14, 25}) {
    EXPECT_GT(counts[next], 1800) << next;
    EXPECT_LT(counts[next], 2200) << next;
  }
  Harness<CliffWalkingEnv> dry;
  auto dry_counts = NextStateCounts(&dry, 13, CliffWalkingEnv::kDown, 100);
  EXPECT_EQ(dry_counts[25], 100);
}

TEST(NChainTest, SlipsOneStepInFive) {
  Harness<NChainEnv> h({}, 9);
  auto counts = NextStateCounts(&h, 0, 0, 10000);
  EXPECT_EQ(counts.size(), 2U);
  EXPECT_GT(counts[0], 1800);
  EXPECT_LT(counts[0], 2200);
  // At the end of the chain moving forward pays 10, slipping back pays 2.
  double total = 0;
  for (int i = 0; i < 10000; ++i) {
    h.Reset();
    h.env().SetState({4});
    int64_t next = h.StepScalar(0);
    EXPECT_EQ(h.reward(), next == 4 ? 10.0F : 2.0F);
    EXPECT_TRUE(next == 4 || next == 0);
    EXPECT_FALSE(h.terminated());
    total += h.reward();
  }
  EXPECT_NEAR(total / 10000, 0.8 * 10 + 0.2 * 2, 0.1);
}

TEST(CatchTest, FollowingTheBallCatchesIt) {
  Harness<CatchEnv, float> h({}, 1);
  std::set<int> columns;
  for (int episode = 0; episode < 50; ++episode) {
    std::vector<float> board = h.Reset();
    ASSERT_EQ(board.size(), 50U);
    int ball = -1;
    for (int col = 0; col < 5; ++col) {
      if (board[col] == 1.0F) {
        ball = col;
      }
    }
    ASSERT_GE(ball, 0);
    columns.insert(ball);
    EXPECT_EQ(board[9 * 5 + 2], 1.0F);  // paddle in the middle
    int paddle = 2;
    for (int step = 1; step <= 9; ++step) {
      int64_t action = ball < paddle ? 0 : (ball > paddle ? 2 : 1);
      paddle += static_cast<int>(action) - 1;
      board = h.Step(action);
      EXPECT_EQ(h.terminated(), step == 9);
      EXPECT_EQ(h.reward(), step == 9 ? 1.0F : 0.0F);
      EXPECT_EQ(board[step * 5 + ball], 1.0F);
      EXPECT_EQ(board[9 * 5 + paddle], 1.0F);
    }
  }
  EXPECT_EQ(columns.size(), 5U);
}

TEST(CatchTest, MissingTheBallCostsOne) {
  Harness<CatchEnv, float> h;
  h.Reset();
  h.env().SetState({0, 0, 2});
  for (int step = 1; step <= 9; ++step) {
    h.Step(2);  // away from the ball
  }
  EXPECT_TRUE(h.terminated());
  EXPECT_EQ(h.reward(), -1.0F);
  EXPECT_EQ(h.env().GetState(), (std::vector<double>{0, 9, 4}));
}

TEST(BlackjackTest, ObservationAndStickScores) {
  Harness<BlackjackEnv, int32_t> h;
  h.Reset();
  h.env().SetState({2, 1, 5, 2, 7, 10});
  EXPECT_EQ(h.Step(0), (std::vector<int32_t>{16, 7, 1}));
  EXPECT_TRUE(h.terminated());
  EXPECT_EQ(h.reward(), -1.0F);  // 16 against the dealer's 17
  // The dealer stands on 17 without drawing.
  EXPECT_EQ(h.env().GetState(), (std::vector<double>{2, 1, 5, 2, 7, 10}));

  h.Reset();
  h.env().SetState({2, 10, 9, 2, 10, 7});
  h.Step(0);
  EXPECT_EQ(h.reward(), 1.0F);
  h.Reset();
  h.env().SetState({3, 10, 4, 3, 2, 10, 7});
  h.Step(0);
  EXPECT_EQ(h.reward(), 0.0F);
}

TEST(BlackjackTest, NaturalRules) {
  // sab: a natural beats a dealer's 21 of three cards but ties a natural.
  Harness<BlackjackEnv, int32_t> sab;
  sab.Reset();
  sab.env().SetState({2, 1, 10, 3, 10, 5, 6});
  sab.Step(0);
  EXPECT_EQ(sab.reward(), 1.0F);
  sab.Reset();
  sab.env().SetState({2, 10, 1, 2, 1, 10});
  sab.Step(0);
  EXPECT_EQ(sab.reward(), 0.0F);
  // natural without sab: a winning natural pays 1.5.
  Harness<BlackjackEnv, int32_t> natural({{"sab", false}, {"natural", true}});
  natural.Reset();
  natural.env().SetState({2, 1, 10, 2, 10, 8});
  natural.Step(0);
  EXPECT_EQ(natural.reward(), 1.5F);
  // Neither: a natural against a three-card 21 is a draw.
  Harness<BlackjackEnv, int32_t> plain({{"sab", false}});
  plain.Reset();
  plain.env().SetState({2, 1, 10, 3, 10, 5, 6});
  plain.Step(0);
  EXPECT_EQ(plain.reward(), 0.0F);
}

TEST(BlackjackTest, HittingOnTwentyBustsUnlessAnAce) {
  Harness<BlackjackEnv, int32_t> h({}, 4);
  int survived = 0;
  for (int i = 0; i < 13000; ++i) {
    h.Reset();
    h.env().SetState({2, 10, 10, 2, 10, 7});
    std::vector<int32_t> obs = h.Step(1);
    if (h.terminated()) {
      EXPECT_EQ(h.reward(), -1.0F);
      EXPECT_GT(obs[0], 21);
      EXPECT_LE(obs[0], 30);
    } else {
      EXPECT_EQ(obs, (std::vector<int32_t>{21, 10, 0}));
      EXPECT_EQ(h.reward(), 0.0F);
      ++survived;
    }
  }
  EXPECT_GT(survived, 800);  // 1/13 of 13000 = 1000
  EXPECT_LT(survived, 1200);
  EXPECT_THROW(h.env().SetState({2, 10, 11, 2, 10, 7}), std::invalid_argument);
  EXPECT_THROW(h.env().SetState({2, 10, 10, 2, 10}), std::invalid_argument);
}

TEST(BlackjackTest, ObservationStaysInItsBox) {
  Harness<BlackjackEnv, int32_t> h({}, 8);
  for (int episode = 0; episode < 2000; ++episode) {
    std::vector<int32_t> obs = h.Reset();
    for (int step = 0; step < 30 && !h.terminated(); ++step) {
      EXPECT_GE(obs[0], 4);
      EXPECT_LE(obs[0], 31);
      EXPECT_GE(obs[1], 1);
      EXPECT_LE(obs[1], 10);
      EXPECT_TRUE(obs[2] == 0 || obs[2] == 1);
      obs = h.Step(step < 3 ? 1 : 0);
    }
    EXPECT_TRUE(h.terminated());
  }
}

// Seeded like gymnasium 1.4's reset(seed=...) (numpy 2.4), the same draws:
// the numbers below are gymnasium's.

TEST(CategoricalTest, FirstCumulativeSumAboveTheDraw) {
  const Categorical slip(
      {(1.0 - 1.0 / 3.0) / 2.0, 1.0 / 3.0, (1.0 - 1.0 / 3.0) / 2.0});
  // numpy's cumsum of FrozenLake's [fail, success, fail].
  EXPECT_EQ(slip.cumsum(), (std::vector<double>{0.33333333333333337,
                                                0.6666666666666667, 1.0}));
  EXPECT_EQ(slip.Index(0.0), 0);
  EXPECT_EQ(slip.Index(0.33333333333333331), 0);
  EXPECT_EQ(slip.Index(0.33333333333333337), 1);  // not above: the next one
  EXPECT_EQ(slip.Index(0.99999999999999989), 2);
  // Zero-probability outcomes are never drawn.
  const Categorical start({0.0, 0.0, 1.0, 0.0});
  EXPECT_EQ(start.Index(0.0), 2);
  EXPECT_EQ(start.Index(0.99999999999999989), 2);
  // Taxi's start distribution sums to just below 1; a draw above the sum is
  // numpy's argmax of all-false, index 0.
  const Categorical& taxi = TaxiEnv::StartDistribution();
  EXPECT_EQ(taxi.cumsum().back(), 0.9999999999999961);
  EXPECT_EQ(taxi.Index(0.0), TaxiEnv::Encode(0, 0, 0, 1));
  EXPECT_EQ(taxi.Index(0.99999999999999989), 0);
}

TEST(SeedingTest, TaxiStartsWhereGymnasiumStarts) {
  const std::vector<int64_t> first = {314, 252, 128, 42, 468};
  for (uint64_t seed = 0; seed < first.size(); ++seed) {
    Harness<TaxiEnv> h({}, seed);
    EXPECT_EQ(h.Reset()[0], first[seed]) << seed;
  }
  // Later resets continue the generator.
  Harness<TaxiEnv> h({}, 4);
  h.Reset();
  EXPECT_EQ(h.Reset()[0], 252);
  EXPECT_EQ(h.Reset()[0], 486);
  EXPECT_EQ(h.Reset()[0], 41);
}

TEST(SeedingTest, FrozenLakeSlipsAsGymnasiumDoes) {
  Harness<FrozenLakeEnv> h({}, 3);
  EXPECT_EQ(h.Reset()[0], 0);
  const std::vector<int64_t> actions = {2, 2, 1, 1, 1, 2, 2, 1, 0, 3, 1, 2};
  const std::vector<int64_t> states = {4, 0, 4, 4, 8, 9, 13, 14, 10, 6, 10, 11};
  for (std::size_t t = 0; t < actions.size(); ++t) {
    EXPECT_EQ(h.StepScalar(actions[t]), states[t]) << t;
    EXPECT_EQ(h.terminated(), t + 1 == actions.size()) << t;  // hole 11
  }
}

TEST(SeedingTest, SlipperyCliffWalkingSlipsAsGymnasiumDoes) {
  Harness<CliffWalkingEnv> h({{"is_slippery", true}}, 5);
  EXPECT_EQ(h.Reset()[0], 36);
  const std::vector<int64_t> actions = {0, 0, 1, 1, 1, 1, 2, 3, 0, 1};
  const std::vector<int64_t> states = {36, 24, 12, 0, 1, 2, 3, 15, 16, 17};
  for (std::size_t t = 0; t < actions.size(); ++t) {
    EXPECT_EQ(h.StepScalar(actions[t]), states[t]) << t;
    EXPECT_EQ(h.reward(), t == 0 ? -100.0F : -1.0F) << t;
  }
}

TEST(SeedingTest, BlackjackDealsAsGymnasiumDoes) {
  // [player cards, dealer cards] after reset(seed=s).
  const std::vector<std::vector<double>> deals = {{2, 7, 4, 2, 10, 9},
                                                  {2, 10, 10, 2, 7, 7},
                                                  {2, 2, 4, 2, 10, 4},
                                                  {2, 3, 4, 2, 10, 2}};
  for (uint64_t seed = 0; seed < deals.size(); ++seed) {
    Harness<BlackjackEnv, int32_t> h({}, seed);
    h.Reset();
    EXPECT_EQ(h.env().GetState(), deals[seed]) << seed;
  }
  // A hit draws one card: a 10, and 29 is bust.
  Harness<BlackjackEnv, int32_t> h({}, 7);
  h.Reset();
  EXPECT_EQ(h.env().GetState(), (std::vector<double>{2, 9, 10, 2, 10, 9}));
  h.Step(1);
  EXPECT_EQ(h.env().GetState(), (std::vector<double>{3, 9, 10, 10, 2, 10, 9}));
  EXPECT_TRUE(h.terminated());
}

// Same seed, same trajectory; another seed, another one.
template <typename E>
std::vector<int64_t> Rollout(uint64_t seed, const Options& overrides = {}) {
  Harness<E> h(overrides, seed);
  std::vector<int64_t> trace;
  for (int episode = 0; episode < 20; ++episode) {
    trace.push_back(h.Reset()[0]);
    for (int step = 0; step < 20 && !h.terminated(); ++step) {
      trace.push_back(h.StepScalar(step % 4 == 3 ? 1 : step % 2));
    }
  }
  return trace;
}

TEST(DeterminismTest, SeedFixesTheTrajectory) {
  EXPECT_EQ(Rollout<FrozenLakeEnv>(1), Rollout<FrozenLakeEnv>(1));
  EXPECT_NE(Rollout<FrozenLakeEnv>(1), Rollout<FrozenLakeEnv>(2));
  EXPECT_EQ(Rollout<TaxiEnv>(1), Rollout<TaxiEnv>(1));
  EXPECT_NE(Rollout<TaxiEnv>(1), Rollout<TaxiEnv>(2));
  EXPECT_EQ(Rollout<NChainEnv>(1), Rollout<NChainEnv>(1));
  EXPECT_NE(Rollout<NChainEnv>(1), Rollout<NChainEnv>(2));
  Options slippery{{"is_slippery", true}};
  EXPECT_EQ(Rollout<CliffWalkingEnv>(1, slippery),
            Rollout<CliffWalkingEnv>(1, slippery));
  EXPECT_NE(Rollout<CliffWalkingEnv>(1, slippery),
            Rollout<CliffWalkingEnv>(2, slippery));
}

}  // namespace
}  // namespace envpool::toy_text
