"""Bad options and actions of the one-walker ids (the CMU humanoid's and the
rodent's): a bad option value is a ValueError naming the option and what it
accepts; a bad action is a ValueError, after which the pool goes on."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("MUJOCO_GL", "egl")

import envpool

GO_TO_TARGET = "DmcCmuHumanoidGoToTarget-v1"
RUN_WALLS = "DmcCmuHumanoidRunWalls-v1"
RUN_GAPS = "DmcCmuHumanoidRunGaps-v1"
ESCAPE_BOWL = "DmcRodentEscapeBowl-v1"
RODENT_RUN_GAPS = "DmcRodentRunGaps-v1"
RODENT_MAZE = "DmcRodentMazeForage-v1"
CMU_MAZE = "DmcCmuHumanoidMazeForage-v1"
CMU_HETEROGENEOUS = "DmcCmuHumanoidHeterogeneousForage-v1"
# The width of each id's action: the CMU humanoid's 56 position actuators,
# the rodent's 38.
ACTION_WIDTH = {
    GO_TO_TARGET: 56,
    RUN_GAPS: 56,
    ESCAPE_BOWL: 38,
    RODENT_RUN_GAPS: 38,
    RODENT_MAZE: 38,
    CMU_HETEROGENEOUS: 56,
}


@pytest.mark.parametrize(
    ("task_id", "options", "words"),
    [
        (GO_TO_TARGET, {"team_size": 3}, ("team_size", "soccer's")),
        (GO_TO_TARGET, {"terminate_on_goal": False}, ("terminate_on_goal", "defaults")),
        (GO_TO_TARGET, {"time_limit": -1.0}, ("time_limit", "positive")),
        (GO_TO_TARGET, {"task_name": "soccer_ant"}, ("task_name", "cmu_humanoid_go_to_target")),
        (RUN_WALLS, {"team_size": 3}, ("team_size", "soccer's")),
        (RUN_WALLS, {"keep_aspect_ratio": True}, ("keep_aspect_ratio", "defaults")),
        (RUN_WALLS, {"time_limit": 0.0}, ("time_limit", "positive")),
        (
            RUN_WALLS,
            {"task_name": "cmu_humanoid_go_to_target"},
            ("task_name", "cmu_humanoid_run_gaps"),
        ),
        (ESCAPE_BOWL, {"team_size": 3}, ("team_size", "soccer's")),
        (ESCAPE_BOWL, {"time_limit": 0.0}, ("time_limit", "positive")),
        (ESCAPE_BOWL, {"task_name": "soccer_ant"}, ("task_name", "rodent_escape_bowl")),
        (ESCAPE_BOWL, {"task_name": "rodent_two_touch"}, ("task_name", "rodent_escape_bowl")),
        (RODENT_RUN_GAPS, {"enable_field_box": True}, ("enable_field_box", "defaults")),
        (RODENT_RUN_GAPS, {"time_limit": -2.0}, ("time_limit", "positive")),
        (RODENT_RUN_GAPS, {"task_name": "rodent_escape_bowl"}, ("task_name", "rodent_run_gaps")),
        (RODENT_MAZE, {"team_size": 1}, ("team_size", "soccer's")),
        (RODENT_MAZE, {"time_limit": 0.0}, ("time_limit", "positive")),
        (RODENT_MAZE, {"task_name": "rodent_run_gaps"}, ("task_name", "rodent_maze_forage")),
        (CMU_MAZE, {"disable_walker_contacts": True}, ("disable_walker_contacts", "defaults")),
        (CMU_MAZE, {"time_limit": -1.0}, ("time_limit", "positive")),
        (
            CMU_MAZE,
            {"task_name": "cmu_humanoid_heterogeneous_forage"},
            ("task_name", "cmu_humanoid_maze_forage"),
        ),
        (CMU_HETEROGENEOUS, {"team_size": 4}, ("team_size", "soccer's")),
        (
            CMU_HETEROGENEOUS,
            {"task_name": "cmu_humanoid_maze_forage"},
            ("task_name", "cmu_humanoid_heterogeneous_forage"),
        ),
    ],
)
def test_bad_option_values_are_value_errors(
    task_id: str, options: dict[str, Any], words: tuple[str, ...]
) -> None:
    with pytest.raises(ValueError) as error:
        envpool.make(task_id, **options)
    for word in words:
        assert word in str(error.value)


@pytest.mark.parametrize("task_id", list(ACTION_WIDTH))
def test_bad_actions_are_errors_and_the_pool_goes_on(task_id: str) -> None:
    # One pool per id (a rodent's reset takes seconds on a CPU): each bad
    # action is refused and the next good step goes on.
    width = ACTION_WIDTH[task_id]
    env = envpool.make(task_id, num_envs=2, seed=0)
    env.reset()
    bad_actions = {
        "wrong-width": np.zeros((2, 8)),
        "one-row": np.zeros((1, width)),
        "nan": np.full((2, width), np.nan),
    }
    for bad, action in bad_actions.items():
        with pytest.raises(ValueError, match="action"):
            env.step(action)
        obs, reward, _, _, _ = env.step(np.zeros((2, width)))
        assert reward.shape == (2,) and obs["walker/joints_pos"].shape[0] == 2, bad
        if "walker/egocentric_camera" in obs:
            assert obs["walker/egocentric_camera"].shape == (2, 64, 64, 3), bad
    env.close()
