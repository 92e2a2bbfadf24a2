"""Stable-Baselines3 over EnvPool's documented VecAdapter pattern: a
`VecEnvWrapper` over an `env_type="gym"` pool that resets ended envs itself,
with `VecMonitor` for the episode statistics, trained with SB3's PPO.
(`envpool.sb3.VecEnv`, this project's adapter, trains in
`envpool/python/tests/test_sb3.py`.)

SB3's logger writes into `$SB3_LOGDIR`, else a new `/tmp/SB3-<date>`
folder on every `learn`: the tests point it at their `tmp_path`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import stable_baselines3 as sb3
import torch
from stable_baselines3.common.vec_env import VecEnvWrapper, VecMonitor

import envpool
from envpool.python.protocol import EnvPool


class VecAdapter(VecEnvWrapper):
    """EnvPool's README adapter, as a user copies it."""

    def __init__(self, venv: EnvPool):
        venv.num_envs = venv.spec.config.num_envs
        super().__init__(venv=venv)

    def step_async(self, actions):
        self.actions = actions

    def reset(self):
        return self.venv.reset()[0]

    def seed(self, seed=None):
        pass

    def step_wait(self):
        obs, rewards, terms, truncs, info_dict = self.venv.step(self.actions)
        dones = terms + truncs
        infos = []
        for i in range(len(info_dict["env_id"])):
            infos.append(
                {
                    key: info_dict[key][i]
                    for key in info_dict.keys()
                    if isinstance(info_dict[key], np.ndarray)
                }
            )
            if dones[i]:
                infos[i]["terminal_observation"] = obs[i]
                obs[i] = self.venv.reset(np.array([i]))[0]
        return obs, rewards, dones, infos


def test_ppo_over_envpools_vec_adapter_beats_a_random_policy(tmp_path, monkeypatch):
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path))
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        env = VecMonitor(
            VecAdapter(envpool.make("CartPole-v1", env_type="gym", num_envs=8, seed=0))
        )
        model = sb3.PPO(
            "MlpPolicy",
            env,
            n_steps=128,
            batch_size=256,
            n_epochs=4,
            learning_rate=1e-3,
            ent_coef=0.0,
            seed=0,
            device="cpu",
        )
        model.learn(total_timesteps=20_000)
    finally:
        torch.set_num_threads(threads)
    assert env.observation_space.shape == (4,) and env.num_envs == 8
    assert Path(model.logger.get_dir()).is_relative_to(tmp_path)
    returns = [ep["r"] for ep in model.ep_info_buffer]
    assert len(returns) > 10
    # a random policy averages about 22 on CartPole-v1
    assert np.mean(returns) > 60, np.mean(returns)
