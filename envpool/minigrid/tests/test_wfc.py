"""The six MiniGrid-WFC-* ids against minigrid 3.2.0's WFCEnv, seed for seed.

minigrid's wheel lacks the pattern images; conftest.py copies the
repository's (envpool/minigrid/wfc_patterns/) into the installed package.
Env i of `envpool.make(id, seed=s)` and `gymnasium.make(id)` reset with
seed s + i play the same actions over whole episodes (cut at 40 steps on
both sides so that each run crosses episode ends and autoresets, the
reference then reset without a seed so both generators continue): the full
grid at every reset, and the image, direction, mission, reward, terminated,
truncated, agent position and the rgb_array frame at every step.

minigrid takes 0.3 to 4 s a layout, so `make test` runs a sample (one seed
of every preset, one of them with the seeds whose kept area is the smaller
part of the open cells, where networkx's set order decides start and goal);
ENVPOOL_TEST_ALL=1 runs every preset with more seeds.
"""

from __future__ import annotations

import importlib.util
import os
import warnings
from pathlib import Path

import gymnasium
import minigrid  # noqa: F401  (registers the reference ids)
import numpy as np
import pytest

import envpool

PRESETS = [
    "MazeSimple",
    "DungeonMazeScaled",
    "RoomsFabric",
    "ObstaclesBlackdots",
    "ObstaclesAngular",
    "ObstaclesHogs3",
]
ALL = bool(os.environ.get("ENVPOOL_TEST_ALL"))
LIMIT = 40
# Seeds whose largest open area is less than half of the open cells
# (networkx then iterates a Python set), found with this project's levels.
SET_ORDER_SEEDS = {"MazeSimple": [0, 2, 7], "DungeonMazeScaled": [3, 13, 17]}


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def grid_of(state: np.ndarray) -> tuple[np.ndarray, tuple[int, int], int]:
    width, height = int(state[-7]), int(state[-6])
    grid = np.asarray(state[: width * height * 3], dtype=np.uint8).reshape(width, height, 3)
    return grid, (int(state[-5]), int(state[-4])), int(state[-3])


def play(task_id: str, seed: int, steps: int, render: bool = True, **options) -> int:
    """Steps both sides; the number of episodes ended."""
    render_mode = "rgb_array" if render else None
    env = envpool.make(
        task_id,
        num_envs=1,
        seed=seed,
        max_episode_steps=LIMIT,
        render_mode=render_mode,
        **options,
    )
    ref_options = dict(options)
    if "wfc_preset" in ref_options:
        ref_options["wfc_config"] = ref_options.pop("wfc_preset")
    ref = gymnasium.make(
        task_id,
        disable_env_checker=True,
        max_episode_steps=LIMIT,
        render_mode=render_mode,
        **ref_options,
    )
    rng = np.random.default_rng(seed)

    def check_reset(obs, ref_obs, tag):
        grid, agent, direction = grid_of(env._pool.get_state(0))
        assert np.array_equal(grid, ref.unwrapped.grid.encode()), tag
        assert agent == tuple(int(v) for v in ref.unwrapped.agent_pos), tag
        assert direction == ref.unwrapped.agent_dir == int(obs["direction"][0]), tag
        assert np.array_equal(obs["image"][0], ref_obs["image"]), tag
        text = bytes(obs["mission"][0]).rstrip(b"\0").decode()
        assert text == ref_obs["mission"] == "traverse the maze to get to the goal", tag

    def check_frame(tag):
        if render:
            assert np.array_equal(env.render()[0], ref.render()), tag

    obs, _ = env.reset()
    ref_obs, _ = ref.reset(seed=seed)
    check_reset(obs, ref_obs, (task_id, seed, "reset"))
    check_frame((task_id, seed, "reset"))
    episodes, done = 0, False
    for t in range(steps):
        action = 2 if rng.random() < 0.5 else int(rng.integers(0, 7))
        obs, rew, term, trunc, info = env.step(np.array([action]))
        tag = (task_id, seed, t)
        if done:
            ref_obs, _ = ref.reset()
            check_reset(obs, ref_obs, tag)
            check_frame(tag)
            done = False
            continue
        ref_obs, ref_rew, ref_term, ref_trunc, _ = ref.step(action)
        assert np.array_equal(obs["image"][0], ref_obs["image"]), tag
        assert int(obs["direction"][0]) == ref_obs["direction"], tag
        assert rew[0] == np.float32(ref_rew), tag
        assert (bool(term[0]), bool(trunc[0])) == (ref_term, ref_trunc), tag
        assert tuple(info["agent_pos"][0]) == tuple(int(v) for v in ref.unwrapped.agent_pos)
        check_frame(tag)
        if ref_term or ref_trunc:
            done = True
            episodes += 1
    env.close()
    return episodes


@pytest.mark.parametrize("preset", PRESETS)
def test_same_layouts_and_episodes_as_minigrid(preset):
    seeds = [0, 1, 5] if ALL else [3]
    for seed in seeds:
        # two episode ends: three layouts per seed
        assert play(f"MiniGrid-WFC-{preset}-v0", seed, 2 * LIMIT + 5) == 2


@pytest.mark.parametrize("preset", sorted(SET_ORDER_SEEDS))
def test_start_and_goal_where_networkx_iterates_a_set(preset):
    seeds = SET_ORDER_SEEDS[preset] if ALL else SET_ORDER_SEEDS[preset][:1]
    for seed in seeds:
        play(f"MiniGrid-WFC-{preset}-v0", seed, 3, render=False)


def test_ensure_connected_false_keeps_every_open_area():
    task_id = "MiniGrid-WFC-MazeSimple-v0"
    play(task_id, 0, 50, render=False, ensure_connected=False)
    # and it differs from the connected layout of the same seed
    grids = []
    for connected in (True, False):
        env = envpool.make(task_id, num_envs=1, seed=0, ensure_connected=connected)
        env.reset()
        grids.append(grid_of(env._pool.get_state(0))[0])
    assert not np.array_equal(*grids)


def test_wfc_preset_option_picks_the_preset():
    play("MiniGrid-WFC-MazeSimple-v0", 4, 50, render=False, wfc_preset="ObstaclesBlackdots")


def test_size_option_matches_minigrid():
    # minigrid's size: the layout is size - 2 square, max_steps 20 * size
    play("MiniGrid-WFC-RoomsFabric-v0", 1, 50, render=False, size=16)


def test_bad_preset_raises_value_error_naming_the_presets():
    with pytest.raises(ValueError, match=r"wfc_preset.*MazeSimple, DungeonMazeScaled"):
        envpool.make("MiniGrid-WFC-MazeSimple-v0", num_envs=1, wfc_preset="MazeKnot")


def test_spec_of_the_wfc_ids():
    for preset in PRESETS:
        spec = envpool.make_spec(f"MiniGrid-WFC-{preset}-v0")
        assert spec.config.wfc_preset == preset and spec.config.ensure_connected
        assert spec.config.size == 25 and spec.config.max_episode_steps == 500
        assert spec.observation_space["image"].shape == (7, 7, 3)
        assert spec.config.render_width == spec.config.render_height == 800


def test_pattern_header_is_written_from_the_images():
    script = Path(__file__).resolve().parents[1] / "wfc_patterns" / "pixels_header.py"
    spec = importlib.util.spec_from_file_location("pixels_header", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.HEADER.read_text() == module.header_text()
    assert list(module.PRESETS) == PRESETS
