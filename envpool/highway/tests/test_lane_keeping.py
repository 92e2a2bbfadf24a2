"""LaneKeeping-v0 against highway-env 1.12.1's lane-keeping-v0, step for step.

Env i of `envpool.make("LaneKeeping-v0", num_envs=N, seed=s)` plays the env
that `gymnasium.make("lane-keeping-v0")` builds and resets with `seed=s + i`,
stepped with env i's float32 actions and reset without a seed after its
200 steps (gymnasium's TimeLimit; highway-env's scene never terminates).
The observation's noise comes from the same np_random draws: highway-env
draws it three times per reset (two spaces it computes, then the
observation) and once per step, before the simulation.
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
KEYS = ("state", "derivative", "reference_state")


def _check(where: str, obs: dict[str, np.ndarray], i: int, r_obs: dict[str, Any]) -> None:
    for key in KEYS:
        assert obs[key].dtype == np.float64, key
        np.testing.assert_allclose(
            obs[key][i], r_obs[key], rtol=1e-6, atol=1e-6, err_msg=f"{where} {key}"
        )


def run_lockstep(task_id: str, *, seed: int, num_envs: int, steps: int, **options: Any) -> int:
    """Steps a pool and one reference per env with the same random steering;
    returns the truncations seen."""
    env = envpool.make(task_id, env_type="gymnasium", num_envs=num_envs, seed=seed, **options)
    config = {k: v for k, v in options.items() if k in ("state_noise", "derivative_noise")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        refs = [gymnasium.make("lane-keeping-v0", config=config) for _ in range(num_envs)]
        obs, _ = env.reset()
        for i, ref in enumerate(refs):
            r_obs, _ = ref.reset(seed=seed + i)
            _check(f"env {i} reset", obs, i, r_obs)
        rng = np.random.default_rng(seed)
        done = np.zeros(num_envs, bool)
        truncations = 0
        for t in range(steps):
            # Steering, now and then beyond [-1, 1] (clipped), smoothed so
            # that the vehicle follows the road a while.
            actions = (0.6 * np.sin(0.05 * t + np.arange(num_envs))[:, None]).astype(np.float32)
            actions += rng.uniform(-0.7, 0.7, size=(num_envs, 1)).astype(np.float32)
            obs, rew, term, trunc, _ = env.step(actions)
            for i, ref in enumerate(refs):
                where = f"{task_id} seed {seed} env {i} step {t}"
                if done[i]:
                    r_obs, _ = ref.reset()
                    r_rew, r_term, r_trunc = 0.0, False, False
                    done[i] = False
                else:
                    r_obs, r_rew, r_term, r_trunc, _ = ref.step(actions[i].copy())
                    done[i] = r_term or r_trunc
                    truncations += int(r_trunc)
                _check(where, obs, i, r_obs)
                assert abs(rew[i] - r_rew) <= 1e-6 + 1e-6 * abs(r_rew), (where, rew[i], r_rew)
                assert (bool(term[i]), bool(trunc[i])) == (r_term, r_trunc), where
    env.close()
    return truncations


@pytest.mark.parametrize(
    ("task_id", "seed", "num_envs", "steps"),
    [("LaneKeeping-v0", 0, 2, 203)] + ([("lane-keeping-v0", 7, 4, 420)] if ALL else []),
)
def test_lane_keeping_plays_the_reference_across_an_autoreset(
    task_id: str, seed: int, num_envs: int, steps: int
) -> None:
    assert run_lockstep(task_id, seed=seed, num_envs=num_envs, steps=steps) == num_envs * (
        steps // 201
    )


def test_lane_keeping_noise_options_play_the_reference() -> None:
    run_lockstep(
        "LaneKeeping-v0", seed=3, num_envs=1, steps=30, state_noise=0.0, derivative_noise=0.2
    )


def test_lane_keeping_spaces_are_envpool_127s() -> None:
    env = envpool.make("LaneKeeping-v0")
    assert env.action_space == gymnasium.spaces.Box(-1.0, 1.0, (1,), np.float32)
    for key in KEYS:
        space = env.observation_space[key]
        assert space.shape == (4, 1) and space.dtype == np.float64, key
    assert env.spec.config.max_episode_steps == 200
    with pytest.raises(ValueError, match="state_noise"):
        envpool.make("LaneKeeping-v0", state_noise=-0.1)
    with pytest.raises(ValueError, match="NaN"):
        env.reset()
        env.step(np.array([[np.nan]], np.float32))
    env.step(np.array([[0.0]], np.float32))  # the pool goes on
    env.close()
