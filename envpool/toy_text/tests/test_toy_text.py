"""toy_text against its references: gymnasium 1.4's toy_text envs (FrozenLake,
Taxi, CliffWalking, Blackjack), bsuite's Catch and gym 0.x's NChain by their
published definitions.

gymnasium's envs are matched by seed alone: env i of `envpool.make(id,
seed=s, num_envs=k)` is stepped beside the gymnasium env reset with
`seed=s + i`, both given the same actions, over many whole episodes; when our
env ends an episode, its next step (next_step autoreset) is the next
episode's first observation and the reference is reset there without a seed,
so both generators continue.  Observation, reward, terminated, truncated,
elapsed_step and info["prob"] must be equal at every step.  No state is
copied between them.

Catch and NChain are not gymnasium's and draw from the env's own rng_: Catch
is stepped beside a transcription of bsuite's rules from the ball column our
env drew; NChain's transitions are checked against its table and their
frequencies with chi-square tests.  Seeds are fixed, so the tests are
deterministic.
"""

from __future__ import annotations

import collections

import gymnasium
import numpy as np
import pytest
from gymnasium.envs.toy_text.blackjack import BlackjackEnv as GymBlackjack
from gymnasium.envs.toy_text.cliffwalking import CliffWalkingEnv as GymCliffWalking
from gymnasium.envs.toy_text.taxi import TaxiEnv as GymTaxi
from gymnasium.wrappers import TimeLimit
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


def nchain_table() -> dict:
    """gym 0.x NChain-v0 (n=5, slip=0.2, small=2, large=10) as a table."""
    table = {}
    for s in range(5):
        forward = (s + 1, 0.0, False) if s < 4 else (4, 10.0, False)
        backward = (0, 2.0, False)
        table[(s, 0)] = {forward: 0.8, backward: 0.2}
        table[(s, 1)] = {backward: 0.8, forward: 0.2}
    return table


# -- id metadata --------------------------------------------------------------


@pytest.mark.parametrize(
    "task_id,threshold",
    [("FrozenLake-v1", 0.7), ("FrozenLake8x8-v1", 0.85), ("Taxi-v3", 8.0), ("NChain-v0", None)],
)
def test_reward_threshold_is_id_metadata(task_id, threshold):
    spec = envpool.make_spec(task_id)
    assert spec.reward_threshold == threshold
    assert spec.config._asdict().get("reward_threshold") == threshold


# -- gymnasium's envs: the same seed, the same episodes ------------------------

# gymnasium 1.4's current ids among ours; they are built with gymnasium.make.
# Our deprecated and tabular ids are compared with gymnasium's numpy class
# under the options of the id: Taxi-v3 with TaxiEnv() (gymnasium's Taxi-v4 is
# the same dry taxi; v4 changed only the rainy and fickle variants, which we
# do not have) and a TimeLimit of 200 as Taxi-v3 had; CliffWalking-v0 and
# tabular/CliffWalking-v0 with CliffWalkingEnv() (= CliffWalking-v1, which
# only added the is_slippery option); tabular/Blackjack-v0 with
# BlackjackEnv(sab=True) (= Blackjack-v1; gymnasium's tabular ids are jax
# envs with jax's random numbers).
GYMNASIUM_IDS = (
    "FrozenLake-v1",
    "FrozenLake8x8-v1",
    "CliffWalking-v1",
    "CliffWalkingSlippery-v1",
    "Blackjack-v1",
)
ALIGNED = [
    ("FrozenLake-v1", {}),
    ("FrozenLake8x8-v1", {}),
    ("Taxi-v3", {}),
    ("CliffWalking-v1", {}),
    ("tabular/CliffWalking-v0", {}),
    ("CliffWalking-v0", {}),
    ("CliffWalkingSlippery-v1", {}),
    ("CliffWalking-v1", {"is_slippery": True}),
    ("Blackjack-v1", {}),
    ("tabular/Blackjack-v0", {}),
    ("Blackjack-v1", {"sab": False, "natural": True}),
    ("Blackjack-v1", {"sab": False, "natural": False}),
]
# Whole episodes each env plays before the pool is reset with a list of
# seeds (and one more episode after it).
EPISODES = {"FrozenLake": 40, "Taxi": 4, "CliffWalking": 4, "Blackjack": 150}


def gymnasium_reference(task_id: str, options: dict) -> gymnasium.Env:
    if task_id in GYMNASIUM_IDS:
        return gymnasium.make(task_id, disable_env_checker=True, **options)
    if task_id == "Taxi-v3":
        return TimeLimit(GymTaxi(), max_episode_steps=200)
    if "CliffWalking" in task_id:
        return GymCliffWalking(**options)
    assert task_id == "tabular/Blackjack-v0"
    return GymBlackjack(sab=True, natural=False)


def family(task_id: str) -> str:
    return next(name for name in EPISODES if name in task_id)


def value_iteration(reference: gymnasium.Env) -> np.ndarray:
    """Q-values of the reference's transition table P (discount 0.95)."""
    table = reference.unwrapped.P
    num_states, num_actions = len(table), len(table[0])
    expected_reward = np.zeros((num_states, num_actions))
    going_on = np.zeros((num_states, num_actions, num_states))
    for s, by_action in table.items():
        for a, outcomes in by_action.items():
            for p, s2, r, t in outcomes:
                expected_reward[s, a] += p * r
                going_on[s, a, s2] += p * (not t)
    value = np.zeros(num_states)
    for _ in range(200):
        q = expected_reward + 0.95 * going_on @ value
        value = q.max(axis=1)
    return q


def make_policy(task_id: str, reference: gymnasium.Env):
    """action(obs row, env index, rng): greedy with an exploration rate that
    grows with the env index for the gridworlds; for Blackjack, even envs
    hit below 17 and odd envs act at random."""
    if family(task_id) == "Blackjack":
        return lambda o, i, rng: int(o[0] < 17 if i % 2 == 0 else rng.random() < 0.5)
    greedy = value_iteration(reference).argmax(axis=1)
    num_actions = reference.action_space.n
    explore = (0.05, 0.3, 0.6) if family(task_id) == "CliffWalking" else (0.1, 0.4, 1.0)

    def policy(o, i, rng):
        if rng.random() < explore[i % 3]:
            return int(rng.integers(num_actions))
        return int(greedy[int(o)])

    return policy


def as_reference_obs(task_id: str, row: np.ndarray):
    if family(task_id) == "Blackjack":
        return tuple(int(x) for x in row)
    return int(row)


def play_alongside(env, refs, obs, info, task_id, policy, rng, episodes, where) -> dict:
    """Steps `env` (whose last results are `obs`, `info`) and `refs` with the
    same actions until every env has ended `episodes` episodes.  The step
    after an ending is the next episode's start, where the reference is reset
    without a seed.  Returns counts of steps and endings."""
    num_envs = len(refs)
    ended = [False] * num_envs
    done = [0] * num_envs
    elapsed = [0] * num_envs
    counts = collections.Counter()
    for t in range(200_000):
        if min(done) >= episodes:
            return counts
        actions = [policy(obs[i], i, rng) for i in range(num_envs)]
        obs, reward, terminated, truncated, info = step(env, actions)
        for i, ref in enumerate(refs):
            at = f"{where} env {i} step {t}"
            if ended[i]:  # next_step autoreset: the next episode's start
                ref_obs, ref_info = ref.reset()
                ref_step = (0.0, False, False)
                elapsed[i] = 0
            else:
                ref_obs, *ref_step, ref_info = ref.step(actions[i])
                elapsed[i] += 1
                counts["steps"] += 1
                counts[f"reward {float(ref_step[0]):g}"] += 1
            assert as_reference_obs(task_id, obs[i]) == ref_obs, at
            assert reward[i] == np.float32(ref_step[0]), at
            assert bool(terminated[i]) == ref_step[1], at
            assert bool(truncated[i]) == ref_step[2], at
            assert info["elapsed_step"][i] == elapsed[i], at
            if "prob" in ref_info:
                assert info["prob"][i] == np.float32(ref_info["prob"]), at
            ended[i] = bool(terminated[i] or truncated[i])
            done[i] += ended[i]
            counts["terminated"] += bool(terminated[i])
            counts["truncated"] += bool(truncated[i])
    raise AssertionError(f"{where}: episodes did not end")


def case_name(value) -> str:
    """Test ids: the task id, then the options (if any) as k=v."""
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items()) or "defaults"
    return str(value)


@pytest.mark.parametrize("seed,num_envs", [(0, 3), (2**40 + 7, 2)])
@pytest.mark.parametrize("task_id,options", ALIGNED, ids=case_name)
def test_same_seed_same_episodes_as_gymnasium(task_id, options, seed, num_envs):
    env = make(task_id, num_envs=num_envs, seed=seed, **options)
    refs = [gymnasium_reference(task_id, options) for _ in range(num_envs)]
    policy = make_policy(task_id, refs[0])
    rng = np.random.default_rng(seed % 1000)
    where = f"{task_id} {options} seed {seed}"
    obs, info = env.reset()
    for i, ref in enumerate(refs):
        ref_obs, ref_info = ref.reset(seed=seed + i)
        assert as_reference_obs(task_id, obs[i]) == ref_obs, f"{where} env {i} reset"
        if "prob" in ref_info:
            assert info["prob"][i] == np.float32(ref_info["prob"])
    episodes = EPISODES[family(task_id)]
    counts = play_alongside(env, refs, obs, info, task_id, policy, rng, episodes, where)
    # reset(seed=[...]) seeds each env with its own entry.
    seeds = [int(x) for x in rng.integers(2**32, size=num_envs)]
    obs, info = env.reset(seed=seeds)
    for i, ref in enumerate(refs):
        assert as_reference_obs(task_id, obs[i]) == ref.reset(seed=seeds[i])[0], f"{where} {seeds}"
    counts += play_alongside(env, refs, obs, info, task_id, policy, rng, 1, f"{where} {seeds}")
    env.close()
    assert counts["terminated"] >= num_envs * episodes // 2, counts
    if family(task_id) != "Blackjack":  # both goals and falls, or wins and losses
        assert len([k for k in counts if k.startswith("reward")]) >= 2, counts
    else:
        assert counts["reward 1"] > 0 and counts["reward -1"] > 0, counts


@pytest.mark.parametrize("task_id,options", ALIGNED, ids=case_name)
def test_first_observations_are_gymnasium_ones_for_many_seeds(task_id, options):
    """500 envs of one pool against 500 seeded reference resets; a second
    reset without a seed continues each generator, as gymnasium's does; a
    list of seeds seeds env i with entry i."""
    n = 500
    env = make(task_id, num_envs=n, seed=1000, **options)
    ref = gymnasium_reference(task_id, options)
    first, _ = env.reset()
    again, _ = env.reset()
    for i in range(n):
        assert as_reference_obs(task_id, first[i]) == ref.reset(seed=1000 + i)[0], i
        assert as_reference_obs(task_id, again[i]) == ref.reset()[0], i
    seeds = [int(x) for x in np.random.default_rng(1).integers(2**63, size=n)]
    listed, _ = env.reset(seed=seeds)
    for i in range(n):
        assert as_reference_obs(task_id, listed[i]) == ref.reset(seed=seeds[i])[0], seeds[i]
    env.close()


# -- Catch (bsuite) and NChain (gym 0.x): their own rng_ ----------------------


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


# NChain's transitions, each checked against its table.


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


@pytest.mark.parametrize("state,action", [(0, 0), (2, 1), (4, 0), (4, 1)])
def test_nchain_slip_frequencies_match_its_definition(state, action):
    probabilities = {(s2, r): p for (s2, r, _), p in nchain_table()[(state, action)].items()}
    counts = next_state_counts("NChain-v0", state, action, 3000, seed=state)
    assert_matches_distribution(counts, probabilities)


def test_catch_ball_starts_in_a_uniform_column():
    env = make("Catch-v0", num_envs=2000, seed=10)
    obs, _ = env.reset()
    env.close()
    columns = obs[:, 0, :].argmax(axis=1)
    assert (obs[:, 0, :].sum(axis=1) == 1).all()
    assert (obs[:, 9, 2] == 1).all()
    assert stats.chisquare(np.bincount(columns, minlength=5)).pvalue > P_MIN


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


ANSI_IDS = [
    "FrozenLake-v1",
    "FrozenLake8x8-v1",
    "Taxi-v3",
    "CliffWalking-v1",
    "CliffWalkingSlippery-v1",
]


@pytest.mark.parametrize("task_id", ANSI_IDS)
def test_ansi_render_is_gymnasium_text(task_id):
    """render_mode="ansi": gymnasium's text (colour codes included) after the
    reset and every step, over whole episodes of random actions."""
    options = {"is_slippery": True} if task_id == "CliffWalkingSlippery-v1" else {}
    env = make(task_id, num_envs=2, seed=7, render_mode="ansi")
    assert "ansi" in env.metadata["render_modes"] and env.metadata["render_fps"] == 4
    ref = gymnasium_reference(task_id.replace("Slippery", ""), options)
    ref.unwrapped.render_mode = "ansi"
    env.reset()
    ref.reset(seed=7)
    texts = env.render(env_ids=[0, 1])
    assert texts[0] == ref.render()
    rng = np.random.default_rng(1)
    episodes = 0
    for step in range(300):
        action = int(rng.integers(ref.action_space.n))
        _, _, terminated, truncated, _ = env.step(np.array([action, 0]))
        _, _, ref_terminated, ref_truncated, _ = ref.step(action)
        assert env.render()[0] == ref.render(), f"{task_id} step {step}"
        if ref_terminated or ref_truncated:
            assert terminated[0] or truncated[0]
            episodes += 1
            env.step(np.array([0, 0]))  # the autoreset
            ref.reset()
            assert env.render()[0] == ref.render(), f"{task_id} reset after step {step}"
    # Random walks rarely reach CliffWalking's goal (they fall and restart).
    assert episodes >= 1 or "CliffWalking" in task_id
