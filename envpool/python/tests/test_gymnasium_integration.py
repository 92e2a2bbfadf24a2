"""gymnasium.make_vec and gymnasium's vector wrappers on the pool."""

from __future__ import annotations

import subprocess
import sys

import gymnasium
import numpy as np

import envpool
from envpool.python.gymnasium_api import GymnasiumVectorEnv


def test_make_vec_through_the_vector_entry_point():
    envpool.register_gymnasium_envs()
    env = gymnasium.make_vec(
        "envpool/CartPole-v1", num_envs=8, vectorization_mode="vector_entry_point", seed=3
    )
    assert isinstance(env, GymnasiumVectorEnv)
    assert env.num_envs == 8
    assert env.spec.config.max_episode_steps == 500
    obs, _ = env.reset()
    assert obs.shape == (8, 4)


def test_make_vec_passes_options_and_imports_envpool_by_module_prefix():
    code = (
        "import gymnasium\n"
        "env = gymnasium.make_vec('envpool:envpool/Pendulum-v1', num_envs=3, "
        "max_episode_steps=7)\n"
        "assert type(env).__name__ == 'GymnasiumVectorEnv', type(env)\n"
        "assert env.spec.config.max_episode_steps == 7\n"
    )
    subprocess.run([sys.executable, "-P", "-c", code], check=True)


def test_record_normalize_wrappers_run_on_the_pool():
    env = envpool.make("CartPole-v1", num_envs=4, seed=0)
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(env)
    env = gymnasium.wrappers.vector.NormalizeObservation(env)
    env = gymnasium.wrappers.vector.NormalizeReward(env)
    obs, _ = env.reset(seed=0)
    finished = 0
    seen = []
    for _ in range(300):
        obs, _rew, _term, _trunc, info = env.step(np.ones(4, dtype=np.int64))
        seen.append(obs)
        if "_episode" in info:
            finished += int(info["_episode"].sum())
            assert (info["episode"]["l"][info["_episode"]] > 0).all()
    assert finished > 0
    stacked = np.concatenate(seen)
    # normalized observations: roughly zero mean, unit spread
    assert np.abs(stacked.mean(axis=0)).max() < 1.0
    assert 0.3 < stacked.std(axis=0).mean() < 3.0
