"""MuJoCo snapshots with the options that widen the state.

check_env runs the generic snapshot check over every id with its default
options (it fails, for Humanoid, Ant, Pusher and Reacher, where a restore
recomputes the derived quantities with mj_forward rather than stepping the
saved pre-step state again); this adds a stacked observation.
"""

from __future__ import annotations

from envpool.testing.snapshots import check_snapshots


def test_a_stacked_observation_restores() -> None:
    check_snapshots("HalfCheetah-v5", frame_stack=3)
