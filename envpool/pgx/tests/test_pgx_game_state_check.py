"""Crafted states of the pgx games of plain members: every rule refuses one.

TicTacToe, ConnectFour, Hex, Othello, KuhnPoker, LeducHoldem, Play2048,
Backgammon, Shogi and SparrowMahjong save their game as its bytes, and
AnimalShogi member by member; a state whose checksum holds (crafted: a member
rewritten, the checksum resealed) used to load as it was, and the next step
or observation indexed the game's tables, hands, rivers or histories with
what it held. Each game's `CheckLoadedState` now refuses a member out of
range (what the game indexes with) and a state no game reaches (counts of
stones, pieces or tiles that do not add up, a mask that does not follow from
the board, a reward the game does not pay); each case below breaks one rule,
and the error names the member. After the refusal the env is unchanged and
the pool steps on.

The offsets count from the state's end: the game is the last thing a pgx
state holds, laid out as its class declares its members (x86-64: int 4
bytes, bool 1, padding to the next int). An offset that no longer holds
makes its case fail on the message, not pass.
"""

from __future__ import annotations

import dataclasses
import struct
from collections.abc import Callable

import numpy as np
import pytest

import envpool
from envpool.python.snapshot import EnvState

Value = int | float | Callable[[int], int]
# An edit: where (from the state's end), its struct format, the new value (or
# a function of the old one).
Edit = tuple[int, str, Value]


def _fnv1a(data: bytes) -> int:
    h = 14695981039346656037
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def _body_at(data: bytes) -> int:
    (id_len,) = struct.unpack_from("<Q", data, 12)
    return 12 + 8 + id_len + 8


def _reseal(state: EnvState, data: bytes) -> EnvState:
    at = _body_at(data)
    body = data[at:]
    return dataclasses.replace(state, data=data[: at - 8] + struct.pack("<Q", _fnv1a(body)) + body)


def _edit(state: EnvState, edits: list[Edit]) -> EnvState:
    """`state` with each edit made, the checksum resealed."""
    data = state.data
    for where, fmt, value in edits:
        at = len(data) + where
        assert at >= _body_at(data)
        if callable(value):
            (old,) = struct.unpack_from(fmt, data, at)
            value = value(old)
        data = data[:at] + struct.pack(fmt, value) + data[at + struct.calcsize(fmt) :]
    return _reseal(state, data)


def _flip(v: int) -> int:
    return 1 - v


# Member offsets from the end of each game's state (SaveState's order for
# AnimalShogi, the class's layout for the others).
TTT = {"board": -40, "legal": -31, "first": -20, "current": -16, "color": -12}
TTT |= {"winner": -8, "terminated": -4}
C4 = {"board": -72, "legal": -30}
HEX = {"board": -380, "legal": -138, "order": -16, "step": -8, "terminated": -4}
OTH = {"board": -148, "legal": -84, "rewards": -16, "current": -8, "passed": -4}
OTH |= {"terminated": -3}
G2048 = {"board": -76, "legal": -12, "reward": -8, "terminated": -4}
KUHN = {"cards": -40, "pot": -32, "legal": -24, "rewards": -20, "current": -12}
KUHN |= {"last": -8, "terminated": -4}
LEDUC = {"cards": -56, "chips": -44, "legal": -36, "rewards": -32, "first": -24}
LEDUC |= {"current": -20, "last": -16, "round": -12, "raises": -8, "terminated": -4}
BG = {"board": -316, "dice": -204, "playable": -196, "legal": -180, "rewards": -24}
BG |= {"current": -16, "played": -12, "turn": -8, "terminated": -4}
SHOGI = {"board": -2596, "hand": -2272, "legal": -2216, "order": -28}
SHOGI |= {"rewards": -20, "color": -12, "step": -8, "terminated": -4}
SM = {"hands": -620, "reds": -488, "rivers": -356, "wall": -236, "seats": -60}
SM |= {"legal": -48, "rewards": -36, "draw": -24, "dora": -20, "turn": -16}
SM |= {"last": -12, "current": -8, "terminated": -4}
AS = {"board": -2905, "hand": -2857, "hash": -2833, "hashes": -2825}
AS |= {"rep": -185, "legal": -153, "rewards": -21, "current": -13, "turn": -9}
AS |= {"step": -5, "terminated": -1}

RANGE = "is out of range"
NEVER = "is not one a game reaches"

# (id, the member the error names and how, the edits)
CASES: list[tuple[str, str, list[Edit]]] = [
    ("TicTacToe-v1", f"a cell {RANGE}", [(TTT["board"], "<b", 5)]),
    ("TicTacToe-v1", f"the first player {RANGE}", [(TTT["first"], "<i", 2)]),
    ("TicTacToe-v1", f"the color to move {RANGE}", [(TTT["color"], "<i", -1)]),
    ("TicTacToe-v1", f"the winner {RANGE}", [(TTT["winner"], "<i", 4)]),
    ("TicTacToe-v1", f"a flag {RANGE}", [(TTT["terminated"], "<B", 2)]),
    (
        "TicTacToe-v1",
        f"the count of stones of each color {NEVER}",
        [(TTT["board"], "<b", 1)],
    ),
    ("TicTacToe-v1", f"the current player {NEVER}", [(TTT["current"], "<i", _flip)]),
    ("TicTacToe-v1", f"the winner {NEVER}", [(TTT["winner"], "<i", 0)]),
    ("TicTacToe-v1", f"the legal action mask {NEVER}", [(TTT["legal"], "<B", 0)]),
    ("TicTacToe-v1", f"the end of the game {NEVER}", [(TTT["terminated"], "<B", 1)]),
    (
        "ConnectFour-v1",
        f"a stone above an empty cell {NEVER}",
        [(C4["board"], "<b", 0)],
    ),
    ("ConnectFour-v1", f"the legal action mask {NEVER}", [(C4["legal"] + 3, "<B", 0)]),
    ("Hex-v1", f"a cell {RANGE}", [(HEX["board"], "<h", 200)]),
    ("Hex-v1", f"the player order {RANGE}", [(HEX["order"], "<i", 5)]),
    ("Hex-v1", f"step count {RANGE}", [(HEX["step"], "<i", 500)]),
    ("Hex-v1", f"a flag {RANGE}", [(HEX["legal"] + 5, "<B", 3)]),
    ("Hex-v1", f"a stone's group {NEVER}", [(HEX["board"], "<h", 5)]),
    ("Hex-v1", f"the count of stones {NEVER}", [(HEX["step"], "<i", 1)]),
    ("Hex-v1", f"the legal action mask {NEVER}", [(HEX["legal"], "<B", 0)]),
    ("Hex-v1", f"the end of the game {NEVER}", [(HEX["terminated"], "<B", 1)]),
    ("Othello-v1", f"a cell {RANGE}", [(OTH["board"], "<b", 3)]),
    ("Othello-v1", f"the current player {RANGE}", [(OTH["current"], "<i", 2)]),
    ("Othello-v1", f"a flag {RANGE}", [(OTH["passed"], "<B", 2)]),
    ("Othello-v1", f"the centre {NEVER}", [(OTH["board"] + 27, "<b", 0)]),
    (
        "Othello-v1",
        f"the end of the game {NEVER}",
        [(OTH["board"] + 28, "<b", -1), (OTH["board"] + 35, "<b", -1)],
    ),
    ("Othello-v1", f"the legal action mask {NEVER}", [(OTH["legal"] + 19, "<B", 0)]),
    ("Othello-v1", f"the rewards {NEVER}", [(OTH["rewards"], "<f", 1.0)]),
    ("Play2048-v1", f"a tile {RANGE}", [(G2048["board"], "<i", 18)]),
    ("Play2048-v1", f"a flag {RANGE}", [(G2048["terminated"], "<B", 2)]),
    ("Play2048-v1", f"the legal action mask {NEVER}", [(G2048["legal"], "<B", _flip)]),
    ("Play2048-v1", f"the end of the game {NEVER}", [(G2048["terminated"], "<B", 1)]),
    ("Play2048-v1", f"the reward {NEVER}", [(G2048["reward"], "<f", 3.0)]),
    ("KuhnPoker-v1", f"a card {RANGE}", [(KUHN["cards"], "<i", 3)]),
    (
        "KuhnPoker-v1",
        f"the cards {NEVER}",
        [(KUHN["cards"], "<i", 1), (KUHN["cards"] + 4, "<i", 1)],
    ),
    ("KuhnPoker-v1", f"a pot {RANGE}", [(KUHN["pot"], "<i", 2)]),
    ("KuhnPoker-v1", f"the current player {RANGE}", [(KUHN["current"], "<i", 2)]),
    ("KuhnPoker-v1", f"the last action {RANGE}", [(KUHN["last"], "<i", 5)]),
    ("KuhnPoker-v1", f"a flag {RANGE}", [(KUHN["legal"], "<B", 7)]),
    ("KuhnPoker-v1", f"the last action {NEVER}", [(KUHN["pot"], "<i", 1)]),
    ("KuhnPoker-v1", f"the legal action mask {NEVER}", [(KUHN["legal"], "<B", 0)]),
    ("KuhnPoker-v1", f"the rewards {NEVER}", [(KUHN["rewards"], "<f", 1.0)]),
    ("LeducHoldem-v1", f"a card {RANGE}", [(LEDUC["cards"] + 8, "<i", 3)]),
    (
        "LeducHoldem-v1",
        f"the cards {NEVER}",
        [(LEDUC["cards"] + 4 * i, "<i", 0) for i in range(3)],
    ),
    ("LeducHoldem-v1", f"the chips {RANGE}", [(LEDUC["chips"], "<i", 14)]),
    ("LeducHoldem-v1", f"the first player {RANGE}", [(LEDUC["first"], "<i", 2)]),
    ("LeducHoldem-v1", f"the current player {RANGE}", [(LEDUC["current"], "<i", -1)]),
    ("LeducHoldem-v1", f"the last action {RANGE}", [(LEDUC["last"], "<i", 2)]),
    ("LeducHoldem-v1", f"the round {RANGE}", [(LEDUC["round"], "<i", 3)]),
    ("LeducHoldem-v1", f"the raise count {RANGE}", [(LEDUC["raises"], "<i", 3)]),
    ("LeducHoldem-v1", f"a flag {RANGE}", [(LEDUC["terminated"], "<B", 2)]),
    ("LeducHoldem-v1", f"the end of the game {NEVER}", [(LEDUC["round"], "<i", 2)]),
    (
        "LeducHoldem-v1",
        f"the legal action mask {NEVER}",
        [(LEDUC["legal"] + 2, "<B", 1)],
    ),
    ("LeducHoldem-v1", f"the rewards {NEVER}", [(LEDUC["rewards"], "<f", 1.0)]),
    ("Backgammon-v1", f"a point's checkers {RANGE}", [(BG["board"], "<i", 16)]),
    ("Backgammon-v1", f"the count of checkers {NEVER}", [(BG["board"], "<i", 3)]),
    ("Backgammon-v1", f"the dice {RANGE}", [(BG["dice"], "<i", 6)]),
    ("Backgammon-v1", f"the dice to play {RANGE}", [(BG["playable"], "<i", 7)]),
    ("Backgammon-v1", f"the current player {RANGE}", [(BG["current"], "<i", 2)]),
    ("Backgammon-v1", f"the turn {RANGE}", [(BG["turn"], "<i", 2)]),
    ("Backgammon-v1", f"the dice played {RANGE}", [(BG["played"], "<i", 5)]),
    ("Backgammon-v1", f"a flag {RANGE}", [(BG["terminated"], "<B", 2)]),
    ("Backgammon-v1", f"the dice to play {NEVER}", [(BG["playable"] + 8, "<i", 0)]),
    ("Backgammon-v1", f"the legal action mask {NEVER}", [(BG["legal"], "<B", _flip)]),
    ("Backgammon-v1", f"the end of the game {NEVER}", [(BG["terminated"], "<B", 1)]),
    ("Backgammon-v1", f"the rewards {NEVER}", [(BG["rewards"], "<f", 1.0)]),
    ("Shogi-v1", f"a piece {RANGE}", [(SHOGI["board"], "<i", 28)]),
    ("Shogi-v1", f"a hand {RANGE}", [(SHOGI["hand"], "<i", 19)]),
    ("Shogi-v1", f"the player order {RANGE}", [(SHOGI["order"], "<i", 3)]),
    ("Shogi-v1", f"step count {RANGE}", [(SHOGI["step"], "<i", 513)]),
    ("Shogi-v1", f"the color {RANGE}", [(SHOGI["color"], "<i", 1)]),
    ("Shogi-v1", f"a flag {RANGE}", [(SHOGI["legal"], "<B", 2)]),
    ("Shogi-v1", f"the count of pieces {NEVER}", [(SHOGI["hand"], "<i", 1)]),
    ("Shogi-v1", f"the legal action mask {NEVER}", [(SHOGI["legal"], "<B", _flip)]),
    ("Shogi-v1", f"the end of the game {NEVER}", [(SHOGI["terminated"], "<B", 1)]),
    ("Shogi-v1", f"the rewards {NEVER}", [(SHOGI["rewards"], "<f", 1.0)]),
    ("SparrowMahjong-v1", f"the wall {RANGE}", [(SM["wall"], "<i", 44)]),
    ("SparrowMahjong-v1", f"the seats {RANGE}", [(SM["seats"], "<i", 3)]),
    ("SparrowMahjong-v1", f"the draw count {RANGE}", [(SM["draw"], "<i", 50)]),
    ("SparrowMahjong-v1", f"the turn {RANGE}", [(SM["turn"], "<i", 5)]),
    (
        "SparrowMahjong-v1",
        f"the dora {RANGE}",
        [(SM["dora"], "<i", lambda v: (v + 1) % 11)],
    ),
    ("SparrowMahjong-v1", f"the last discard {RANGE}", [(SM["last"], "<i", 11)]),
    (
        "SparrowMahjong-v1",
        f"the current player {RANGE}",
        [(SM["current"], "<i", lambda v: (v + 1) % 3)],
    ),
    ("SparrowMahjong-v1", f"a flag {RANGE}", [(SM["legal"], "<B", 2)]),
    ("SparrowMahjong-v1", f"a hand {RANGE}", [(SM["hands"], "<i", 5)]),
    ("SparrowMahjong-v1", f"a river {RANGE}", [(SM["rivers"], "<i", 11)]),
    ("SparrowMahjong-v1", f"a river {NEVER}", [(SM["rivers"] + 4, "<i", 0)]),
    ("SparrowMahjong-v1", f"a river {NEVER}", [(SM["rivers"], "<i", 0)]),
    (
        "SparrowMahjong-v1",
        f"a hand {NEVER}",
        [(SM["hands"] + 44, "<i", lambda v: v + 1 if v < 4 else v - 1)],
    ),
    ("SparrowMahjong-v1", f"the last discard {NEVER}", [(SM["last"], "<i", 0)]),
    ("SparrowMahjong-v1", f"the red tiles {NEVER}", [(SM["reds"] + 36, "<i", 1)]),
    ("SparrowMahjong-v1", f"the legal action mask {NEVER}", [(SM["legal"], "<B", _flip)]),
    ("SparrowMahjong-v1", f"the rewards {NEVER}", [(SM["rewards"], "<f", 1.0)]),
    ("AnimalShogi-v1", f"a piece {RANGE}", [(AS["board"], "<i", 10)]),
    ("AnimalShogi-v1", f"a hand {RANGE}", [(AS["hand"], "<i", 3)]),
    ("AnimalShogi-v1", f"a repetition count {RANGE}", [(AS["rep"], "<i", 3)]),
    ("AnimalShogi-v1", f"the current player {RANGE}", [(AS["current"], "<i", 2)]),
    ("AnimalShogi-v1", f"step count {RANGE}", [(AS["step"], "<i", 257)]),
    ("AnimalShogi-v1", f"the turn {RANGE}", [(AS["turn"], "<i", 1)]),
    ("AnimalShogi-v1", f"a flag {RANGE}", [(AS["terminated"], "<B", 2)]),
    ("AnimalShogi-v1", f"the end of the game {NEVER}", [(AS["step"], "<i", 256)]),
    ("AnimalShogi-v1", f"the position history {NEVER}", [(AS["hash"], "<Q", lambda v: v ^ 1)]),
    ("AnimalShogi-v1", f"the count of pieces {NEVER}", [(AS["hand"], "<i", 1)]),
    ("AnimalShogi-v1", f"the legal action mask {NEVER}", [(AS["legal"], "<B", _flip)]),
    ("AnimalShogi-v1", f"the rewards {NEVER}", [(AS["rewards"], "<f", 1.0)]),
]


def _case_id(case: tuple[str, str, list[Edit]]) -> str:
    task_id, message, edits = case
    return f"{task_id.split('-')[0]}: {message} @{edits[0][0]}"


def _first_legal(info: dict) -> np.ndarray:
    return np.array([np.flatnonzero(row)[0] for row in info["legal_action_mask"]])


def _refused_and_unchanged(env, bad: EnvState, message: str) -> None:
    before = [s.data for s in env.get_state()]
    with pytest.raises(ValueError, match=f"pgx state is corrupt: {message}"):
        env.set_state([bad], env_ids=[1])
    assert [s.data for s in env.get_state()] == before


@pytest.mark.parametrize("task_id,message,edits", CASES, ids=map(_case_id, CASES))
def test_crafted_game_raises_and_the_pool_goes_on(
    task_id: str, message: str, edits: list[Edit]
) -> None:
    env = envpool.make(task_id, env_type="gymnasium", num_envs=2, seed=3)
    _, info = env.reset()
    state = env.get_state([0])[0]
    _refused_and_unchanged(env, _edit(state, edits), message)
    # The envs step on as they would have: as a twin pool's never offered it
    # (per-env rows compared in env order).
    twin = envpool.make(task_id, env_type="gymnasium", num_envs=2, seed=3)
    _, twin_info = twin.reset()
    for _ in range(3):
        *_, term, trunc, info = env.step(_first_legal(info))
        *_, twin_term, twin_trunc, twin_info = twin.step(_first_legal(twin_info))
        order = np.argsort(info["env_id"])
        twin_order = np.argsort(twin_info["env_id"])
        for key in ("legal_action_mask", "current_player"):
            np.testing.assert_array_equal(info[key][order], twin_info[key][twin_order])
        np.testing.assert_array_equal(term[order], twin_term[twin_order])
        np.testing.assert_array_equal(trunc[order], twin_trunc[twin_order])


def test_animal_shogi_history_must_be_full() -> None:
    """A started game with no position history would write past it."""
    env = envpool.make("AnimalShogi-v1", env_type="gymnasium", num_envs=2, seed=3)
    env.reset()
    state = env.get_state([0])[0]
    data = state.data
    at = len(data) + AS["hashes"]
    (n,) = struct.unpack_from("<Q", data, at)
    assert n == 257
    data = data[:at] + struct.pack("<Q", 0) + data[at + 8 + 8 * n :]
    _refused_and_unchanged(env, _reseal(state, data), f"the position history {RANGE}")


def test_sparrow_mahjong_tiles_must_add_up() -> None:
    """A dealt tile swapped with one still in the wall: four of a type no more."""
    env = envpool.make("SparrowMahjong-v1", env_type="gymnasium", num_envs=2, seed=3)
    env.reset()
    state = env.get_state([0])[0]
    wall_at = len(state.data) + SM["wall"]
    wall = list(struct.unpack_from("<44i", state.data, wall_at))
    # wall[0] is in a hand, wall[16..42] still to draw (43: the dora).
    j = next(j for j in range(16, 43) if wall[j] // 4 != wall[0] // 4)
    wall[0], wall[j] = wall[j], wall[0]
    data = state.data[:wall_at] + struct.pack("<44i", *wall) + state.data[wall_at + 176 :]
    _refused_and_unchanged(env, _reseal(state, data), f"the count of tiles {NEVER}")


def test_an_env_never_reset_restores_its_fresh_game() -> None:
    """A state saved before the first reset holds a game never started."""
    env = envpool.make("TicTacToe-v1", env_type="gymnasium", num_envs=2, seed=3)
    fresh = env.get_state()
    env.reset()
    env.set_state(fresh)
    assert [s.data for s in env.get_state()] == [s.data for s in fresh]
    env.reset()
