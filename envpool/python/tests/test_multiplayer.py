"""Multi-player rows and per-player actions through the Python API.

TestTeam (the core's TeamEnv): env k has a seed-dependent number of players
(1..3), one action per env; each player row holds its player index as
observation and `action * player index` as reward.

TestDuel (DuelEnv): two players acting at once, one action per player (the
actions of env i consecutive in player order); player p's observation is
(p, steps, its last action), its reward its last action + 10 p; episodes end
after 4 steps.
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import envpool

envpool.register("TestTeam-v0", family="testing", env_class="TestTeam")
envpool.register("TestDuel-v0", family="testing", env_class="TestDuel")
envpool.register("TestDuelBox-v0", family="testing", env_class="TestDuel", continuous=True)
envpool.register("TestDuelDrop-v0", family="testing", env_class="TestDuel", drop_player_at_step=2)
envpool.register("TestSolo-v0", family="testing", env_class="TestTeam", players=1)


def test_player_rows_carry_their_env_id_and_reward():
    env = envpool.make("TestTeam-v0", num_envs=4, seed=0)
    assert env.spec.config.max_num_players == 3
    obs, info = env.reset()
    players = info["players"]["env_id"]
    assert obs.shape == (len(players),) and 4 <= len(players) <= 12
    assert sorted(set(players.tolist())) == [0, 1, 2, 3]
    obs, reward, terminated, truncated, info = env.step(np.array([2, 1, 2, 1]))
    assert reward.shape == obs.shape == info["players"]["env_id"].shape
    actions = {0: 2, 1: 1, 2: 2, 3: 1}
    for row, env_id in enumerate(info["players"]["env_id"].tolist()):
        assert reward[row] == actions[env_id] * obs[row]
    # TeamEnv's observation is the player's index: info["players"]["id"] too
    np.testing.assert_array_equal(info["players"]["id"], obs)
    # per-env arrays stay one row per env
    assert terminated.shape == truncated.shape == (4,)


def test_dm_observation_spec_names_each_players_entry():
    players = envpool.make("TestTeam-v0", env_type="dm", num_envs=2).observation_spec().players
    assert players.env_id.name == "env_id"
    assert players.id.name == "id"
    assert players.id.dtype == np.int32


def test_an_env_of_one_player_has_a_row_per_env_in_arrays_declared_per_player():
    # A family may declare its observation per player whatever a game's
    # player count (pgx's Play2048 has one player): one player, one row per env.
    env = envpool.make("TestSolo-v0", env_type="gymnasium", num_envs=3)
    assert env.spec.config.max_num_players == 1
    obs, _ = env.reset()
    assert obs.shape[0] == 3
    obs, _ = env.reset(env_id=np.array([1]))
    assert obs.shape[0] == 1
    obs, *_ = env.step(np.zeros(2, np.int64), np.array([0, 2]))
    assert obs.shape[0] == 2


def test_player_counts_follow_the_seed():
    def counts(seed):
        _, info = envpool.make("TestTeam-v0", num_envs=6, seed=seed).reset()
        return np.bincount(info["players"]["env_id"], minlength=6).tolist()

    assert counts(1) == counts(1)
    assert any(counts(s) != counts(1) for s in range(2, 6))


def duel_actions(env_ids, step: int) -> np.ndarray:
    """Player p of env i plays (i + p + step) % 3: rows env by env, in player order."""
    return np.array([(i + p + step) % 3 for i in env_ids for p in range(2)])


def check_duel_rows(obs, reward, info, actions_by_env) -> None:
    """Each player row shows its own action, and its reward is action + 10 p."""
    players = info["players"]["env_id"]
    for row, env_id in enumerate(players.tolist()):
        player = int(obs[row][0])
        own = actions_by_env[env_id][player]
        if obs[row][1] > 0:  # stepped, not (auto)reset
            assert obs[row][2] == own
            assert reward[row] == own + 10 * player


def test_per_player_actions_reach_each_player_sync():
    env = envpool.make("TestDuel-v0", num_envs=3, seed=0)
    assert env.action_space == gymnasium.spaces.Discrete(3)
    assert env.spec.config.max_num_players == 2
    obs, info = env.reset()
    assert obs.shape == (6, 3)
    for step in range(1, 9):
        actions = duel_actions(range(3), step)
        obs, reward, terminated, _truncated, info = env.step(actions)
        assert reward.shape == (6,) and terminated.shape == (3,)
        by_env = {i: actions[2 * i : 2 * i + 2] for i in range(3)}
        check_duel_rows(obs, reward, info, by_env)
        # info:steps is per env: one row per env, matching elapsed_step
        assert info["steps"].tolist() == info["elapsed_step"].tolist()
    # (n, players) is the same batch, grouped by env
    grouped = env.step(duel_actions(range(3), 9).reshape(3, 2))
    assert grouped[1].shape == (6,)


def test_per_player_actions_async():
    env = envpool.make("TestDuel-v0", num_envs=6, batch_size=2, seed=0)
    env.async_reset()
    seen = 0
    last = {}
    for step in range(30):
        obs, reward, _terminated, _truncated, info = env.recv()
        ids = info["env_id"]
        assert len(ids) == 2 and len(info["players"]["env_id"]) == 4
        check_duel_rows(obs, reward, info, {i: last.get(i, (0, 0)) for i in ids.tolist()})
        actions = duel_actions(ids.tolist(), step)
        for k, i in enumerate(ids.tolist()):
            last[i] = tuple(actions[2 * k : 2 * k + 2])
        env.send(actions, ids)
        seen += 1
    assert seen == 30


@pytest.mark.parametrize("mode", ["next_step", "same_step", "disabled"])
@pytest.mark.parametrize("env_type", ["gymnasium", "gym", "dm"])
def test_per_player_actions_in_every_autoreset_mode_and_api(mode, env_type):
    env = envpool.make("TestDuel-v0", env_type=env_type, num_envs=2, seed=0, autoreset_mode=mode)
    env.reset()
    ended = 0
    for step in range(1, 12):
        actions = duel_actions(range(2), step)
        if env_type == "dm":
            ts = env.step(actions)
            reward, last = ts.reward, ts.step_type == 2
            assert reward.shape == (4,)
            ended += int(last.sum())
            if mode == "disabled" and last.any():
                env.reset(np.flatnonzero(last))
            continue
        obs, reward, terminated, _truncated, info = env.step(actions)
        check_duel_rows(obs, reward, info, {i: actions[2 * i : 2 * i + 2] for i in range(2)})
        ended += int(terminated.sum())
        if mode == "same_step" and terminated.any():
            i = int(np.flatnonzero(terminated)[0])
            # the last observation of env i's episode: its two player rows
            final = info["final_obs"][i]
            assert final.shape == (2, 3) and final[:, 1].tolist() == [4, 4]
            assert final[:, 2].tolist() == list(actions[2 * i : 2 * i + 2])
        if mode == "disabled" and terminated.any():
            env.reset(np.flatnonzero(terminated))
    assert ended >= 4


def test_wrong_number_of_actions_is_a_clear_error_and_the_pool_goes_on():
    env = envpool.make("TestDuel-v0", num_envs=3, seed=0)
    env.reset()
    with pytest.raises(ValueError, match=r"one row per player: shape \(6,\) for 3 envs of 2"):
        env.step(np.zeros(3, dtype=np.int64))  # one per env
    with pytest.raises(
        ValueError, match=r"action for env 2 player 1 is 3, but TestDuel-v0 takes 0\.\.2"
    ):
        env.step(np.array([0, 0, 0, 0, 0, 3]))
    with pytest.raises(ValueError, match="env_id 3 is out of range"):
        env.step(np.zeros(2, dtype=np.int64), np.array([3]))
    # nothing was stepped: the next good step is each env's first
    _obs, _reward, _terminated, _truncated, info = env.step(duel_actions(range(3), 1))
    assert info["elapsed_step"].tolist() == [1, 1, 1]


def test_nan_in_a_per_player_box_action_is_a_clear_error():
    env = envpool.make("TestDuelBox-v0", num_envs=2, seed=0)
    assert env.action_space.shape == (2,)
    env.reset()
    bad = np.zeros((4, 2))
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="action for env 1 player 1 contains NaN at index 1"):
        env.step(bad)
    good = np.array([[0.5, 0.25], [0, 0], [-1, 1], [1, 1]])
    obs, reward, _, _, info = env.step(good)
    players = info["players"]["env_id"]
    rows = {(int(e), int(o[0])): r for e, o, r in zip(players, obs, reward, strict=True)}
    assert rows[(0, 0)] == 0.75 and rows[(1, 1)] == 2 + 10


def test_make_vec_batches_one_action_row_per_player():
    env = gymnasium.make_vec("envpool/TestDuel-v0", num_envs=3)
    assert env.action_space.shape == (6,)
    env.reset(seed=0)
    env.step(env.action_space.sample())
    env.close()


def env_order(players, *arrays):
    """The player rows sorted by env (an env's rows keep their player order):
    two pools may finish their envs in different orders."""
    order = np.argsort(np.asarray(players), kind="stable")
    return [np.asarray(a)[order] for a in (players, *arrays)]


def test_xla_steps_per_player_actions_as_the_python_api():
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    env = envpool.make("TestDuel-v0", num_envs=3, seed=0)
    ref = envpool.make("TestDuel-v0", num_envs=3, seed=0)
    env.reset()
    ref.reset()
    handle, _recv, _send, step = env.xla()
    jitted = jax.jit(step)
    for t in range(1, 7):
        actions = duel_actions(range(3), t)
        handle, (obs, reward, terminated, _, info) = jitted(handle, jnp.asarray(actions))
        want_obs, want_reward, want_terminated, _, want_info = ref.step(actions)
        assert obs.shape == (6, 3) and reward.shape == (6,)
        got = env_order(info["players"]["env_id"], obs, reward)
        want = env_order(want_info["players"]["env_id"], want_obs, want_reward)
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(np.asarray(terminated), want_terminated)
    # one action per env is refused inside jit too
    with pytest.raises(Exception, match="takes one row per player"):
        jitted(handle, jnp.zeros(3, jnp.int32))


def test_xla_pads_the_player_rows_of_envs_with_fewer_players():
    jax = pytest.importorskip("jax")
    env = envpool.make("TestTeam-v0", num_envs=4, seed=0)
    ref = envpool.make("TestTeam-v0", num_envs=4, seed=0)
    env.reset()
    ref.reset()
    handle, _recv, _send, step = env.xla()
    handle, (obs, reward, *_, info) = step(handle, jax.numpy.full(4, 2))
    want_obs, want_reward, *_, want_info = ref.step(np.full(4, 2))
    rows = len(want_obs)
    assert obs.shape == (12,) and rows < 12  # 4 envs of up to 3 players
    players = np.asarray(info["players"]["env_id"])
    assert (players[rows:] == -1).all() and (np.asarray(obs)[rows:] == 0).all()
    got = env_order(players[:rows], np.asarray(obs)[:rows], np.asarray(reward)[:rows])
    want = env_order(want_info["players"]["env_id"], want_obs, want_reward)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)


def test_an_env_with_per_player_actions_must_keep_its_players():
    env = envpool.make("TestDuelDrop-v0", num_envs=2, seed=0)
    env.reset()
    env.step(duel_actions(range(2), 1))
    with pytest.raises(RuntimeError, match="has 1 players, but an env with per-player actions"):
        env.step(duel_actions(range(2), 2))
