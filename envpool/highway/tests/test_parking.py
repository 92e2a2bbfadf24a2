"""The parking ids against highway-env 1.12.1's parking envs, step for step.

Env i of `envpool.make(<Parking id>, num_envs=N, seed=s)` plays the env
that `gymnasium.make(<highway-env id>)` builds and resets with `seed=s + i`,
stepped with env i's float32 actions and reset without a seed after each
episode (next-step autoreset). The goal observation (`observation`,
`achieved_goal`, `desired_goal`), the reward, terminated, truncated and the
infos `is_success`, `crashed` and `speed` are compared at every step.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest

import envpool

highway_env = pytest.importorskip("highway_env")
gymnasium.register_envs(highway_env)

ALL = bool(os.environ.get("ENVPOOL_TEST_ALL"))
KEYS = ("observation", "achieved_goal", "desired_goal")
# The options that are highway-env config keys of the same name.
CONFIG_KEYS = (
    "duration",
    "simulation_frequency",
    "policy_frequency",
    "vehicles_count",
    "add_walls",
    "collision_reward",
    "success_goal_reward",
)


def _check(where: str, obs: dict[str, np.ndarray], i: int, r_obs: dict[str, Any]) -> None:
    for key in KEYS:
        assert obs[key].dtype == np.float64, key
        np.testing.assert_allclose(
            obs[key][i], r_obs[key], rtol=1e-6, atol=1e-6, err_msg=f"{where} {key}"
        )


def _actions(rng: np.random.Generator, t: int, num_envs: int) -> np.ndarray:
    """Throttle and steering that wander (now and then beyond [-1, 1],
    clipped), so that the ego reaches walls, parked cars and the goal area."""
    base = np.stack(
        [
            0.5 * np.sin(0.07 * t + np.arange(num_envs)),
            np.cos(0.05 * t + 2 * np.arange(num_envs)),
        ],
        axis=1,
    )
    return (base + rng.uniform(-0.7, 0.7, size=(num_envs, 2))).astype(np.float32)


def _make_reference(ref_id: str, config: dict[str, Any]) -> gymnasium.Env:
    """highway-env's env with `config`: parking-v0 takes it at make; its
    subclasses (ActionRepeat, parked) take no config argument, so it is
    written with `configure`, which the seeded reset reads."""
    if ref_id == "parking-v0":
        return gymnasium.make(ref_id, config=config)
    ref = gymnasium.make(ref_id)
    ref.unwrapped.configure(config)
    return ref


def run_lockstep(
    task_id: str, ref_id: str, *, seed: int, num_envs: int, steps: int, **options: Any
) -> dict[str, int]:
    """Steps a pool and one reference per env with the same random actions;
    returns how often each kind of episode end was seen."""
    env = envpool.make(task_id, env_type="gymnasium", num_envs=num_envs, seed=seed, **options)
    config = {k: v for k, v in options.items() if k in CONFIG_KEYS}
    seen = {"crashed": 0, "success": 0, "truncated": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        refs = [_make_reference(ref_id, config) for _ in range(num_envs)]
        obs, info = env.reset()
        for i, ref in enumerate(refs):
            r_obs, r_info = ref.reset(seed=seed + i)
            _check(f"env {i} reset", obs, i, r_obs)
            assert bool(info["is_success"][i]) == bool(r_info["is_success"])
        rng = np.random.default_rng(seed)
        done = np.zeros(num_envs, bool)
        for t in range(steps):
            actions = _actions(rng, t, num_envs)
            obs, rew, term, trunc, info = env.step(actions)
            for i, ref in enumerate(refs):
                where = f"{task_id} seed {seed} env {i} step {t}"
                if done[i]:
                    r_obs, r_info = ref.reset()
                    r_rew, r_term, r_trunc = 0.0, False, False
                    done[i] = False
                else:
                    r_obs, r_rew, r_term, r_trunc, r_info = ref.step(actions[i].copy())
                    done[i] = r_term or r_trunc
                    seen["crashed"] += int(r_info["crashed"])
                    seen["success"] += int(r_info["is_success"])
                    seen["truncated"] += int(r_trunc)
                _check(where, obs, i, r_obs)
                assert abs(rew[i] - r_rew) <= 1e-6 + 1e-6 * abs(r_rew), (where, rew[i], r_rew)
                assert (bool(term[i]), bool(trunc[i])) == (r_term, r_trunc), where
                assert bool(info["is_success"][i]) == bool(r_info["is_success"]), where
                assert bool(info["crashed"][i]) == bool(r_info["crashed"]), where
                assert info["speed"][i] == np.float32(r_info["speed"]), where
    env.close()
    return seen


@pytest.mark.parametrize(
    ("task_id", "ref_id", "seed", "num_envs", "steps"),
    [
        ("Parking-v0", "parking-v0", 0, 2, 60),
        ("ParkingActionRepeat-v0", "parking-ActionRepeat-v0", 1, 2, 30),
        ("ParkingParked-v0", "parking-parked-v0", 2, 1, 50),
    ]
    + (
        [
            ("parking-v0", "parking-v0", 10, 4, 1100),
            ("parking-ActionRepeat-v0", "parking-ActionRepeat-v0", 11, 4, 120),
            ("parking-parked-v0", "parking-parked-v0", 12, 4, 600),
        ]
        if ALL
        else []
    ),
)
def test_parking_plays_the_reference(
    task_id: str, ref_id: str, seed: int, num_envs: int, steps: int
) -> None:
    seen = run_lockstep(task_id, ref_id, seed=seed, num_envs=num_envs, steps=steps)
    assert seen["crashed"] > 0, seen


def test_parking_successes_and_options_play_the_reference() -> None:
    # A generous success threshold, so that episodes end at the goal.
    seen = run_lockstep(
        "Parking-v0",
        "parking-v0",
        seed=5,
        num_envs=2,
        steps=60,
        success_goal_reward=0.7,
        collision_reward=-2.0,
    )
    assert seen["success"] > 0, seen
    run_lockstep(
        "Parking-v0",
        "parking-v0",
        seed=6,
        num_envs=1,
        steps=30,
        add_walls=False,
        vehicles_count=14,
        duration=5,
        policy_frequency=2,
        simulation_frequency=10,
    )


def test_parking_runs_out_its_duration_as_the_reference() -> None:
    seen = run_lockstep(
        "ParkingActionRepeat-v0",
        "parking-ActionRepeat-v0",
        seed=3,
        num_envs=2,
        steps=30,
        add_walls=False,
        collision_reward=0.0,
    )
    assert seen["truncated"] > 0, seen


def test_parking_spaces_and_bad_input() -> None:
    env = envpool.make("Parking-v0", num_envs=2)
    assert env.action_space == gymnasium.spaces.Box(-1.0, 1.0, (2,), np.float32)
    for key in KEYS:
        space = env.observation_space[key]
        assert space.shape == (6,) and space.dtype == np.float64, key
    assert env.spec.config.max_episode_steps == 500
    assert envpool.make("parking-ActionRepeat-v0").spec.config.max_episode_steps == 20
    with pytest.raises(ValueError, match="vehicles_count"):
        envpool.make("Parking-v0", vehicles_count=-1)
    with pytest.raises(TypeError, match="success_goal_reward"):
        envpool.make("Parking-v0", lanes_count=2)
    env.reset()
    with pytest.raises(ValueError, match="NaN"):
        env.step(np.array([[np.nan, 0.0], [0.0, 0.0]], np.float32))
    with pytest.raises(ValueError):
        env.step(np.zeros((3, 2), np.float32))
    env.step(np.zeros((2, 2), np.float32))  # the pool goes on
    env.close()
