"""Multi-player rows through the Python API, on the core's TeamEnv test env.

Env k has a seed-dependent number of players (1..3); each player row holds
its player index as observation and `action * player index` as reward.
"""

from __future__ import annotations

import numpy as np

import envpool

envpool.register("TestTeam-v0", family="testing", env_class="TestTeam")


def test_player_rows_carry_their_env_id_and_reward():
    env = envpool.make("TestTeam-v0", num_envs=4, seed=0)
    assert env.spec.config.max_num_players == 3
    obs, info = env.reset()
    players = info["players"]["env_id"]
    assert obs.shape == (len(players),) and 4 <= len(players) <= 12
    assert sorted(set(players.tolist())) == [0, 1, 2, 3]
    obs, reward, terminated, truncated, info = env.step(np.array([2, 1, 2, 1]))
    assert reward.shape == obs.shape == info["players"]["env_id"].shape
    actions = {0: 2, 1: 1, 2: 2, 3: 1}
    for row, env_id in enumerate(info["players"]["env_id"].tolist()):
        assert reward[row] == actions[env_id] * obs[row]
    # per-env arrays stay one row per env
    assert terminated.shape == truncated.shape == (4,)


def test_player_counts_follow_the_seed():
    def counts(seed):
        _, info = envpool.make("TestTeam-v0", num_envs=6, seed=seed).reset()
        return np.bincount(info["players"]["env_id"], minlength=6).tolist()

    assert counts(1) == counts(1)
    assert any(counts(s) != counts(1) for s in range(2, 6))
