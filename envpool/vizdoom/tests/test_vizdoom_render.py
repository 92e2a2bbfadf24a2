"""render_mode="rgb_array" of every vizdoom id against vizdoom 1.3.2's own
gymnasium wrapper (vizdoom.gymnasium_wrapper's VizdoomEnv, render_mode
"rgb_array"), which renders the DoomGame's current screen buffer as RGB
(the cfg's CRCGCB forced to RGB24, GRAY8 repeated in three channels), with
the depth and automap buffers side by side when the cfg enables them, and a
black frame when there is no state (the episode has ended).

Each id runs next to a wrapper on the same cfg, wad and IWAD, seeded alike
(the wrapper's reset(seed=s) draws the DoomGame seed from its np_random; the
pool is made with that seed), both given the same buttons; at the reset and
at every step the frames must be equal, every pixel (no tolerance).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import envpool
from envpool.vizdoom.registration import D_SCENARIOS, SCENARIOS

vzd = pytest.importorskip("vizdoom")
pytest.importorskip("pygame")  # the wrapper's render() makes a pygame clock
from vizdoom.gymnasium_wrapper.base_gymnasium_env import VizdoomEnv  # noqa: E402

SCENARIOS_DIR = Path(vzd.__file__).parent / "scenarios"
IDS = [f"{name}-v1" for name, _ in SCENARIOS + D_SCENARIOS] + ["VizdoomCustom-v1"]


def _wrapper(config: dict, frame_skip: int) -> VizdoomEnv:
    settings = {
        "vizdoom_path": config["vzd_path"],
        "doom_game_path": config["iwad_path"],
        "doom_scenario_path": config["wad_path"],
        "doom_map": config["map_id"],
        # our env: synchronous, silent, settings written nowhere
        "mode": "PLAYER",
        "sound_enabled": False,
        "doom_config_path": os.devnull,
    }
    if config["game_args"]:
        settings["game_args"] = config["game_args"]
    return VizdoomEnv(
        config_file=config["cfg_path"],
        frame_skip=frame_skip,
        max_buttons_pressed=0,
        render_mode="rgb_array",
        **settings,
    )


def _wrapper_seed(seed: int) -> int:
    # VizdoomEnv.reset(seed=s): the DoomGame seed is the first uint32 of
    # gymnasium's np_random(s).
    from gymnasium.utils import seeding

    rng, _ = seeding.np_random(seed)
    return int(rng.integers(0, np.iinfo(np.uint32).max + 1, dtype=np.uint32))


def run_rendered(
    task_id: str, steps: int, seed: int = 5, frame_skip: int = 4, **kwargs
) -> tuple[int, int]:
    """Steps both until the episode ends; returns how many frames were
    compared and how many of them were black."""
    game_seed = _wrapper_seed(seed)
    env = envpool.make_gymnasium(
        task_id,
        num_envs=1,
        seed=game_seed,
        frame_skip=frame_skip,
        render_mode="rgb_array",
        **kwargs,
    )
    config = env.spec.config._asdict()
    ref = _wrapper(config, frame_skip)
    rng = np.random.default_rng(seed)
    names = [b.name for b in _cfg_game(config["cfg_path"]).get_available_buttons()]
    compared = black = 0
    try:
        env.reset()
        ref.reset(seed=seed)
        assert env.render_mode == "rgb_array"
        frame = env.render()
        want = ref.render()
        assert frame.shape == (1, *want.shape) and frame.dtype == np.uint8
        np.testing.assert_array_equal(frame[0], want, err_msg=f"{task_id} reset")
        compared += 1
        wrapper_names = [b.name for b in ref.game.get_available_buttons()]
        delta = [n for n in wrapper_names if n.endswith("_DELTA")]
        binary = [n for n in wrapper_names if not n.endswith("_DELTA")]
        for t in range(steps):
            pressed = {n: float(rng.integers(0, 2)) for n in names}
            for n in delta:
                pressed[n] = float(rng.integers(-5, 6))
            ours = np.array([[pressed[n] for n in names]])
            b = np.array([int(pressed[n]) for n in binary], dtype=np.int8)
            d = np.array([pressed[n] for n in delta], dtype=np.float32)
            action = {"binary": b, "continuous": d} if delta and binary else (d if delta else b)
            _, rew, term, _, _ = env.step(ours)
            _, want_rew, done, _, _ = ref.step(action)
            assert rew[0] == np.float32(want_rew), (task_id, t, rew[0], want_rew)
            assert bool(term[0]) == done, (task_id, t)
            frame = env.render()
            want = ref.render()
            np.testing.assert_array_equal(frame[0], want, err_msg=f"{task_id} step {t}")
            compared += 1
            black += int(not want.any())
            if done:
                break
    finally:
        env.close()
        ref.close()
    return compared, black


def _cfg_game(cfg: str):
    game = vzd.DoomGame()
    game.load_config(cfg)
    return game


@pytest.mark.parametrize("task_id", IDS)
def test_every_id_renders_as_vizdooms_gymnasium_wrapper(task_id):
    compared, _ = run_rendered(task_id, 4)
    assert compared >= 2


def test_episode_end_renders_black_as_the_wrapper():
    # basic.cfg: 300 tics; 25 tics a step ends it by step 12 (earlier when
    # the monster is shot): the last frame, and only it, is black.
    compared, black = run_rendered("Basic-v1", 20, frame_skip=25)
    assert black == 1 and 3 <= compared <= 13, (compared, black)


def test_gray_depth_and_automap_buffers_side_by_side(tmp_path):
    cfg = tmp_path / "buffers.cfg"
    text = (SCENARIOS_DIR / "basic.cfg").read_text()
    cfg.write_text(
        text + "\nscreen_format = GRAY8\nscreen_resolution = RES_160X120\n"
        "depth_buffer_enabled = true\nautomap_buffer_enabled = true\n"
    )
    wad = str(SCENARIOS_DIR / "basic.wad")
    spec = envpool.make_spec("VizdoomCustom-v1", cfg_path=str(cfg), wad_path=wad)
    assert spec.config.render_mode is None
    compared, _ = run_rendered("VizdoomCustom-v1", 8, cfg_path=str(cfg), wad_path=wad)
    assert compared >= 2
    env = envpool.make_gymnasium(
        "VizdoomCustom-v1", cfg_path=str(cfg), wad_path=wad, render_mode="rgb_array"
    )
    env.reset()
    assert env.render().shape == (1, 120, 3 * 160, 3)
    env.close()


@pytest.mark.parametrize(
    "extra, match",
    [
        ("labels_buffer_enabled = true\n", "labels_buffer"),
        ("screen_format = DOOM_256_COLORS8\n", "DOOM_256_COLORS8"),
    ],
)
def test_what_is_not_rendered_is_a_clear_error(tmp_path, extra, match):
    cfg = tmp_path / "x.cfg"
    cfg.write_text((SCENARIOS_DIR / "basic.cfg").read_text() + "\n" + extra)
    wad = str(SCENARIOS_DIR / "basic.wad")
    with pytest.raises(ValueError, match=match):
        envpool.make_gymnasium(
            "VizdoomCustom-v1", cfg_path=str(cfg), wad_path=wad, render_mode="rgb_array"
        )
    # without rendering the cfg still runs
    envpool.make_spec("VizdoomCustom-v1", cfg_path=str(cfg), wad_path=wad)


def test_render_options():
    spec = envpool.make_spec("Basic-v1", render_mode="rgb_array")
    assert (spec.config.render_width, spec.config.render_height) == (320, 240)
    with pytest.raises(ValueError, match="render_width"):
        envpool.make_spec("Basic-v1", render_mode="rgb_array", render_width=100)
    with pytest.raises(ValueError, match="render_mode"):
        envpool.make_spec("Basic-v1", render_mode="ansi")
    env = envpool.make_gymnasium("Basic-v1")
    assert env.metadata["render_modes"] == ["rgb_array", "human"]
    assert env.metadata["render_fps"] == 35
    env.reset()
    with pytest.raises(RuntimeError, match="render_mode"):
        env.render()
    env.close()
