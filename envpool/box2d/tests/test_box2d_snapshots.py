"""Box2D snapshots replay the episode (envpool/box2d/episode_log.h).

check_env runs the generic snapshot check over every id; these cover what
the replay has to rebuild beyond it: a world that lived through several
episodes (its broad-phase free node list, which orders the contacts) restored
into a world of another history, and LunarLander's particles, which rendering
ages.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import envpool


def _make(task_id: str, seed: int, **options: Any) -> Any:
    return envpool.make(
        task_id, env_type="gymnasium", num_envs=1, seed=seed, max_episode_steps=25, **options
    )


def _run(env: Any, actions: np.ndarray, render: bool = False) -> list[tuple]:
    out = []
    for a in actions:
        obs, reward, terminated, truncated, _ = env.step(a[None])
        frame = env.render() if render else None
        out.append((obs.copy(), reward.copy(), terminated.copy(), truncated.copy(), frame))
    return out


def _assert_same(got: list[tuple], want: list[tuple]) -> None:
    for t, (a, b) in enumerate(zip(got, want, strict=True)):
        for x, y in zip(a, b, strict=True):
            assert (x is None and y is None) or np.array_equal(x, y), f"step {t} after"


@pytest.mark.parametrize(
    "task_id",
    ["BipedalWalker-v3", "BipedalWalkerHardcore-v3", "CarRacing-v3", "LunarLanderContinuous-v3"],
)
def test_a_world_of_several_episodes_restores_into_a_fresh_one(task_id: str) -> None:
    env = _make(task_id, seed=3)
    space = env.single_action_space
    space.seed(0)
    actions = np.stack([space.sample() for _ in range(140)])
    env.reset()
    _run(env, actions[:85])  # three episodes and a part of the fourth
    (state,) = env.get_state()
    want = _run(env, actions[85:])
    fresh = _make(task_id, seed=11)
    fresh.reset()
    fresh.set_state([state])
    _assert_same(_run(fresh, actions[85:]), want)


def test_lunar_lander_particles_aged_by_rendering_restore() -> None:
    env = _make("LunarLander-v3", seed=5, render_mode="rgb_array")
    actions = np.tile(np.array([2, 1, 3, 2]), 10)  # engines on: particles
    env.reset()
    env.render()
    _run(env, actions[:9], render=True)
    (state,) = env.get_state()
    want = _run(env, actions[9:], render=True)
    twin = _make("LunarLander-v3", seed=6, render_mode="rgb_array")
    twin.reset()
    twin.set_state([state])
    _assert_same(_run(twin, actions[9:], render=True), want)
