"""classic_control against gymnasium 1.4.0's numpy classic_control envs.

Alignment: each envpool env is put into the state of a reference env after
every reset (through the test hooks `_pool.get_state`/`_pool.set_state`),
then both take the same actions for whole episodes, up to and past the time
limit.  Observations, internal float64 states, terminated and truncated must
be equal exactly; rewards are float32 in envpool, so they must equal the
reference's float64 reward rounded to float32.

References: CartPole-v0/v1, Pendulum-v1, MountainCar-v0,
MountainCarContinuous-v0 and Acrobot-v1 are `gymnasium.make(id)`.  The
phys2d/CartPole ids are the numpy CartPole (gymnasium's phys2d versions run in
jax float32).  Pendulum-v0 and phys2d/Pendulum-v0 are EnvPool's `version=0`:
gym's original Pendulum-v0 step, written below as a subclass of gymnasium's
PendulumEnv.
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


def reference_obs(task_id: str, env: gymnasium.Env) -> np.ndarray:
    """The reference's observation of its current state."""
    if "Pendulum" in task_id:
        return env._get_obs()
    if task_id == "Acrobot-v1":
        return env._get_ob()
    return np.array(env.state, dtype=np.float32)


def reference_state(task_id: str, state: list[float]) -> np.ndarray:
    """Our state hook's numbers as the reference's `state` attribute."""
    if task_id == "Acrobot-v1":
        return np.array(state, dtype=np.float32)  # a float32 reset state
    if task_id == "MountainCarContinuous-v0":
        # [position, velocity, is_float32]
        return np.array(state[:2], dtype=np.float32 if state[2] else np.float64)
    return np.array(state, dtype=np.float64)


def our_state(task_id: str, state: list[float]) -> list[float]:
    return state[:2] if task_id == "MountainCarContinuous-v0" else state


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


def sync_reference(task_id, env, ref, i, seed) -> None:
    """Reset `ref` and give it the state envpool env `i` just reset to."""
    ref.reset(seed=seed)
    ref.unwrapped.state = reference_state(task_id, env._pool.get_state(i))


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("task_id", ALL_IDS)
def test_aligns_with_gymnasium_for_whole_episodes(task_id: str) -> None:
    num_envs = 2  # env 0 follows `driving_policy`, env 1 acts at random
    env = envpool.make(task_id, env_type="gymnasium", num_envs=num_envs, seed=3)
    space = env.single_action_space
    policy = driving_policy(task_id)
    rng = np.random.default_rng(0)
    refs = [make_reference(task_id) for _ in range(num_envs)]
    obs, info = env.reset()
    for i, ref in enumerate(refs):
        sync_reference(task_id, env, ref, i, seed=i)
        np.testing.assert_array_equal(obs[i], reference_obs(task_id, ref.unwrapped))
    np.testing.assert_array_equal(info["elapsed_step"], 0)
    ended = [False] * num_envs
    elapsed = [0] * num_envs
    terminations = truncations = 0
    for t in range(MAX_EPISODE_STEPS[task_id] + 30):
        actions = [policy(obs[0]), random_action(space, rng)]
        batch = np.array(actions, dtype=space.dtype).reshape((num_envs, *space.shape))
        obs, reward, terminated, truncated, info = env.step(batch)
        assert obs.dtype == np.float32 and reward.dtype == np.float32
        np.testing.assert_array_equal(info["env_id"], np.arange(num_envs))
        for i, ref in enumerate(refs):
            where = f"{task_id} env {i} step {t}"
            assert env.single_observation_space.contains(obs[i]), where
            if ended[i]:  # next_step autoreset: this step started a new episode
                sync_reference(task_id, env, ref, i, seed=100 + t)
                ref_obs = reference_obs(task_id, ref.unwrapped)
                ref_step = (0.0, False, False)
                elapsed[i] = 0
            else:
                ref_obs, *ref_step, _ = ref.step(to_reference_action(space, batch[i]))
                elapsed[i] += 1
                state = np.asarray(ref.unwrapped.state, dtype=np.float64)
                mine = our_state(task_id, env._pool.get_state(i))
                np.testing.assert_array_equal(mine, state, err_msg=where)
            np.testing.assert_array_equal(obs[i], ref_obs, err_msg=where)
            assert reward[i] == np.float32(ref_step[0]), where
            assert bool(terminated[i]) == ref_step[1], where
            assert bool(truncated[i]) == ref_step[2], where
            assert info["elapsed_step"][i] == elapsed[i], where
            ended[i] = bool(terminated[i] or truncated[i])
            terminations += bool(terminated[i])
            truncations += bool(truncated[i])
    env.close()
    # Both ways an episode ends were exercised (Pendulum never terminates).
    assert truncations > 0
    assert terminations > 0 or "Pendulum" in task_id


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


def initial(task_id: str, n: int = 2000) -> tuple[np.ndarray, np.ndarray]:
    """Initial observations and states of `n` envs."""
    env = envpool.make(task_id, env_type="gymnasium", num_envs=n, seed=1)
    obs, _ = env.reset()
    states = np.array([env._pool.get_state(i) for i in range(n)])
    env.close()
    return obs, states


def assert_uniform(x: np.ndarray, low: float, high: float) -> None:
    """Samples inside [low, high) that reach near both ends, centred."""
    width = high - low
    assert x.min() >= low and x.max() < high
    assert x.min() < low + 0.01 * width and x.max() > high - 0.01 * width
    assert abs(x.mean() - (low + high) / 2) < 0.05 * width


@pytest.mark.parametrize("task_id", ["CartPole-v0", "CartPole-v1"])
def test_cartpole_starts_uniform_near_upright(task_id: str) -> None:
    _, states = initial(task_id)
    for k in range(4):
        assert_uniform(states[:, k], -0.05, 0.05)


@pytest.mark.parametrize("task_id", ["Pendulum-v0", "Pendulum-v1"])
def test_pendulum_starts_anywhere_on_the_circle_slowly(task_id: str) -> None:
    obs, states = initial(task_id)
    assert_uniform(states[:, 0], -np.pi, np.pi)
    assert_uniform(states[:, 1], -1.0, 1.0)
    np.testing.assert_allclose(obs[:, 0] ** 2 + obs[:, 1] ** 2, 1.0, rtol=1e-6)


@pytest.mark.parametrize("task_id", ["MountainCar-v0", "MountainCarContinuous-v0"])
def test_mountain_car_starts_at_rest_in_the_valley(task_id: str) -> None:
    obs, states = initial(task_id)
    assert_uniform(states[:, 0], -0.6, -0.4)
    assert np.all(states[:, 1] == 0.0)
    assert np.all(obs[:, 1] == 0.0)


def test_acrobot_starts_nearly_hanging_still() -> None:
    _, states = initial("Acrobot-v1")
    for k in range(4):
        assert_uniform(states[:, k], -0.1, 0.1)
    # gymnasium keeps the reset state as float32.
    np.testing.assert_array_equal(states, states.astype(np.float32))


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
