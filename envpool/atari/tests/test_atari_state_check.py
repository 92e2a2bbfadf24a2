"""Crafted Atari states: ALE's refusals are ValueErrors, its lengths are checked.

ALE's Deserializer throws C strings (not std::exception), reads a string
length it is given as it is (a length of 2**31 - 1 allocates 2 GB), and a
System::loadState that fails (another ROM's md5, a corrupt field) returns
false while ALE reads on. A state whose checksum holds used to give
"RuntimeError: Caught an unknown exception!" or load half an emulator. The
env now checks the emulator state's framing and ROM before ALE reads it,
has the console load the emulator's state first and refuses it when
System::loadState returns false, and turns ALE's C-string errors into
ValueError; the pool goes on.
"""

from __future__ import annotations

import dataclasses
import re
import struct

import numpy as np
import pytest

import envpool
from envpool.python.snapshot import EnvState


def _fnv1a(data: bytes) -> int:
    h = 14695981039346656037
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def _split(state: EnvState) -> tuple[int, bytes, int, bytes]:
    """(where the body starts, the body, where ALE's state starts in it, ALE's state)."""
    (id_len,) = struct.unpack_from("<Q", state.data, 12)
    body_at = 12 + 8 + id_len + 8
    body = state.data[body_at:]
    # ALE's state: six ints, then the emulator's (an int length, then the
    # ROM's md5: an int 32 and 32 hex digits), after its own u64 length.
    md5 = re.search(rb"\x20\x00\x00\x00[0-9a-f]{32}", body)
    assert md5 is not None
    at = md5.start() - 4 - 24 - 8
    (n,) = struct.unpack_from("<Q", body, at)
    return body_at, body, at, body[at + 8 : at + 8 + n]


def _with_ale(state: EnvState, ale: bytes) -> EnvState:
    body_at, body, at, old = _split(state)
    body = body[:at] + struct.pack("<Q", len(ale)) + ale + body[at + 8 + len(old) :]
    header = state.data[: body_at - 8] + struct.pack("<Q", _fnv1a(body))
    return dataclasses.replace(state, data=header + body)


def _int(ale: bytes, at: int, value: int) -> bytes:
    return ale[:at] + struct.pack("<i", value) + ale[at + 4 :]


CASES = {
    "truncated to 40 bytes": lambda a: a[:40],
    "truncated by half": lambda a: a[: len(a) // 2],
    "three bytes short": lambda a: a[:-3],
    "three bytes long": lambda a: a + b"\0\0\0",
    "a huge emulator state length": lambda a: _int(a, 24, 2**31 - 1),
    "a negative emulator state length": lambda a: _int(a, 24, -5),
    "a huge md5 length": lambda a: _int(a, 28, 2**30),
    "another ROM's md5": lambda a: a[:32] + b"0" * 32 + a[64:],
    # Pong's cartridge part under another cartridge's name: its load returns
    # false, System::loadState too, and ALE's restoreState used to read the
    # settings and the generator on and take the state (the rest in place).
    "a cartridge of another type": lambda a: _renamed(a, b"Cartridge2K", b"Cartridge4K"),
    # The RIOT's RAM count: M6532::load writes that many ints into its 128
    # bytes of RAM, past them until the state ends.
    "a RAM of 5000 bytes": lambda a: _after(a, b"M6532", 5000),
}


def _after(ale: bytes, name: bytes, value: int) -> bytes:
    """ALE's state with the int after the emulator's string `name` set to `value`."""
    field = struct.pack("<i", len(name)) + name
    assert ale.count(field) == 1
    return _int(ale, ale.index(field) + len(field), value)


def _renamed(ale: bytes, name: bytes, other: bytes) -> bytes:
    """ALE's state with the emulator's string `name` (an int length, the bytes) renamed."""
    field = struct.pack("<i", len(name)) + name
    assert ale.count(field) == 1
    return ale.replace(field, struct.pack("<i", len(other)) + other)


@pytest.mark.parametrize("name", sorted(CASES))
def test_crafted_emulator_state_raises_value_error(name: str) -> None:
    env = envpool.make("Pong-v5", env_type="gymnasium", num_envs=2, seed=0)
    env.reset()
    for _ in range(5):
        env.step(np.zeros(2, dtype=np.int64))
    state = env.get_state([0])[0]
    _, _, _, ale = _split(state)
    bad = _with_ale(state, CASES[name](ale))
    before = [s.data for s in env.get_state()]
    with pytest.raises(ValueError, match="Atari state"):
        env.set_state([bad], env_ids=[1])
    assert [s.data for s in env.get_state()] == before
    env.step(np.zeros(2, dtype=np.int64))


def test_a_state_resealed_unchanged_restores() -> None:
    env = envpool.make("Pong-v5", env_type="gymnasium", num_envs=2, seed=0)
    env.reset()
    state = env.get_state([0])[0]
    _, _, _, ale = _split(state)
    env.set_state([_with_ale(state, ale)], env_ids=[1])
