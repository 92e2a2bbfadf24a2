"""D1Basic-v1 .. D4Battle2-v1 against vizdoom 1.3.2's own Python DoomGame.

Their scenarios (D1_basic, D2_navigation, D3_battle, D4_battle2: a cfg and a
wad each) ship in this package's `vizdoom/scenarios/` folder, from the
envpool-assets wheel pinned in WORKSPACE. The alignment is test_vizdoom.py's
(run_aligned): a DoomGame loading the same cfg and wad, seeded the same way,
given the same random buttons; observation, reward, episode end and every
info game variable equal at every step, across the autoreset into the next
episode. With random buttons the player dies in about 100 to 260 steps
(D1: health drains; D2: poison; D3, D4: monsters), so each run covers at
least one whole episode and the start of the next.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_vizdoom import SPECS, run_aligned

import envpool

IDS = {
    "D1Basic-v1": "D1_basic",
    "D2Navigation-v1": "D2_navigation",
    "D3Battle-v1": "D3_battle",
    "D4Battle2-v1": "D4_battle2",
}
SHIPPED = Path(envpool.__file__).parent / "vizdoom" / "scenarios"


@pytest.mark.parametrize("task_id", sorted(IDS))
def test_paths_are_the_shipped_scenarios(task_id):
    config = envpool.make_spec(task_id).config
    assert Path(config.cfg_path) == SHIPPED / f"{IDS[task_id]}.cfg"
    assert Path(config.wad_path) == SHIPPED / f"{IDS[task_id]}.wad"
    assert Path(config.cfg_path).is_file() and Path(config.wad_path).stat().st_size > 0
    # The cfg names the wad it belongs to (EnvPool's paths end the same way).
    assert f"doom_scenario_path = {IDS[task_id]}.wad" in Path(config.cfg_path).read_text()
    ref = SPECS[task_id]["config"]
    assert ref["cfg_path"].endswith(f"/{IDS[task_id]}.cfg")
    assert ref["wad_path"].endswith(f"/{IDS[task_id]}.wad")


def test_only_the_d_scenarios_are_shipped():
    assert sorted(p.name for p in SHIPPED.iterdir()) == sorted(
        f"{name}.{ext}" for name in IDS.values() for ext in ("cfg", "wad")
    )


@pytest.mark.parametrize(
    "task_id, steps, seed, kwargs",
    [
        ("D1Basic-v1", 170, 7, {}),  # living reward 1 a tic, HEALTH drains to death
        ("D2Navigation-v1", 130, 7, {}),
        ("D3Battle-v1", 150, 5, {}),  # 8 buttons with SPEED, USER2 from the cfg
        ("D4Battle2-v1", 130, 8, {"frame_skip": 8}),
    ],
)
def test_matches_doomgame_over_a_whole_episode(task_id, steps, seed, kwargs):
    assert run_aligned(task_id, steps, seed=seed, **kwargs) >= 1


def test_gray_observation_and_buttons_follow_the_cfg():
    # All four cfgs: GRAY8 at 160x120, one plane a frame.
    for task_id, buttons in [("D1Basic-v1", 3), ("D2Navigation-v1", 3), ("D3Battle-v1", 8)]:
        spec = envpool.make_spec(task_id)
        assert spec.observation_space.shape == (4, 84, 84)
        assert spec.action_space.shape == (buttons,)
    env = envpool.make_gymnasium("D4Battle2-v1", num_envs=2, seed=1)
    obs, info = env.reset()
    env.close()
    assert obs.shape == (2, 4, 84, 84) and obs.dtype == np.uint8
    assert obs.std() > 0  # the map is drawn, not a blank frame
    assert list(info["HEALTH"]) == [100.0, 100.0]
