"""minigrid's rgb_array frames against minigrid 3.2.0's (gymnasium 1.4).

`envpool.make(id, render_mode="rgb_array")` env i and
`gymnasium.make(id, render_mode="rgb_array")` reset with seed s + i play the
same actions; their frames (minigrid's `get_frame`: the whole grid at 32
pixels a cell, the agent's view highlighted) are compared at the reset and
after every step, across episode ends (our next-step autoreset, the
reference reset without a seed), and must be equal byte for byte: the
measured difference (largest channel difference, pixels that differ) is
asserted (0, 0).  The episodes of the first test show every object minigrid
draws in its levels (walls, open, closed and locked doors of each colour,
keys, balls, boxes, goals, lava, the agent facing each way, something
carried) with and without the highlight; the second renders one id of every
level class (`env_name`).
"""

from __future__ import annotations

import functools
import warnings

import gymnasium
import minigrid  # noqa: F401  (registers the reference ids)
import numpy as np
import pytest

import envpool
from envpool.minigrid.registration import _IDS

# Small grids whose episodes show every object type and state minigrid's
# levels draw: id -> steps played.
EPISODES = {
    "MiniGrid-DoorKey-5x5-v0": 100,  # key carried, locked door opened, goal
    "MiniGrid-LavaGapS5-v0": 60,  # lava
    "MiniGrid-GoToDoor-5x5-v0": 60,  # closed doors of four colours
    "MiniGrid-ObstructedMaze-1Dlhb-v0": 100,  # key in a box, ball, locked door
    "MiniGrid-Dynamic-Obstacles-6x6-v0": 60,  # moving balls
    "MiniGrid-PutNear-6x6-N2-v0": 60,  # sees through walls
}
# One id of every level class.
BY_CLASS = sorted({cfg["env_name"]: task_id for task_id, cfg in sorted(_IDS.items())}.values())


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def reference(task_id: str, limit: int, **kwargs) -> gymnasium.Env:
    return gymnasium.make(
        task_id,
        render_mode="rgb_array",
        disable_env_checker=True,
        max_episode_steps=limit,
        **kwargs,
    )


def frame_difference(ours: np.ndarray, ref: np.ndarray) -> tuple[int, int]:
    """(largest channel difference, number of pixels that differ)."""
    assert ours.shape == ref.shape and ours.dtype == ref.dtype == np.uint8
    diff = np.abs(ours.astype(np.int16) - ref.astype(np.int16))
    return int(diff.max()), int(np.count_nonzero(diff.max(axis=-1)))


def policy(rng: np.random.Generator, n: int, image: np.ndarray | None = None) -> int:
    """Forward half of the time, so episodes reach doors, keys, goals and
    lava; mostly toggles a door and picks up a key, ball or box in front."""
    if image is not None and n == 7 and rng.random() < 0.7:
        front = int(image[image.shape[0] // 2, image.shape[1] - 2, 0])
        if front == 4:
            return 5
        if front in (5, 6, 7):
            return 3
    return 2 if rng.random() < 0.45 else int(rng.integers(0, n))


def play(task_id: str, steps: int, num_envs: int = 1, seed: int = 1, limit: int = 30) -> dict:
    """Plays `num_envs` envs beside their references, episodes cut at `limit`
    steps on both sides (so that the short runs cross episode ends); returns
    what the frames showed (object codes seen, agent directions, carried
    objects) and how many episodes ended."""
    env = envpool.make(
        task_id,
        num_envs=num_envs,
        seed=seed,
        render_mode="rgb_array",
        max_episode_steps=limit,
    )
    refs = [reference(task_id, limit) for _ in range(num_envs)]
    rng = np.random.default_rng(seed)
    n = env.action_space.n
    seen = {"codes": set(), "dirs": set(), "carried": False, "episodes": 0}
    ids = list(range(num_envs))

    def compare(tag):
        frames = env.render(env_ids=ids)
        assert frames.shape[0] == num_envs
        for i, ref in enumerate(refs):
            expected = ref.render()
            assert frame_difference(frames[i], expected) == (0, 0), (tag, i)
            # what was drawn, read off our grid (equal to minigrid's: the
            # family's alignment test)
            state = env._pool.get_state(i)
            width, height = int(state[-7]), int(state[-6])
            grid = np.asarray(state[: width * height * 3], dtype=np.uint8)
            seen["codes"].update(map(tuple, grid.reshape(-1, 3).tolist()))
            seen["dirs"].add(int(state[-3]))
            seen["carried"] |= state[-2] != -1

    obs, _ = env.reset()
    for i, ref in enumerate(refs):
        ref.reset(seed=seed + i)
    compare((task_id, "reset"))
    done = [False] * num_envs
    for t in range(steps):
        actions = [policy(rng, n, obs["image"][i]) for i in range(num_envs)]
        obs, *_ = env.step(np.array(actions))
        for i, ref in enumerate(refs):
            if done[i]:
                ref.reset()
                done[i] = False
                continue
            _, _, term, trunc, _ = ref.step(actions[i])
            if term or trunc:
                done[i] = True
                seen["episodes"] += 1
        compare((task_id, t))
    env.close()
    return seen


def test_frame_size_fps_and_modes():
    env = envpool.make("MiniGrid-DoorKey-8x8-v0", num_envs=1, render_mode="rgb_array")
    assert env.metadata["render_modes"] == ["rgb_array", "human"]
    assert (
        env.metadata["render_fps"]
        == 10
        == gymnasium.make("MiniGrid-DoorKey-8x8-v0").metadata["render_fps"]
    )
    env.reset()
    assert env.render().shape == (1, 256, 256, 3)
    env = envpool.make("MiniGrid-RedBlueDoors-6x6-v0", num_envs=1, render_mode="rgb_array")
    env.reset()
    assert env.render().shape == (1, 192, 384, 3)  # a 12 x 6 grid
    cfg = envpool.make_spec("BabyAI-GoToLocal-v0", render_mode="rgb_array").config
    assert (cfg.render_width, cfg.render_height) == (256, 256)


@functools.cache
def played(task_id: str) -> dict:
    return play(task_id, EPISODES[task_id], seed=4)


@pytest.mark.parametrize("task_id", sorted(EPISODES))
def test_episode_frames_equal_minigrid_pixel_for_pixel(task_id):
    assert played(task_id)["episodes"] >= 1


def test_episodes_show_every_object_and_direction():
    codes, dirs, carried = set(), set(), False
    for task_id in EPISODES:
        seen = played(task_id)
        codes |= seen["codes"]
        dirs |= seen["dirs"]
        carried |= seen["carried"]
    types = {code[0] for code in codes}
    assert {2, 4, 5, 6, 7, 8, 9} <= types, types  # wall door key ball box goal lava
    assert {code[2] for code in codes if code[0] == 4} == {0, 1, 2}  # open closed locked
    assert dirs == {0, 1, 2, 3} and carried


def test_a_batch_of_envs_renders_each_env():
    # env i plays seed 1 + i; render(env_ids) draws each of them
    seen = play("MiniGrid-KeyCorridorS3R1-v0", 40, num_envs=3)
    assert seen["episodes"] >= 1


@pytest.mark.parametrize("task_id", BY_CLASS)
def test_every_level_class_renders_as_minigrid(task_id):
    play(task_id, 4, seed=7)


def test_tile_size_follows_render_width_and_height():
    # minigrid's tile_size: render_width = tile_size * width (and height).
    env = envpool.make(
        "MiniGrid-FourRooms-v0",
        num_envs=1,
        seed=2,
        render_mode="rgb_array",
        render_width=19 * 9,
        render_height=19 * 9,
    )
    ref = reference("MiniGrid-FourRooms-v0", 100, tile_size=9)
    env.reset()
    ref.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(30):
        frame = env.render()[0]
        assert frame.shape == (171, 171, 3)
        assert frame_difference(frame, ref.render()) == (0, 0)
        action = policy(rng, 7)
        env.step(np.array([action]))
        ref.step(action)


@pytest.mark.parametrize(
    "width, height",
    [(100, 0), (0, 256), (250, 250), (256, 128), (-32, -32)],
)
def test_sizes_that_are_not_a_tile_grid_raise_value_error(width, height):
    with pytest.raises(ValueError, match="render_width"):
        envpool.make(
            "MiniGrid-DoorKey-8x8-v0",
            num_envs=1,
            render_mode="rgb_array",
            render_width=width,
            render_height=height,
        )


def test_bad_render_mode_and_render_without_mode():
    with pytest.raises(ValueError, match="render_mode"):
        envpool.make("MiniGrid-Empty-5x5-v0", num_envs=1, render_mode="ansi")
    env = envpool.make("MiniGrid-Empty-5x5-v0", num_envs=1)
    env.reset()
    with pytest.raises(RuntimeError, match="render_mode"):
        env.render()


def test_the_highlight_follows_agent_view_size():
    env = envpool.make(
        "MiniGrid-Empty-8x8-v0", num_envs=1, seed=0, agent_view_size=3, render_mode="rgb_array"
    )
    ref = reference("MiniGrid-Empty-8x8-v0", 256, agent_view_size=3)
    env.reset()
    ref.reset(seed=0)
    for action in (2, 1, 2, 2, 0, 2):
        assert frame_difference(env.render()[0], ref.render()) == (0, 0)
        env.step(np.array([action]))
        ref.step(action)
