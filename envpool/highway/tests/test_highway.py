"""highway against highway-env 1.12.1, env for env and step for step.

Env i of `envpool.make(task_id, num_envs=N, seed=s, **options)` must play the
highway-env env that `gymnasium.make(<highway-env id>, config=...)` builds and
resets with `seed=s + i`, then steps with env i's actions and, after an
episode ends, resets without a seed (its np_random continues, as ours does
under next-step autoreset). Nothing is copied across: the scene (lanes, the
ego's lane, the traffic's lanes, speeds, spacing and IDM exponents) comes from
the same np_random draws in the same order. At every step the observation and
the reward agree within 1e-6 (+1e-6 relative), terminated and truncated and
the info's `crashed` exactly, and `speed` within float32 rounding.

highway-v0's reference steps slowly (50 vehicles at 15 Hz, about 0.2 s a
step), so it runs one seed over an episode and its autoreset by default;
`ENVPOOL_TEST_ALL=1` runs more seeds and steps.
"""

from __future__ import annotations

import os
from typing import Any

import gymnasium
import numpy as np
import pytest

import envpool

highway_env = pytest.importorskip("highway_env")
gymnasium.register_envs(highway_env)

ALL = bool(os.environ.get("ENVPOOL_TEST_ALL"))

# Our id -> highway-env's id.
REFERENCE_IDS = {
    "Highway-v0": "highway-v0",
    "highway-v0": "highway-v0",
    "HighwayFast-v0": "highway-fast-v0",
    "highway-fast-v0": "highway-fast-v0",
    "Merge-v0": "merge-v0",
    "merge-v0": "merge-v0",
    "Merge-v1": "merge-v1",
    "merge-v1": "merge-v1",
    "MergeGeneric-v0": "merge-generic-v0",
    "merge-generic-v0": "merge-generic-v0",
    "MergeGeneric-v1": "merge-generic-v1",
    "merge-generic-v1": "merge-generic-v1",
    "Exit-v0": "exit-v0",
    "exit-v0": "exit-v0",
    "Exit-v1": "exit-v1",
    "exit-v1": "exit-v1",
    "Roundabout-v0": "roundabout-v0",
    "roundabout-v0": "roundabout-v0",
    "Roundabout-v1": "roundabout-v1",
    "roundabout-v1": "roundabout-v1",
    "RoundaboutGeneric-v0": "roundabout-generic-v0",
    "roundabout-generic-v0": "roundabout-generic-v0",
    "RoundaboutGeneric-v1": "roundabout-generic-v1",
    "roundabout-generic-v1": "roundabout-generic-v1",
    "TwoWay-v0": "two-way-v0",
    "two-way-v0": "two-way-v0",
    "UTurn-v0": "u-turn-v0",
    "u-turn-v0": "u-turn-v0",
    "UTurn-v1": "u-turn-v1",
    "u-turn-v1": "u-turn-v1",
}

# Action probabilities: mostly IDLE and SLOWER, so that some episodes last
# their duration while lane changes and FASTER still crash others.
CAUTIOUS = (0.15, 0.3, 0.15, 0.1, 0.3)

# Options that are highway-env config keys of the same name.
_SAME_NAME = (
    "lanes_count",
    "vehicles_count",
    "controlled_vehicles",
    "duration",
    "ego_spacing",
    "vehicles_density",
    "collision_reward",
    "right_lane_reward",
    "high_speed_reward",
    "lane_change_reward",
    "normalize_reward",
    "offroad_terminal",
    "simulation_frequency",
    "policy_frequency",
    "before_merge_length",
    "converge_merge_length",
    "parallel_merge_length",
    "after_merge_length",
    "roundabout_radius",
    "roundabout_lanes",
)


def reference_config(options: dict[str, Any]) -> dict[str, Any]:
    """highway-env's `config` for our options."""
    config = {k: v for k, v in options.items() if k in _SAME_NAME}
    if "initial_lane_id" in options:
        lane = options["initial_lane_id"]
        config["initial_lane_id"] = None if lane < 0 else lane
    if "reward_speed_low" in options or "reward_speed_high" in options:
        config["reward_speed_range"] = [
            options.get("reward_speed_low", 20.0),
            options.get("reward_speed_high", 30.0),
        ]
    if "incoming_vehicle_destination" in options:
        destination = options["incoming_vehicle_destination"]
        config["incoming_vehicle_destination"] = None if destination < 0 else destination
    if "observation_vehicles_count" in options:
        config["observation"] = {
            "type": "Kinematics",
            "vehicles_count": options["observation_vehicles_count"],
        }
    return config


def run_lockstep(
    task_id: str,
    *,
    seed: int,
    num_envs: int,
    steps: int,
    p: tuple[float, ...] = CAUTIOUS,
    **options: Any,
) -> tuple[int, int, int]:
    """Steps a pool and one reference per env with the same random actions
    and compares every step; returns the terminations, truncations and
    steps with `is_success` (exit) seen."""
    env = envpool.make(task_id, env_type="gymnasium", num_envs=num_envs, seed=seed, **options)
    refs = [
        gymnasium.make(REFERENCE_IDS[task_id], config=reference_config(options))
        for _ in range(num_envs)
    ]
    obs, info = env.reset()
    for i, ref in enumerate(refs):
        r_obs, r_info = ref.reset(seed=seed + i)
        np.testing.assert_allclose(obs[i], r_obs, rtol=1e-6, atol=1e-6, err_msg=f"env {i} reset")
        assert bool(info["crashed"][i]) == r_info["crashed"]
        assert info["speed"][i] == np.float32(r_info["speed"])
    rng = np.random.default_rng(seed)
    done = np.zeros(num_envs, bool)
    ended = [0, 0]
    successes = 0
    for t in range(steps):
        actions = rng.choice(5, size=num_envs, p=p)
        obs, rew, term, trunc, info = env.step(actions)
        for i, ref in enumerate(refs):
            where = f"{task_id} seed {seed} env {i} step {t}"
            if done[i]:
                r_obs, r_info = ref.reset()
                r_rew, r_term, r_trunc = 0.0, False, False
                done[i] = False
            else:
                r_obs, r_rew, r_term, r_trunc, r_info = ref.step(int(actions[i]))
                done[i] = r_term or r_trunc
                ended[0] += int(r_term)
                ended[1] += int(r_trunc and not r_term)
            np.testing.assert_allclose(obs[i], r_obs, rtol=1e-6, atol=1e-6, err_msg=where)
            assert abs(rew[i] - r_rew) <= 1e-6 + 1e-6 * abs(r_rew), (where, rew[i], r_rew)
            assert (bool(term[i]), bool(trunc[i])) == (r_term, r_trunc), where
            assert bool(info["crashed"][i]) == r_info["crashed"], where
            assert info["speed"][i] == np.float32(r_info["speed"]), where
            if "is_success" in r_info:
                assert bool(info["is_success"][i]) == r_info["is_success"], where
                successes += int(r_info["is_success"])
    env.close()
    return ended[0], ended[1], successes


@pytest.mark.parametrize("seed", [0, 1, 2, 3] if ALL else [0])
def test_highway_fast_plays_the_reference_across_autoresets(seed: int) -> None:
    terminations, truncations, _ = run_lockstep(
        "HighwayFast-v0", seed=seed, num_envs=4 if ALL else 3, steps=200 if ALL else 50
    )
    # Random actions crash some episodes and see others out to the duration.
    assert terminations > 0 and truncations > 0, (terminations, truncations)


@pytest.mark.parametrize("seed", [5, 6, 7] if ALL else [5])
def test_highway_plays_the_reference_across_an_autoreset(seed: int) -> None:
    # Episodes of at most 40 steps, then the autoreset (two episodes more
    # under ENVPOOL_TEST_ALL); the lower-case alias is the same env.
    terminations, truncations, _ = run_lockstep(
        "highway-v0", seed=seed, num_envs=2 if ALL else 1, steps=100 if ALL else 42
    )
    assert terminations + truncations > 0


@pytest.mark.parametrize(
    ("task_id", "seed", "num_envs", "steps"),
    [("Merge-v0", 0, 3, 40), ("merge-v1", 4, 2, 30), ("MergeGeneric-v0", 1, 3, 30)]
    + ([("merge-v0", 9, 4, 120), ("Merge-v1", 13, 4, 120)] if ALL else []),
)
def test_merge_plays_the_reference_across_autoresets(
    task_id: str, seed: int, num_envs: int, steps: int
) -> None:
    # Episodes end at a crash or past the merge (x > 370 m), after 10 to 20
    # steps; -v1 also looks for neighbours on the lanes before and after.
    terminations, _, _ = run_lockstep(task_id, seed=seed, num_envs=num_envs, steps=steps)
    assert terminations >= num_envs


@pytest.mark.parametrize(
    ("task_id", "seed", "num_envs", "steps"),
    # Seeds whose random drivers reach the exit (in about one seed of five).
    [("Exit-v0", 2, 4, 40), ("exit-v1", 10, 4, 20)]
    + ([("exit-v0", 9, 4, 100), ("Exit-v1", 13, 4, 100)] if ALL else []),
)
def test_exit_plays_the_reference_across_autoresets(
    task_id: str, seed: int, num_envs: int, steps: int
) -> None:
    # LANE_RIGHT and FASTER, so that the ego reaches the exit lane (the goal
    # reward and info["is_success"]) in some episodes.
    _, _, successes = run_lockstep(
        task_id, seed=seed, num_envs=num_envs, steps=steps, p=(0, 0, 0.7, 0.3, 0)
    )
    assert successes > 0


@pytest.mark.parametrize(
    ("task_id", "seed", "num_envs", "steps"),
    [("Roundabout-v0", 0, 3, 30), ("roundabout-v1", 7, 2, 30), ("RoundaboutGeneric-v1", 2, 2, 20)]
    + ([("roundabout-v0", 11, 4, 100), ("Roundabout-v1", 17, 4, 100)] if ALL else []),
)
def test_roundabout_plays_the_reference_across_autoresets(
    task_id: str, seed: int, num_envs: int, steps: int
) -> None:
    # Vehicles meet at angles here: the collision test's dot products must
    # round as this process's numpy rounds them (envpool/core/numpy_blas.h).
    terminations, truncations, _ = run_lockstep(task_id, seed=seed, num_envs=num_envs, steps=steps)
    assert terminations + truncations >= num_envs


@pytest.mark.parametrize("seed", [0, 21, 22] if ALL else [0])
def test_two_way_plays_the_reference_across_autoresets(seed: int) -> None:
    # The TimeToCollision observation; highway-env's TimeLimit (15 steps) is
    # the pool's max_episode_steps.
    terminations, truncations, _ = run_lockstep(
        "TwoWay-v0", seed=seed, num_envs=3, steps=100 if ALL else 40
    )
    assert terminations + truncations >= 3


@pytest.mark.parametrize(
    ("task_id", "seed"),
    [("UTurn-v0", 0), ("u-turn-v1", 3)] + ([("u-turn-v0", 8), ("UTurn-v1", 9)] if ALL else []),
)
def test_u_turn_plays_the_reference_across_autoresets(task_id: str, seed: int) -> None:
    # The ego follows a route through the turn, which the TimeToCollision
    # grid follows to find the vehicles on connected roads.
    terminations, truncations, _ = run_lockstep(
        task_id, seed=seed, num_envs=3, steps=100 if ALL else 25
    )
    assert terminations + truncations >= 3
    env = envpool.make(task_id, num_envs=2, seed=seed)
    obs, _ = env.reset()
    assert obs.shape == (2, 3, 3, 16)


def test_options_play_the_reference_with_the_same_config() -> None:
    options = {
        "lanes_count": 2,
        "vehicles_count": 12,
        "initial_lane_id": 1,
        "duration": 8,
        "max_episode_steps": 16,
        "policy_frequency": 2,
        "ego_spacing": 1.0,
        "vehicles_density": 1.5,
        "collision_reward": -2.0,
        "right_lane_reward": 0.2,
        "high_speed_reward": 0.5,
        "reward_speed_low": 22.0,
        "reward_speed_high": 28.0,
        "offroad_terminal": True,
        "observation_vehicles_count": 7,
    }
    run_lockstep("HighwayFast-v0", seed=11, num_envs=3, steps=40, **options)
    run_lockstep("Merge-v0", seed=2, num_envs=2, steps=25, simulation_frequency=10)
    run_lockstep(
        "merge-generic-v1",
        seed=6,
        num_envs=2,
        steps=25,
        lanes_count=3,
        vehicles_count=6,
        before_merge_length=120.0,
        parallel_merge_length=60.0,
        after_merge_length=100.0,
    )
    run_lockstep(
        "Exit-v0", seed=1, num_envs=2, steps=20, lanes_count=3, vehicles_count=8, duration=9
    )
    run_lockstep("two-way-v0", seed=4, num_envs=2, steps=20, policy_frequency=2)
    run_lockstep(
        "roundabout-generic-v0",
        seed=8,
        num_envs=2,
        steps=20,
        roundabout_lanes=3,
        roundabout_radius=30.0,
        vehicles_count=8,
        incoming_vehicle_destination=3,
    )
    run_lockstep(
        "Roundabout-v0", seed=5, num_envs=2, steps=20, incoming_vehicle_destination=2, duration=8
    )
    # A second controlled vehicle drives itself (IDLE) and only the first
    # is observed and rewarded, as in highway-env's single-agent envs.
    run_lockstep(
        "highway-fast-v0",
        seed=3,
        num_envs=2,
        steps=35,
        normalize_reward=False,
        controlled_vehicles=2,
    )


def test_spaces_and_options_are_envpool_127s() -> None:
    spec = envpool.make_spec("Highway-v0")
    assert spec.observation_space.shape == (5, 5)
    assert spec.observation_space.dtype == np.float32
    assert spec.action_space.n == 5
    fast = envpool.make_spec("HighwayFast-v0").config._asdict()
    assert fast["lanes_count"] == 3 and fast["vehicles_count"] == 20
    assert fast["simulation_frequency"] == 5 and not fast["other_vehicles_check_collisions"]
    assert fast["max_episode_steps"] == fast["duration"] == 30
    # Every option of EnvPool 1.2.7's config for these ids is one of ours.
    envpool_127 = {
        "batch_size",
        "centering_position_x",
        "centering_position_y",
        "collision_reward",
        "controlled_vehicles",
        "duration",
        "ego_spacing",
        "high_speed_reward",
        "initial_lane_id",
        "lane_change_reward",
        "lanes_count",
        "max_episode_steps",
        "normalize_reward",
        "num_envs",
        "num_threads",
        "observation_vehicles_count",
        "offroad_terminal",
        "other_vehicles_check_collisions",
        "policy_frequency",
        "reward_speed_high",
        "reward_speed_low",
        "right_lane_reward",
        "scaling",
        "screen_height",
        "screen_width",
        "seed",
        "simulation_frequency",
        "thread_affinity_offset",
        "vehicles_count",
        "vehicles_density",
    }
    assert envpool_127 <= set(fast), sorted(envpool_127 - set(fast))
    wide = envpool.make_spec("Highway-v0", observation_vehicles_count=9)
    assert wide.observation_space.shape == (9, 5)


@pytest.mark.parametrize(
    ("options", "names"),
    [
        ({"lanes_count": 0}, "lanes_count"),
        ({"initial_lane_id": 4}, "initial_lane_id"),
        ({"policy_frequency": 20}, "simulation_frequency"),
        ({"observation_vehicles_count": 0}, "observation_vehicles_count"),
        ({"vehicles_density": 0.0}, "vehicles_density"),
    ],
)
def test_bad_option_values_are_value_errors_naming_the_option(
    options: dict[str, Any], names: str
) -> None:
    with pytest.raises(ValueError, match=names):
        envpool.make("Highway-v0", num_envs=1, **options)


@pytest.mark.parametrize(
    ("task_id", "options", "name"),
    [
        ("MergeGeneric-v0", {"after_merge_length": 80.0}, "after_merge_length"),
        ("MergeGeneric-v0", {"converge_merge_length": 0.0}, "converge_merge_length"),
        ("Exit-v0", {"lanes_count": 1}, "lanes_count"),
        ("Roundabout-v0", {"incoming_vehicle_destination": 3}, "incoming_vehicle_destination"),
        ("TwoWay-v0", {"policy_frequency": 0}, "policy_frequency"),
        ("RoundaboutGeneric-v0", {"roundabout_lanes": 0}, "roundabout_lanes"),
    ],
)
def test_bad_scene_options_are_value_errors(
    task_id: str, options: dict[str, Any], name: str
) -> None:
    with pytest.raises(ValueError, match=name):
        envpool.make(task_id, num_envs=1, **options)


def test_an_unknown_option_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="lanes_count"):
        envpool.make("Highway-v0", num_envs=1, lanes=3)


@pytest.mark.parametrize("action", [5, -1])
def test_an_out_of_range_action_is_an_error_and_the_pool_goes_on(action: int) -> None:
    env = envpool.make("HighwayFast-v0", env_type="gymnasium", num_envs=2, seed=0)
    env.reset()
    with pytest.raises(ValueError, match="action"):
        env.step(np.array([1, action]))
    obs, *_ = env.step(np.array([1, 1]))
    assert obs.shape == (2, 5, 5) and np.isfinite(obs).all()
