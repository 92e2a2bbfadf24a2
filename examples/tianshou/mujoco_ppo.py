"""Tianshou's MuJoCo PPO example (`examples/mujoco/mujoco_ppo.py` with its
`mujoco_env.make_mujoco_env`), minimal port for Tianshou 2.0.1 on envpool.

Changes from Tianshou's script:
- written against Tianshou 2.0.1's API (`tianshou.algorithm.PPO`,
  `ProbabilisticActorPolicy`, `ContinuousActorProbabilistic`,
  `ContinuousCritic`, `AdamOptimizerFactory` with `LRSchedulerFactoryLinear`,
  `algorithm.run_training(OnPolicyTrainerParams(...))`);
- `make_mujoco_env` is kept inline with its envpool branch only: the training
  and test pools are `envpool.make_gymnasium(task, num_envs=n, seed=seed)`
  wrapped in `VectorEnvNormObs` (the test pool reuses the training pool's
  running mean and std), as Tianshou's helper does when envpool is installed;
- no argparse, logger, checkpointing or `--watch`: `main(**hyperparameters)`
  returns the training result; the defaults are Tianshou's (Ant-v4, 100
  epochs of 30000 steps).

    python3 examples/tianshou/mujoco_ppo.py --task Hopper-v4 --epoch 10
"""

from __future__ import annotations

import argparse

import numpy as np
import torch
from tianshou.algorithm import PPO
from tianshou.algorithm.modelfree.reinforce import ProbabilisticActorPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory, LRSchedulerFactoryLinear
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import VectorEnvNormObs
from tianshou.trainer import OnPolicyTrainerParams
from tianshou.utils.net.common import ActorCritic, Net
from tianshou.utils.net.continuous import ContinuousActorProbabilistic, ContinuousCritic
from torch.distributions import Distribution, Independent, Normal

import envpool


def make_mujoco_env(task: str, seed: int, num_train_envs: int, num_test_envs: int):
    train_envs = env = envpool.make_gymnasium(task, num_envs=num_train_envs, seed=seed)
    test_envs = envpool.make_gymnasium(task, num_envs=num_test_envs, seed=seed)
    train_envs = VectorEnvNormObs(train_envs)
    test_envs = VectorEnvNormObs(test_envs, update_obs_rms=False)
    test_envs.set_obs_rms(train_envs.get_obs_rms())
    return env, train_envs, test_envs


def main(
    task: str = "Ant-v4",
    seed: int = 0,
    buffer_size: int = 4096,
    hidden_sizes: tuple[int, ...] = (64, 64),
    lr: float = 3e-4,
    gamma: float = 0.99,
    epoch: int = 100,
    step_per_epoch: int = 30000,
    step_per_collect: int = 2048,
    repeat_per_collect: int = 10,
    batch_size: int = 64,
    training_num: int = 8,
    test_num: int = 10,
    rew_norm: bool = True,
    vf_coef: float = 0.25,
    ent_coef: float = 0.0,
    gae_lambda: float = 0.95,
    bound_action_method: str = "clip",
    lr_decay: bool = True,
    max_grad_norm: float = 0.5,
    eps_clip: float = 0.2,
    dual_clip: float | None = None,
    value_clip: bool = False,
    norm_adv: bool = False,
    recompute_adv: bool = True,
    device: str = "cpu",
):
    env, train_envs, test_envs = make_mujoco_env(task, seed, training_num, test_num)
    state_shape = env.observation_space.shape
    action_shape = env.action_space.shape
    np.random.seed(seed)
    torch.manual_seed(seed)

    net_a = Net(state_shape=state_shape, hidden_sizes=hidden_sizes, activation=torch.nn.Tanh)
    actor = ContinuousActorProbabilistic(
        preprocess_net=net_a, action_shape=action_shape, unbounded=True
    ).to(device)
    net_c = Net(state_shape=state_shape, hidden_sizes=hidden_sizes, activation=torch.nn.Tanh)
    critic = ContinuousCritic(preprocess_net=net_c).to(device)
    actor_critic = ActorCritic(actor, critic)
    torch.nn.init.constant_(actor.sigma_param, -0.5)
    for m in actor_critic.modules():
        if isinstance(m, torch.nn.Linear):
            torch.nn.init.orthogonal_(m.weight, gain=np.sqrt(2))
            torch.nn.init.zeros_(m.bias)
    for m in actor.mu.modules():
        if isinstance(m, torch.nn.Linear):
            torch.nn.init.zeros_(m.bias)
            m.weight.data.copy_(0.01 * m.weight.data)

    optim = AdamOptimizerFactory(lr=lr)
    if lr_decay:
        optim.with_lr_scheduler_factory(
            LRSchedulerFactoryLinear(
                max_epochs=epoch,
                epoch_num_steps=step_per_epoch,
                collection_step_num_env_steps=step_per_collect,
            )
        )

    def dist(loc_scale: tuple[torch.Tensor, torch.Tensor]) -> Distribution:
        loc, scale = loc_scale
        return Independent(Normal(loc, scale), 1)

    policy = ProbabilisticActorPolicy(
        actor=actor,
        dist_fn=dist,
        action_scaling=True,
        action_bound_method=bound_action_method,
        action_space=env.action_space,
    )
    algorithm = PPO(
        policy=policy,
        critic=critic,
        optim=optim,
        gamma=gamma,
        gae_lambda=gae_lambda,
        max_grad_norm=max_grad_norm,
        vf_coef=vf_coef,
        ent_coef=ent_coef,
        return_scaling=rew_norm,
        eps_clip=eps_clip,
        value_clip=value_clip,
        dual_clip=dual_clip,
        advantage_normalization=norm_adv,
        recompute_advantage=recompute_adv,
    )
    buffer = VectorReplayBuffer(buffer_size, len(train_envs))
    train_collector = Collector[CollectStats](algorithm, train_envs, buffer, exploration_noise=True)
    test_collector = Collector[CollectStats](algorithm, test_envs)
    result = algorithm.run_training(
        OnPolicyTrainerParams(
            training_collector=train_collector,
            test_collector=test_collector,
            max_epochs=epoch,
            epoch_num_steps=step_per_epoch,
            update_step_num_repetitions=repeat_per_collect,
            test_step_num_episodes=test_num,
            batch_size=batch_size,
            collection_step_num_env_steps=step_per_collect,
            test_in_training=False,
        )
    )
    return result, train_collector, train_envs


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--task", default="Ant-v4")
    parser.add_argument("--epoch", type=int, default=100)
    parser.add_argument("--step-per-epoch", type=int, default=30000)
    args = parser.parse_args()
    result, _, _ = main(task=args.task, epoch=args.epoch, step_per_epoch=args.step_per_epoch)
    print(result)
