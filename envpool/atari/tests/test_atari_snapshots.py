"""Atari snapshots beyond ALE's cloneState (envpool/atari/ale_state.h).

check_env runs the generic snapshot check over every id with its default
options (no sticky actions); these add sticky actions, whose repeated action
ALE's state leaves out, and a restore into an env that never loaded its ROM.
"""

from __future__ import annotations

import numpy as np

import envpool
from envpool.testing.snapshots import check_snapshots


def test_sticky_actions_restore() -> None:
    check_snapshots("Breakout-v5", repeat_action_probability=0.75, before=20, after=30)


def test_a_state_restores_into_an_env_that_never_loaded_its_rom() -> None:
    env = envpool.make("Pong-v5", env_type="gymnasium", num_envs=1, seed=3, render_mode="rgb_array")
    env.reset()
    for _ in range(7):
        env.step(np.array([2]))
    (state,) = env.get_state()
    saved_frame = env.render()
    want = [env.step(np.array([a % 6]))[0] for a in range(12)]
    fresh = envpool.make(
        "Pong-v5", env_type="gymnasium", num_envs=1, seed=4, render_mode="rgb_array"
    )
    fresh.set_state([state])
    # The restored env's frame is the saved one's before its first step too.
    np.testing.assert_array_equal(fresh.render(), saved_frame)
    got = [fresh.step(np.array([a % 6]))[0] for a in range(12)]
    np.testing.assert_array_equal(np.stack(got), np.stack(want))


def test_a_frame_the_game_leaves_unfinished_restores() -> None:
    # TicTacToe3d's computer thinks for several emulated frames without
    # ending the TV frame: the TIA's drawing position and its greyed flag
    # are part of the state (ALE's cloneState leaves them out).
    rng = np.random.default_rng(0)
    actions = rng.integers(0, 10, 20)
    for k in range(1, 12):
        env = envpool.make("TicTacToe3d-v5", env_type="gymnasium", num_envs=1, seed=7)
        env.reset()
        for a in actions[:k]:
            env.step(np.array([a]))
        states = env.get_state()
        want = [env.step(np.array([a]))[0] for a in actions[k : k + 5]]
        env.set_state(states)
        got = [env.step(np.array([a]))[0] for a in actions[k : k + 5]]
        np.testing.assert_array_equal(np.stack(got), np.stack(want), err_msg=f"saved at {k}")


def test_miniature_golf_settings_round_trip() -> None:
    # ALE's MiniatureGolf wrote its counters as bools and read them as ints
    # (third_party/ale/ale.BUILD): a restored state changed on the next save.
    check_snapshots("MiniatureGolf-v5")
