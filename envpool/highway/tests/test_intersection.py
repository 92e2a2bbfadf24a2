"""The intersections against highway-env 1.12.1, env for env and step for step.

Env i of `envpool.make(task_id, num_envs=N, seed=s, **options)` must play the
highway-env env that `gymnasium.make(<highway-env id>, config=...)` builds and
resets with `seed=s + i`, then steps with env i's actions and resets without a
seed after each episode (next-step autoreset). Nothing is copied across: the
traffic spawned at reset and after every step, the challenger and the
controlled vehicles come from the same np_random draws in the same order.

The multi-agent ids have one row per player (found through
`info["players"]["env_id"]`) and one action per player: obs row p is
highway-env's obs[p], reward row p its `info["agents_rewards"][p]`,
terminated highway-env's terminated (v0) or all agents terminated (v1, v2:
its MultiAgentWrapper's per-agent flags), truncated highway-env's.

highway-env's IntersectionEnv writes IDMVehicle's class constants at reset
(the contract's "fresh process": the other scenes see the defaults); the
module fixture puts them back after these tests, for the other scenes' tests
in the same process.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from typing import Any

import gymnasium
import numpy as np
import pytest

import envpool

highway_env = pytest.importorskip("highway_env")
gymnasium.register_envs(highway_env)

ALL = bool(os.environ.get("ENVPOOL_TEST_ALL"))

REFERENCE_IDS = {
    "Intersection-v0": "intersection-v0",
    "intersection-v0": "intersection-v0",
    "Intersection-v1": "intersection-v1",
    "intersection-v1": "intersection-v1",
    "Intersection-v2": "intersection-v2",
    "intersection-v2": "intersection-v2",
    "IntersectionMultiAgent-v0": "intersection-multi-agent-v0",
    "intersection-multi-agent-v0": "intersection-multi-agent-v0",
    "IntersectionMultiAgent-v1": "intersection-multi-agent-v1",
    "intersection-multi-agent-v1": "intersection-multi-agent-v1",
    "IntersectionMultiAgent-v2": "intersection-multi-agent-v2",
    "intersection-multi-agent-v2": "intersection-multi-agent-v2",
}
MULTI_AGENT = {f"intersection-multi-agent-v{version}" for version in (0, 1, 2)}
WRAPPED = {"intersection-multi-agent-v1", "intersection-multi-agent-v2"}

# SLOWER, IDLE, FASTER: enough FASTER that some episodes crash, enough
# SLOWER that others run out their 13 s.
ACTION_P = (0.3, 0.3, 0.4)

_SAME_NAME = (
    "duration",
    "simulation_frequency",
    "policy_frequency",
    "spawn_probability",
    "initial_vehicle_count",
    "collision_reward",
    "high_speed_reward",
    "arrived_reward",
    "normalize_reward",
    "offroad_terminal",
)


@pytest.fixture(autouse=True, scope="module")
def _restore_idm_class_constants() -> Iterator[None]:
    from highway_env.vehicle.behavior import IDMVehicle

    names = ("DISTANCE_WANTED", "COMFORT_ACC_MAX", "COMFORT_ACC_MIN")
    saved = {name: getattr(IDMVehicle, name) for name in names}
    yield
    for name, value in saved.items():
        setattr(IDMVehicle, name, value)


def reference_config(options: dict[str, Any]) -> dict[str, Any]:
    """highway-env's `config` for our options."""
    config = {k: v for k, v in options.items() if k in _SAME_NAME}
    if "reward_speed_low" in options or "reward_speed_high" in options:
        config["reward_speed_range"] = [
            options.get("reward_speed_low", 7.0),
            options.get("reward_speed_high", 9.0),
        ]
    return config


def _reference(task_id: str, options: dict[str, Any]) -> gymnasium.Env:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gymnasium.make(REFERENCE_IDS[task_id], config=reference_config(options))


def run_lockstep(
    task_id: str, *, seed: int, num_envs: int, steps: int, **options: Any
) -> tuple[int, int]:
    """Steps a pool and one reference per env with the same random actions,
    compares every step and returns the terminations and truncations seen."""
    ref_id = REFERENCE_IDS[task_id]
    players = 2 if ref_id in MULTI_AGENT else 1
    continuous = ref_id == "intersection-v1"
    env = envpool.make(task_id, env_type="gymnasium", num_envs=num_envs, seed=seed, **options)
    refs = [_reference(task_id, options) for _ in range(num_envs)]

    def rows(info: dict[str, Any], i: int) -> np.ndarray:
        found = np.flatnonzero(info["players"]["env_id"] == i)
        assert len(found) == players
        return found

    def env_row(info: dict[str, Any], i: int) -> int:
        return int(np.flatnonzero(info["env_id"] == i)[0])

    def check(
        where: str,
        obs: np.ndarray,
        info: dict[str, Any],
        i: int,
        r_obs: Any,
        r_info: dict[str, Any],
    ) -> None:
        r_rows = list(r_obs) if players > 1 else [r_obs]
        for p, row in enumerate(rows(info, i)):
            np.testing.assert_allclose(
                obs[row], r_rows[p], rtol=1e-6, atol=1e-6, err_msg=f"{where} player {p}"
            )
        k = env_row(info, i)
        assert bool(info["crashed"][k]) == r_info["crashed"], where
        assert info["speed"][k] == np.float32(r_info["speed"]), where

    obs, info = env.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i, ref in enumerate(refs):
            r_obs, r_info = ref.reset(seed=seed + i)
            check(f"{task_id} env {i} reset", obs, info, i, r_obs, r_info)
        rng = np.random.default_rng(seed)
        done = np.zeros(num_envs, bool)
        ended = [0, 0]
        for t in range(steps):
            if continuous:
                # [throttle, steering], a few beyond [-1, 1] (clipped).
                batch = rng.uniform(-1.2, 1.2, size=(num_envs, 2)).astype(np.float32)
                obs, rew, term, trunc, info = env.step(batch)
            else:
                actions = rng.choice(3, size=(num_envs, players), p=ACTION_P)
                obs, rew, term, trunc, info = env.step(
                    actions.reshape(-1) if players > 1 else actions[:, 0]
                )
            for i, ref in enumerate(refs):
                where = f"{task_id} seed {seed} env {i} step {t}"
                if done[i]:
                    r_obs, r_info = ref.reset()
                    r_rew = [0.0] * players
                    r_term = r_trunc = False
                    done[i] = False
                else:
                    action: Any
                    if continuous:
                        action = batch[i].copy()
                    else:
                        action = tuple(int(a) for a in actions[i])
                        if players == 1:
                            action = action[0]
                    r_obs, r_scalar, r_term, r_trunc, r_info = ref.step(action)
                    r_rew = list(r_info["agents_rewards"]) if players > 1 else [r_scalar]
                    if ref_id in WRAPPED:
                        assert tuple(r_scalar) == tuple(r_info["agents_rewards"])
                        r_term = all(r_term)
                    done[i] = bool(r_term or r_trunc)
                    ended[0] += int(r_term)
                    ended[1] += int(r_trunc and not r_term)
                check(where, obs, info, i, r_obs, r_info)
                for p, row in enumerate(rows(info, i)):
                    assert abs(rew[row] - r_rew[p]) <= 1e-6 + 1e-6 * abs(r_rew[p]), (
                        where,
                        p,
                        rew[row],
                        r_rew[p],
                    )
                k = env_row(info, i)
                assert (bool(term[k]), bool(trunc[k])) == (bool(r_term), bool(r_trunc)), where
    env.close()
    return ended[0], ended[1]


@pytest.mark.parametrize(
    ("task_id", "seed", "num_envs", "steps"),
    [("Intersection-v0", 0, 3, 24), ("Intersection-v1", 4, 2, 14), ("intersection-v2", 3, 2, 16)]
    + (
        [
            ("intersection-v0", 10, 4, 80),
            ("intersection-v1", 15, 4, 80),
            ("Intersection-v2", 20, 4, 80),
        ]
        if ALL
        else []
    ),
)
def test_intersection_plays_the_reference_across_autoresets(
    task_id: str, seed: int, num_envs: int, steps: int
) -> None:
    terminations, truncations = run_lockstep(task_id, seed=seed, num_envs=num_envs, steps=steps)
    assert terminations + truncations > 0


@pytest.mark.parametrize(
    ("task_id", "seed", "num_envs", "steps"),
    [
        ("IntersectionMultiAgent-v0", 0, 2, 20),
        ("intersection-multi-agent-v1", 1, 2, 18),
        ("IntersectionMultiAgent-v2", 2, 1, 20),
    ]
    + (
        [
            ("intersection-multi-agent-v0", 10, 4, 80),
            ("IntersectionMultiAgent-v1", 11, 4, 80),
            ("intersection-multi-agent-v2", 12, 4, 80),
        ]
        if ALL
        else []
    ),
)
def test_intersection_multi_agent_plays_the_reference_across_autoresets(
    task_id: str, seed: int, num_envs: int, steps: int
) -> None:
    terminations, truncations = run_lockstep(task_id, seed=seed, num_envs=num_envs, steps=steps)
    assert terminations + truncations > 0


@pytest.mark.parametrize(
    ("task_id", "options"),
    [
        ("Intersection-v0", {"spawn_probability": 0.9, "initial_vehicle_count": 14}),
        (
            "Intersection-v0",
            {"normalize_reward": True, "collision_reward": -2.0, "reward_speed_low": 5.0},
        ),
        ("Intersection-v0", {"simulation_frequency": 10, "policy_frequency": 2, "duration": 6}),
        ("IntersectionMultiAgent-v1", {"arrived_reward": 2.0, "high_speed_reward": 0.5}),
    ],
)
def test_intersection_options_play_the_reference(task_id: str, options: dict[str, Any]) -> None:
    run_lockstep(task_id, seed=4, num_envs=1, steps=14, **options)


def test_intersection_spaces_are_envpool_127s() -> None:
    env = envpool.make("Intersection-v0")
    assert env.observation_space.shape == (15, 7)
    assert env.action_space == gymnasium.spaces.Discrete(3)
    assert env.spec.config.max_episode_steps == 13
    continuous = envpool.make("intersection-v1")
    assert continuous.observation_space.shape == (5, 8)
    assert continuous.action_space == gymnasium.spaces.Box(-1.0, 1.0, (2,), np.float32)
    continuous.close()
    multi = envpool.make("IntersectionMultiAgent-v1", num_envs=3)
    assert multi.spec.config.max_num_players == 2
    assert multi.observation_space.shape == (15, 7)
    assert multi.action_space == gymnasium.spaces.Discrete(3)
    obs, info = multi.reset()
    assert obs.shape == (6, 15, 7)
    assert info["env_id"].shape == (3,)
    assert sorted(info["players"]["env_id"].tolist()) == [0, 0, 1, 1, 2, 2]
    env.close()
    multi.close()


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"simulation_frequency": 1}, "simulation_frequency"),
        ({"spawn_probability": 1.5}, "spawn_probability"),
        ({"initial_vehicle_count": 0}, "initial_vehicle_count"),
        ({"reward_speed_low": 9.0, "reward_speed_high": 7.0}, "reward_speed_low"),
    ],
)
def test_intersection_bad_options_are_value_errors(options: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        envpool.make("Intersection-v0", **options)


def test_intersection_unknown_option_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="spawn_probability"):
        envpool.make("Intersection-v0", lanes_count=2)


def test_multi_agent_bad_actions_are_errors_and_the_pool_goes_on() -> None:
    env = envpool.make("IntersectionMultiAgent-v0", num_envs=3, seed=0)
    env.reset()
    with pytest.raises(ValueError, match="per player"):
        env.step(np.ones(3, np.int64))  # one action per env: wrong
    with pytest.raises(ValueError):
        env.step(np.full(6, 3, np.int64))  # out of Discrete(3)
    with pytest.raises(ValueError):
        env.step(np.full(6, -1, np.int64))
    with pytest.raises(ValueError):
        env.step(np.ones(7, np.int64))
    obs, reward, *_ = env.step(np.ones(6, np.int64))
    assert obs.shape == (6, 15, 7) and reward.shape == (6,)
    single = envpool.make("Intersection-v0", num_envs=2, seed=0)
    single.reset()
    with pytest.raises(ValueError):
        single.step(np.array([0, 5]))
    with pytest.raises(ValueError):
        single.step(np.array([np.nan, 1.0]))
    single.step(np.array([1, 1]))
    steered = envpool.make("Intersection-v1", num_envs=2, seed=0)
    steered.reset()
    with pytest.raises(ValueError, match="NaN"):
        steered.step(np.array([[0.0, np.nan], [0.0, 0.0]], np.float32))
    with pytest.raises(ValueError):
        steered.step(np.zeros((2, 3), np.float32))
    steered.step(np.array([[5.0, -5.0], [0.0, 0.0]], np.float32))  # clipped, as highway-env
    steered.close()
    env.close()
    single.close()


@pytest.mark.parametrize(
    "task_id",
    ["IntersectionMultiAgent-v0", "intersection-multi-agent-v1", "IntersectionMultiAgent-v2"],
)
def test_multi_agent_passes_pettingzoo_parallel_api_test(task_id: str) -> None:
    parallel_api_test = pytest.importorskip("pettingzoo.test").parallel_api_test
    par = envpool.make(task_id, env_type="pettingzoo", seed=0)
    observations, _ = par.reset()
    assert par.agents == ["player_0", "player_1"]
    assert observations["player_0"].shape == (15, 7)
    parallel_api_test(par, num_cycles=40)
    par.close()
