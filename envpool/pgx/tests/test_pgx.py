"""The pgx family plays pgx 2.6.0's games exactly, keys included.

Env i of `make(id, seed=s)` plays, in its episode j, pgx's game from
`init(K)` with K = fold_in(PRNGKey(s + i), j), its t-th step keyed
fold_in(K, t) (docs/pgx.md).  Each test plays whole games of random legal
moves on a pool and on pgx (its `init`/`step`/`observe` jitted once per
game) and compares at every step every observation row, reward row,
legal_action_mask, current_player, terminated and truncated.
"""

from __future__ import annotations

import functools
import importlib
import os
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest

import envpool

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
pgx = pytest.importorskip("pgx")

# id -> pgx's env id, or its constructor where pgx.make has none.
GAMES: dict[str, Any] = {
    "TicTacToe-v1": "tic_tac_toe",
    "ConnectFour-v1": "connect_four",
    "Othello-v1": "othello",
    "Hex-v1": "hex",
    "Play2048-v1": "2048",
    "KuhnPoker-v1": "kuhn_poker",
    "LeducHoldem-v1": "leduc_holdem",
    "AnimalShogi-v1": "animal_shogi",
    "Backgammon-v1": "backgammon",
    "Chess-v1": "chess",
    "GardnerChess-v1": "gardner_chess",
    "Go9x9-v1": "go_9x9",
    "Go13x13-v1": lambda: importlib.import_module("pgx.go").Go(size=13, komi=7.5),
    "Go19x19-v1": "go_19x19",
    "SparrowMahjong-v1": "sparrow_mahjong",
    "Shogi-v1": "shogi",
    # pgx's Go, a repeating move illegal (superko_moves) rather than lost.
    "ChineseGo9x9-v1": "go_9x9",
    "ChineseGo13x13-v1": lambda: importlib.import_module("pgx.go").Go(size=13, komi=7.5),
    "ChineseGo19x19-v1": "go_19x19",
}
CHINESE_GO = {"ChineseGo9x9-v1", "ChineseGo13x13-v1", "ChineseGo19x19-v1"}


def superko_moves(game: Any, state: Any) -> Any:
    """The points where a move of pgx's Go would repeat an earlier position
    (pgx's is_psk after that move): the moves the ChineseGo ids forbid."""
    go = importlib.import_module("pgx._src.games.go")
    x = state._x._replace(ko=jnp.int32(-1))
    size = game._game.size

    def repeats(action: Any) -> Any:
        after = go._apply_action(x, action, size)
        hashes = after.hash_history.at[after.step_count].set(go._compute_hash(after))
        return go._is_psk(after._replace(hash_history=hashes))

    return jax.vmap(repeats)(jnp.arange(size * size))


def make_reference(task_id: str) -> Any:
    game = GAMES[task_id]
    return pgx.make(game) if isinstance(game, str) else game()


# id -> pgx's state fields that EnvPool 1.2.7's game-specific info keys
# report, as this family lays them out (docs/pgx.md).
INFO_FIELDS: dict[str, Any] = {
    # pgx's board (square = 4 * column + row, from the mover's side) on the
    # observation's grid: row r, column c is square (2 - c) * 4 + r.
    "AnimalShogi-v1": lambda state: {
        "board": state._board.reshape(3, 4)[::-1].T,
        "hand": state._hand,
        "turn": state._turn,
    },
}


@functools.cache
def reference(task_id: str) -> tuple[Any, Any, int]:
    """pgx's game for `task_id` as one jitted function, compiled once per game.

    advance(state, action, K, restart) is init(K) where `restart`, else
    step(state, action, fold_in(K, t)) for the state's t-th step.  It
    returns the new state and what a pool reports of it: every player's
    observation, the rewards, legal_action_mask, current_player, terminated,
    truncated and the info fields, fetched in one transfer per step.  Also
    returns a placeholder state (zeros) to restart from, and the players.
    """
    game = make_reference(task_id)
    players = game.num_players
    info_fields = INFO_FIELDS.get(task_id, lambda state: {})

    def legal_action_mask(state: Any) -> Any:
        mask = state.legal_action_mask
        if task_id not in CHINESE_GO:
            return mask
        allowed = mask[:-1] & ~superko_moves(game, state)
        return jnp.where(state.terminated, mask, mask.at[:-1].set(allowed))

    def report(state: Any) -> tuple[Any, ...]:
        with warnings.catch_warnings():  # observe(state, p) is deprecated, still pgx's
            warnings.simplefilter("ignore", DeprecationWarning)
            obs = jnp.stack([game.observe(state, p) for p in range(players)])
        return (
            obs,
            state.rewards,
            legal_action_mask(state),
            state.current_player,
            state.terminated,
            state.truncated,
            info_fields(state),
        )

    def advance(state: Any, action: Any, key: Any, restart: Any) -> tuple[Any, tuple[Any, ...]]:
        state = jax.lax.cond(
            restart,
            lambda: game.init(key),
            lambda: game.step(state, action, jax.random.fold_in(key, state._step_count + 1)),
        )
        return state, report(state)

    shapes = jax.eval_shape(game.init, jax.random.PRNGKey(0))
    placeholder = jax.tree.map(lambda x: jnp.zeros(x.shape, x.dtype), shapes)
    return jax.jit(advance), placeholder, players


def env_key(seed: int, env_id: int, episode: int) -> Any:
    return jax.random.fold_in(jax.random.PRNGKey(seed + env_id), episode)


def rows_by_env(info: dict[str, Any], num_envs: int, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Player rows per (env, player) and the per-env row of each env.

    An env's players fill consecutive rows, in player order; per-env arrays
    have one row per env in the order of info["env_id"].
    """
    env_of_row = np.asarray(info["players"]["env_id"])
    rows = np.zeros((num_envs, players), np.int64)
    for env_id in range(num_envs):
        where = np.flatnonzero(env_of_row == env_id)
        assert len(where) == players and np.all(np.diff(where) == 1), env_of_row
        rows[env_id] = where
    slots = np.argsort(np.asarray(info["env_id"]))
    return rows, slots


def play(task_id: str, seed: int, num_envs: int, steps: int, games: int = 0) -> int:
    """Random legal play for `steps` pool steps, or until `games` games have
    ended and their envs been autoreset; returns how many games ended."""
    advance, placeholder, players = reference(task_id)
    env = envpool.make(task_id, num_envs=num_envs, seed=seed)
    rng = np.random.default_rng(seed)
    episode = [0] * num_envs
    keys = [env_key(seed, i, 0) for i in range(num_envs)]
    states, reports = [], []
    for key in keys:
        state, report = advance(placeholder, np.int32(0), key, np.True_)
        states.append(state)
        reports.append(jax.device_get(report))
    obs, info = env.reset()
    reward = np.zeros(num_envs * players, np.float32)
    terminated = truncated = np.zeros(num_envs, bool)
    finished = 0
    for t in range(steps + 1):
        rows, slots = rows_by_env(info, num_envs, players)
        for i in range(num_envs):
            pgx_obs, rewards, mask, player, done, cut, fields = reports[i]
            what = f"{task_id} seed {seed} env {i} episode {episode[i]} step {t}"
            np.testing.assert_array_equal(obs[rows[i]], pgx_obs.astype(obs.dtype), what)
            np.testing.assert_array_equal(reward[rows[i]], rewards, what)
            np.testing.assert_array_equal(info["legal_action_mask"][slots[i]], mask, what)
            assert info["current_player"][slots[i]] == player, what
            assert terminated[slots[i]] == done, what
            assert truncated[slots[i]] == cut, what
            for key, value in fields.items():
                np.testing.assert_array_equal(info[key][slots[i]], value, f"{what}: {key}")
        if t == steps or (games and finished >= games):
            break
        actions = np.zeros(num_envs, np.int64)
        for i in range(num_envs):
            if not reports[i][4]:  # a legal move of the game in play
                actions[i] = rng.choice(np.flatnonzero(info["legal_action_mask"][slots[i]]))
        obs, reward, terminated, truncated, info = env.step(actions)
        for i in range(num_envs):
            if reports[i][4]:  # NEXT_STEP autoreset: this step starts episode j + 1
                finished += 1
                episode[i] += 1
                keys[i] = env_key(seed, i, episode[i])
            restart = np.bool_(reports[i][4])
            states[i], report = advance(states[i], np.int32(actions[i]), keys[i], restart)
            reports[i] = jax.device_get(report)
    return finished


# ENVPOOL_TEST_ALL=1: two envs' whole games of every id and more seeds
# (minutes); else a sample that keeps the file near a minute: one whole game
# of every id, the other seeds for the games that deal from the key.
ALL = bool(os.environ.get("ENVPOOL_TEST_ALL"))

# Steps for a few whole games of random play of each game (2048's last the
# longest: one to three hundred moves).
WHOLE_GAME_STEPS = {
    "TicTacToe-v1": 30,
    "ConnectFour-v1": 70,
    "Othello-v1": 140,
    "Hex-v1": 200,
    "Play2048-v1": 300,
    "KuhnPoker-v1": 12,
    "LeducHoldem-v1": 20,
    "AnimalShogi-v1": 120,
    "Backgammon-v1": 400,
    "Chess-v1": 530,
    "GardnerChess-v1": 270,
    # Random Go rarely passes twice: it ends at 2 * size * size moves or on
    # a repeated position.
    "Go9x9-v1": 170,
    "Go13x13-v1": 340,
    "Go19x19-v1": 730,
    "SparrowMahjong-v1": 40,  # at most 29 discards
    "Shogi-v1": 520,  # random play rarely mates: 512 moves
    "ChineseGo9x9-v1": 170,
    "ChineseGo13x13-v1": 340,
    "ChineseGo19x19-v1": 730,
}


# Seeds other than 0 whose first games reach what the sample must cover:
# SparrowMahjong's seed 1 ends on a score of -6, whose reward -6 / 26 is
# JAX's -6 * (1 / 26), one ulp off the division; ChineseGo9x9's seed 1 has a
# position where a move would repeat an earlier one (masked out); Shogi's
# seed 1 has pawn drops that would mate (masked out) and ends in a mate.
WHOLE_GAME_SEEDS = {"SparrowMahjong-v1": 1, "ChineseGo9x9-v1": 1, "Shogi-v1": 1}


@pytest.mark.parametrize("task_id", sorted(GAMES))
def test_whole_games_match_pgx(task_id: str) -> None:
    """Every id, in the sample too: play until a game has ended and its env
    been autoreset (ENVPOOL_TEST_ALL=1: both envs' games and more)."""
    seed, steps = WHOLE_GAME_SEEDS.get(task_id, 0), WHOLE_GAME_STEPS[task_id]
    if ALL:
        finished = play(task_id, seed=seed, num_envs=2, steps=steps)
        assert finished >= 2  # whole games, and the autoresets after them, were compared
    else:
        finished = play(task_id, seed=seed, num_envs=2, steps=steps, games=1)
        assert finished >= 1


# 2**32 - 1: env 1's seed 2**32 keeps its low 32 bits, PRNGKey(0)'s key.
OTHER_SEEDS = [1, 2**32 - 1, 123456789] if ALL else [2**32 - 1]
OTHER_SEED_IDS = (
    sorted(GAMES) if ALL else ["KuhnPoker-v1", "LeducHoldem-v1", "Play2048-v1", "SparrowMahjong-v1"]
)


@pytest.mark.parametrize("task_id", OTHER_SEED_IDS)
@pytest.mark.parametrize("seed", OTHER_SEEDS)
def test_other_seeds_match_pgx(task_id: str, seed: int) -> None:
    play(task_id, seed=seed, num_envs=2, steps=15)


# pgx's num_players, num_actions and observation_shape (EnvPool 1.2.7's too).
SPACES = {
    "TicTacToe-v1": (2, 9, (3, 3, 2)),
    "ConnectFour-v1": (2, 7, (6, 7, 2)),
    "Othello-v1": (2, 65, (8, 8, 2)),
    "Hex-v1": (2, 122, (11, 11, 4)),
    "Play2048-v1": (1, 4, (4, 4, 31)),
    "KuhnPoker-v1": (2, 2, (7,)),
    "LeducHoldem-v1": (2, 3, (34,)),
    "AnimalShogi-v1": (2, 132, (4, 3, 194)),
    "Backgammon-v1": (2, 156, (34,)),
    "Chess-v1": (2, 4672, (8, 8, 119)),
    "GardnerChess-v1": (2, 1225, (5, 5, 115)),
    "Go9x9-v1": (2, 82, (9, 9, 17)),
    "Go13x13-v1": (2, 170, (13, 13, 17)),
    "Go19x19-v1": (2, 362, (19, 19, 17)),
    "SparrowMahjong-v1": (3, 11, (11, 15)),
    "Shogi-v1": (2, 2187, (9, 9, 119)),
    "ChineseGo9x9-v1": (2, 82, (9, 9, 17)),
    "ChineseGo13x13-v1": (2, 170, (13, 13, 17)),
    "ChineseGo19x19-v1": (2, 362, (19, 19, 17)),
}


# EnvPool 1.2.7's game-specific info keys: (dtype, shape per env).
GAME_INFO = {
    "AnimalShogi-v1": {
        "board": (np.int32, (4, 3)),
        "hand": (np.int32, (2, 3)),
        "turn": (np.int32, ()),
    },
}


# EnvPool 1.2.7's observation spaces that are not MultiBinary (int8 0/1):
# planes with fractions (float32 Box(0, 1)) and Backgammon's counts.
NOT_BINARY = {
    "AnimalShogi-v1": np.float32,
    "Chess-v1": np.float32,
    "GardnerChess-v1": np.float32,
    "Backgammon-v1": np.int32,
}


@pytest.mark.parametrize("task_id", sorted(GAMES))
def test_spaces_and_info(task_id: str) -> None:
    players, actions, shape = SPACES[task_id]
    env = envpool.make(task_id, num_envs=2, seed=0)
    assert env.spec.config.max_num_players == players
    assert env.action_space.n == actions
    assert env.observation_space.shape == shape
    obs, info = env.reset()
    assert obs.shape == (2 * players, *shape)
    assert obs.dtype == NOT_BINARY.get(task_id, np.int8)
    if players > 1:  # each row's player: the rows of an env in player order
        assert info["players"]["id"].tolist() == list(range(players)) * 2
    assert info["legal_action_mask"].shape == (2, actions)
    assert info["legal_action_mask"].dtype == np.bool_
    assert info["current_player"].dtype == np.int32
    common = {"env_id", "players", "elapsed_step", "current_player", "legal_action_mask"}
    extra = GAME_INFO.get(task_id, {})
    assert set(info) == common | set(extra)
    for key, (dtype, shape) in extra.items():
        assert info[key].dtype == dtype and info[key].shape == (2, *shape), key


@pytest.mark.parametrize("task_id", sorted(GAMES))
def test_observation_spaces_are_enpools_in_every_env_type(task_id: str) -> None:
    """MultiBinary (int8) where EnvPool 1.2.7 declares it, else a Box; dm_env:
    a BoundedArray of the same dtype and bounds. Observations lie inside."""
    _, _, shape = SPACES[task_id]
    binary = task_id not in NOT_BINARY
    for env_type in ("gymnasium", "gym"):
        env = envpool.make(task_id, env_type=env_type, num_envs=2, seed=0)
        space = env.single_observation_space
        if binary:
            assert isinstance(space, gymnasium.spaces.MultiBinary), space
            assert repr(space) == f"MultiBinary({shape})"  # EnvPool 1.2.7's repr
        else:
            assert isinstance(space, gymnasium.spaces.Box), space
        assert space.shape == shape and space.dtype == NOT_BINARY.get(task_id, np.int8)
        obs, info = env.reset()
        for _ in range(3):
            assert obs.dtype == space.dtype
            assert all(space.contains(row) for row in obs), task_id
            legal = info["legal_action_mask"]
            obs, *_, info = env.step(np.array([np.flatnonzero(m)[-1] for m in legal]))
    spec = envpool.make(task_id, env_type="dm", num_envs=2).observation_spec().obs
    assert spec.shape == shape and spec.dtype == NOT_BINARY.get(task_id, np.int8)
    if binary:
        assert (spec.minimum, spec.maximum) == (0, 1)


def test_go_options() -> None:
    spec = envpool.make_spec("Go9x9-v1", history_length=2)
    assert spec.observation_space.shape == (9, 9, 5)
    with pytest.raises(ValueError, match=r"'rules' must be \"pgx\" .* or \"chinese\""):
        envpool.make("Go9x9-v1", rules="japanese")
    assert envpool.make_spec("ChineseGo9x9-v1").config.rules == "chinese"
    with pytest.raises(ValueError, match=r"'board_size' must be in 2\.\.19"):
        envpool.make("Go9x9-v1", board_size=21)


def test_illegal_move_is_refused_and_the_pool_goes_on() -> None:
    env = envpool.make("TicTacToe-v1", num_envs=2, seed=0)
    _, info = env.reset()
    obs, *_ = env.step(np.array([4, 0]))
    with pytest.raises(
        RuntimeError, match=r"TicTacToe-v1 env 0: action 4 \(row 1, column 1\) is not legal"
    ):
        env.step(np.array([4, 1]))
    # The refused env is unchanged and takes a legal move next.
    obs2, _, _, _, info = env.step(np.array([3, 2]))
    assert not info["legal_action_mask"][0][3] and not info["legal_action_mask"][0][4]
    assert obs2.shape == obs.shape


def test_out_of_range_and_wrong_count_are_value_errors() -> None:
    env = envpool.make("ConnectFour-v1", num_envs=2, seed=0)
    env.reset()
    with pytest.raises(ValueError, match=r"0\.\.6"):
        env.step(np.array([7, 0]))
    with pytest.raises(ValueError):
        env.step(np.array([0, 1, 2, 3]))  # one per player instead of one per env
    env.step(np.array([0, 1]))  # the pool goes on
