"""Snapshots of the highway family: get_state/set_state restore exactly.

The conformance check runs `check_snapshots` on one highway id in eight
(SNAPSHOT_CHECK_SAMPLED in its registration.py); these run it on one id of each
kind of scene state (two players, the bicycle model, the noisy lane keeping,
the goal, the occupancy grid, the time-to-collision grid) and restore into a
pool whose envs have never been reset (their road network is built first).
"""

from __future__ import annotations

import numpy as np
import pytest

import envpool
from envpool.testing.snapshots import check_snapshots


@pytest.mark.parametrize(
    "task_id",
    [
        "IntersectionMultiAgent-v1",
        "Intersection-v1",
        "LaneKeeping-v0",
        "ParkingParked-v0",
        "Racetrack-v1",
        "TwoWay-v0",
    ],
)
def test_highway_snapshots_restore_exactly(task_id: str) -> None:
    check_snapshots(task_id)


def test_a_state_restores_into_envs_never_reset() -> None:
    # The racetrack reads its lanes at every step (the reward's lateral
    # offset, the grid's waypoints).
    env = envpool.make("Racetrack-v0", env_type="gymnasium", num_envs=2, seed=3)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(4):
        env.step(rng.uniform(-0.2, 0.2, (2, 1)).astype(np.float32))
    states = env.get_state()
    plan = [rng.uniform(-0.2, 0.2, (2, 1)).astype(np.float32) for _ in range(6)]
    want = [env.step(a) for a in plan]
    fresh = envpool.make("Racetrack-v0", env_type="gymnasium", num_envs=2, seed=11)
    fresh.set_state(states)
    for a, (w_obs, w_rew, w_term, w_trunc, _) in zip(plan, want, strict=True):
        obs, rew, term, trunc, _ = fresh.step(a)
        np.testing.assert_array_equal(obs, w_obs)
        np.testing.assert_array_equal(rew, w_rew)
        np.testing.assert_array_equal(term, w_term)
        np.testing.assert_array_equal(trunc, w_trunc)
    env.close()
    fresh.close()
