"""Crafted dm_control states: a state may not rewrite the model's int arrays.

A state carries the 64-byte blocks of the task's model that differ from the
loaded model (docs/snapshots.md); MuJoCo indexes with the model's int arrays
(body, joint and geom ids, addresses, types) unchecked, and no task changes
them. A state whose checksum holds but whose blocks rewrite them used to be
loaded and crash the next step (a fuzz of CheetahRun-v1's state: two
segmentation faults in 636 edits). Here a state of CheetahRun-v1 (whose task
changes no model array: its state carries no block) is given blocks of
zeros at the start of the model's buffer, where its first int arrays lie.
"""

from __future__ import annotations

import dataclasses
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


def _with_blocks(state: EnvState, blocks: list[int], content: bytes) -> EnvState:
    (id_len,) = struct.unpack_from("<Q", state.data, 12)
    body_at = 12 + 8 + id_len + 8
    body = state.data[body_at:]
    # The body ends with the saved blocks (a count, then their ids), their
    # bytes (a count, then the bytes) and whether a heightfield changed.
    assert body[-17:] == bytes(17), "CheetahRun's task changes no model array"
    tail = struct.pack(f"<Q{len(blocks)}Q", len(blocks), *blocks)
    tail += struct.pack("<Q", len(content)) + content + b"\0"
    body = body[:-17] + tail
    header = state.data[: body_at - 8] + struct.pack("<Q", _fnv1a(body))
    return dataclasses.replace(state, data=header + body)


def test_blocks_rewriting_the_models_int_arrays_are_refused() -> None:
    env = envpool.make("CheetahRun-v1", env_type="gymnasium", num_envs=2, seed=3)
    env.reset()
    for _ in range(3):
        env.step(np.zeros((2, 6)))
    state = env.get_state([0])[0]
    before = [s.data for s in env.get_state()]
    refused_for_ids = 0
    for block in range(24):
        bad = _with_blocks(state, [block], bytes(64))
        try:
            env.set_state([bad], env_ids=[1])
        except ValueError as e:
            refused_for_ids += "ids, addresses or types" in str(e)
            assert [s.data for s in env.get_state()] == before
            continue
        # Zeros where the model holds only numbers (or zeros) are a model a
        # task could make; the env steps on.
        env.step(np.zeros((2, 6)))
        env.set_state([state, state])
        before = [s.data for s in env.get_state()]
    assert refused_for_ids > 0, "some of the first blocks hold the model's int arrays"
    env.step(np.zeros((2, 6)))


@pytest.mark.parametrize("task_id", ["ReacherEasy-v1", "ManipulatorBringBall-v1"])
def test_tasks_that_change_their_model_restore(task_id: str) -> None:
    env = envpool.make(task_id, env_type="gymnasium", num_envs=2, seed=5)
    env.reset()
    action = np.zeros((2, *env.action_space.shape))
    for _ in range(3):
        env.step(action)
    env.set_state(env.get_state()[::-1])


# mjOption: 32 mjtNum (timestep ... o_friction), then 13 ints from the
# integrator on; the state's copy ends where the saved blocks begin.
OPTION_BYTES = 32 * 8 + 13 * 4 + 4  # padded to 8
INTEGRATOR = 32 * 8


@pytest.mark.parametrize(
    "field,value", [(0, 99), (1, -1), (4, 2**31 - 1), (8, 0x7FFFFFFF)], ids=str
)
def test_options_the_engine_indexes_with_are_refused(field: int, value: int) -> None:
    env = envpool.make("CheetahRun-v1", env_type="gymnasium", num_envs=2, seed=3)
    env.reset()
    state = env.get_state([0])[0]
    (id_len,) = struct.unpack_from("<Q", state.data, 12)
    body_at = 12 + 8 + id_len + 8
    body = state.data[body_at:]
    at = len(body) - 17 - OPTION_BYTES + INTEGRATOR + 4 * field
    ints = struct.unpack_from("<13i", body, len(body) - 17 - OPTION_BYTES + INTEGRATOR)
    assert ints[4] == 100 and ints[5] == 50, "iterations, ls_iterations: the layout holds"
    body = body[:at] + struct.pack("<i", value) + body[at + 4 :]
    header = state.data[: body_at - 8] + struct.pack("<Q", _fnv1a(body))
    bad = dataclasses.replace(state, data=header + body)
    before = [s.data for s in env.get_state()]
    with pytest.raises(ValueError, match="integrator, solver or flags"):
        env.set_state([bad], env_ids=[1])
    assert [s.data for s in env.get_state()] == before
    env.step(np.zeros((2, 6)))
