"""The racetrack ids against highway-env 1.12.1's racetrack envs, step for step.

Env i of `envpool.make(<Racetrack id>, num_envs=N, seed=s)` plays the env
that `gymnasium.make(<highway-env id>)` builds and resets with `seed=s + i`,
stepped with env i's float32 steering and reset without a seed after each
episode (next-step autoreset). The OccupancyGrid observation (2, 12, 12),
the reward, terminated, truncated and the infos `crashed` and `speed` are
compared at every step.
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
CONFIG_KEYS = (
    "duration",
    "simulation_frequency",
    "policy_frequency",
    "other_vehicles",
    "collision_reward",
    "lane_centering_cost",
    "lane_centering_reward",
    "action_reward",
    "terminate_off_road",
    "speed_limit",
    "length",
    "no_lanes",
    "block_lane",
    "force_decision",
)


def _steering(refs: list[gymnasium.Env], rng: np.random.Generator) -> np.ndarray:
    """Steering towards the lane 6 m ahead of each reference's ego, with
    noise (now and then beyond [-1, 1], clipped): episodes follow the track
    through its turns, lane changes of the traffic and crashes into it, and
    end off the road now and then."""
    steering = []
    for ref in refs:
        vehicle = ref.unwrapped.vehicle
        lane = vehicle.lane
        s, lateral = lane.local_coordinates(vehicle.position)
        error = (lane.heading_at(s + 6) - vehicle.heading + np.pi) % (2 * np.pi) - np.pi
        steering.append(1.5 * error - 0.1 * lateral + rng.normal(0.0, 0.35))
    return np.array(steering, np.float32)[:, None]


def run_lockstep(
    task_id: str, ref_id: str, *, seed: int, num_envs: int, steps: int, **options: Any
) -> dict[str, int]:
    """Steps a pool and one reference per env with the same random steering;
    returns how often each kind of episode end was seen."""
    env = envpool.make(task_id, env_type="gymnasium", num_envs=num_envs, seed=seed, **options)
    config = {k: v for k, v in options.items() if k in CONFIG_KEYS}
    seen = {"crashed": 0, "terminated": 0, "truncated": 0, "steps": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        refs = [gymnasium.make(ref_id, config=config) for _ in range(num_envs)]
        obs, _ = env.reset()
        assert obs.shape == (num_envs, 2, 12, 12) and obs.dtype == np.float32
        for i, ref in enumerate(refs):
            r_obs, _ = ref.reset(seed=seed + i)
            np.testing.assert_allclose(obs[i], r_obs, atol=1e-6, err_msg=f"env {i} reset")
        rng = np.random.default_rng(seed)
        done = np.zeros(num_envs, bool)
        for t in range(steps):
            actions = _steering(refs, rng)
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
                    seen["terminated"] += int(r_term)
                    seen["truncated"] += int(r_trunc)
                    seen["steps"] += 1
                np.testing.assert_allclose(obs[i], r_obs, atol=1e-6, err_msg=where)
                assert abs(rew[i] - r_rew) <= 1e-6 + 1e-6 * abs(r_rew), (where, rew[i], r_rew)
                assert (bool(term[i]), bool(trunc[i])) == (r_term, r_trunc), where
                assert bool(info["crashed"][i]) == bool(r_info["crashed"]), where
                assert info["speed"][i] == np.float32(r_info["speed"]), where
    env.close()
    return seen


@pytest.mark.parametrize(
    ("task_id", "ref_id", "seed", "num_envs", "steps"),
    [
        ("Racetrack-v0", "racetrack-v0", 0, 2, 30),
        ("racetrack-v1", "racetrack-v1", 1, 1, 25),
        ("RacetrackLarge-v0", "racetrack-large-v0", 2, 1, 25),
        ("racetrack-large-v1", "racetrack-large-v1", 3, 1, 25),
        ("RacetrackOval-v0", "racetrack-oval-v0", 4, 1, 25),
        ("racetrack-oval-v1", "racetrack-oval-v1", 5, 1, 25),
    ]
    + (
        [
            (task, ref, seed, 4, 300)
            for seed, (task, ref) in enumerate(
                [
                    ("Racetrack-v0", "racetrack-v0"),
                    ("Racetrack-v1", "racetrack-v1"),
                    ("RacetrackLarge-v0", "racetrack-large-v0"),
                    ("RacetrackLarge-v1", "racetrack-large-v1"),
                    ("RacetrackOval-v0", "racetrack-oval-v0"),
                    ("RacetrackOval-v1", "racetrack-oval-v1"),
                ],
                start=20,
            )
        ]
        if ALL
        else []
    ),
)
def test_racetrack_plays_the_reference(
    task_id: str, ref_id: str, seed: int, num_envs: int, steps: int
) -> None:
    seen = run_lockstep(task_id, ref_id, seed=seed, num_envs=num_envs, steps=steps)
    assert seen["steps"] > steps // 2, seen


def test_racetrack_options_play_the_reference() -> None:
    # More traffic, no end off the road, a short duration: time-outs.
    seen = run_lockstep(
        "Racetrack-v0",
        "racetrack-v0",
        seed=8,
        num_envs=2,
        steps=40,
        other_vehicles=8,
        terminate_off_road=False,
        duration=6,
        collision_reward=-2.0,
        action_reward=-0.1,
    )
    assert seen["truncated"] == 2, seen
    # A faster ego (the large track's speed limit) runs into the traffic.
    seen = run_lockstep(
        "RacetrackLarge-v0",
        "racetrack-large-v0",
        seed=12,
        num_envs=2,
        steps=30,
        speed_limit=20.0,
        other_vehicles=5,
        policy_frequency=3,
    )
    assert seen["crashed"] > 0 and seen["terminated"] > 0, seen
    run_lockstep(
        "RacetrackOval-v0",
        "racetrack-oval-v0",
        seed=9,
        num_envs=1,
        steps=25,
        length=60,
        no_lanes=4,
        block_lane=True,
        force_decision=True,
        other_vehicles=4,
    )


def test_racetrack_spaces_and_bad_input() -> None:
    env = envpool.make("Racetrack-v0", num_envs=2)
    assert env.action_space == gymnasium.spaces.Box(-1.0, 1.0, (1,), np.float32)
    assert env.observation_space.shape == (2, 12, 12)
    assert env.observation_space.dtype == np.float32
    assert env.spec.config.max_episode_steps == 1501
    with pytest.raises(ValueError, match="no_lanes"):
        envpool.make("RacetrackOval-v0", no_lanes=0)
    with pytest.raises(TypeError, match="other_vehicles"):
        envpool.make("Racetrack-v0", length=100)
    env.reset()
    with pytest.raises(ValueError, match="NaN"):
        env.step(np.array([[np.nan], [0.0]], np.float32))
    with pytest.raises(ValueError):
        env.step(np.zeros((3, 1), np.float32))
    env.step(np.zeros((2, 1), np.float32))  # the pool goes on
    env.close()
