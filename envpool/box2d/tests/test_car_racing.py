"""CarRacing against gymnasium 1.4.0's CarRacing on box2d 2.3.10 and pygame 2.6.1.

References: `CarRacing-v3` and `CarRacing-v2` are gymnasium's `CarRacing`
class (gymnasium 1.4 registers only -v3; -v2 is the same class here), with
its options `continuous`, `domain_randomize` and `lap_complete_percent`.

Env i of a pool made with `seed=s` draws its track (and, with
`domain_randomize`, its colours) from numpy's Generator seeded with s + i, as
the reference reset with `seed=s + i` does; later resets (our next-step
autoreset, the reference's `reset()` without a seed) continue both streams,
and both keep one Box2D world per env across episodes. Both take the same
actions, and every observation (the 96x96 frame with the score text, bit for
bit), reward (ours float32: the reference's, rounded), terminated, truncated
and elapsed step must be equal: no tolerance anywhere. The episodes end by
truncation, by leaving the playfield (-100) and by finishing the lap (a
pure-pursuit driver that reads the reference's track).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.envs.box2d import car_racing
from gymnasium.wrappers import TimeLimit

import envpool
from envpool.testing.lockstep import check_step

# policy(reference env, step of the episode) -> action
Policy = Callable[[car_racing.CarRacing, int], Any]


def _run_aligned(
    task_id: str,
    policy: Policy,
    *,
    seed: int,
    num_envs: int,
    episodes: int,
    max_episode_steps: int,
    **options: Any,
) -> list[list[tuple[float, bool]]]:
    """Steps a pool and one reference per env with the same actions.

    Returns each env's episodes as (return, terminated).
    """
    env = envpool.make(
        task_id,
        env_type="gymnasium",
        num_envs=num_envs,
        seed=seed,
        max_episode_steps=max_episode_steps,
        **options,
    )
    refs = [
        TimeLimit(car_racing.CarRacing(**options), max_episode_steps=max_episode_steps)
        for _ in range(num_envs)
    ]
    obs, _ = env.reset()
    for i, ref in enumerate(refs):
        r_obs, _ = ref.reset(seed=seed + i)
        np.testing.assert_array_equal(obs[i], r_obs, err_msg=f"{task_id} env {i} reset")
    episodes_done: list[list[tuple[float, bool]]] = [[] for _ in range(num_envs)]
    running = np.zeros(num_envs)
    done = np.zeros(num_envs, dtype=bool)
    steps = np.zeros(num_envs, dtype=np.int64)
    while not all(len(e) >= episodes for e in episodes_done):
        actions = np.stack([policy(ref.unwrapped, int(steps[i])) for i, ref in enumerate(refs)])
        batch = env.step(actions)
        _, rew, term, _, _ = batch
        for i, ref in enumerate(refs):
            where = f"{task_id} env {i} episode {len(episodes_done[i])} step {steps[i]}"
            if check_step(i, ref, actions[i], batch, done, steps, where) is None:
                continue  # the autoreset
            running[i] += rew[i]
            if done[i]:
                episodes_done[i].append((float(running[i]), bool(term[i])))
                running[i] = 0.0
    env.close()
    return episodes_done


def _random_policy(continuous: bool, seed: int) -> Policy:
    rng = np.random.default_rng(seed)
    if continuous:
        low = np.array([-1, 0, 0])
        return lambda _ref, _t: rng.uniform(low, 1).astype(np.float32)
    return lambda _ref, _t: np.int64(rng.integers(5))


def _driver(ref: car_racing.CarRacing, _t: int) -> np.ndarray:
    """Steers toward the track point six tiles ahead of the nearest one."""
    hull = ref.car.hull
    px, py = hull.position
    track = ref.track
    nearest = int(np.argmin([(p[2] - px) ** 2 + (p[3] - py) ** 2 for p in track]))
    tx, ty = track[(nearest + 6) % len(track)][2:4]
    heading = math.atan2(ty - py, tx - px) - math.pi / 2
    error = (heading - hull.angle + math.pi) % (2 * math.pi) - math.pi
    speed = math.hypot(*hull.linearVelocity)
    gas = 0.5 if speed < 45 else 0.0
    brake = 0.3 if speed > 55 else 0.0
    return np.array([np.clip(-2.0 * error, -1, 1), gas, brake], np.float32)


def _off_the_field(_ref: car_racing.CarRacing, t: int) -> np.ndarray:
    """A right turn, then straight ahead across the grass."""
    return np.array([1.0 if t < 11 else 0.0, 0.2, 0.0], np.float32)


@pytest.mark.parametrize("task_id", ["CarRacing-v3", "CarRacing-v2"])
def test_car_racing_random_actions_match_gymnasium(task_id: str) -> None:
    episodes = _run_aligned(
        task_id,
        _random_policy(True, 1),
        seed=3,
        num_envs=2,
        episodes=2,
        max_episode_steps=100,
    )
    assert all(not term for env in episodes for _, term in env), episodes


def test_car_racing_discrete_random_actions_match_gymnasium() -> None:
    _run_aligned(
        "CarRacing-v3",
        _random_policy(False, 2),
        seed=11,
        num_envs=2,
        episodes=2,
        max_episode_steps=80,
        continuous=False,
    )


def test_car_racing_domain_randomize_matches_gymnasium() -> None:
    _run_aligned(
        "CarRacing-v3",
        _random_policy(True, 3),
        seed=5,
        num_envs=1,
        episodes=3,
        max_episode_steps=40,
        domain_randomize=True,
    )


def test_car_racing_leaving_the_playfield_matches_gymnasium() -> None:
    episodes = _run_aligned(
        "CarRacing-v3",
        _off_the_field,
        seed=0,
        num_envs=2,
        episodes=1,
        max_episode_steps=1000,
    )
    assert all(env[0][1] for env in episodes), episodes


def test_car_racing_full_lap_matches_gymnasium() -> None:
    # Seed 1: a 275-tile track the driver finishes in 1030 steps, the score
    # text counting up to 0897 on the way.
    episodes = _run_aligned(
        "CarRacing-v3",
        _driver,
        seed=1,
        num_envs=1,
        episodes=1,
        max_episode_steps=1500,
        lap_complete_percent=0.5,
    )
    ((ret, terminated),) = episodes[0]
    assert terminated and ret > 850, episodes


def test_car_racing_spaces_match_gymnasium() -> None:
    for options in ({}, {"continuous": False}):
        ours = envpool.make("CarRacing-v3", num_envs=1, **options)
        ref = gymnasium.make("CarRacing-v3", **options)
        assert ours.observation_space == ref.observation_space
        assert ours.action_space == ref.action_space
        ours.close()
    config = envpool.make_spec("CarRacing-v3").config
    assert config.max_episode_steps == 1000
    assert config.reward_threshold == 900.0
    assert config.lap_complete_percent == 0.95
    assert config.continuous and not config.domain_randomize


def test_car_racing_rgb_array_frames_match_gymnasium() -> None:
    """render(): gymnasium's 600x400 frame, the skid marks included (drawn
    only there, 2 pixels wide), every 5th step of two 150-step episodes."""
    seed = 7
    env = envpool.make(
        "CarRacing-v3", num_envs=2, seed=seed, max_episode_steps=150, render_mode="rgb_array"
    )
    assert env.metadata["render_fps"] == 50
    refs = [
        TimeLimit(car_racing.CarRacing(render_mode="rgb_array"), max_episode_steps=150)
        for _ in range(2)
    ]
    obs, _ = env.reset()
    for i, ref in enumerate(refs):
        np.testing.assert_array_equal(obs[i], ref.reset(seed=seed + i)[0])
    policy = _random_policy(True, 4)
    skids = 0
    for t in range(301):
        actions = np.stack([policy(None, t) for _ in refs])
        obs = env.step(actions)[0]
        for i, ref in enumerate(refs):
            r_obs = ref.reset()[0] if t == 150 else ref.step(actions[i])[0]
            np.testing.assert_array_equal(obs[i], r_obs, err_msg=f"env {i} step {t}")
        if t % 5 == 0 or t == 149:
            frames = env.render(env_ids=[0, 1])
            for i, ref in enumerate(refs):
                expected = ref.render()
                assert frames[i].shape == expected.shape == (400, 600, 3)
                diff = np.abs(frames[i].astype(np.int16) - expected).max(axis=-1)
                assert not diff.any(), (
                    f"env {i} step {t}: {int((diff > 0).sum())} pixels differ by up to {diff.max()}"
                )
                skids += len(ref.unwrapped.car.particles)
    assert skids > 0
    env.close()
