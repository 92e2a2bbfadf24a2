"""dm_control frames against dm_control 1.0.50's `Physics.render` (its
defaults: 240x320, camera -1, the free camera), both through EGL (Mesa's
software renderer here) on the same MuJoCo: pixel for pixel, at the reset
and after every step, env 1 of a pool seeded with s against
`suite.load(..., task_kwargs={"random": s + 1})` taking the same actions."""

from __future__ import annotations

import os

os.environ.setdefault("MUJOCO_GL", "egl")  # dm_control reads it at import

import warnings

import numpy as np
import pytest
from test_dm_control import IDS, make_reference

import envpool

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from dm_control import _render

STEPS = 3


def actions_for(ref, seed: int):
    spec = ref.action_spec()
    low, high = 1.2 * np.maximum(spec.minimum, -1), 1.2 * np.minimum(spec.maximum, 1)
    rs = np.random.RandomState(seed)
    while True:
        yield rs.uniform(low, high, size=(2, *spec.shape))


def test_reference_renders_through_egl() -> None:
    assert _render.BACKEND == "egl", "run with MUJOCO_GL=egl (or unset)"


# The ids drawn by default (software rendering is slow): models dm_control
# edits (more poles and moved cameras, fewer props, generated links) and the
# one with the most geoms; Quadruped escape has its own test below.
# ENVPOOL_TEST_ALL=1: every id.
SAMPLE = [
    "CartpoleThreePoles-v1",
    "HumanoidCMUWalk-v1",
    "ManipulatorInsertPeg-v1",
    "SwimmerSwimmer15-v1",
]
RENDER_IDS = sorted(IDS) if os.environ.get("ENVPOOL_TEST_ALL") else SAMPLE


@pytest.mark.parametrize("task_id", RENDER_IDS)
def test_frames_are_physics_render_pixel_for_pixel(task_id: str) -> None:
    """The free camera at 320x240 (the defaults) at the reset and after each
    of 3 steps, every model camera at 96x72 at the reset and after a step."""
    seed = 11
    ref = make_reference(task_id, seed + 1)
    ncam = ref.physics.model.ncam
    assert ncam >= 1
    free = envpool.make_dm(task_id, num_envs=2, seed=seed, render_mode="rgb_array")
    metadata = envpool.make_gymnasium(task_id, render_mode="rgb_array").metadata
    assert metadata["render_modes"] == ["rgb_array", "human"]
    assert metadata["render_fps"] == round(1 / ref.control_timestep())
    cameras = [
        envpool.make_dm(
            task_id,
            num_envs=2,
            seed=seed,
            render_mode="rgb_array",
            render_width=96,
            render_height=72,
            render_camera_id=k,
        )
        for k in range(ncam)
    ]
    ref.reset()
    actions = actions_for(ref, seed)
    for t in range(STEPS + 1):
        if t == 0:
            for env in [free, *cameras]:
                env.reset()
        else:
            action = next(actions)
            ref.step(action[1])
            for env in [free] + (cameras if t == 1 else []):
                env.step(action)
        frames = free.render(env_ids=[0, 1])
        assert frames.shape == (2, 240, 320, 3) and frames.dtype == np.uint8
        np.testing.assert_array_equal(frames[1], ref.physics.render(), err_msg=f"step {t}")
        if t <= 1:
            for k, env in enumerate(cameras):
                np.testing.assert_array_equal(
                    env.render(env_ids=[1])[0],
                    ref.physics.render(72, 96, camera_id=k),
                    err_msg=f"camera {k}, step {t}",
                )
    with pytest.raises(ValueError, match="render_camera_id"):
        envpool.make_dm(task_id, render_mode="rgb_array", render_camera_id=ncam)


def test_escape_terrain_is_uploaded_again_after_each_reset() -> None:
    """Two episodes of Quadruped escape, each on its own terrain, drawn in
    one context: frame for frame dm_control's (which uploads the terrain at
    its reset)."""
    task_id, steps, seed = "QuadrupedEscape-v1", 2, 4
    env = envpool.make_dm(
        task_id,
        num_envs=1,
        seed=seed,
        max_episode_steps=steps,
        render_mode="rgb_array",
        render_width=80,
        render_height=60,
    )
    ref = make_reference(task_id, seed, steps)
    env.reset()
    ref.reset()
    actions = actions_for(ref, seed)
    first = env.render()[0]
    for t in range(steps + 2):
        np.testing.assert_array_equal(env.render()[0], ref.physics.render(60, 80), err_msg=f"{t}")
        action = next(actions)[:1]
        env.step(action)
        ref.step(action[0])  # after its last step, dm_control's step resets
    assert not np.array_equal(first, env.render()[0])


def test_an_episode_with_its_autoreset_frame_for_frame() -> None:
    """A whole (short) episode, the reset after it, several envs drawn by the
    pool's threads in one call."""
    task_id, steps, seed = "CartpoleSwingup-v1", 4, 2
    env = envpool.make_dm(
        task_id,
        num_envs=3,
        num_threads=2,
        seed=seed,
        max_episode_steps=steps,
        render_mode="rgb_array",
        render_width=160,
        render_height=120,
    )
    refs = [make_reference(task_id, seed + i, steps) for i in range(3)]
    env.reset()
    for ref in refs:
        ref.reset()
    actions = actions_for(refs[0], seed)
    for t in range(steps + 3):
        frames = env.render(env_ids=[0, 1, 2])
        for i, ref in enumerate(refs):
            np.testing.assert_array_equal(
                frames[i], ref.physics.render(120, 160), err_msg=f"env {i}, t {t}"
            )
        action = np.concatenate([next(actions)[:1] for _ in range(3)])
        ts = env.step(action)
        for i, ref in enumerate(refs):
            ref.step(action[i])  # after its last step, dm_control's step resets
        if t == steps - 1:
            assert (ts.step_type == 2).all()


def test_frame_larger_than_the_models_offscreen_buffer() -> None:
    """dm_control refuses frames over the model's offwidth x offheight (640x480
    here); the offscreen buffer grows instead, as the MuJoCo family's does."""
    env = envpool.make_dm(
        "WalkerWalk-v1", render_mode="rgb_array", render_width=800, render_height=600
    )
    env.reset()
    frame = env.render()
    assert frame.shape == (1, 600, 800, 3)
    assert frame.std() > 0
