"""box2d against gymnasium 1.4.0's box2d envs on box2d 2.3.10 (Box2D 2.3).

References, by id:
- LunarLander-v3 / -v2, LunarLanderContinuous-v3 / -v2: gymnasium's
  `LunarLander` class (`continuous=True` for the continuous ids).  gymnasium
  1.4 no longer registers the -v2 ids; they are the same class here.
- BipedalWalker-v3, BipedalWalkerHardcore-v3: gymnasium's `BipedalWalker`
  class (`hardcore=True`).

Nothing is copied between the two: env i of a pool made with `seed=s` draws
its terrain and initial forces from numpy's Generator seeded with s + i, as
the reference reset with `seed=s + i` does, and later resets (our next-step
autoreset, the reference's `reset()` without a seed) continue both streams.
Both take the same float32 actions through whole episodes (terminated, and
truncated at `max_episode_steps`), and every observation, reward (ours is
float32: the reference's, rounded), terminated, truncated and elapsed step
must be equal bit for bit.  gymnasium's heuristic controllers (LunarLander's
`heuristic`, and the BipedalWalker demo's state machine, rewritten below)
reach the same returns on both, episode by episode.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.envs.box2d import bipedal_walker, lunar_lander
from gymnasium.wrappers import TimeLimit

import envpool
from envpool.testing.lockstep import check_step

Policy = Callable[[np.ndarray, int], np.ndarray]


def _reference(task_id: str, max_episode_steps: int, **options: Any) -> gymnasium.Env:
    """gymnasium's env for `task_id` under a TimeLimit."""
    if task_id.startswith("LunarLander"):
        env = lunar_lander.LunarLander(continuous="Continuous" in task_id, **options)
    else:
        env = bipedal_walker.BipedalWalker(hardcore="Hardcore" in task_id, **options)
    return TimeLimit(env, max_episode_steps=max_episode_steps)


def _run_aligned(
    task_id: str,
    policy: Policy,
    *,
    seed: int,
    num_envs: int,
    episodes: int,
    max_episode_steps: int,
    max_steps: int = 100_000,
    **options: Any,
) -> list[list[float]]:
    """Steps a pool and one reference per env with the same actions.

    Returns each env's episode returns (sums of our float32 rewards), after
    checking that the reference's returns are the same.
    """
    env = envpool.make(
        task_id,
        env_type="gymnasium",
        num_envs=num_envs,
        seed=seed,
        max_episode_steps=max_episode_steps,
        **options,
    )
    refs = [_reference(task_id, max_episode_steps, **options) for _ in range(num_envs)]
    obs, _ = env.reset()
    ref_obs = [ref.reset(seed=seed + i)[0] for i, ref in enumerate(refs)]
    for i in range(num_envs):
        np.testing.assert_array_equal(obs[i], ref_obs[i], err_msg=f"{task_id} env {i} reset")
    returns: list[list[float]] = [[] for _ in range(num_envs)]
    ref_returns: list[list[float]] = [[] for _ in range(num_envs)]
    running = np.zeros(num_envs)
    ref_running = np.zeros(num_envs)
    done = np.zeros(num_envs, dtype=bool)
    steps = np.zeros(num_envs, dtype=np.int64)
    for _ in range(max_steps):
        if all(len(r) >= episodes for r in returns):
            break
        actions = np.stack([policy(obs[i], i) for i in range(num_envs)])
        batch = env.step(actions)
        obs, rew, _, _, _ = batch
        for i, ref in enumerate(refs):
            where = f"{task_id} env {i} step {steps[i]}"
            r_rew = check_step(i, ref, actions[i], batch, done, steps, where)
            if r_rew is None:
                continue  # the next-step autoreset: the reference's reset without a seed
            running[i] += rew[i]
            ref_running[i] += np.float32(r_rew)
            if done[i]:
                returns[i].append(float(running[i]))
                ref_returns[i].append(float(ref_running[i]))
                running[i] = ref_running[i] = 0.0
    assert all(len(r) >= episodes for r in returns), returns
    assert returns == ref_returns
    env.close()
    return returns


def _random_policy(space: gymnasium.Space, seed: int) -> Policy:
    rng = np.random.default_rng(seed)
    if isinstance(space, gymnasium.spaces.Discrete):
        return lambda _obs, _i: np.int64(rng.integers(space.n))
    return lambda _obs, _i: rng.uniform(-1, 1, space.shape).astype(np.float32)


# LunarLander -----------------------------------------------------------------


LANDER_CASES = [
    ("LunarLander-v3", {}),
    ("LunarLander-v2", {}),
    ("LunarLanderContinuous-v3", {}),
    ("LunarLanderContinuous-v2", {}),
    ("LunarLander-v3", {"enable_wind": True, "wind_power": 18.0, "turbulence_power": 1.8}),
    ("LunarLanderContinuous-v3", {"enable_wind": True, "gravity": -6.5}),
    ("LunarLander-v3", {"gravity": -11.5}),
]


@pytest.mark.parametrize(("task_id", "options"), LANDER_CASES)
def test_lunar_lander_random_actions_match_gymnasium(task_id: str, options: dict[str, Any]) -> None:
    space = envpool.make_spec(task_id).action_space
    _run_aligned(
        task_id,
        _random_policy(space, 7),
        seed=3,
        num_envs=3,
        episodes=4,
        max_episode_steps=1000,
        **options,
    )


class _LanderFlags:
    """What gymnasium's `heuristic` reads from its env argument."""

    def __init__(self, continuous: bool) -> None:
        self.continuous = continuous
        self.unwrapped = self


def _lander_heuristic(continuous: bool) -> Policy:
    flags = _LanderFlags(continuous)

    def policy(obs: np.ndarray, _i: int) -> np.ndarray:
        a = lunar_lander.heuristic(flags, obs)
        return np.asarray(a, dtype=np.float32) if continuous else np.int64(a)

    return policy


@pytest.mark.parametrize(
    ("task_id", "options"),
    [
        ("LunarLander-v3", {}),
        ("LunarLanderContinuous-v3", {}),
        ("LunarLander-v3", {"enable_wind": True}),
    ],
)
def test_lunar_lander_heuristic_returns_match_gymnasium(
    task_id: str, options: dict[str, Any]
) -> None:
    returns = _run_aligned(
        task_id,
        _lander_heuristic("Continuous" in task_id),
        seed=11,
        num_envs=2,
        episodes=3,
        max_episode_steps=1000,
        **options,
    )
    # The heuristic lands most of the time (return above 200).
    flat = [r for env_returns in returns for r in env_returns]
    assert sum(r > 200 for r in flat) >= len(flat) // 2, flat


def test_lunar_lander_truncates_like_gymnasium() -> None:
    _run_aligned(
        "LunarLander-v3",
        _lander_heuristic(False),
        seed=5,
        num_envs=2,
        episodes=3,
        max_episode_steps=60,
    )


# BipedalWalker ---------------------------------------------------------------


class _WalkerGait:
    """gymnasium's BipedalWalker demo controller (bipedal_walker.py, under
    `__main__`): a three-phase gait on one leg, then the other, with a
    proportional-derivative term keeping the hull level."""

    SPEED = 0.29
    SUPPORT_KNEE_ANGLE = 0.1

    def __init__(self) -> None:
        self.phase = "stand"  # stand on one leg, put the other down, push off
        self.moving = 0
        self.support_knee = self.SUPPORT_KNEE_ANGLE
        self.action = np.zeros(4)

    def __call__(self, s: np.ndarray) -> np.ndarray:
        moving_base = 4 + 5 * self.moving
        support_base = 4 + 5 * (1 - self.moving)
        hip_target: list[float | None] = [None, None]
        knee_target: list[float | None] = [None, None]
        if self.phase == "stand":
            hip_target[self.moving] = 1.1
            knee_target[self.moving] = -0.6
            self.support_knee += 0.03
            if s[2] > self.SPEED:
                self.support_knee += 0.03
            self.support_knee = min(self.support_knee, self.SUPPORT_KNEE_ANGLE)
            knee_target[1 - self.moving] = self.support_knee
            if s[support_base] < 0.10:
                self.phase = "down"
        if self.phase == "down":
            hip_target[self.moving] = 0.1
            knee_target[self.moving] = self.SUPPORT_KNEE_ANGLE
            knee_target[1 - self.moving] = self.support_knee
            if s[moving_base + 4]:
                self.phase = "push"
                self.support_knee = min(s[moving_base + 2], self.SUPPORT_KNEE_ANGLE)
        if self.phase == "push":
            knee_target[self.moving] = self.support_knee
            knee_target[1 - self.moving] = 1.0
            if s[support_base + 2] > 0.88 or s[2] > 1.2 * self.SPEED:
                self.phase = "stand"
                self.moving = 1 - self.moving
        hip = [0.0, 0.0]
        knee = [0.0, 0.0]
        for leg in range(2):
            base = 4 + 5 * leg
            # A target of exactly 0 counts as none, as in the demo.
            if hip_target[leg]:
                hip[leg] = 0.9 * (hip_target[leg] - s[base]) - 0.25 * s[base + 1]
            if knee_target[leg]:
                knee[leg] = 4.0 * (knee_target[leg] - s[base + 2]) - 0.25 * s[base + 3]
            hip[leg] -= 0.9 * (0 - s[0]) - 1.5 * s[1]
            knee[leg] -= 15.0 * s[3]
        self.action[:] = [hip[0], knee[0], hip[1], knee[1]]
        self.action = np.clip(0.5 * self.action, -1.0, 1.0)
        return self.action


def _walker_heuristic(num_envs: int) -> Policy:
    gaits = [_WalkerGait() for _ in range(num_envs)]
    first = [True] * num_envs

    def policy(obs: np.ndarray, i: int) -> np.ndarray:
        # The demo's first action is zero, then the gait's.
        if first[i]:
            first[i] = False
            return np.zeros(4, dtype=np.float32)
        return gaits[i](obs).astype(np.float32)

    return policy


@pytest.mark.parametrize("task_id", ["BipedalWalker-v3", "BipedalWalkerHardcore-v3"])
def test_bipedal_walker_random_actions_match_gymnasium(task_id: str) -> None:
    space = envpool.make_spec(task_id).action_space
    _run_aligned(
        task_id,
        _random_policy(space, 9),
        seed=21,
        num_envs=2,
        episodes=3,
        max_episode_steps=250,
    )


@pytest.mark.parametrize("task_id", ["BipedalWalker-v3", "BipedalWalkerHardcore-v3"])
def test_bipedal_walker_heuristic_returns_match_gymnasium(task_id: str) -> None:
    # Hardcore: 4 courses (seeds 0..3); the gait crosses a few obstacles
    # (stumps, stairs, pits) before it falls.
    num_envs = 1 if "Hardcore" not in task_id else 4
    returns = _run_aligned(
        task_id,
        _walker_heuristic(num_envs),
        seed=0,
        num_envs=num_envs,
        episodes=1,
        max_episode_steps=1600 if "Hardcore" not in task_id else 2000,
    )
    if "Hardcore" not in task_id:
        # On this flat terrain the gait walks to the end (gymnasium: 314.6).
        assert returns[0][0] > 300, returns


def test_lidar_sees_the_ground() -> None:
    env = envpool.make("BipedalWalker-v3", env_type="gymnasium", num_envs=1, seed=0)
    obs, _ = env.reset()
    lidar = obs[0, 14:]
    assert np.all(lidar > 0) and np.all(lidar <= 1)
    # The rays fan out from straight down: the first ones hit the ground
    # under the hull, the last ones (near horizontal) reach further or miss.
    assert lidar[0] < 1 and lidar[0] < lidar[-1]


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="gravity"):
        envpool.make("LunarLander-v3", gravity=1.0)
    with pytest.raises(TypeError):
        envpool.make("LunarLander-v3", hardcore=True)
    with pytest.raises(TypeError):
        envpool.make("BipedalWalker-v3", enable_wind=True)


def test_spaces_match_gymnasium() -> None:
    for task_id in ("LunarLander-v3", "LunarLanderContinuous-v3", "BipedalWalker-v3"):
        spec = envpool.make_spec(task_id)
        ref = _reference(task_id, 10)
        assert spec.observation_space == ref.observation_space, task_id
        assert spec.action_space == ref.action_space, task_id


def _walker_rollout(env: Any, actions: np.ndarray, seed: int | None) -> list[np.ndarray]:
    obs = [env.reset(seed=seed)[0]]
    for a in actions:
        out = env.step(a)
        obs.append(out[0])
        if out[2]:
            break
    return obs


def test_bipedal_walker_episodes_depend_on_earlier_ones_in_gymnasium_too() -> None:
    # gymnasium keeps one b2World per env: reset(seed=12) after an earlier
    # unseeded episode rolls out differently from a new env's reset(seed=12)
    # (conformance.HISTORY_DEPENDENT).  Ours reproduces the reused env.
    actions = np.random.default_rng(0).uniform(-1, 1, (40, 4)).astype(np.float32)
    ref = bipedal_walker.BipedalWalker()
    fresh = _walker_rollout(bipedal_walker.BipedalWalker(), actions, 12)
    ours = envpool.make("BipedalWalker-v3", env_type="gymnasium", num_envs=1, seed=11)
    _walker_rollout(ref, actions[:3], 11)
    ours.reset()
    for a in actions[:3]:
        ours.step(a[None])
    _walker_rollout(ref, actions[:3], None)
    ours.reset()  # the unseeded reset of a pool continues the generator
    for a in actions[:3]:
        ours.step(a[None])
    reused = _walker_rollout(ref, actions, 12)
    mine = [ours.reset(seed=12)[0][0]]
    mine += [ours.step(a[None])[0][0] for a in actions[: len(reused) - 1]]
    np.testing.assert_array_equal(np.array(mine), np.array(reused))
    np.testing.assert_array_equal(reused[0], fresh[0])  # the reset itself is the seed's
    assert not np.array_equal(np.array(reused[:5]), np.array(fresh[:5]))


def test_bipedal_walker_reset_with_seeds_after_episodes_matches_gymnasium() -> None:
    space = envpool.make_spec("BipedalWalkerHardcore-v3").action_space
    policy = _random_policy(space, 3)
    env = envpool.make(
        "BipedalWalkerHardcore-v3", env_type="gymnasium", num_envs=2, seed=5, max_episode_steps=30
    )
    refs = [_reference("BipedalWalkerHardcore-v3", 30) for _ in range(2)]
    for i, ref in enumerate(refs):
        ref.reset(seed=5 + i)
    env.reset()
    # Two whole episodes (truncated at 30 steps), autoreset in between.
    for t in range(2 * 31 - 1):
        actions = np.stack([policy(None, i) for i in range(2)])
        obs, *_ = env.step(actions)
        for i, ref in enumerate(refs):
            r_obs = ref.reset()[0] if t == 30 else ref.step(actions[i])[0]
            np.testing.assert_array_equal(obs[i], r_obs, err_msg=f"step {t}")
    seeds = [1234, 2**40 + 17]
    obs, _ = env.reset(seed=seeds)
    for i, ref in enumerate(refs):
        np.testing.assert_array_equal(obs[i], ref.reset(seed=seeds[i])[0])
    for t in range(30):
        actions = np.stack([policy(None, i) for i in range(2)])
        obs, rew, term, trunc, _ = env.step(actions)
        for i, ref in enumerate(refs):
            r_obs, r_rew, r_term, r_trunc, _ = ref.step(actions[i])
            np.testing.assert_array_equal(obs[i], r_obs, err_msg=f"reseeded step {t}")
            assert rew[i] == np.float32(r_rew) and term[i] == r_term and trunc[i] == r_trunc
        if term.any():
            break


@pytest.mark.parametrize(
    ("task_id", "options"),
    [
        ("LunarLander-v3", {"enable_wind": True}),
        ("LunarLanderContinuous-v3", {}),
        ("BipedalWalkerHardcore-v3", {}),
    ],
)
def test_first_observations_match_gymnasium(task_id: str, options: dict[str, Any]) -> None:
    """100 seeded resets, a second reset continuing each generator, then 100
    resets with random 63-bit seeds, against as many reference resets."""
    n = 100
    env = envpool.make(task_id, env_type="gymnasium", num_envs=n, seed=1000, **options)
    refs = [_reference(task_id, 1000, **options) for _ in range(n)]
    obs, _ = env.reset()
    np.testing.assert_array_equal(
        obs, np.stack([r.reset(seed=1000 + i)[0] for i, r in enumerate(refs)])
    )
    obs, _ = env.reset()
    np.testing.assert_array_equal(obs, np.stack([r.reset()[0] for r in refs]))
    seeds = [int(s) for s in np.random.default_rng(1).integers(0, 2**63, n)]
    obs, _ = env.reset(seed=seeds)
    np.testing.assert_array_equal(
        obs, np.stack([r.reset(seed=s)[0] for r, s in zip(refs, seeds, strict=True)])
    )
