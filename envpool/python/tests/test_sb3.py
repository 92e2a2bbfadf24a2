"""envpool.sb3.VecEnv against Stable-Baselines3's VecEnv expectations."""

from __future__ import annotations

import numpy as np
import pytest
import stable_baselines3 as sb3
from stable_baselines3.common.vec_env import VecEnv as SB3VecEnv

import envpool
from envpool.sb3 import VecEnv


def make(mode: str = "same_step", **kwargs) -> VecEnv:
    kwargs.setdefault("num_envs", 4)
    pool = envpool.make("CartPole-v1", env_type="gymnasium", autoreset_mode=mode, **kwargs)
    return VecEnv(pool)


def test_is_an_sb3_vec_env_with_single_env_spaces():
    env = make()
    assert isinstance(env, SB3VecEnv)
    assert env.num_envs == 4
    assert env.observation_space.shape == (4,)
    obs = env.reset()
    assert isinstance(obs, np.ndarray) and obs.shape == (4, 4)
    assert env.observation_space.contains(obs[0])
    obs, rewards, dones, infos = env.step(np.zeros(4, dtype=np.int64))
    assert rewards.dtype == np.float32 and dones.dtype == np.bool_
    assert isinstance(infos, list) and len(infos) == 4
    assert infos[0]["env_id"] == 0


@pytest.mark.parametrize("mode", ["same_step", "next_step"])
def test_ended_envs_reset_in_the_same_step_with_terminal_observation(mode):
    env = make(mode, max_episode_steps=3)
    env.reset()
    for _ in range(2):
        _, _, dones, infos = env.step(np.zeros(4, dtype=np.int64))
        assert not dones.any()
    obs, _, dones, infos = env.step(np.zeros(4, dtype=np.int64))
    assert dones.all()
    for i in range(4):
        assert infos[i]["TimeLimit.truncated"] is True
        terminal = infos[i]["terminal_observation"]
        assert terminal.shape == (4,)
        assert np.abs(obs[i]).max() <= 0.05  # the next episode's first obs
        assert not np.array_equal(terminal, obs[i])
    _, _, dones, infos = env.step(np.zeros(4, dtype=np.int64))
    assert not dones.any() and infos[0]["elapsed_step"] == 1


def test_termination_is_not_a_time_limit():
    env = make()
    env.reset()
    for _ in range(200):
        _, _, dones, infos = env.step(np.ones(4, dtype=np.int64))
        if dones.any():
            i = int(np.flatnonzero(dones)[0])
            assert "TimeLimit.truncated" not in infos[i]
            return
    pytest.fail("pushing right never ended an episode")


def test_seed_makes_reset_reproducible():
    env = make()
    env.seed(5)
    first = env.reset()
    env.seed(5)
    np.testing.assert_array_equal(env.reset(), first)
    env.seed(6)
    assert not np.array_equal(env.reset(), first)


def test_attribute_methods_serve_every_env():
    env = make()
    assert env.get_attr("num_envs") == [4, 4, 4, 4]
    assert env.get_attr("num_envs", indices=[1]) == [4]
    assert env.env_is_wrapped(object) == [False] * 4
    env.set_attr("user_note", "x")
    assert env.get_attr("user_note", indices=0) == ["x"]
    assert env.env_method("__len__", indices=[0, 2]) == [4, 4]


def test_episode_statistics_reach_sb3_infos():
    env = make(episode_statistics=True, max_episode_steps=5)
    env.reset()
    for _ in range(5):
        _, _, dones, infos = env.step(np.zeros(4, dtype=np.int64))
    assert dones.all()
    assert infos[0]["episode"]["l"] == 5 and infos[0]["episode"]["r"] == 5.0


def test_async_pools_are_rejected():
    pool = envpool.make("CartPole-v1", num_envs=4, batch_size=2)
    with pytest.raises(ValueError, match="batch_size"):
        VecEnv(pool)


def test_ppo_learns_cartpole_through_the_adapter(tmp_path, monkeypatch):
    """A shortened version of examples/sb3_ppo_cartpole.py: clear progress."""
    import torch

    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path))  # SB3's logger folder, else /tmp/SB3-<date>

    torch.set_num_threads(1)
    env = make(num_envs=8, seed=0, episode_statistics=True)
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
    model.learn(total_timesteps=30_000)
    returns = [ep["r"] for ep in model.ep_info_buffer]
    assert len(returns) > 10
    # a random policy averages about 22 on CartPole-v1
    assert np.mean(returns) > 60, np.mean(returns)
