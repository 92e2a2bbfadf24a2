"""Fuzzed pgx states: a crafted state is refused or plays on, never crashes.

For each pgx game, a state saved some random legal moves into a game gets
in-place 4-byte edits (three in four in the env's own part: its keys, counts
and the game; the others anywhere in the body; a random word, a small
number, or one bit flipped), the checksum resealed, and goes to `set_state`; a state
that loads then plays three steps (a random action, else the move that was
legal before the edit; an illegal one raises and the env stays).
The run is a child process, so that a crash fails the test with the id
rather than ending pytest. `ENVPOOL_TEST_ALL=1` makes 630 edits a game (the
counts in docs/snapshots.md), else 40.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

ALL = bool(os.environ.get("ENVPOOL_TEST_ALL"))
EDITS = 630 if ALL else 40
IDS = [
    "TicTacToe-v1",
    "ConnectFour-v1",
    "Hex-v1",
    "Othello-v1",
    "KuhnPoker-v1",
    "LeducHoldem-v1",
    "Play2048-v1",
    "AnimalShogi-v1",
    "Backgammon-v1",
    "Shogi-v1",
    "SparrowMahjong-v1",
    "Go9x9-v1",
    "Chess-v1",
    "GardnerChess-v1",
]


# PgxEnv's SaveState: two keys (two uint32 each), the episode and the step.
KEYS_AND_COUNTS = 2 * 8 + 4 + 4


def _fnv1a(data: bytes) -> int:
    h = 14695981039346656037
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def fuzz(task_id: str, edits: int, seed: int) -> dict[str, int]:
    """Counts of the edited states `set_state` refused and of those it loaded."""
    import dataclasses
    import struct

    import envpool

    rng = np.random.default_rng(seed)
    env = envpool.make(task_id, env_type="gymnasium", num_envs=1, seed=seed)
    num_actions = env.action_space.n
    _, info = env.reset()
    for _ in range(int(rng.integers(0, 12))):
        move = rng.choice(np.flatnonzero(info["legal_action_mask"][0]))
        *_, info = env.step(np.array([move]))
    state = env.get_state()[0]
    legal = int(np.flatnonzero(info["legal_action_mask"][0])[0])
    data = state.data
    (id_len,) = struct.unpack_from("<Q", data, 12)
    body_at = 12 + 8 + id_len + 8
    # The env's own part (keys, counts, the game) ends the state; the pool's
    # and the generators' come first. TicTacToe's game is 40 bytes.
    ttt = envpool.make("TicTacToe-v1", env_type="gymnasium", num_envs=1)
    ttt.reset()
    env_at = len(ttt.get_state()[0].data) - len("TicTacToe-v1") - 40 - KEYS_AND_COUNTS
    env_at += len(task_id)
    counts = {"refused": 0, "loaded": 0}
    for _ in range(edits):
        # Three edits in four in the env's part, the others anywhere.
        start = env_at if rng.random() < 0.75 else body_at
        at = int(rng.integers(start, len(data) - 3))
        (old,) = struct.unpack_from("<I", data, at)
        kind = int(rng.integers(3))
        if kind == 0:
            new = int(rng.integers(0, 2**32))
        elif kind == 1:
            new = int(rng.integers(-3, 300)) & 0xFFFFFFFF
        else:
            new = old ^ (1 << int(rng.integers(32)))
        edited = data[:at] + struct.pack("<I", new) + data[at + 4 :]
        body = edited[body_at:]
        sealed = edited[: body_at - 8] + struct.pack("<Q", _fnv1a(body)) + body
        try:
            env.set_state([dataclasses.replace(state, data=sealed)])
        except ValueError:
            counts["refused"] += 1
            continue
        counts["loaded"] += 1
        for _ in range(3):
            for action in (int(rng.integers(num_actions)), legal):
                try:
                    env.step(np.array([action]))
                    break
                except RuntimeError as e:  # an illegal move: the env stays
                    assert "is not legal" in str(e), e
    return counts


def test_fuzzed_states_never_crash() -> None:
    code = (
        "import json, sys\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "import test_pgx_state_fuzz as f\n"
        "for i, task_id in enumerate(f.IDS):\n"
        "    print(task_id, flush=True)\n"
        "    print(json.dumps([task_id, f.fuzz(task_id, f.EDITS, i)]), flush=True)\n"
    )
    run = subprocess.run(
        [sys.executable, "-P", "-c", code, os.path.dirname(__file__)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = run.stdout.splitlines()
    assert run.returncode == 0, (
        f"the fuzz ended with {run.returncode} at {lines[-1:]}: {run.stderr[-2000:]}"
    )
    counts = dict(json.loads(line) for line in lines if line.startswith("["))
    assert sorted(counts) == sorted(IDS)
    for task_id, c in counts.items():
        assert c["refused"] + c["loaded"] == EDITS, task_id
    print(counts)
