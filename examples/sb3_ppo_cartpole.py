"""Stable-Baselines3 PPO on CartPole-v1 through envpool's SB3 adapter.

    python3 examples/sb3_ppo_cartpole.py

Trains until the mean return of the last 100 episodes reaches CartPole-v1's
reward threshold (475) or the step budget runs out, then prints the result.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.callbacks import BaseCallback

import envpool
from envpool.sb3 import VecEnv


class StopAtThreshold(BaseCallback):
    """Stops training once the last 100 episodes average `threshold`."""

    def __init__(self, threshold: float) -> None:
        super().__init__()
        self.threshold = threshold

    def _on_step(self) -> bool:
        returns = [ep["r"] for ep in self.model.ep_info_buffer]
        return not (len(returns) >= 100 and np.mean(returns) >= self.threshold)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--total-timesteps", type=int, default=300_000)
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)

    pool = envpool.make(
        "CartPole-v1",
        env_type="gymnasium",
        num_envs=args.num_envs,
        seed=args.seed,
        autoreset_mode="same_step",
        episode_statistics=True,
    )
    threshold = pool.spec.reward_threshold
    model = PPO(
        "MlpPolicy",
        VecEnv(pool),
        n_steps=256,
        batch_size=256,
        n_epochs=10,
        learning_rate=1e-3,
        gae_lambda=0.95,
        gamma=0.99,
        ent_coef=0.0,
        seed=args.seed,
        device="cpu",
    )
    start = time.perf_counter()
    model.learn(args.total_timesteps, callback=StopAtThreshold(threshold))
    returns = [ep["r"] for ep in model.ep_info_buffer]
    elapsed = time.perf_counter() - start
    print(
        f"{model.num_timesteps} steps in {elapsed:.0f} s: mean return of the last "
        f"{len(returns)} episodes {np.mean(returns):.1f} (threshold {threshold})"
    )


if __name__ == "__main__":
    main()
