"""locomotion against dm_control 1.0.50's soccer, on the same mujoco 3.17.0.

Nothing is copied between the two. The model: the MJCF text this family
writes for an episode must equal, line by line, Composer's
`to_xml_string()` of the same episode (asset file names aside: Composer
names its assets by content hash), and the compiled models array by array
(every array of mjModel but `tex_pathadr`, which points into those file
names, and the private `_sizes`, which counts their characters;
the head textures, which dm_control draws with PIL, included).

The episodes: env i of a pool made with `seed=s` plays
`soccer.load(..., random_state=np.random.RandomState(s + i))` after
`np.random.seed(s + i)` (the issue's contract); both take the same float64
actions, every player's observation (each key, to 1e-6; in practice they
agree to 1e-11), reward, and how each episode ends (a goal: terminated,
discount 0; the time limit: truncated) must agree at every step, across
NEXT_STEP autoresets (the reference's reset after its LAST step). Episodes
are cut with a short `time_limit` (the same option on both sides) to step
through several resets quickly; two runs follow seeds in which players
chasing the ball score (at step 276) and send the ball off the field (at
step 181: a throw-in).
"""

from __future__ import annotations

import json
import os
import re
import warnings
from pathlib import Path
from typing import Any

import locomotion_common as common  # this folder's test helpers
import numpy as np
import pytest

import envpool
from envpool.locomotion.registration import ASSET_DIR
from envpool.testing.published import check_spec
from envpool.testing.snapshots import check_snapshots

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import mujoco
    from dm_control.locomotion import soccer

# EnvPool 1.2.7's options and spaces of the soccer ids
# (reference/envpool127/env_specs.json).
SPECS = json.loads((Path(__file__).parent / "envpool127_soccer_specs.json").read_text())

WALKERS = {
    "DmcSoccerBoxhead-v1": "BOXHEAD",
    "DmcSoccerAnt-v1": "ANT",
}


def reference(seed: int, task_id: str = "DmcSoccerBoxhead-v1", **options: Any) -> Any:
    """The dm_control env that env `seed - s` of a pool seeded `s` plays."""
    return common.seeded_reference(
        soccer.load,
        seed,
        walker_type=soccer.WalkerType[WALKERS[task_id]],
        **common.soccer_load_kwargs(options),
    )


def chase(obs: dict[str, np.ndarray]) -> np.ndarray:
    """Every player rolls towards the ball and kicks."""
    ball = obs["ball_ego_position"][:, 0, :]
    heading = np.arctan2(ball[:, 1], ball[:, 0])
    action = np.ones((ball.shape[0], 3))
    action[:, 1] = np.clip(2 * heading, -1, 1)
    return action


def play(
    seed: int,
    steps: int,
    num_envs: int = 1,
    policy: str = "random",
    task_id: str = "DmcSoccerBoxhead-v1",
    **options: Any,
) -> dict[str, int]:
    """Steps a pool and its references in lockstep; counts what happened."""
    env, refs, obs, info, steps_ref = common.lockstep(
        task_id, seed, num_envs, lambda s: reference(s, task_id, **options), **options
    )
    players = env.spec.config.max_num_players
    action_dim = env.spec.action_space.shape[-1]
    rng = np.random.RandomState(seed)
    counts = {"goals": 0, "time_limits": 0, "throw_ins": 0}

    def compare(step: int) -> None:
        common.compare_player_observations(step, steps_ref, obs, info, players)

    compare(0)
    for step in range(1, steps + 1):
        if policy == "chase":
            order = np.argsort(info["players"]["env_id"], kind="stable")
            action = chase(obs)[order].reshape(num_envs, players, 3)
        else:
            action = rng.uniform(-1.2, 1.2, size=(num_envs, players, action_dim))
        for ref in refs:
            counts["throw_ins"] += bool(ref.task.arena.detected_off_court()) and not (
                # A throw-in happens in a step, not in a reset.
                ref._reset_next_step
            )
        obs, reward, terminated, truncated, info = env.step(action.reshape(-1, action_dim))
        steps_ref = [ref.step(list(action[i])) for i, ref in enumerate(refs)]
        compare(step)
        common.check_player_outcomes(step, steps_ref, reward, terminated, truncated, info, counts)
    env.close()
    return counts


def test_model_text_and_arrays_are_dm_controls() -> None:
    envpool.make_spec("DmcSoccerBoxhead-v1")  # loads the family
    from envpool.locomotion import _locomotion

    cases = [
        (0, {}),
        (5, {"team_size": 1}),
        (
            7,
            {
                "team_size": 3,
                "disable_walker_contacts": True,
                "enable_field_box": True,
                "keep_aspect_ratio": True,
            },
        ),
    ]
    files = re.compile(r'file(\w*)="[^"]*"')
    for seed, options in cases:
        ref = reference(seed, **options)
        ref.reset()
        root = ref.task.root_entity.mjcf_model
        length, width = ref.task.arena.size
        team_size = options.get("team_size", 2)
        ours = _locomotion.soccer_xml(
            team_size,
            options.get("disable_walker_contacts", False),
            options.get("enable_field_box", False),
            length,
            width,
        )
        ref_lines = root.to_xml_string().splitlines()
        our_lines = ours.splitlines()
        assert len(our_lines) == len(ref_lines)
        for ref_line, our_line in zip(ref_lines, our_lines, strict=True):
            assert files.sub("file", our_line) == files.sub("file", ref_line)
        model = mujoco.MjModel.from_xml_string(ours, common.model_files(ours))
        common.assert_same_model(
            model,
            ref.physics.model._model,
            skip=("tex_pathadr",),
            tex_data=_locomotion.soccer_tex_data(team_size, length, width),
        )


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (0, {}),
        (7, {"team_size": 3, "disable_walker_contacts": True, "enable_field_box": True}),
    ],
)
def test_ant_model_is_dm_controls(seed: int, options: dict[str, Any]) -> None:
    # The Ant is ant.xml of the wheel, prefixed per player: its text keeps
    # the file's own spelling of numbers and order of attributes, so the
    # compiled models are compared, names and every array.
    envpool.make_spec("DmcSoccerAnt-v1")
    from envpool.locomotion import _locomotion

    ref = reference(seed, "DmcSoccerAnt-v1", **options)
    ref.reset()
    length, width = ref.task.arena.size
    ours = _locomotion.soccer_xml(
        options.get("team_size", 2),
        options.get("disable_walker_contacts", False),
        options.get("enable_field_box", False),
        length,
        width,
        ant=True,
    )
    model = mujoco.MjModel.from_xml_string(ours, common.model_files(ours))
    common.assert_same_model(model, ref.physics.model._model, skip=("tex_pathadr",))


@pytest.mark.parametrize(
    ("seed", "num_envs", "options"),
    [
        (0, 2, {"time_limit": 0.5}),
        (2, 1, {"time_limit": 0.5, "team_size": 1, "keep_aspect_ratio": True}),
        (
            3,
            1,
            {
                "time_limit": 0.5,
                "team_size": 3,
                "enable_field_box": True,
                "disable_walker_contacts": True,
                "terminate_on_goal": False,
            },
        ),
    ],
)
def test_episodes_play_dm_controls_across_autoresets(
    seed: int, num_envs: int, options: dict[str, Any]
) -> None:
    counts = play(seed, 45, num_envs, **options)
    assert counts["time_limits"] >= 2 * num_envs


@pytest.mark.parametrize(
    ("seed", "num_envs", "options"),
    [
        (0, 2, {"time_limit": 0.25}),
        (
            3,
            1,
            {
                "time_limit": 0.25,
                "team_size": 3,
                "enable_field_box": True,
                "disable_walker_contacts": True,
                "terminate_on_goal": False,
                "keep_aspect_ratio": True,
            },
        ),
    ],
)
def test_ant_episodes_play_dm_controls_across_autoresets(
    seed: int, num_envs: int, options: dict[str, Any]
) -> None:
    counts = play(seed, 24, num_envs, task_id="DmcSoccerAnt-v1", **options)
    assert counts["time_limits"] >= 2 * num_envs


def test_a_goal_plays_dm_controls() -> None:
    # Seed 246, one player a side chasing the ball: a goal at step 276.
    counts = play(246, 280, policy="chase", team_size=1)
    assert counts["goals"] == 1, counts


def test_a_throw_in_plays_dm_controls() -> None:
    # Seed 445: the ball leaves the field at step 181 and is thrown in.
    counts = play(445, 186, policy="chase", team_size=1)
    assert counts["throw_ins"] >= 1, counts


def test_a_goal_does_not_end_the_game_without_terminate_on_goal() -> None:
    counts = play(246, 290, policy="chase", team_size=1, terminate_on_goal=False)
    assert counts["goals"] == 1 and counts["time_limits"] == 0, counts


def test_reset_states_are_dm_controls_bit_for_bit() -> None:
    # qpos and qvel after the reset, for seeds where numpy's arctan2 (SVML's
    # on AVX-512 CPUs) and libm's give a walker's heading different last
    # bits (1002, 1003 and 1015 on such a CPU).
    common.assert_reset_states_match(
        "DmcSoccerBoxhead-v1", range(1000, 1016), reference, compared=(1000, 1002, 1003, 1015)
    )


def test_ant_reset_states_are_dm_controls_bit_for_bit() -> None:
    # The free joint's heading quaternion is divided by np.linalg.norm.
    common.assert_reset_states_match(
        "DmcSoccerAnt-v1", range(1000, 1003), lambda seed: reference(seed, "DmcSoccerAnt-v1")
    )


ALIASES = {
    "DmcSoccerBoxhead-v1": "dm_control/locomotion/soccer_boxhead",
    "DmcSoccerAnt-v1": "dm_control/locomotion/soccer_ant",
}


@pytest.mark.parametrize("canonical", list(ALIASES))
def test_spaces_and_options_are_envpool_127s(canonical: str) -> None:
    for task_id in (canonical, ALIASES[canonical]):
        check_spec(task_id, SPECS[canonical])


def test_team_size_sets_the_players_and_their_keys() -> None:
    env = envpool.make("DmcSoccerBoxhead-v1", num_envs=2, seed=0, team_size=3)
    obs, _ = env.reset()
    assert env.spec.config.max_num_players == 6
    assert obs["body_height"].shape == (12, 1)
    assert "teammate_1_ego_position" in obs and "opponent_2_ego_position" in obs
    assert "teammate_2_ego_position" not in obs
    env.close()


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"team_size": 0}, ("team_size", "between 1 and 11")),
        ({"team_size": 12}, ("team_size", "between 1 and 11")),
        ({"time_limit": 0.0}, ("time_limit", "positive")),
        ({"task_name": "soccer_cat"}, ("task_name", "soccer_boxhead", "soccer_ant")),
    ],
)
def test_bad_option_values_are_value_errors(
    options: dict[str, Any], words: tuple[str, ...]
) -> None:
    with pytest.raises(ValueError) as error:
        envpool.make("DmcSoccerBoxhead-v1", **options)
    for word in words:
        assert word in str(error.value)


def test_an_unknown_option_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="team_size"):
        envpool.make("DmcSoccerBoxhead-v1", team_sizes=2)


@pytest.mark.parametrize(
    "action",
    [np.zeros((2, 3)), np.zeros((8, 2)), np.full((8, 3), np.nan)],
    ids=["one-row-per-env", "wrong-width", "nan"],
)
def test_bad_actions_are_errors_and_the_pool_goes_on(action: np.ndarray) -> None:
    env = envpool.make("DmcSoccerBoxhead-v1", num_envs=2, seed=0)
    env.reset()
    with pytest.raises(ValueError, match="action"):
        env.step(action)
    _, reward, terminated, _, _ = env.step(np.zeros((8, 3)))
    assert reward.shape == (8,) and not terminated.any()
    env.close()


@pytest.mark.parametrize(
    "action",
    [np.zeros((8, 3)), np.zeros((2, 8)), np.full((8, 8), np.inf)],
    ids=["boxhead-width", "one-row-per-env", "inf"],
)
def test_bad_ant_actions_are_errors_and_the_pool_goes_on(action: np.ndarray) -> None:
    env = envpool.make("DmcSoccerAnt-v1", num_envs=2, seed=0)
    env.reset()
    with pytest.raises(ValueError, match="action"):
        env.step(action)
    obs, reward, terminated, _, _ = env.step(np.zeros((8, 8)))
    assert reward.shape == (8,) and not terminated.any()
    assert obs["bodies_quats"].shape == (8, 1, 52)
    env.close()


def test_ant_pettingzoo_parallel_api() -> None:
    from pettingzoo.test import parallel_api_test

    par = envpool.make("DmcSoccerAnt-v1", env_type="pettingzoo", seed=0, time_limit=0.25)
    observations, _ = par.reset()
    assert par.agents == ["player_0", "player_1", "player_2", "player_3"]
    assert observations["player_3"]["appendages_pos"].shape == (1, 12)
    assert par.action_space("player_1").shape == (8,)
    parallel_api_test(par, num_cycles=30)
    par.close()


def test_pettingzoo_parallel_api() -> None:
    from pettingzoo.test import parallel_api_test

    par = envpool.make("DmcSoccerBoxhead-v1", env_type="pettingzoo", seed=0, time_limit=0.5)
    observations, _ = par.reset()
    assert par.agents == ["player_0", "player_1", "player_2", "player_3"]
    assert observations["player_2"]["ball_ego_position"].shape == (1, 3)
    parallel_api_test(par, num_cycles=50)
    par.close()


def test_dm_env_type_gives_per_player_rows() -> None:
    env = envpool.make("dm_control/locomotion/soccer_boxhead", env_type="dm", num_envs=2, seed=0)
    ts = env.reset()
    assert ts.observation.body_height.shape == (8, 1)
    ts = env.step(np.zeros((8, 3)))
    assert ts.reward.shape == (8,)
    env.close()


def test_missing_assets_name_the_file_and_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    from envpool.locomotion import registration

    monkeypatch.setattr(registration, "ASSET_DIR", os.path.join(ASSET_DIR, "nowhere"))
    with pytest.raises(ValueError, match=r"pitch_nologo_l\.png.*reinstall envpool"):
        envpool.make("DmcSoccerBoxhead-v1", seed=0)


def test_a_missing_ant_model_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from envpool.locomotion import registration

    # The soccer textures are there, the Ant's model is not.
    (tmp_path / "soccer").symlink_to(Path(ASSET_DIR) / "soccer")
    monkeypatch.setattr(registration, "ASSET_DIR", str(tmp_path))
    with pytest.raises(ValueError, match=r"ant\.xml.*reinstall envpool"):
        envpool.make("DmcSoccerAnt-v1", seed=0)


# -- Snapshots (docs/snapshots.md) ---------------------------------------------
# check_env (test_conformance.py) runs envpool.testing.snapshots'
# check_snapshots over every id with the default options; these cover the
# other options and the saves that check does not make.


@pytest.mark.parametrize(
    ("task_id", "options"),
    [
        ("DmcSoccerBoxhead-v1", {"team_size": 1, "terminate_on_goal": False}),
        (
            "DmcSoccerAnt-v1",
            {"team_size": 1, "disable_walker_contacts": True, "enable_field_box": True},
        ),
    ],
)
def test_snapshots_restore_exactly(task_id: str, options: dict[str, Any]) -> None:
    check_snapshots(task_id, num_envs=2, before=6, after=16, **options)


def steps_after(env: Any, actions: list[np.ndarray]) -> list[dict[str, np.ndarray]]:
    out = []
    for action in actions:
        obs, reward, terminated, truncated, _ = env.step(action)
        out.append({**obs, "reward": reward, "ended": terminated | truncated})
    return out


@pytest.mark.parametrize("task_id", list(WALKERS))
def test_a_state_saved_at_a_reset_or_a_pending_autoreset_restores_exactly(
    task_id: str,
) -> None:
    # Saved right after the reset (the derived quantities are the reset's
    # forward pass) and at the step that ends an episode (the autoreset is
    # pending), then restored into a pool of another seed: another pitch,
    # whose model the restore rebuilds.
    env = envpool.make(task_id, num_envs=1, seed=0, time_limit=0.1)
    twin = envpool.make(task_id, num_envs=1, seed=5, time_limit=0.1)
    width = env.spec.action_space.shape[-1]
    rng = np.random.RandomState(0)
    actions = [rng.uniform(-1, 1, (4, width)) for _ in range(7)]
    env.reset()
    twin.reset()
    at_reset = env.get_state()
    later = steps_after(env, actions)
    assert later[3]["ended"].all() and not later[2]["ended"].any()  # 4 steps of 25 ms
    env.set_state(at_reset)
    steps_after(env, actions[:4])
    at_pending_reset = env.get_state()
    for state, done in ((at_reset, 0), (at_pending_reset, 4)):
        twin.set_state(state)
        for got, want in zip(steps_after(twin, actions[done:]), later[done:], strict=True):
            for key, value in want.items():
                np.testing.assert_array_equal(got[key], value, err_msg=key)
    env.close()
    twin.close()
