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
from typing import Any

import gymnasium
import numpy as np
import pytest
from test_highway import REFERENCE_IDS, reference_config

import envpool

highway_env = pytest.importorskip("highway_env")
gymnasium.register_envs(highway_env)

ALL = bool(os.environ.get("ENVPOOL_TEST_ALL"))

_VIEWER_KEYS = ("screen_width", "screen_height", "scaling")


def _reference_config(options: dict[str, Any]) -> dict[str, Any]:
    config = reference_config(options)
    config.update({k: v for k, v in options.items() if k in _VIEWER_KEYS})
    if "centering_position_x" in options:
        config["centering_position"] = [
            options["centering_position_x"],
            options["centering_position_y"],
        ]
    return config


def _actions(space: gymnasium.Space, rng: np.random.Generator, n: int) -> np.ndarray:
    if isinstance(space, gymnasium.spaces.Discrete):
        return rng.integers(space.n, size=n)
    return rng.uniform(-1, 1, size=(n, *space.shape)).astype(np.float32)


class _Coverage:
    """What the compared frames showed: rotated vehicles, crashed ones."""

    def __init__(self) -> None:
        self.rotated = 0
        self.crashed = 0

    def see(self, ref: gymnasium.Env) -> None:
        road = ref.unwrapped.road
        for v in road.vehicles:
            self.rotated += int(abs(v.heading) > 2 * np.pi / 180)
            self.crashed += int(v.crashed)


def frames_match(
    task_id: str,
    *,
    seed: int,
    num_envs: int,
    steps: int,
    coverage: _Coverage | None = None,
    **options: Any,
) -> None:
    """Steps a pool and its references with the same random actions and
    compares every env's frame at the reset and after every step."""
    env = envpool.make(task_id, num_envs=num_envs, seed=seed, render_mode="rgb_array", **options)
    assert env.metadata["render_modes"] == ["rgb_array", "human"]
    refs = [
        gymnasium.make(
            REFERENCE_IDS[task_id],
            render_mode="rgb_array",
            config=_reference_config(options),
        )
        for _ in range(num_envs)
    ]
    assert env.metadata["render_fps"] == refs[0].unwrapped.metadata["render_fps"]
    env.reset()
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
        actions = _actions(env.action_space, rng, num_envs)
        env.step(actions)
        for i, ref in enumerate(refs):
            if done[i]:
                ref.reset()
                done[i] = False
            else:
                _, _, term, trunc, _ = ref.step(actions[i])
                done[i] = term or trunc
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
]
SCENES_ALL = [
    ("merge-v1", 7, 3, 60),
    ("MergeGeneric-v0", 8, 3, 60),
    ("exit-v1", 9, 3, 40),
    ("roundabout-v1", 10, 3, 40),
    ("RoundaboutGeneric-v0", 11, 3, 40),
    ("two-way-v0", 12, 3, 40),
    ("UTurn-v1", 13, 3, 40),
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
