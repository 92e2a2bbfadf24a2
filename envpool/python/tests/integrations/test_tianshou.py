"""Tianshou 2.0.1's own envpool entry points on this project.

- the high-level API: `EnvFactoryRegistered(envpool_factory=EnvPoolFactory())`
  through `PPOExperimentBuilder` (tianshou calls `envpool.make_gymnasium`);
- the low-level API: `Collector` over an `envpool.make_gymnasium` pool wrapped
  in `VectorEnvNormObs`, as `examples/tianshou/mujoco_ppo.py` (a port of
  tianshou's `examples/mujoco/mujoco_ppo.py`) builds it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
import torch
from tianshou.highlevel.config import OnPolicyTrainingConfig
from tianshou.highlevel.env import EnvFactoryRegistered, EnvPoolFactory, VectorEnvType
from tianshou.highlevel.experiment import ExperimentConfig, PPOExperimentBuilder
from tianshou.highlevel.params.algorithm_params import PPOParams

import envpool


@pytest.fixture(autouse=True)
def _one_torch_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def run_experiment(tmp_path, task, training_config, params, hidden=(64, 64)):
    env_factory = EnvFactoryRegistered(
        task=task, venv_type=VectorEnvType.DUMMY, envpool_factory=EnvPoolFactory()
    )
    experiment = (
        PPOExperimentBuilder(
            env_factory,
            ExperimentConfig(
                seed=0,
                device="cpu",
                watch=False,
                persistence_base_dir=str(tmp_path),
                persistence_enabled=False,
            ),
            training_config,
        )
        .with_ppo_params(params)
        .with_actor_factory_default(hidden)
        .with_critic_factory_default(hidden)
        .build()
    )
    return experiment.run(run_name="run", raise_error_on_dirname_collision=False)


def test_high_level_ppo_on_cartpole_beats_a_random_policy(tmp_path):
    result = run_experiment(
        tmp_path,
        "CartPole-v1",
        OnPolicyTrainingConfig(
            max_epochs=2,
            epoch_num_steps=3000,
            num_training_envs=8,
            num_test_envs=4,
            test_step_num_episodes=8,
            collection_step_num_env_steps=1000,
            update_step_num_repetitions=4,
            batch_size=256,
            buffer_size=2000,
        ),
        PPOParams(lr=3e-3, gamma=0.99, ent_coef=0.0),
    )
    world = result.world
    # the pools tianshou built are this project's, with EnvPool's surface
    assert isinstance(world.envs.training_envs, envpool.GymnasiumEnvPool)
    assert world.envs.training_envs.num_envs == 8
    assert world.envs.training_envs.observation_space.shape == (4,)
    best = result.trainer_result.best_reward
    # a random policy averages about 22 on CartPole-v1
    assert best > 60, best


def test_high_level_ppo_on_a_mujoco_task_trains(tmp_path):
    result = run_experiment(
        tmp_path,
        "Hopper-v4",
        OnPolicyTrainingConfig(
            max_epochs=1,
            epoch_num_steps=1024,
            num_training_envs=4,
            num_test_envs=2,
            test_step_num_episodes=2,
            collection_step_num_env_steps=512,
            update_step_num_repetitions=2,
            batch_size=256,
            buffer_size=1024,
        ),
        PPOParams(lr=3e-4),
    )
    world = result.world
    assert world.envs.training_envs.observation_space.shape == (11,)
    stats = result.trainer_result
    assert stats.update_step >= 2
    assert np.isfinite(stats.best_reward)
    assert world.training_collector.collect_step >= 1024


def test_high_level_ppo_on_pendulum_trains(tmp_path):
    """Pendulum-v1, the classic-control continuous task: a 3-input actor
    for a 1-d action in [-2, 2]. A few thousand steps do not learn the
    swing-up, so the run is checked for what it collected and updated."""
    result = run_experiment(
        tmp_path,
        "Pendulum-v1",
        OnPolicyTrainingConfig(
            max_epochs=1,
            epoch_num_steps=1600,
            num_training_envs=8,
            num_test_envs=2,
            test_step_num_episodes=2,
            collection_step_num_env_steps=800,
            update_step_num_repetitions=2,
            batch_size=200,
            buffer_size=800,
        ),
        PPOParams(lr=1e-3, gamma=0.9),
    )
    world = result.world
    envs = world.envs.training_envs
    assert isinstance(envs, envpool.GymnasiumEnvPool)
    assert envs.spec.id == "Pendulum-v1" and envs.num_envs == 8
    assert envs.observation_space.shape == (3,) and envs.action_space.shape == (1,)
    stats = result.trainer_result
    assert stats.update_step >= 2
    assert world.training_collector.collect_step >= 1600
    # 200-step episodes of reward in [-16.3, 0]
    assert -16.3 * 200 <= stats.best_reward <= 0, stats.best_reward


def load_example():
    path = Path(__file__).resolve().parents[4] / "examples" / "tianshou" / "mujoco_ppo.py"
    spec = importlib.util.spec_from_file_location("tianshou_mujoco_ppo", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_low_level_collector_over_an_envpool_pool_as_tianshous_mujoco_ppo():
    example = load_example()
    result, collector, train_envs = example.main(
        task="Hopper-v4",
        epoch=1,
        step_per_epoch=1024,
        step_per_collect=512,
        repeat_per_collect=1,
        batch_size=256,
        training_num=4,
        test_num=2,
        buffer_size=512,
    )
    assert isinstance(train_envs.venv, envpool.GymnasiumEnvPool)
    assert collector.collect_step >= 1024
    assert result.update_step >= 2
    assert np.isfinite(result.best_reward)
    # VectorEnvNormObs saw the pool's observations
    assert train_envs.get_obs_rms().mean.shape == (11,)
