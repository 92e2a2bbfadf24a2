"""classic_control against gymnasium 1.4.0's numpy classic_control envs.

Alignment is by seed alone: env i of `envpool.make(id, seed=s, num_envs=k)`
is stepped beside a reference env reset with `seed=s + i`, both given the
same actions, for at least three whole episodes each.  When our env ends an
episode, its next step (next_step autoreset) is the next episode's first
observation, and the reference is reset *without* a seed there: both
generators continue, as gymnasium's np_random does.  Then the pool is reset
with a list of seeds and the references with the same ones, for one more
episode.  Observations (float32), rewards (float32: the reference's float64
reward rounded), terminated, truncated and elapsed_step must be equal
exactly at every step; no state is copied between the two.

References: CartPole-v0/v1, Pendulum-v1, MountainCar-v0,
MountainCarContinuous-v0 and Acrobot-v1 are `gymnasium.make(id)`.  The
phys2d/CartPole ids are the numpy CartPole (gymnasium's phys2d versions run in
jax float32, with jax's random numbers).  Pendulum-v0 and phys2d/Pendulum-v0
are EnvPool's `version=0`: gym's original Pendulum-v0 step, written below as
a subclass of gymnasium's PendulumEnv (whose reset it keeps).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import gymnasium
import numpy as np
import pytest
from gymnasium.envs.classic_control.pendulum import PendulumEnv, angle_normalize
from gymnasium.wrappers import TimeLimit

import envpool

ALL_IDS = [
    "CartPole-v0",
    "CartPole-v1",
    "phys2d/CartPole-v0",
    "phys2d/CartPole-v1",
    "Pendulum-v0",
    "Pendulum-v1",
    "phys2d/Pendulum-v0",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Acrobot-v1",
]

MAX_EPISODE_STEPS = {
    "CartPole-v0": 200,
    "CartPole-v1": 500,
    "phys2d/CartPole-v0": 200,
    "phys2d/CartPole-v1": 500,
    "Pendulum-v0": 200,
    "Pendulum-v1": 200,
    "phys2d/Pendulum-v0": 200,
    "MountainCar-v0": 200,
    "MountainCarContinuous-v0": 999,
    "Acrobot-v1": 500,
}

# Whole episodes each env plays (and compares) before the reset with seeds.
EPISODES = 3


class PendulumV0Reference(PendulumEnv):
    """gym's Pendulum-v0, as it was before gym pull request 2423.

    The angular acceleration is written -3g/(2l) sin(theta + pi), and the
    angle advances with the angular velocity before it is clipped.
    """

    def step(self, u):
        th, thdot = self.state
        u = np.clip(u, -self.max_torque, self.max_torque)[0]
        costs = angle_normalize(th) ** 2 + 0.1 * thdot**2 + 0.001 * (u**2)
        accel = -3 * self.g / (2 * self.l) * np.sin(th + np.pi)
        accel = accel + 3.0 / (self.m * self.l**2) * u
        newthdot = thdot + accel * self.dt
        newth = th + newthdot * self.dt
        newthdot = np.clip(newthdot, -self.max_speed, self.max_speed)
        self.state = np.array([newth, newthdot])
        return self._get_obs(), -costs, False, False, {}


def make_reference(task_id: str) -> gymnasium.Env:
    if task_id in ("Pendulum-v0", "phys2d/Pendulum-v0"):
        return TimeLimit(PendulumV0Reference(), max_episode_steps=200)
    numpy_id = task_id.removeprefix("phys2d/")
    return gymnasium.make(numpy_id, disable_env_checker=True)


def driving_policy(task_id: str) -> Callable[[np.ndarray], object]:
    """A policy that ends episodes in the way random actions rarely do."""
    if "CartPole" in task_id:  # balances until the time limit
        return lambda o: int(o[2] * 10 + o[3] * 2 + o[0] * 0.3 + o[1] > 0)
    if task_id == "MountainCar-v0":  # pumps energy and reaches the flag
        return lambda o: 2 if o[1] >= 0 else 0
    if task_id == "MountainCarContinuous-v0":
        return lambda o: np.float32(1.0 if o[1] >= 0 else -1.0)
    if task_id == "Acrobot-v1":  # swings up
        return lambda o: 2 if o[5] > 0 else 0
    return lambda o: np.float32(0.5)


def random_action(space: gymnasium.Space, rng: np.random.Generator):
    if isinstance(space, gymnasium.spaces.Discrete):
        return int(rng.integers(space.n))
    # Half again the range, so that clipping is exercised too.
    return np.float32(rng.uniform(1.5 * space.low[0], 1.5 * space.high[0]))


def to_reference_action(space: gymnasium.Space, row: np.ndarray) -> object:
    """One env's row of the batched action, as the reference takes it."""
    if isinstance(space, gymnasium.spaces.Discrete):
        return int(row)
    return row.astype(np.float32)


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def assert_same_obs(ours: np.ndarray, ref_obs: np.ndarray, where: str) -> None:
    assert ref_obs.dtype == np.float32, where
    np.testing.assert_array_equal(ours, ref_obs, err_msg=where)


def play_alongside(env, refs, obs, task_id: str, rng, episodes: int, where: str) -> dict:
    """Steps `env` (whose last observations are `obs`) and `refs` with the
    same actions until every env has ended `episodes` episodes; the step
    after an ending is the next episode's start, where the reference is reset
    without a seed.  Returns counts of the steps and of the endings."""
    num_envs = len(refs)
    space = env.single_action_space
    policy = driving_policy(task_id)
    ended = [False] * num_envs
    done = [0] * num_envs
    elapsed = [0] * num_envs
    counts = {"terminated": 0, "truncated": 0, "steps": 0}
    for t in range(100_000):
        if min(done) >= episodes:
            return counts
        # env 0 follows the driving policy, the others act at random.
        actions = [policy(obs[0])] + [random_action(space, rng) for _ in range(num_envs - 1)]
        batch = np.array(actions, dtype=space.dtype).reshape((num_envs, *space.shape))
        obs, reward, terminated, truncated, info = env.step(batch)
        assert obs.dtype == np.float32 and reward.dtype == np.float32
        np.testing.assert_array_equal(info["env_id"], np.arange(num_envs))
        for i, ref in enumerate(refs):
            at = f"{where} env {i} step {t}"
            if ended[i]:  # next_step autoreset: the next episode's start
                ref_obs, _ = ref.reset()
                ref_step = (0.0, False, False)
                elapsed[i] = 0
            else:
                ref_obs, *ref_step, _ = ref.step(to_reference_action(space, batch[i]))
                elapsed[i] += 1
                counts["steps"] += 1
            assert_same_obs(obs[i], ref_obs, at)
            if task_id == "Acrobot-v1":  # the state behind the cos/sin encoding
                np.testing.assert_array_equal(info["state"][i], ref.unwrapped.state, err_msg=at)
            assert reward[i] == np.float32(ref_step[0]), at
            assert bool(terminated[i]) == ref_step[1], at
            assert bool(truncated[i]) == ref_step[2], at
            assert info["elapsed_step"][i] == elapsed[i], at
            ended[i] = bool(terminated[i] or truncated[i])
            done[i] += ended[i]
            counts["terminated"] += bool(terminated[i])
            counts["truncated"] += bool(truncated[i])
    raise AssertionError(f"{where}: episodes did not end")


@pytest.mark.parametrize("seed,num_envs", [(0, 3), (2**40 + 7, 2)])
@pytest.mark.parametrize("task_id", ALL_IDS)
def test_same_seed_same_episodes_as_gymnasium(task_id: str, seed: int, num_envs: int) -> None:
    env = envpool.make(task_id, env_type="gymnasium", num_envs=num_envs, seed=seed)
    refs = [make_reference(task_id) for _ in range(num_envs)]
    rng = np.random.default_rng(seed % 1000)
    obs, info = env.reset()
    for i, ref in enumerate(refs):
        assert_same_obs(obs[i], ref.reset(seed=seed + i)[0], f"{task_id} env {i} reset")
        if task_id == "Acrobot-v1":
            np.testing.assert_array_equal(info["state"][i], ref.unwrapped.state)
    np.testing.assert_array_equal(info["elapsed_step"], 0)
    counts = play_alongside(env, refs, obs, task_id, rng, EPISODES, f"{task_id} seed {seed}")
    # reset(seed=[...]) seeds each env with its own entry, as reset(seed=...)
    # seeds a reference.
    seeds = [int(x) for x in rng.integers(2**32, size=num_envs)]
    obs, _ = env.reset(seed=seeds)
    for i, ref in enumerate(refs):
        assert_same_obs(obs[i], ref.reset(seed=seeds[i])[0], f"{task_id} env {i} reseeded")
    more = play_alongside(env, refs, obs, task_id, rng, 1, f"{task_id} seeds {seeds}")
    env.close()
    # Both ways an episode ends were exercised (Pendulum never terminates).
    assert counts["truncated"] + more["truncated"] > 0
    assert counts["terminated"] + more["terminated"] > 0 or "Pendulum" in task_id


def unbounded_as_float32_max(space: gymnasium.Space) -> gymnasium.Space:
    """The Box with infinite bounds written as float32's largest value.

    EnvPool writes CartPole's unbounded velocities as float32 max where
    gymnasium 1.4 writes inf; both mean "unbounded".
    """
    if not isinstance(space, gymnasium.spaces.Box):
        return space
    big = np.finfo(space.dtype).max
    low = np.nan_to_num(space.low, neginf=-big, posinf=big)
    high = np.nan_to_num(space.high, neginf=-big, posinf=big)
    return gymnasium.spaces.Box(low, high, space.shape, space.dtype)


@pytest.mark.parametrize("task_id", ALL_IDS)
def test_spaces_match_gymnasium(task_id: str) -> None:
    env = envpool.make(task_id, env_type="gymnasium", num_envs=1)
    ref = make_reference(task_id)
    assert unbounded_as_float32_max(env.single_observation_space) == unbounded_as_float32_max(
        ref.observation_space
    )
    assert env.single_action_space == ref.action_space
    assert envpool.make_spec(task_id).config.max_episode_steps == MAX_EPISODE_STEPS[task_id]
    env.close()


@pytest.mark.parametrize("task_id", ALL_IDS)
def test_first_observations_are_gymnasium_ones_for_many_seeds(task_id: str) -> None:
    """500 envs of one pool against 500 seeded reference resets; a second
    reset without a seed continues each generator, as gymnasium's does; a
    list of seeds seeds env i with entry i."""
    n = 500
    env = envpool.make(task_id, env_type="gymnasium", num_envs=n, seed=1000)
    ref = make_reference(task_id)
    first, _ = env.reset()
    again, _ = env.reset()
    for i in range(n):
        assert_same_obs(first[i], ref.reset(seed=1000 + i)[0], f"{task_id} env {i}")
        assert_same_obs(again[i], ref.reset()[0], f"{task_id} env {i} second reset")
    seeds = [int(x) for x in np.random.default_rng(1).integers(2**63, size=n)]
    listed, _ = env.reset(seed=seeds)
    for i in range(n):
        assert_same_obs(listed[i], ref.reset(seed=seeds[i])[0], f"{task_id} seed {seeds[i]}")
    env.close()


# Seeds whose Acrobot reset state (float32) has a cos or sin where numpy's
# float32 kernel and the correctly rounded value differ (about 1 seed in 500):
# cos(theta1), sin(theta1), cos(theta2), sin(theta2) each occur.
ACROBOT_FLOAT32_TRIG_SEEDS = [835, 1506, 1692, 2823, 2841, 3092, 3701, 4658, 5341, 5355, 6620, 7676]


def test_acrobot_first_observation_is_numpys_float32_cos_and_sin() -> None:
    seeds = ACROBOT_FLOAT32_TRIG_SEEDS
    env = envpool.make("Acrobot-v1", env_type="gymnasium", num_envs=len(seeds), seed=seeds)
    obs, _ = env.reset()
    env.close()
    ref = make_reference("Acrobot-v1")
    differs = np.zeros(4, dtype=bool)
    for i, seed in enumerate(seeds):
        assert_same_obs(obs[i], ref.reset(seed=seed)[0], f"Acrobot seed {seed}")
        theta = ref.unwrapped.state[:2].astype(np.float64)
        rounded = np.array([np.cos(theta[0]), np.sin(theta[0]), np.cos(theta[1]), np.sin(theta[1])])
        differs |= obs[i][:4] != rounded.astype(np.float32)
    assert differs.all()


def test_acrobot_info_state_is_gymnasiums_state() -> None:
    """info["state"]: [theta1, theta2, dtheta1, dtheta2] in float64, gymnasium's `state`
    exactly (the angles the observation encodes as cos and sin), at resets and steps;
    it sets a gymnasium Acrobot to the same state, which then steps alike."""
    env = envpool.make("Acrobot-v1", env_type="gymnasium", num_envs=2, seed=3)
    assert env.single_observation_space.shape == (6,)
    obs, info = env.reset()
    assert info["state"].dtype == np.float64 and info["state"].shape == (2, 4)
    ref = make_reference("Acrobot-v1")
    for i in range(2):
        ref.reset(seed=3 + i)
        np.testing.assert_array_equal(info["state"][i], ref.unwrapped.state)
    for t in range(30):
        obs, _, _, _, info = env.step(np.array([2, t % 3]))
    theta = info["state"][:, :2]
    np.testing.assert_array_equal(obs[:, 0:4:2], np.cos(theta).astype(np.float32))
    np.testing.assert_array_equal(obs[:, 1:4:2], np.sin(theta).astype(np.float32))
    np.testing.assert_array_equal(obs[:, 4:], info["state"][:, 2:].astype(np.float32))
    ref.unwrapped.state = info["state"][0].copy()
    actions = [0, 1, 2, 2, 1]
    for action in actions:
        ref_obs = ref.step(action)[0]
        obs, _, _, _, info = env.step(np.array([action, 1]))
        assert_same_obs(obs[0], ref_obs, f"action {action}")
        np.testing.assert_array_equal(info["state"][0], ref.unwrapped.state)
    env.close()


def test_pendulum_versions_differ_only_at_the_speed_limit() -> None:
    envs = {
        v: envpool.make(f"Pendulum-v{v}", env_type="gymnasium", num_envs=2, seed=0) for v in (0, 1)
    }
    for env in envs.values():
        env.reset()
        env._pool.set_state(0, [1.0, 0.5])  # slow: both alike
        env._pool.set_state(1, [np.pi / 2, 7.9])  # pushed past 8 rad/s
        env.step(np.zeros((2, 1), dtype=np.float32))
    slow = [envs[v]._pool.get_state(0) for v in (0, 1)]
    fast = [envs[v]._pool.get_state(1) for v in (0, 1)]
    np.testing.assert_allclose(slow[0], slow[1], rtol=0, atol=1e-14)
    assert fast[0][1] == fast[1][1] == 8.0
    assert fast[0][0] == pytest.approx(np.pi / 2 + 8.65 * 0.05, abs=1e-12)
    assert fast[1][0] == pytest.approx(np.pi / 2 + 8.0 * 0.05, abs=1e-12)
