"""highway frames against highway-env 1.12.1's `render_mode="rgb_array"`.

Each pool env plays beside `gymnasium.make(<highway-env id>,
render_mode="rgb_array", config=...)` seeded alike, with the same random
actions; both are rendered after the reset and after every step (an
episode's last step included, then the next-step autoreset) and the frames
(highway-env's pygame drawing on pygame 2.6.1: the road's lines, the
vehicles rotated by pygame.transform.rotate) must be equal byte for byte.
The runs are chosen so that vehicles change lanes (rotated frames) and
crash (red ones); the test checks that they did. `ENVPOOL_TEST_ALL=1` runs
more seeds and longer episodes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import gymnasium
import numpy as np
import pytest
from test_highway import reference_config

import envpool

highway_env = pytest.importorskip("highway_env")
gymnasium.register_envs(highway_env)

ALL = bool(os.environ.get("ENVPOOL_TEST_ALL"))


@pytest.fixture(autouse=True)
def _idm_class_defaults() -> Iterator[None]:
    """highway-env's IntersectionEnv writes IDMVehicle's class constants at
    reset; they are put back after each test, so that the other scenes'
    references see the defaults (as in a fresh process)."""
    from highway_env.vehicle.behavior import IDMVehicle

    names = ("DISTANCE_WANTED", "COMFORT_ACC_MAX", "COMFORT_ACC_MIN")
    saved = {name: getattr(IDMVehicle, name) for name in names}
    yield
    for name, value in saved.items():
        setattr(IDMVehicle, name, value)


# Our canonical ids -> highway-env's (each lower-case alias is highway-env's
# own id).
_CANONICAL = {
    "Highway-v0": "highway-v0",
    "HighwayFast-v0": "highway-fast-v0",
    "Merge-v0": "merge-v0",
    "Merge-v1": "merge-v1",
    "MergeGeneric-v0": "merge-generic-v0",
    "MergeGeneric-v1": "merge-generic-v1",
    "Exit-v0": "exit-v0",
    "Exit-v1": "exit-v1",
    "Roundabout-v0": "roundabout-v0",
    "Roundabout-v1": "roundabout-v1",
    "RoundaboutGeneric-v0": "roundabout-generic-v0",
    "RoundaboutGeneric-v1": "roundabout-generic-v1",
    "TwoWay-v0": "two-way-v0",
    "UTurn-v0": "u-turn-v0",
    "UTurn-v1": "u-turn-v1",
    "Intersection-v0": "intersection-v0",
    "Intersection-v1": "intersection-v1",
    "Intersection-v2": "intersection-v2",
    "IntersectionMultiAgent-v0": "intersection-multi-agent-v0",
    "IntersectionMultiAgent-v1": "intersection-multi-agent-v1",
    "IntersectionMultiAgent-v2": "intersection-multi-agent-v2",
    "LaneKeeping-v0": "lane-keeping-v0",
    "Parking-v0": "parking-v0",
    "ParkingActionRepeat-v0": "parking-ActionRepeat-v0",
    "ParkingParked-v0": "parking-parked-v0",
    "Racetrack-v0": "racetrack-v0",
    "Racetrack-v1": "racetrack-v1",
    "RacetrackLarge-v0": "racetrack-large-v0",
    "RacetrackLarge-v1": "racetrack-large-v1",
    "RacetrackOval-v0": "racetrack-oval-v0",
    "RacetrackOval-v1": "racetrack-oval-v1",
}
REFERENCE_IDS = {**_CANONICAL, **{v: v for v in _CANONICAL.values()}}

# Options passed to highway-env's config under the same name.
_VIEWER_KEYS = (
    "screen_width",
    "screen_height",
    "scaling",
    "no_lanes",
    "block_lane",
    "force_decision",
)


def _reference_config(options: dict[str, Any]) -> dict[str, Any]:
    config = reference_config(options)
    config.update({k: v for k, v in options.items() if k in _VIEWER_KEYS})
    if "centering_position_x" in options:
        config["centering_position"] = [
            options["centering_position_x"],
            options["centering_position_y"],
        ]
    return config


def _make_reference(task_id: str, options: dict[str, Any]) -> gymnasium.Env:
    config = _reference_config(options)
    try:
        return gymnasium.make(REFERENCE_IDS[task_id], render_mode="rgb_array", config=config)
    except TypeError:
        # highway-env's LaneKeepingEnv, ParkingEnvActionRepeat and
        # ParkingEnvParkedVehicles take no render_mode (the last two no
        # config either: these runs use their defaults): their frame is the
        # same viewer's with the mode set on the env.
        try:
            env = gymnasium.make(REFERENCE_IDS[task_id], config=config)
        except TypeError:
            assert not config, config
            env = gymnasium.make(REFERENCE_IDS[task_id])
        env.unwrapped.render_mode = "rgb_array"
        return env


def _actions(space: gymnasium.Space, rng: np.random.Generator, n: int, players: int) -> np.ndarray:
    shape = (n, players) if players > 1 else (n,)
    if isinstance(space, gymnasium.spaces.Discrete):
        return rng.integers(space.n, size=shape)
    return rng.uniform(-1, 1, size=(*shape, *space.shape)).astype(np.float32)


def _parking_policy(obs: dict[str, np.ndarray]) -> np.ndarray:
    """Drives toward the goal (forward or in reverse), slowly: it reaches the
    goal within a few dozen steps, which turns the goal's landmark green."""
    o, g = obs["observation"], obs["desired_goal"]
    heading = np.arctan2(o[..., 5], o[..., 4])
    target = np.arctan2(g[..., 1] - o[..., 1], g[..., 0] - o[..., 0])
    error = (target - heading + np.pi) % (2 * np.pi) - np.pi
    forward = np.abs(error) < np.pi / 2
    error = np.where(forward, error, (error + 2 * np.pi) % (2 * np.pi) - np.pi)
    steer = np.clip(np.where(forward, 2 * error, -2 * error), -1, 1)
    speed = 5 * (o[..., 2] * np.cos(heading) + o[..., 3] * np.sin(heading))
    throttle = np.clip(np.where(forward, 3.0, -3.0) - speed, -1, 1)
    return np.stack([throttle, steer], axis=-1).astype(np.float32)


class _Coverage:
    """What the compared frames showed: rotated vehicles, crashed ones,
    reached landmarks."""

    def __init__(self) -> None:
        self.rotated = 0
        self.crashed = 0
        self.hit = 0

    def see(self, ref: gymnasium.Env) -> None:
        road = ref.unwrapped.road
        for v in road.vehicles:
            self.rotated += int(abs(v.heading) > 2 * np.pi / 180)
            self.crashed += int(v.crashed)
        self.hit += sum(int(getattr(o, "hit", False)) for o in road.objects)


def frames_match(
    task_id: str,
    *,
    seed: int,
    num_envs: int,
    steps: int,
    coverage: _Coverage | None = None,
    policy: Any = None,
    **options: Any,
) -> None:
    """Steps a pool and its references with the same random actions and
    compares every env's frame at the reset and after every step."""
    env = envpool.make(task_id, num_envs=num_envs, seed=seed, render_mode="rgb_array", **options)
    assert env.metadata["render_modes"] == ["rgb_array", "human"]
    refs = [_make_reference(task_id, options) for _ in range(num_envs)]
    assert env.metadata["render_fps"] == refs[0].unwrapped.metadata["render_fps"]
    players = max(1, env.spec.config.max_num_players)
    obs, _ = env.reset()
    for i, ref in enumerate(refs):
        ref.reset(seed=seed + i)
    rng = np.random.default_rng(seed)
    done = np.zeros(num_envs, bool)
    ids = list(range(num_envs))
    for t in range(steps + 1):
        frames = env.render(env_ids=ids)
        for i, ref in enumerate(refs):
            expected = ref.render()
            where = f"{task_id} seed {seed} env {i} step {t}"
            assert frames[i].shape == expected.shape, where
            diff = (frames[i] != expected).any(axis=-1)
            assert not diff.any(), (
                f"{where}: {int(diff.sum())} pixels differ, first at "
                f"{np.argwhere(diff)[0].tolist()}"
            )
            if coverage is not None:
                coverage.see(ref)
        if t == steps:
            break
        if policy is None:
            actions = _actions(env.action_space, rng, num_envs, players)
        else:
            actions = policy(obs)
        obs, _, _, _, _ = env.step(actions)
        for i, ref in enumerate(refs):
            if done[i]:
                ref.reset()
                done[i] = False
            else:
                action = tuple(actions[i]) if players > 1 else actions[i]
                _, _, term, trunc, _ = ref.step(action)
                # The multi-agent wrapper's flags are per agent: the pool
                # ends the episode when all are.
                done[i] = bool(np.all(term)) or bool(np.all(trunc))
    env.close()


@pytest.mark.parametrize("seed", [0, 1, 2, 3] if ALL else [0])
def test_highway_fast_frames(seed: int) -> None:
    coverage = _Coverage()
    frames_match(
        "HighwayFast-v0",
        seed=seed,
        num_envs=3,
        steps=60 if ALL else 15,
        coverage=coverage,
    )
    assert coverage.rotated > 0 and coverage.crashed > 0, vars(coverage)


@pytest.mark.parametrize("seed", [5, 6] if ALL else [5])
def test_highway_frames(seed: int) -> None:
    frames_match("highway-v0", seed=seed, num_envs=1, steps=40 if ALL else 3)


# Scenes with sine and circular lanes (their lines drawn as stripes along
# the curve), obstacles (merge), other viewer sizes and scales.
SCENES = [
    ("Merge-v0", 0, 1, 10),
    ("merge-generic-v1", 1, 1, 8),
    ("Exit-v0", 2, 1, 8),
    ("Roundabout-v0", 3, 1, 4),
    ("RoundaboutGeneric-v1", 4, 1, 4),
    ("TwoWay-v0", 5, 1, 10),
    ("UTurn-v0", 6, 1, 5),
    ("Intersection-v0", 0, 1, 6),
    ("Intersection-v1", 1, 1, 6),
    ("IntersectionMultiAgent-v1", 2, 1, 5),
    ("LaneKeeping-v0", 3, 1, 12),
    ("Racetrack-v0", 4, 1, 6),
    ("RacetrackLarge-v1", 5, 1, 4),
    ("RacetrackOval-v0", 6, 1, 4),
    ("ParkingParked-v0", 7, 1, 6),
]
SCENES_ALL = [
    ("merge-v1", 7, 3, 60),
    ("MergeGeneric-v0", 8, 3, 60),
    ("exit-v1", 9, 3, 40),
    ("roundabout-v1", 10, 3, 40),
    ("RoundaboutGeneric-v0", 11, 3, 40),
    ("two-way-v0", 12, 3, 40),
    ("UTurn-v1", 13, 3, 40),
    ("intersection-v0", 14, 3, 30),
    ("intersection-v1", 15, 3, 30),
    ("Intersection-v2", 16, 3, 30),
    ("IntersectionMultiAgent-v0", 17, 2, 30),
    ("intersection-multi-agent-v2", 18, 2, 30),
    ("lane-keeping-v0", 19, 2, 100),
    ("racetrack-v1", 20, 2, 40),
    ("RacetrackLarge-v0", 21, 2, 40),
    ("racetrack-oval-v1", 22, 2, 40),
    ("Parking-v0", 23, 3, 40),
    ("ParkingActionRepeat-v0", 24, 3, 25),
    ("parking-parked-v0", 25, 3, 40),
]


@pytest.mark.parametrize(
    ("task_id", "seed", "num_envs", "steps"), SCENES + (SCENES_ALL if ALL else [])
)
def test_scene_frames(task_id: str, seed: int, num_envs: int, steps: int) -> None:
    frames_match(task_id, seed=seed, num_envs=num_envs, steps=steps)


def test_generic_scenes_frames_follow_their_geometry() -> None:
    frames_match(
        "MergeGeneric-v0",
        seed=2,
        num_envs=1,
        steps=5,
        lanes_count=3,
        vehicles_count=6,
        parallel_merge_length=120,
    )
    frames_match(
        "RoundaboutGeneric-v0",
        seed=3,
        num_envs=1,
        steps=2,
        roundabout_lanes=3,
        roundabout_radius=30.0,
    )
    frames_match("RoundaboutGeneric-v0", seed=4, num_envs=1, steps=1, roundabout_lanes=1)


def test_parking_goal_turns_green_when_reached() -> None:
    # Driven to the goal: the landmark turns green (highway-env's `hit`),
    # then the episode's success and the autoreset.
    coverage = _Coverage()
    frames_match(
        "Parking-v0",
        seed=8,
        num_envs=1,
        steps=30 if ALL else 22,
        coverage=coverage,
        policy=_parking_policy,
    )
    assert coverage.hit > 0, vars(coverage)


def test_racetrack_obstacles_frames() -> None:
    frames_match(
        "RacetrackOval-v0",
        seed=1,
        num_envs=1,
        steps=3,
        block_lane=True,
        force_decision=True,
        no_lanes=4,
    )


def test_highway_frames_follow_the_viewer_options() -> None:
    # Another screen, scale (two-pixel lines) and ego placement.
    frames_match(
        "HighwayFast-v0",
        seed=3,
        num_envs=2,
        steps=8,
        screen_width=320,
        screen_height=240,
        scaling=7.5,
        centering_position_x=0.6,
        centering_position_y=0.4,
        lanes_count=2,
    )


def test_render_size_is_the_screen() -> None:
    env = envpool.make("Highway-v0", num_envs=1, render_mode="rgb_array")
    env.reset()
    assert env.render().shape == (1, 150, 600, 3)
    with pytest.raises(ValueError, match="render_width"):
        envpool.make("Highway-v0", num_envs=1, render_mode="rgb_array", render_width=300)
    with pytest.raises(ValueError, match="screen_width"):
        envpool.make("Highway-v0", num_envs=1, render_mode="rgb_array", screen_width=0)


def test_pettingzoo_env_frame() -> None:
    # An env of a PettingZoo vector draws its env's frame (seed + index).
    envs = envpool.make(
        "IntersectionMultiAgent-v1",
        env_type="pettingzoo",
        num_envs=2,
        seed=5,
        render_mode="rgb_array",
    )
    envs[1].reset()
    ref = _make_reference("IntersectionMultiAgent-v1", {})
    ref.reset(seed=6)
    np.testing.assert_array_equal(envs[1].render(), ref.render())
    envs.close()
