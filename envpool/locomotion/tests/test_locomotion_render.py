"""render_mode="rgb_array" of the locomotion family against dm_control 1.0.50.

A frame of `env.render(env_ids)` is dm_control's `Physics.render(height,
width, camera_id)` of the Composer env that the pool's env plays (320x240 by
default, any size; camera -1 dm_control's free camera, k the model's camera
k), pixel for pixel: at the reset, every step and across the autoreset into
a new episode's model (a new corridor, maze or pitch; GoToTarget's target,
whose compile moves the free camera). `ENVPOOL_TEST_ALL=1` checks every id
but DmcSoccerHumanoid-v1, whose reference wants the mocap clip that
test_soccer_humanoid.py installs: that module checks its frames.
"""

from __future__ import annotations

import os
import struct
import warnings
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("MUJOCO_GL", "egl")  # dm_control renders through EGL

import locomotion_common as common  # this folder's test helpers
from locomotion_common import ALL

import envpool

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import mujoco
    from dm_control.locomotion import soccer
    from dm_control.locomotion.examples import basic_cmu_2019, basic_rodent_2020

# id -> (task_name, control timestep in seconds)
TASKS = {
    "DmcSoccerBoxhead-v1": ("soccer_boxhead", 0.025),
    "DmcSoccerAnt-v1": ("soccer_ant", 0.025),
    "DmcCmuHumanoidGoToTarget-v1": ("cmu_humanoid_go_to_target", 0.03),
    "DmcCmuHumanoidRunWalls-v1": ("cmu_humanoid_run_walls", 0.03),
    "DmcCmuHumanoidRunGaps-v1": ("cmu_humanoid_run_gaps", 0.03),
    "DmcCmuHumanoidMazeForage-v1": ("cmu_humanoid_maze_forage", 0.03),
    "DmcCmuHumanoidHeterogeneousForage-v1": ("cmu_humanoid_heterogeneous_forage", 0.03),
    "DmcRodentEscapeBowl-v1": ("rodent_escape_bowl", 0.02),
    "DmcRodentTwoTouch-v1": ("rodent_two_touch", 0.02),
    "DmcRodentRunGaps-v1": ("rodent_run_gaps", 0.02),
    "DmcRodentMazeForage-v1": ("rodent_maze_forage", 0.02),
}
# make test: one id of each kind of model (a pitch per episode, a moved
# target, a corridor per episode, a terrain per episode, a maze per episode).
SAMPLE = [
    "DmcSoccerBoxhead-v1",
    "DmcCmuHumanoidGoToTarget-v1",
    "DmcCmuHumanoidRunGaps-v1",
    "DmcRodentEscapeBowl-v1",
    "DmcCmuHumanoidMazeForage-v1",
]
IDS = list(TASKS) if ALL else SAMPLE


def reference(task_id: str, seed: int, time_limit: float) -> Any:
    """The dm_control env that env `seed - s` of a pool seeded `s` plays."""
    task_name, _ = TASKS[task_id]
    if task_name.startswith("soccer"):
        walker = getattr(soccer.WalkerType, task_name.split("_")[1].upper())

        def factory(random_state: Any) -> Any:
            return soccer.load(
                team_size=2, walker_type=walker, random_state=random_state, time_limit=time_limit
            )

        return common.GlobalStreamReference(factory, seed)
    module = basic_rodent_2020 if task_name.startswith("rodent") else basic_cmu_2019
    return common.GlobalStreamReference(getattr(module, task_name), seed, time_limit)


def actions(ref: Any, rng: np.random.RandomState) -> Any:
    """Uniform(-1, 1) actions of the reference's spec: one per player for
    soccer (a list), one array otherwise."""
    spec = ref.env.action_spec()
    if isinstance(spec, list):
        return [rng.uniform(-1, 1, s.shape) for s in spec]
    return rng.uniform(-1, 1, spec.shape)


def pool_action(action: Any) -> np.ndarray:
    """The pool's rows for a pool of one env: one per player."""
    if isinstance(action, list):
        return np.stack(action)
    return action[None]


@pytest.mark.parametrize("task_id", IDS)
def test_frames_are_physics_render_across_an_autoreset(task_id: str) -> None:
    # Three control steps an episode: the fourth step is the autoreset into
    # the next episode (its model compiled anew, its render context remade).
    _, control = TASKS[task_id]
    time_limit = 3 * control
    seed = 4
    env = envpool.make(
        task_id, num_envs=1, seed=seed, render_mode="rgb_array", time_limit=time_limit
    )
    ref = reference(task_id, seed, time_limit)
    env.reset()
    ts = ref.reset()
    rng = np.random.RandomState(seed)
    firsts = 0
    for step in range(7):
        if step > 0:
            action = actions(ref, rng)
            env.step(pool_action(action))
            ts = ref.step(action)
        firsts += int(ts.first())
        [frame] = env.render(env_ids=[0])
        expected = ref.physics.render(240, 320)
        assert frame.shape == (240, 320, 3) and frame.dtype == np.uint8
        np.testing.assert_array_equal(frame, expected, err_msg=f"{task_id} step {step}")
    assert firsts >= 2  # the reset and at least one autoreset
    env.close()


@pytest.mark.parametrize("task_id", ["DmcCmuHumanoidRunWalls-v1", "DmcRodentMazeForage-v1"])
def test_a_model_camera_at_another_size_is_physics_render(task_id: str) -> None:
    seed = 1
    ref = reference(task_id, seed, 30.0)
    ref.reset()
    ncam = ref.physics.model.ncam
    assert ncam >= 2
    camera = ncam - 1
    env = envpool.make(
        task_id,
        num_envs=1,
        seed=seed,
        render_mode="rgb_array",
        render_camera_id=camera,
        render_width=160,
        render_height=96,
    )
    env.reset()
    rng = np.random.RandomState(0)
    for step in range(3):
        if step > 0:
            action = actions(ref, rng)
            env.step(pool_action(action))
            ref.step(action)
        [frame] = env.render()
        expected = ref.physics.render(96, 160, camera_id=camera)
        np.testing.assert_array_equal(frame, expected, err_msg=f"step {step}")
    env.close()
    # One past the model's cameras is refused where the pool is made.
    with pytest.raises(ValueError, match="render_camera_id"):
        envpool.make(task_id, num_envs=1, render_mode="rgb_array", render_camera_id=ncam)


@pytest.mark.parametrize("task_id", ["DmcSoccerAnt-v1", "DmcCmuHumanoidRunGaps-v1"])
def test_render_fps_and_modes_are_the_control_rate(task_id: str) -> None:
    _, control = TASKS[task_id]
    env = envpool.make(task_id, num_envs=1)
    assert env.metadata["render_fps"] == round(1 / control)
    assert env.metadata["render_modes"] == ["rgb_array", "human"]
    with pytest.raises(RuntimeError, match="render_mode"):
        env.render()
    env.close()


def test_soccer_renders_each_env_of_a_pool() -> None:
    # Two envs (eight player rows), each its own pitch: render(env_ids) draws
    # each env's, the pool's players stepping together.
    task_id = "DmcSoccerBoxhead-v1"
    env = envpool.make(task_id, num_envs=2, seed=7, render_mode="rgb_array")
    refs = [reference(task_id, 7 + i, 45.0) for i in range(2)]
    env.reset()
    for ref in refs:
        ref.reset()
    rng = np.random.RandomState(3)
    for step in range(3):
        if step > 0:
            per_env = [actions(ref, rng) for ref in refs]
            # A sync pool's rows: env 0's players, then env 1's.
            env.step(np.concatenate([np.stack(a) for a in per_env]))
            for ref, action in zip(refs, per_env, strict=True):
                ref.step(action)
        frames = env.render(env_ids=[1, 0])
        for frame, ref in zip(frames, [refs[1], refs[0]], strict=True):
            np.testing.assert_array_equal(frame, ref.physics.render(240, 320), err_msg=str(step))
    env.close()


def test_a_goal_recolours_the_posts_in_the_frame() -> None:
    # Goal._update_detection paints a goal's posts green while the ball is in
    # its zone. The ball is put into the home goal (dm_control's through its
    # data, then mj_step1 as a restore runs it; the pool's through its
    # snapshot's bytes, which hold the ball's position once); one zero-action
    # step scores, the posts are green in both frames, and the episode's last
    # frame is dm_control's.
    task_id = "DmcSoccerBoxhead-v1"
    seed = 11
    env = envpool.make(task_id, num_envs=1, seed=seed, render_mode="rgb_array")
    ref = reference(task_id, seed, 45.0)
    env.reset()
    ref.reset()
    physics = ref.physics
    ball = physics.named.data.qpos["soccer_ball/"]
    before = np.array(ball[:3])
    goal = ref.env.task.arena.home_goal
    inside = (np.asarray(goal.lower) + np.asarray(goal.upper)) / 2
    physics.named.data.qpos["soccer_ball/"][:3] = inside
    mujoco.mj_step1(physics.model._model, physics.data._data)
    [state] = env.get_state()
    env.set_state(
        [common.rewritten(state, struct.pack("<3d", *before), struct.pack("<3d", *inside))]
    )
    zero = [np.zeros(s.shape) for s in ref.env.action_spec()]
    _, reward, terminated, _, _ = env.step(np.stack(zero))
    ts = ref.step(zero)
    assert ts.last() and terminated.all()
    np.testing.assert_array_equal(reward, np.asarray(ts.reward, dtype=np.float64))
    posts = physics.bind(goal._goal_geoms).rgba
    np.testing.assert_array_equal(posts, np.tile([0, 1, 0, 1], (len(goal._goal_geoms), 1)))
    [frame] = env.render()
    np.testing.assert_array_equal(frame, physics.render(240, 320))
    env.close()
