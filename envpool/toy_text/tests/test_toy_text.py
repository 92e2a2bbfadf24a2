"""toy_text against its references: gymnasium 1.4's toy_text envs (FrozenLake,
Taxi, CliffWalking, Blackjack), bsuite's Catch and gym 0.x's NChain by their
published definitions.

Deterministic dynamics are stepped side by side with the reference and
compared exactly; stochastic ones are checked transition by transition
against the reference's transition table (every outcome must be one the
reference can produce, with its reward and termination) and their
frequencies with chi-square tests.  Seeds are fixed, so the tests are
deterministic.
"""

from __future__ import annotations

import collections

import gymnasium
import numpy as np
import pytest
from gymnasium.envs.toy_text import blackjack as gym_blackjack
from gymnasium.envs.toy_text.cliffwalking import CliffWalkingEnv as GymCliffWalking
from gymnasium.envs.toy_text.frozen_lake import FrozenLakeEnv as GymFrozenLake
from gymnasium.envs.toy_text.taxi import TaxiEnv as GymTaxi
from scipy import stats

import envpool

# A chi-square test fails below this p-value; seeds are fixed, so a pass is
# reproducible, and a real mismatch of the distribution gives p ~ 0.
P_MIN = 1e-3


def make(task_id: str, num_envs: int = 1, seed: int = 0, **kwargs):
    return envpool.make(task_id, env_type="gymnasium", num_envs=num_envs, seed=seed, **kwargs)


def step(env, actions):
    obs, reward, terminated, truncated, info = env.step(np.asarray(actions, dtype=np.int64))
    return (
        np.array(obs),
        np.array(reward),
        np.array(terminated),
        np.array(truncated),
        {k: np.array(v) for k, v in info.items()},
    )


def transition_table(reference) -> dict:
    """(state, action) -> {(next_state, reward, terminated): probability}."""
    table = {}
    for s, by_action in reference.unwrapped.P.items():
        for a, outcomes in by_action.items():
            merged: dict = collections.defaultdict(float)
            for p, s2, r, t in outcomes:
                merged[(int(s2), float(r), bool(t))] += p
            table[(s, a)] = {k: p for k, p in merged.items() if p > 0}
    return table


def nchain_table() -> dict:
    """gym 0.x NChain-v0 (n=5, slip=0.2, small=2, large=10) as a table."""
    table = {}
    for s in range(5):
        forward = (s + 1, 0.0, False) if s < 4 else (4, 10.0, False)
        backward = (0, 2.0, False)
        table[(s, 0)] = {forward: 0.8, backward: 0.2}
        table[(s, 1)] = {backward: 0.8, forward: 0.2}
    return table


def greedy_policy(table: dict, num_states: int, num_actions: int) -> np.ndarray:
    """Greedy actions of value iteration on a deterministic transition table."""
    next_state = np.zeros((num_states, num_actions), dtype=np.int64)
    reward = np.zeros((num_states, num_actions))
    live = np.zeros((num_states, num_actions))
    for (s, a), outcomes in table.items():
        ((s2, r, t),) = outcomes
        next_state[s, a], reward[s, a], live[s, a] = s2, r, not t
    value = np.zeros(num_states)
    for _ in range(300):
        q = reward + 0.99 * live * value[next_state]
        value = q.max(axis=1)
    return q.argmax(axis=1)


# -- id metadata --------------------------------------------------------------


@pytest.mark.parametrize(
    "task_id,threshold",
    [("FrozenLake-v1", 0.7), ("FrozenLake8x8-v1", 0.85), ("Taxi-v3", 8.0), ("NChain-v0", None)],
)
def test_reward_threshold_is_id_metadata(task_id, threshold):
    spec = envpool.make_spec(task_id)
    assert spec.reward_threshold == threshold
    assert spec.config._asdict().get("reward_threshold") == threshold


# -- deterministic dynamics, stepped side by side -------------------------------


def test_taxi_matches_gymnasium_step_by_step():
    """Taxi-v3 against gymnasium 1.4's Taxi-v4 (same dry dynamics), TimeLimit 200."""
    reference = gymnasium.make("Taxi-v4")
    policy = greedy_policy(transition_table(reference), 500, 6)
    env = make("Taxi-v3", seed=5)
    rng = np.random.default_rng(5)
    steps = deliveries = truncations = 0
    for episode in range(24):
        obs, _ = env.reset()
        reference.reset(seed=episode)
        reference.unwrapped.s = int(obs[0])
        epsilon = (0.1, 0.5, 1.0)[episode % 3]
        state = int(obs[0])
        while True:
            action = int(policy[state]) if rng.random() > epsilon else int(rng.integers(6))
            obs, reward, terminated, truncated, _ = step(env, [action])
            ref_obs, ref_reward, ref_terminated, ref_truncated, _ = reference.step(action)
            assert obs[0] == ref_obs and reward[0] == ref_reward
            assert terminated[0] == ref_terminated
            # gymnasium's TimeLimit also flags a termination on the last step
            # as truncated; EnvPool reports it as terminated only.
            assert truncated[0] == (ref_truncated and not ref_terminated)
            state = int(obs[0])
            steps += 1
            if terminated[0] or truncated[0]:
                deliveries += int(terminated[0])
                truncations += int(truncated[0])
                break
    assert deliveries >= 8 and truncations >= 4 and steps > 1000
    env.close()


@pytest.mark.parametrize(
    "task_id", ["CliffWalking-v1", "CliffWalking-v0", "tabular/CliffWalking-v0"]
)
def test_cliff_walking_matches_gymnasium_step_by_step(task_id):
    reference = gymnasium.make("CliffWalking-v1")
    policy = greedy_policy(transition_table(reference), 48, 4)
    env = make(task_id, seed=1)
    rng = np.random.default_rng(1)
    falls = 0
    for episode in range(20):
        obs, _ = env.reset()
        ref_obs, _ = reference.reset(seed=episode)
        assert obs[0] == ref_obs == 36
        epsilon = (0.0, 0.3, 0.6)[episode % 3]
        for _ in range(2000):
            action = int(policy[obs[0]]) if rng.random() >= epsilon else int(rng.integers(4))
            obs, reward, terminated, truncated, _ = step(env, [action])
            ref_obs, ref_reward, ref_terminated, _, _ = reference.step(action)
            assert (obs[0], reward[0], terminated[0]) == (ref_obs, ref_reward, ref_terminated)
            assert not truncated[0]
            falls += int(reward[0] == -100)
            if terminated[0]:
                break
        assert terminated[0]
    assert falls > 0
    env.close()


class BsuiteCatch:
    """bsuite's Catch as published: the ball falls from row 0, the paddle
    starts at column width // 2 of the bottom row, actions move it by -1, 0,
    +1; at the bottom row the reward is +1 for a catch and -1 for a miss."""

    def __init__(self, rows: int, columns: int, ball_x: int) -> None:
        self.rows, self.columns = rows, columns
        self.ball_x, self.ball_y, self.paddle_x = ball_x, 0, columns // 2

    def board(self) -> np.ndarray:
        board = np.zeros((self.rows, self.columns), dtype=np.float32)
        board[self.ball_y, self.ball_x] = 1.0
        board[self.rows - 1, self.paddle_x] = 1.0
        return board

    def step(self, action: int) -> tuple[np.ndarray, float, bool]:
        self.paddle_x = int(np.clip(self.paddle_x + action - 1, 0, self.columns - 1))
        self.ball_y += 1
        if self.ball_y == self.rows - 1:
            return self.board(), (1.0 if self.paddle_x == self.ball_x else -1.0), True
        return self.board(), 0.0, False


@pytest.mark.parametrize("height,width", [(10, 5), (6, 9)])
def test_catch_matches_bsuite_definition_step_by_step(height, width):
    env = make("Catch-v0", seed=2, height=height, width=width)
    rng = np.random.default_rng(2)
    returns = []
    for _ in range(60):
        obs, _ = env.reset()
        ball_x = int(np.flatnonzero(obs[0][0])[0])
        reference = BsuiteCatch(height, width, ball_x)
        np.testing.assert_array_equal(obs[0], reference.board())
        for t in range(height - 1):
            # Mostly chase the ball, sometimes not.
            chase = 1 + int(np.sign(reference.ball_x - reference.paddle_x))
            action = chase if rng.random() < 0.8 else int(rng.integers(3))
            obs, reward, terminated, truncated, _ = step(env, [action])
            ref_board, ref_reward, ref_terminated = reference.step(action)
            np.testing.assert_array_equal(obs[0], ref_board)
            assert reward[0] == ref_reward
            assert terminated[0] == ref_terminated == (t == height - 2)
            assert not truncated[0]
        returns.append(float(reward[0]))
    assert returns.count(1.0) > 0 and returns.count(-1.0) > 0
    env.close()


# -- stochastic dynamics: every transition checked against the reference ------


def check_rollouts_against_table(
    task_id: str,
    table: dict,
    initial_states: set[int],
    max_episode_steps: int,
    num_envs: int,
    num_steps: int,
    seed: int,
) -> collections.Counter:
    """Random rollouts of `num_envs` envs; each step must be a transition the
    reference table allows (state, reward, termination), truncation must come
    at max_episode_steps, and a step after an episode ends must autoreset.
    Returns the counts of episode endings by kind."""
    num_actions = 1 + max(a for _, a in table)
    env = make(task_id, num_envs=num_envs, seed=seed)
    rng = np.random.default_rng(seed)
    obs, info = env.reset()
    assert set(obs.tolist()) <= initial_states
    ended = np.zeros(num_envs, dtype=bool)
    endings: collections.Counter = collections.Counter()
    for _ in range(num_steps):
        actions = rng.integers(num_actions, size=num_envs)
        new_obs, reward, terminated, truncated, info = step(env, actions)
        for i in range(num_envs):
            if ended[i]:
                assert new_obs[i] in initial_states and reward[i] == 0
                assert info["elapsed_step"][i] == 0 and not terminated[i] and not truncated[i]
                continue
            outcome = (int(new_obs[i]), float(reward[i]), bool(terminated[i]))
            allowed = table[(int(obs[i]), int(actions[i]))]
            assert outcome in allowed, (task_id, int(obs[i]), int(actions[i]), outcome)
            at_limit = info["elapsed_step"][i] >= max_episode_steps
            assert truncated[i] == (at_limit and not terminated[i])
        endings["terminated"] += int(terminated.sum())
        endings["truncated"] += int(truncated.sum())
        ended = terminated | truncated
        obs = new_obs
    env.close()
    return endings


@pytest.mark.parametrize(
    "task_id,map_name,max_steps",
    [("FrozenLake-v1", "4x4", 100), ("FrozenLake8x8-v1", "8x8", 200)],
)
def test_frozen_lake_transitions_are_gymnasium_slippery_ones(task_id, map_name, max_steps):
    table = transition_table(GymFrozenLake(map_name=map_name))
    endings = check_rollouts_against_table(task_id, table, {0}, max_steps, 16, 400, seed=4)
    assert endings["terminated"] > 0


def test_slippery_cliff_walking_transitions_are_gymnasium_ones():
    table = transition_table(GymCliffWalking(is_slippery=True))
    endings = check_rollouts_against_table(
        "CliffWalkingSlippery-v1", table, {36}, 2**31 - 1, 16, 400, seed=6
    )
    assert endings["truncated"] == 0


def test_nchain_transitions_follow_its_definition_and_truncate_at_1000():
    endings = check_rollouts_against_table("NChain-v0", nchain_table(), {0}, 1000, 4, 2100, seed=8)
    assert endings == {"terminated": 0, "truncated": 8}


def next_state_counts(task_id: str, state: int, action: int, n: int, seed: int, **kwargs):
    """Next observations of `n` envs all put into `state` and given `action`."""
    env = make(task_id, num_envs=n, seed=seed, **kwargs)
    env.reset()
    for i in range(n):
        env._pool.set_state(i, [float(state)])
    obs, reward, *_ = step(env, np.full(n, action))
    env.close()
    return collections.Counter(zip(obs.tolist(), reward.tolist(), strict=True))


def assert_matches_distribution(counts: collections.Counter, probabilities: dict):
    """Chi-square goodness of fit of outcome counts to the reference's
    probabilities; an outcome the reference cannot produce fails outright."""
    assert set(counts) <= set(probabilities), (counts, probabilities)
    keys = sorted(probabilities)
    observed = np.array([counts[k] for k in keys], dtype=float)
    expected = np.array([probabilities[k] for k in keys]) * observed.sum()
    if len(keys) > 1:
        assert stats.chisquare(observed, expected).pvalue > P_MIN, (counts, probabilities)


@pytest.mark.parametrize(
    "task_id,map_name,state,action",
    [
        ("FrozenLake-v1", "4x4", 0, 1),
        ("FrozenLake-v1", "4x4", 6, 2),
        ("FrozenLake-v1", "4x4", 14, 2),
        ("FrozenLake8x8-v1", "8x8", 62, 3),
        ("FrozenLake8x8-v1", "8x8", 27, 0),
    ],
)
def test_frozen_lake_slip_frequencies_match_gymnasium(task_id, map_name, state, action):
    table = transition_table(GymFrozenLake(map_name=map_name))
    probabilities = {(s2, r): p for (s2, r, _), p in table[(state, action)].items()}
    counts = next_state_counts(task_id, state, action, 3000, seed=state)
    assert_matches_distribution(counts, probabilities)


@pytest.mark.parametrize("state,action", [(24, 2), (13, 1), (0, 3), (35, 2)])
def test_slippery_cliff_walking_frequencies_match_gymnasium(state, action):
    table = transition_table(GymCliffWalking(is_slippery=True))
    probabilities = {(s2, r): p for (s2, r, _), p in table[(state, action)].items()}
    counts = next_state_counts("CliffWalkingSlippery-v1", state, action, 3000, seed=state)
    assert_matches_distribution(counts, probabilities)


@pytest.mark.parametrize("state,action", [(0, 0), (2, 1), (4, 0), (4, 1)])
def test_nchain_slip_frequencies_match_its_definition(state, action):
    probabilities = {(s2, r): p for (s2, r, _), p in nchain_table()[(state, action)].items()}
    counts = next_state_counts("NChain-v0", state, action, 3000, seed=state)
    assert_matches_distribution(counts, probabilities)


def test_taxi_reset_is_uniform_over_gymnasium_start_states():
    start = GymTaxi().initial_state_distrib
    env = make("Taxi-v3", num_envs=6000, seed=9)
    obs, _ = env.reset()
    env.close()
    counts = np.bincount(obs, minlength=500)
    assert set(np.flatnonzero(counts)) <= set(np.flatnonzero(start))
    support = np.flatnonzero(start)
    assert stats.chisquare(counts[support], start[support] * len(obs)).pvalue > P_MIN


def test_catch_ball_starts_in_a_uniform_column():
    env = make("Catch-v0", num_envs=2000, seed=10)
    obs, _ = env.reset()
    env.close()
    columns = obs[:, 0, :].argmax(axis=1)
    assert (obs[:, 0, :].sum(axis=1) == 1).all()
    assert (obs[:, 9, 2] == 1).all()
    assert stats.chisquare(np.bincount(columns, minlength=5)).pvalue > P_MIN


# -- Blackjack: gymnasium's rules on our cards, and the deal's distribution ---


class DealtCards:
    """Stands in for gymnasium's np_random: deals the given cards in order."""

    def __init__(self, cards: list[int]) -> None:
        self.cards = list(cards)

    def choice(self, options):
        if list(options) == gym_blackjack.deck:
            return self.cards.pop(0)
        return options[0]  # suits and face names only matter for rendering


def hands(state: list[float]) -> tuple[list[int], list[int]]:
    n = int(state[0])
    player = [int(c) for c in state[1 : 1 + n]]
    dealer = [int(c) for c in state[2 + n :]]
    assert len(dealer) == int(state[1 + n])
    return player, dealer


@pytest.mark.parametrize(
    "task_id,sab,natural",
    [
        ("Blackjack-v1", True, False),
        ("tabular/Blackjack-v0", True, False),
        ("Blackjack-v1", False, True),
    ],
)
def test_blackjack_scores_every_step_as_gymnasium_does(task_id, sab, natural):
    """gymnasium's BlackjackEnv, dealt the cards our env drew, must see the
    same observations, rewards and terminations, and draw exactly as many."""
    env = make(task_id, seed=11, sab=sab, natural=natural)
    reference = gym_blackjack.BlackjackEnv(sab=sab, natural=natural)
    rng = np.random.default_rng(11)
    rewards: collections.Counter = collections.Counter()
    for episode in range(400):
        obs, _ = env.reset()
        player, dealer = hands(env._pool.get_state(0))
        reference.reset(seed=episode)
        reference.player, reference.dealer = list(player), list(dealer)
        assert tuple(obs[0]) == reference._get_obs()
        terminated = np.array([False])
        while not terminated[0]:
            action = int(rng.random() < 0.5)
            obs, reward, terminated, truncated, _ = step(env, [action])
            new_player, new_dealer = hands(env._pool.get_state(0))
            assert new_player[: len(player)] == player and new_dealer[: len(dealer)] == dealer
            dealt = DealtCards(new_player[len(player) :] + new_dealer[len(dealer) :])
            reference.np_random = dealt
            ref_obs, ref_reward, ref_terminated, _, _ = reference.step(action)
            assert not dealt.cards, "gymnasium drew fewer cards than we did"
            assert tuple(obs[0]) == ref_obs
            assert (reward[0], terminated[0]) == (ref_reward, ref_terminated)
            assert not truncated[0]
            player, dealer = new_player, new_dealer
            rewards[float(reward[0])] += 1
    assert rewards[1.0] > 0 and rewards[-1.0] > 0
    env.close()


def test_blackjack_first_deal_matches_gymnasium_deck():
    """Player sum, usable ace and dealer card of the first deal against the
    exact distribution of two (and one) cards from gymnasium's deck."""
    deck = gym_blackjack.deck
    expected_player: dict = collections.defaultdict(float)
    for a in deck:
        for b in deck:
            expected_player[(gym_blackjack.sum_hand([a, b]), gym_blackjack.usable_ace([a, b]))] += 1
    total = sum(expected_player.values())
    expected_dealer = collections.Counter(deck)
    env = make("Blackjack-v1", num_envs=6000, seed=12)
    obs, _ = env.reset()
    env.close()
    player = collections.Counter((int(o[0]), int(o[2])) for o in obs)
    assert_matches_distribution(player, {k: v / total for k, v in expected_player.items()})
    dealer = collections.Counter(int(o[1]) for o in obs)
    assert_matches_distribution(dealer, {k: v / len(deck) for k, v in expected_dealer.items()})


def test_blackjack_returns_match_gymnasium_under_a_fixed_policy():
    """Hit below 17, then stick: the distribution of returns of ours and of
    gymnasium's Blackjack-v1 agree (chi-square test of homogeneity)."""
    episodes = 4000
    reference = gymnasium.make("Blackjack-v1")
    ref_returns: collections.Counter = collections.Counter()
    for episode in range(episodes):
        obs, _ = reference.reset(seed=episode)
        done = False
        while not done:
            obs, reward, terminated, truncated, _ = reference.step(int(obs[0] < 17))
            done = terminated or truncated
        ref_returns[float(reward)] += 1
    env = make("Blackjack-v1", num_envs=500, seed=13)
    obs, _ = env.reset()
    returns: collections.Counter = collections.Counter()
    while sum(returns.values()) < episodes:
        obs, reward, terminated, _, _ = step(env, (obs[:, 0] < 17).astype(np.int64))
        for r in reward[terminated]:
            returns[float(r)] += 1
    env.close()
    keys = sorted(set(returns) | set(ref_returns))
    assert set(keys) == {-1.0, 0.0, 1.0}
    table = np.array([[returns[k] for k in keys], [ref_returns[k] for k in keys]])
    assert stats.chi2_contingency(table).pvalue > P_MIN, table


# -- autoreset -------------------------------------------------


def test_step_after_catch_episode_ends_starts_the_next_one():
    env = make("Catch-v0", num_envs=2, seed=14)
    env.reset()
    for _ in range(9):
        obs, reward, terminated, truncated, info = step(env, [1, 1])
    assert terminated.all() and not truncated.any()
    assert set(np.abs(reward).tolist()) == {1.0}
    np.testing.assert_array_equal(info["elapsed_step"], [9, 9])
    obs, reward, terminated, truncated, info = step(env, [0, 2])
    assert not terminated.any() and not truncated.any() and (reward == 0).all()
    np.testing.assert_array_equal(info["elapsed_step"], [0, 0])
    assert (obs[:, 9, 2] == 1).all() and (obs[:, 0, :].sum(axis=1) == 1).all()
    env.close()


@pytest.mark.parametrize(
    "task_id", ["FrozenLake-v1", "Taxi-v3", "NChain-v0", "CliffWalking-v1", "Catch-v0"]
)
def test_set_state_rejects_malformed_states(task_id):
    env = make(task_id)
    env.reset()
    with pytest.raises((ValueError, RuntimeError)):
        env._pool.set_state(0, [1e6, 1e6, 1e6])
    with pytest.raises((ValueError, RuntimeError)):
        env._pool.set_state(0, [])
    env.close()
