"""Crafted pgx states: a board, colour, square or count out of range is refused.

Go, Chess and GardnerChess index their Zobrist tables, histories and legal
moves with the members a state holds (stones and pieces, the step count, the
ko point, the en-passant square, the colour), unchecked; a state whose
checksum holds but which held one out of range used to be loaded and crash
(a fuzz of their states: 6 segmentation faults for Go9x9-v1, 1 for
Chess-v1). Each case rewrites one member (counted from the end of the state,
in SaveState's order), reseals the checksum, and requires `set_state` to
raise ValueError with the env unchanged and stepping on.
"""

from __future__ import annotations

import dataclasses
import struct

import numpy as np
import pytest

import envpool
from envpool.python.snapshot import EnvState

# Chess's initial board (pgx's order: files a..h, each rank 1..8).
CHESS_BOARD = [4, 1, 0, 0, 0, 0, -1, -4, 2, 1, 0, 0, 0, 0, -1, -2]


def _fnv1a(data: bytes) -> int:
    h = 14695981039346656037
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def _rewrite(state: EnvState, at: int, fmt: str, value: int) -> EnvState:
    """`state` with the value at `at` (from the state's end if negative) rewritten."""
    data = state.data
    (id_len,) = struct.unpack_from("<Q", data, 12)
    body_at = 12 + 8 + id_len + 8
    at = at if at >= 0 else len(data) + at
    assert at >= body_at
    data = data[:at] + struct.pack(fmt, value) + data[at + struct.calcsize(fmt) :]
    body = data[body_at:]
    return dataclasses.replace(
        state, data=data[: body_at - 8] + struct.pack("<Q", _fnv1a(body)) + body
    )


def _chess_board_at(state: EnvState) -> int:
    at = state.data.find(struct.pack(f"<{len(CHESS_BOARD)}i", *CHESS_BOARD))
    assert at > 0, "a fresh game's board is in the state"
    return at


# (id, name, where (from the end, or a function of the state), format, value)
CASES = [
    ("Go9x9-v1", "the ko point", -5, "<i", 2**31 - 1),
    ("Go9x9-v1", "a negative ko point", -5, "<i", -7),
    ("Go9x9-v1", "the step count", -13, "<i", -3),
    ("Go9x9-v1", "a huge step count", -13, "<i", 10**6),
    ("Go9x9-v1", "the player order", -29, "<i", 5),
    ("Chess-v1", "the colour", -17, "<i", 2),
    ("Chess-v1", "the en-passant square", -13, "<i", 64),
    ("Chess-v1", "the step count", -5, "<i", -1),
    ("Chess-v1", "the player order", -33, "<i", 7),
    ("Chess-v1", "a piece", _chess_board_at, "<i", 7),
    ("Chess-v1", "a negative piece", _chess_board_at, "<i", -100),
    ("GardnerChess-v1", "the step count", -5, "<i", 5000),
    ("GardnerChess-v1", "the turn", -13, "<i", 3),
    # The flags' bytes: a terminated flag of 2 (UBSan: a bool's invalid value).
    ("Go9x9-v1", "a flag", -1, "<B", 2),
    ("Chess-v1", "a flag", -1, "<B", 2),
    ("GardnerChess-v1", "a flag", -1, "<B", 2),
]


@pytest.mark.parametrize("task_id,name,where,fmt,value", CASES, ids=[c[1] for c in CASES])
def test_crafted_game_raises_and_the_pool_goes_on(task_id, name, where, fmt, value) -> None:
    env = envpool.make(task_id, env_type="gymnasium", num_envs=2, seed=3)
    _, info = env.reset()
    state = env.get_state([0])[0]
    at = where(state) if callable(where) else where
    bad = _rewrite(state, at, fmt, value)
    before = [s.data for s in env.get_state()]
    # The member named in the error is the one rewritten (the offsets hold).
    member = {"a negative ko point": "the ko point", "a huge step count": "the step count"}
    expected = member.get(name, name).replace("a negative piece", "a piece")
    expected = expected.replace("the step count", "step count")
    with pytest.raises(ValueError, match=f"pgx state is corrupt: .*{expected}"):
        env.set_state([bad], env_ids=[1])
    assert [s.data for s in env.get_state()] == before
    mask = info["legal_action_mask"]
    env.step(np.array([np.flatnonzero(row)[0] for row in mask]))


def _emptied(data: bytes, at: int, item: int) -> tuple[bytes, int]:
    """`data` with the vector whose length is at `at` (items of `item` bytes) emptied."""
    (n,) = struct.unpack_from("<Q", data, at)
    return data[:at] + struct.pack("<Q", 0) + data[at + 8 + n * item :], n


@pytest.mark.parametrize("task_id,positions", [("Chess-v1", 513), ("GardnerChess-v1", 257)])
def test_a_started_game_without_a_history_is_refused(task_id: str, positions: int) -> None:
    """An empty history reads as a game never started; stepping it wrote past it."""
    env = envpool.make(task_id, env_type="gymnasium", num_envs=2, seed=3)
    env.reset()
    state = env.get_state([0])[0]
    assert state.data.count(struct.pack("<Q", positions)) == 1
    data, _ = _emptied(state.data, state.data.index(struct.pack("<Q", positions)), 8)
    bad = _rewrite(dataclasses.replace(state, data=data), -1, "<B", 0)
    before = [s.data for s in env.get_state()]
    with pytest.raises(ValueError, match="pgx state is corrupt: the position history"):
        env.set_state([bad], env_ids=[1])
    assert [s.data for s in env.get_state()] == before


def test_a_started_go_game_without_a_board_is_refused() -> None:
    """An empty board reads as a game never started; stepping it indexed it."""
    env = envpool.make("Go9x9-v1", env_type="gymnasium", num_envs=2, seed=3)
    env.reset()
    state = env.get_state([0])[0]
    # The board (81 points), then the history (81 x 8) and the hashes (one a
    # step, up to 162), each a vector.
    at = state.data.index(struct.pack("<Q", 81) + bytes(81))
    data, _ = _emptied(state.data, at, 1)
    data, _ = _emptied(data, at + 8, 1)
    data, n = _emptied(data, at + 16, 8)
    assert n == 162
    bad = _rewrite(dataclasses.replace(state, data=data), -1, "<B", 0)
    before = [s.data for s in env.get_state()]
    with pytest.raises(ValueError, match="pgx state is corrupt: the board"):
        env.set_state([bad], env_ids=[1])
    assert [s.data for s in env.get_state()] == before
