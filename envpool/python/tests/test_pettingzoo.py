"""env_type="pettingzoo": PettingZoo's Parallel API over the pool.

On the test envs of test_multiplayer.py: TestDuel (two players acting at
once, per-player actions), TestTurns (the core's TurnEnv, turn-based: one
action per env played by info["current_player"]), and a single-player id.
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo import ParallelEnv
from pettingzoo.test import parallel_api_test

import envpool

envpool.register("TestDuel-v0", family="testing", env_class="TestDuel")
envpool.register("TestDuelBox-v0", family="testing", env_class="TestDuel", continuous=True)
envpool.register("TestTurns-v0", family="testing", env_class="TestTurns")
envpool.register("TestTeam-v0", family="testing", env_class="TestTeam")
envpool.register("TestCounter-v0", family="testing", env_class="TestCounter")


def registered_multi_player_ids() -> list[str]:
    """The families' ids with more than one player (each family's own tests
    check their values; this checks PettingZoo's contract on every one)."""
    ids = []
    for task_id in sorted(envpool.list_all_envs()):
        spec = envpool.make_spec(task_id)
        if spec.entry.family != "testing" and spec.config.max_num_players > 1:
            ids.append(task_id)
    return ids


@pytest.mark.parametrize(
    "task_id",
    [
        "TestDuel-v0",
        "TestDuelBox-v0",
        "TestTurns-v0",
        "TestCounter-v0",
        *registered_multi_player_ids(),
    ],
)
def test_pettingzoos_own_parallel_api_test_passes(task_id):
    env = envpool.make(task_id, env_type="pettingzoo", seed=3)
    assert isinstance(env, ParallelEnv)
    parallel_api_test(env, num_cycles=100)
    env.close()


def test_agents_spaces_and_values_match_the_batched_pool():
    par = envpool.make("TestDuel-v0", env_type="pettingzoo", seed=5)
    pool = envpool.make("TestDuel-v0", num_envs=1, seed=5)
    assert par.possible_agents == ["player_0", "player_1"]
    assert par.observation_space("player_1") == pool.observation_space
    assert par.action_space("player_0") == pool.action_space
    obs, infos = par.reset()
    pool_obs, _ = pool.reset()
    assert par.agents == ["player_0", "player_1"]
    for p, agent in enumerate(par.agents):
        np.testing.assert_array_equal(obs[agent], pool_obs[p])
        assert infos[agent]["player"] == p and infos[agent]["env_id"] == 0
    for step in range(1, 5):
        actions = {"player_0": step % 3, "player_1": (step + 1) % 3}
        obs, rewards, terminations, truncations, infos = par.step(actions)
        pool_obs, reward, terminated, truncated, _info = pool.step(
            np.array([actions["player_0"], actions["player_1"]])
        )
        for p, agent in enumerate(["player_0", "player_1"]):
            np.testing.assert_array_equal(obs[agent], pool_obs[p])
            assert rewards[agent] == reward[p] == actions[agent] + 10 * p
            assert terminations[agent] == bool(terminated[0])
            assert truncations[agent] == bool(truncated[0])
            assert infos[agent]["steps"] == step
    # the episode (4 steps) is over for both agents at once
    assert all(terminations.values()) and par.agents == []
    with pytest.raises(RuntimeError, match=r"episode has ended.*call reset"):
        par.step(actions)
    obs, _ = par.reset()
    assert par.agents == ["player_0", "player_1"] and obs["player_0"][1] == 0


def test_reset_seed_reproduces_and_observations_are_copies():
    par = envpool.make("TestTurns-v0", env_type="pettingzoo")
    first, _ = par.reset(seed=11)
    kept = first["player_0"].copy()
    par.step({"player_0": 2})
    np.testing.assert_array_equal(first["player_0"], kept)  # not overwritten
    again, _ = par.reset(seed=11)
    np.testing.assert_array_equal(again["player_0"], kept)


def test_turn_based_reads_only_the_current_players_action():
    par = envpool.make("TestTurns-v0", env_type="pettingzoo", seed=0)
    obs, infos = par.reset()
    start = int(obs["player_0"][0])
    assert par.agents == ["player_0", "player_1"]
    assert infos["player_0"]["active_agent"] == "player_0"
    assert infos["player_1"]["current_player"] == 0
    # player_1's action is ignored (and may be left out)
    obs, rewards, *_, infos = par.step({"player_0": 2, "player_1": 0})
    assert obs["player_0"][0] == obs["player_1"][0] == start + 3
    assert infos["player_0"]["active_agent"] == "player_1"
    assert obs["player_1"][1] == 1 and obs["player_0"][1] == 0
    with pytest.raises(ValueError, match="no action for agent 'player_1' \\(the current player\\)"):
        par.step({"player_0": 1})
    counter = start + 3
    mover = 1
    while True:
        obs, rewards, terminations, _truncations, infos = par.step({f"player_{mover}": 2})
        counter += 3
        if counter >= 10:
            break
        mover = 1 - mover
    assert all(terminations.values()) and par.agents == []
    assert rewards[f"player_{mover}"] == 1.0 and rewards[f"player_{1 - mover}"] == -1.0


def test_vector_of_parallel_envs_steps_in_one_batch():
    envs = envpool.make("TestDuel-v0", env_type="pettingzoo", num_envs=3, seed=7)
    assert len(envs) == 3 and all(isinstance(e, ParallelEnv) for e in envs)
    assert [e.env_id for e in envs] == [0, 1, 2]
    envs.reset(seed=7)
    # reset(seed=s) seeds env i with s + i, as a lone env reset with s + i
    turns = envpool.make("TestTurns-v0", env_type="pettingzoo", num_envs=8)
    alone = envpool.make("TestTurns-v0", env_type="pettingzoo")
    starts = [obs["player_0"][0] for obs, _ in turns.reset(seed=20)]
    assert starts == [alone.reset(seed=20 + i)[0]["player_0"][0] for i in range(8)]
    assert len(set(starts)) > 1
    actions = [{"player_0": i % 3, "player_1": (i + 1) % 3} for i in range(3)]
    results = envs.step(actions)
    for i, (obs, rewards, *_rest) in enumerate(results):
        assert rewards == {"player_0": i % 3, "player_1": (i + 1) % 3 + 10}
        assert obs["player_0"][1] == 1
    # None skips an env; an env of the vector also steps alone
    results = envs.step([None, actions[1], None])
    assert results[0] == ({}, {}, {}, {}, {}) and results[1][4]["player_0"]["steps"] == 2
    _, _, _, _, infos = envs[2].step(actions[2])
    assert infos["player_1"]["steps"] == 2 and envs[0].agents == ["player_0", "player_1"]
    with pytest.raises(ValueError, match="one dict of agent actions per env"):
        envs.step(actions[:2])
    envs.close()
    with pytest.raises(RuntimeError, match="closed"):
        envs[0].reset()


def test_bad_actions_are_clear_errors_and_the_env_goes_on():
    par = envpool.make("TestDuel-v0", env_type="pettingzoo", seed=0)
    par.reset()
    with pytest.raises(ValueError, match="no action for agent 'player_1'"):
        par.step({"player_0": 1})
    with pytest.raises(ValueError, match="'player_7' is not an agent of TestDuel-v0"):
        par.step({"player_0": 1, "player_1": 1, "player_7": 0})
    with pytest.raises(ValueError, match=r"player 1 is 5, but TestDuel-v0 takes 0\.\.2"):
        par.step({"player_0": 1, "player_1": 5})
    box = envpool.make("TestDuelBox-v0", env_type="pettingzoo", seed=0)
    box.reset()
    with pytest.raises(ValueError, match="player 0 contains NaN"):
        box.step({"player_0": np.array([np.nan, 0.0]), "player_1": np.zeros(2)})
    obs, rewards, *_ = par.step({"player_0": 1, "player_1": 2})
    assert obs["player_0"][1] == 1 and rewards == {"player_0": 1.0, "player_1": 12.0}


def test_configurations_it_cannot_serve_are_refused_at_make():
    with pytest.raises(ValueError, match="sync batches: batch_size must be num_envs=4"):
        envpool.make("TestDuel-v0", env_type="pettingzoo", num_envs=4, batch_size=2)
    with pytest.raises(ValueError, match="leave autoreset_mode out"):
        envpool.make("TestDuel-v0", env_type="pettingzoo", autoreset_mode="next_step")
    with pytest.raises(ValueError, match="cannot tell whose action it is"):
        envpool.make("TestTeam-v0", env_type="pettingzoo")


def test_render_gives_this_envs_frame():
    envs = envpool.make(
        "TestCounter-v0", env_type="pettingzoo", num_envs=2, render_mode="rgb_array"
    )
    envs.reset(seed=0)
    frames = [env.render() for env in envs]
    pool = envpool.make("TestCounter-v0", num_envs=2, seed=0, render_mode="rgb_array")
    pool.reset()
    expected = pool.render(env_ids=[0, 1])
    for frame, want in zip(frames, expected, strict=True):
        np.testing.assert_array_equal(frame, want)
    assert "rgb_array" in envs[0].metadata["render_modes"]


def test_an_env_of_the_vector_closes_alone_and_the_pool_with_the_last():
    envs = envpool.make("TestDuel-v0", env_type="pettingzoo", num_envs=2)
    envs.reset()
    envs[0].close()
    with pytest.raises(RuntimeError, match="env 0 of TestDuel-v0 is closed"):
        envs[0].reset()
    envs[1].step({"player_0": 0, "player_1": 0})  # the pool is still open
    envs[1].close()
    assert envs[1]._shared.closed


def test_without_pettingzoo_the_error_says_what_to_install(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    with pytest.raises(ImportError, match="pip install pettingzoo"):
        envpool.make("TestDuel-v0", env_type="pettingzoo")
