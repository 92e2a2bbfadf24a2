"""Crafted highway states: refused with a ValueError, never a crash.

The road reads a vehicle's lanes (`network.GetLane`), its target speed and
the controlled vehicles without checking them, so a state whose checksum
holds but which names a lane the network lacks used to read out of bounds
(a segmentation fault a few steps later). Each case rewrites one member of
the first vehicle of a real state (found by its kind, length and width, in
scene.h's PutVehicle order), reseals the checksum, and requires `set_state`
to raise ValueError with the env unchanged and stepping on.
"""

from __future__ import annotations

import dataclasses
import struct

import numpy as np
import pytest

import envpool
from envpool.python.snapshot import EnvState

# Offsets in PutVehicle's layout: kind (int), length, width, position (2),
# heading, speed (doubles), lane_index, target_lane_index (3 ints each), ...
LANE_ID = 4 + 8 * 6 + 8
TARGET_LANE_ID = LANE_ID + 12
KIND = 0
# ... target_speed, steering, acceleration (doubles), crashed, has_impact
# (bools), impact (2 doubles), check_collisions (bool), delta, timer
# (doubles), enable_lane_change (bool), target_speeds (3 doubles),
# speed_index.
TARGET_SPEEDS = TARGET_LANE_ID + 4 + 8 * 3 + 2 + 16 + 1 + 16 + 1


def _fnv1a(data: bytes) -> int:
    h = 14695981039346656037
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def _resealed(state: EnvState, body: bytes) -> EnvState:
    (id_len,) = struct.unpack_from("<Q", state.data, 12)
    body_at = 12 + 8 + id_len + 8
    header = state.data[: body_at - 8] + struct.pack("<Q", _fnv1a(body))
    return dataclasses.replace(state, data=header + body)


def _body(state: EnvState) -> tuple[bytes, int]:
    (id_len,) = struct.unpack_from("<Q", state.data, 12)
    return state.data[12 + 8 + id_len + 8 :], 0


def _first_vehicle(body: bytes, kind: int) -> int:
    at = body.find(struct.pack("<idd", kind, 5.0, 2.0))
    assert at >= 0, "the first vehicle (length 5, width 2) is in the state"
    return at


def _put(body: bytes, at: int, fmt: str, value: object) -> bytes:
    size = struct.calcsize(fmt)
    return body[:at] + struct.pack(fmt, value) + body[at + size :]


def _speed_index_at(body: bytes, vehicle: int) -> int:
    return vehicle + TARGET_SPEEDS + 8 * 3


CASES = {
    "a lane id the road lacks": lambda b, v: _put(b, v + LANE_ID, "<i", 7),
    "a huge lane id": lambda b, v: _put(b, v + LANE_ID, "<i", 2**31 - 1),
    "a negative lane id": lambda b, v: _put(b, v + LANE_ID, "<i", -5),
    "a road the network lacks": lambda b, v: _put(b, v + LANE_ID - 8, "<i", 999),
    "a target lane the road lacks": lambda b, v: _put(b, v + TARGET_LANE_ID, "<i", 1000),
    "another kind": lambda b, v: _put(b, v + KIND, "<i", 9),
    "a speed index past the speeds": lambda b, v: _put(b, _speed_index_at(b, v), "<i", 50),
    "a negative speed index": lambda b, v: _put(b, _speed_index_at(b, v), "<i", -1),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("task_id", ["Highway-v0", "Merge-v0"])
def test_crafted_vehicle_raises_and_the_pool_goes_on(task_id: str, name: str) -> None:
    env = envpool.make(task_id, env_type="gymnasium", num_envs=2, seed=3)
    env.reset()
    for _ in range(3):
        env.step(np.ones(2, dtype=np.int64))
    state = env.get_state([0])[0]
    body, _ = _body(state)
    vehicle = _first_vehicle(body, kind=1)  # the ego: an MDP vehicle
    bad = _resealed(state, CASES[name](body, vehicle))
    before = [s.data for s in env.get_state()]
    with pytest.raises(ValueError, match="highway"):
        env.set_state([bad], env_ids=[1])
    assert [s.data for s in env.get_state()] == before
    for _ in range(5):
        env.step(np.ones(2, dtype=np.int64))


def test_a_player_past_the_players_is_refused() -> None:
    env = envpool.make("IntersectionMultiAgent-v1", env_type="gymnasium", num_envs=1, seed=3)
    env.reset()
    state = env.get_state()[0]
    body, _ = _body(state)
    vehicle = _first_vehicle(body, kind=1)
    speed_index = _speed_index_at(body, vehicle)
    # route (u64 count, 3 ints each), is_yielding (bool), yield_timer (int), player
    (n,) = struct.unpack_from("<Q", body, speed_index + 4)
    player = speed_index + 4 + 8 + 12 * n + 1 + 4
    (was,) = struct.unpack_from("<i", body, player)
    assert was == 0, "the first controlled vehicle is player 0"
    with pytest.raises(ValueError, match="player"):
        env.set_state([_resealed(state, _put(body, player, "<i", 5))])
    env.step(np.ones((2,), dtype=np.int64).reshape(1, 2))
