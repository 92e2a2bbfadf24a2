"""Snapshots of pgx games: a restored env plays on exactly as the saved one.

`check_env` runs `check_snapshots` over every pgx id (test_conformance.py);
these tests cover what it does not reach: a restore deep into a game (its
position histories full), into a pool of another seed and across the
autoreset that follows, and the two things the check needs for turn-based
games.
"""

from __future__ import annotations

import numpy as np
import pytest

import envpool
from envpool.testing import snapshots
from envpool.testing.snapshots import check_snapshots


def legal_moves(info: dict, rng: np.random.Generator, num_envs: int) -> np.ndarray:
    """A random legal move per env, in env order."""
    rows = {int(e): r for r, e in enumerate(info["env_id"])}
    return np.array(
        [rng.choice(np.flatnonzero(info["legal_action_mask"][rows[i]])) for i in range(num_envs)]
    )


def by_env(out: tuple, num_envs: int, players: int) -> list[np.ndarray]:
    """obs, reward, terminated, truncated and current_player, in env order."""
    obs, reward, terminated, truncated, info = out
    rows = np.argsort(np.asarray(info["players"]["env_id"]), kind="stable")
    slots = np.argsort(np.asarray(info["env_id"]))
    return [
        obs[rows],
        reward[rows],
        terminated[slots],
        truncated[slots],
        info["current_player"][slots],
        info["legal_action_mask"][slots],
    ]


# Games whose state holds containers (saved member by member): deep enough
# that positions repeat (ChineseGo's superko set, the chess games' and
# AnimalShogi's repetition histories).
DEEP = [("Go9x9-v1", 120), ("ChineseGo9x9-v1", 150), ("Chess-v1", 200), ("AnimalShogi-v1", 60)]


@pytest.mark.parametrize(("task_id", "depth"), DEEP)
def test_restore_deep_in_a_game_and_across_the_autoreset(task_id: str, depth: int) -> None:
    num_envs = 2
    env = envpool.make(task_id, num_envs=num_envs, seed=3)
    players = env.spec.config.max_num_players
    rng = np.random.default_rng(0)
    _, info = env.reset()
    for _ in range(depth):
        *_, info = env.step(legal_moves(info, rng, num_envs))
    states = env.get_state()
    # Play on until both envs have finished a game and started the next.
    want, moves, ended = [], [], np.zeros(num_envs, bool)
    while not ended.all() or len(moves) < 5:
        moves.append(legal_moves(info, rng, num_envs))
        out = env.step(moves[-1])
        info = out[-1]
        want.append(by_env(out, num_envs, players))
        ended |= want[-1][2] | want[-1][3]
    twin = envpool.make(task_id, num_envs=num_envs, seed=11)
    twin.reset()
    twin.set_state(states)
    for t, move in enumerate(moves):
        got = by_env(twin.step(move), num_envs, players)
        for a, b in zip(got, want[t], strict=True):
            np.testing.assert_array_equal(a, b, f"{task_id}: step {t} after the restore")


PGX_IDS = sorted(t for t in envpool.list_all_envs() if envpool.make_spec(t).entry.family == "pgx")


@pytest.mark.parametrize("task_id", PGX_IDS)
def test_a_restored_env_saves_the_same_state(task_id: str) -> None:
    # Every member a snapshot writes is read back: the twin's state is the
    # saved one, byte for byte (a member left out of LoadState would differ,
    # even where the next steps do not show it).
    env = envpool.make(task_id, num_envs=2, seed=5)
    rng = np.random.default_rng(1)
    _, info = env.reset()
    for _ in range(60):
        *_, info = env.step(legal_moves(info, rng, 2))
    states = env.get_state()
    twin = envpool.make(task_id, num_envs=2, seed=6)
    twin.reset()
    twin.set_state(states)
    assert [s.data for s in twin.get_state()] == [s.data for s in states]


def test_the_check_draws_legal_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without the draw among legal moves, a pgx env refuses the check's moves.
    check_snapshots("TicTacToe-v1")
    monkeypatch.setattr(snapshots, "_legal", lambda action, info: action)
    with pytest.raises(RuntimeError, match="is not legal"):
        check_snapshots("TicTacToe-v1")


def test_the_check_compares_player_rows_in_env_order() -> None:
    # The envs' order among the player rows is the order they finished: the
    # same results, player rows in another env order, are the same rows.
    env = envpool.make("TicTacToe-v1", num_envs=2, seed=0)
    obs, info = env.reset()
    reward = np.array([0.0, 1.0, 2.0, 3.0], np.float32)
    flags = np.zeros(2, bool)
    swapped = [2, 3, 0, 1]
    info_swapped = {**info, "players": {k: v[swapped] for k, v in info["players"].items()}}
    first = (obs, reward, flags, flags, info)
    second = (obs[swapped], reward[swapped], flags, flags, info_swapped)
    keys = snapshots._player_keys(env)
    assert not snapshots._differences(snapshots._rows(first, keys), snapshots._rows(second, keys))
    # Compared as they come, they differ.
    assert snapshots._differences(snapshots._rows(first), snapshots._rows(second))
