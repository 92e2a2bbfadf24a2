"""DmcRodentMazeForage-v1 against dm_control 1.0.50.

Env i of a pool made with `seed=s` plays
`basic_rodent_2020.rodent_maze_forage(random_state=RandomState(s + i))` after
`np.random.seed(s + i)`: the rodent of DmcRodentEscapeBowl-v1 (its walker,
skin and egocentric camera) in labmaze's random maze (11 x 11 cells of 0.5 m,
a new maze with new wall and floor textures at every reset), respawned at a
random spawn cell facing away from the farthest wall, and 50 for each target
sphere it touches; touching all ends the episode. Both take the same float64
actions, and every observation entry but the camera (to 1e-6), the camera
(mean |diff| <= 1 level, at most 1% of pixels off by more than 32), the
reward and how each episode ends must agree at every step, across NEXT_STEP
autoresets. The reset state is compared bit for bit: the rodent turns one
ulp of its heading into O(1) within a few steps, and the heading goes
through numpy's float64 tanh, arctanh, cos and sin, whose SIMD loops round
otherwise than libm now and then. `ENVPOOL_TEST_ALL=1` plays more seeds and
longer episodes.
"""

from __future__ import annotations

import json
import os
import struct
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("MUJOCO_GL", "egl")  # dm_control renders the camera

import locomotion_common as common  # this folder's test helpers
from locomotion_common import ALL, CAMERA

import envpool
from envpool.testing.published import check_spec
from envpool.testing.snapshots import check_snapshots

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import mujoco
    from dm_control.locomotion.examples import basic_rodent_2020

TASK_ID = "DmcRodentMazeForage-v1"
ALIAS = "dm_control/locomotion/rodent_maze_forage"
SPECS = json.loads((Path(__file__).parent / "envpool127_rodent_maze_specs.json").read_text())
REWARD = 50.0


def reference(seed: int, time_limit: float = 30.0) -> common.GlobalStreamReference:
    """The dm_control env that env `seed - s` of a pool seeded `s` plays
    (the time_limit option: 30 s by default), with its own copy of the
    global np.random stream (each reset draws the maze's textures from it)."""
    return common.GlobalStreamReference(basic_rodent_2020.rodent_maze_forage, seed, time_limit)


def test_tanh_and_arctanh_are_numpys_own_bit_for_bit() -> None:
    # NullGoalMaze._respawn's heading is np.tanh(np.arctanh(u)) for u of
    # uniform(-1, 1), then np.cos and np.sin of it: numpy's float64 loops
    # (SIMD ones on AVX-512 machines, which round otherwise than libm for a
    # third of these inputs), called one number at a time as the env does.
    from envpool.locomotion import _locomotion

    assert {"tanh", "arctanh", "cos", "sin"} <= set(_locomotion.numpy_kernels())
    rng = np.random.default_rng(0)
    u = np.concatenate([rng.uniform(-1, 1, 50_000), [0.0, -0.0, 0.5, -0.999999, 1e-300]])
    wide = np.concatenate([np.arctanh(u), rng.uniform(-30, 30, 20_000)])
    for name, inputs in (("arctanh", u), ("tanh", wide)):
        ours = np.array(_locomotion._numpy_kernel(name, inputs.tolist()))
        expected = getattr(np, name)(inputs)
        differ = np.flatnonzero(ours.view(np.int64) != expected.view(np.int64))
        assert differ.size == 0, (name, inputs[differ[:5]], ours[differ[:5]], expected[differ[:5]])


def test_reset_states_are_dm_controls_bit_for_bit() -> None:
    # Seed 1009's heading: 1 + tanh(arctanh(u)) with numpy's loops is one
    # ulp from libm's (so are seeds 1019, 1021 and 1023: 11 of the first 80
    # seeds from 1000).
    seeds = range(1000, 1024) if ALL else range(1008, 1010)
    common.assert_reset_states_match(TASK_ID, seeds, reference, whole_state=True)


def play(seed: int, steps: int, num_envs: int, time_limit: float) -> dict[str, int]:
    """Steps a pool and its references in lockstep; counts how episodes end
    and how many mazes they played."""
    counts = {"time_limits": 0, "mazes": 0}
    seen_mazes: set[bytes] = set()

    def watch(refs: list[Any]) -> None:
        seen_mazes.update(ref.physics.model.geom_pos.tobytes() for ref in refs)

    for step, ts, reward, terminated, truncated in common.play_random_actions(
        TASK_ID,
        seed,
        steps,
        num_envs,
        lambda s: reference(s, time_limit),
        38,
        watch=watch,
        time_limit=time_limit,
    ):
        assert reward == ts.reward, step
        if ts.last():
            # Random actions do not reach every target: the time limit ends
            # these episodes.
            assert float(ts.discount) == 1.0, step
            assert truncated and not terminated, step
            counts["time_limits"] += 1
        else:
            assert not terminated and not truncated, step
    counts["mazes"] = len(seen_mazes)
    return counts


# (seed, steps, envs, time limit): 5 steps of 20 ms an episode, each new
# episode in a new maze (two envs, whose mazes differ, through the first
# autoreset and three steps into the next maze); longer and more seeds with
# ENVPOOL_TEST_ALL.
EPISODES = [(0, 8, 2, 0.1)]
if ALL:
    EPISODES += [(3, 60, 2, 0.4), (11, 100, 1, 1.0), (21, 40, 3, 0.2)]


@pytest.mark.parametrize(("seed", "steps", "num_envs", "time_limit"), EPISODES)
def test_episodes_play_dm_controls_across_autoresets(
    seed: int, steps: int, num_envs: int, time_limit: float
) -> None:
    counts = play(seed, steps, num_envs, time_limit)
    episodes = steps * num_envs // round(time_limit / 0.02)
    assert counts["time_limits"] >= episodes - num_envs, counts
    assert counts["mazes"] >= episodes, counts


def _target_positions(ref: Any) -> list[np.ndarray]:
    """The world positions of the reference's target geoms, target_0_0 first."""
    model, data = ref.physics.model, ref.physics.data
    positions = []
    for i in range(model.ngeom):
        name = model.id2name(i, "geom")
        if name.startswith("target_0_") and name.endswith("/geom"):
            positions.append((int(name.split("_")[2].split("/")[0]), np.array(data.geom_xpos[i])))
    return [pos for _, pos in sorted(positions, key=lambda p: p[0])]


def test_touching_every_target_is_rewarded_and_ends_the_episode() -> None:
    # Random actions rarely reach a target: after the reset both envs get the
    # rodent moved onto each target in turn (dm_control's through its data,
    # then mj_step1 as a restore runs it; this env's through its snapshot,
    # whose bytes hold the free joint's pose once), one zero-action step
    # each: 50 per target, in lockstep, and the last one ends the episode
    # (dm_control: LAST with discount 1; here terminated), then the
    # autoreset into a new maze.
    seed = 2
    env = envpool.make(TASK_ID, num_envs=1, seed=seed)
    ref = reference(seed)
    env.reset()
    ref.reset()
    targets = _target_positions(ref)
    assert len(targets) >= 3
    data = ref.physics.data
    rewards = []
    for step, target in enumerate(targets, start=1):
        pose = np.array(data.qpos[:4])
        moved = pose.copy()
        moved[:2] = target[:2]
        data.qpos[:2] = moved[:2]
        mujoco.mj_step1(ref.physics.model._model, data._data)
        [state] = env.get_state()
        env.set_state(
            [common.rewritten(state, struct.pack("<4d", *pose), struct.pack("<4d", *moved))]
        )
        action = np.zeros(38)
        obs, reward, terminated, truncated, _ = env.step(action[None])
        ts = ref.step(action)
        common.compare_first_env(step, ts, obs)
        assert reward[0] == ts.reward, step
        rewards.append(float(ts.reward))
        last = step == len(targets)
        assert ts.last() == last, step
        assert bool(terminated[0]) == last and not truncated[0], step
        if last:
            assert float(ts.discount) == 1.0
    # Each move lands on its target (and at times on one on the way).
    assert sum(rewards) == REWARD * len(targets), rewards
    assert rewards[0] >= REWARD, rewards
    obs, reward, terminated, truncated, _ = env.step(np.zeros((1, 38)))
    ts = ref.step(np.zeros(38))
    assert ts.first() and reward[0] == 0 and not terminated[0] and not truncated[0]
    common.compare_first_env(len(targets) + 1, ts, obs)
    for step in range(len(targets) + 2, len(targets) + 5):
        action = np.random.RandomState(step).uniform(-1, 1, 38)
        obs, reward, terminated, truncated, _ = env.step(action[None])
        ts = ref.step(action)
        common.compare_first_env(step, ts, obs)
        assert reward[0] == ts.reward and not terminated[0] and not truncated[0], step
    env.close()


def test_spaces_and_options_are_envpool_127s() -> None:
    for task_id in (TASK_ID, ALIAS):
        spaces = check_spec(task_id, SPECS[task_id]).observation_space.spaces
        assert spaces[CAMERA].low.min() == 0 and spaces[CAMERA].high.max() == 255


def test_snapshots_restore_exactly() -> None:
    # Saved mid-episode and across autoresets (the time limit), into a pool
    # of another seed (another labmaze seed and maze: the restore compiles
    # the snapshot's); then right after a reset.
    check_snapshots(TASK_ID, num_envs=2, before=3, after=6, time_limit=0.06)
    common.check_restore_after_reset(
        TASK_ID, 38, (CAMERA, "walker/joints_pos", "walker/sensors_accelerometer")
    )


def test_a_snapshot_of_another_rodent_task_is_refused() -> None:
    gaps = envpool.make("DmcRodentRunGaps-v1", num_envs=1, seed=0)
    maze = envpool.make(TASK_ID, num_envs=1, seed=0)
    gaps.reset()
    maze.reset()
    with pytest.raises(ValueError, match="cannot be restored"):
        maze.set_state(gaps.get_state())
    with pytest.raises(ValueError, match="cannot be restored"):
        gaps.set_state(maze.get_state())
    assert maze.step(np.zeros((1, 38)))[1].shape == (1,)
    gaps.close()
    maze.close()


def test_missing_labmaze_textures_are_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The asset folder without labmaze's wall textures (the walker's model,
    # skin and the outdoor_natural textures are there).
    common.assert_missing_model_named(
        monkeypatch,
        tmp_path,
        TASK_ID,
        r"labmaze/style_01/wall_blue_d\.png.*reinstall envpool",
        kept=("soccer", "walkers", "arenas"),
    )


def test_dm_env_type_gives_the_camera() -> None:
    env = envpool.make(ALIAS, env_type="dm", num_envs=2, seed=0)
    ts = env.reset()
    assert ts.observation.walker_egocentric_camera.shape == (2, 64, 64, 3)
    assert ts.observation.walker_joints_pos.shape == (2, 30)
    ts = env.step(np.zeros((2, 38)))
    assert ts.reward.shape == (2,) and ts.discount.shape == (2,)
    env.close()
