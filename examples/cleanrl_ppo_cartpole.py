"""PPO on CartPole-v1 in the CleanRL style: one file, plain PyTorch, CPU.

    python3 examples/cleanrl_ppo_cartpole.py

The envs come from `envpool.make(..., env_type="gymnasium")` with
`autoreset_mode="same_step"`: the step that ends an episode already returns
the next episode's first observation, so the rollout loop needs no special
case. Training stops when the last 100 episodes average CartPole-v1's reward
threshold (475).
"""

from __future__ import annotations

import argparse
import time
from collections import deque

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import envpool


def layer(n_in: int, n_out: int, gain: float = np.sqrt(2)) -> nn.Linear:
    linear = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(linear.weight, gain)
    nn.init.zeros_(linear.bias)
    return linear


class Agent(nn.Module):
    """Separate actor and critic MLPs."""

    def __init__(self, obs_dim: int, num_actions: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(
            layer(obs_dim, 64), nn.Tanh(), layer(64, 64), nn.Tanh(), layer(64, 1, 1.0)
        )
        self.actor = nn.Sequential(
            layer(obs_dim, 64), nn.Tanh(), layer(64, 64), nn.Tanh(), layer(64, num_actions, 0.01)
        )

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(obs).squeeze(-1)

    def act(self, obs: torch.Tensor, action: torch.Tensor | None = None):
        dist = Categorical(logits=self.actor(obs))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.value(obs)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--num-steps", type=int, default=128)
    p.add_argument("--total-timesteps", type=int, default=500_000)
    p.add_argument("--lr", type=float, default=2.5e-3)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    envs = envpool.make(
        "CartPole-v1",
        env_type="gymnasium",
        num_envs=args.num_envs,
        seed=args.seed,
        autoreset_mode="same_step",
        episode_statistics=True,
    )
    threshold = envs.spec.reward_threshold
    n, t_max = args.num_envs, args.num_steps
    agent = Agent(envs.single_observation_space.shape[0], envs.single_action_space.n)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)

    obs_buf = torch.zeros((t_max, n, envs.single_observation_space.shape[0]))
    act_buf = torch.zeros((t_max, n), dtype=torch.long)
    logp_buf, rew_buf = torch.zeros((t_max, n)), torch.zeros((t_max, n))
    done_buf, val_buf = torch.zeros((t_max, n)), torch.zeros((t_max, n))

    obs, _ = envs.reset()
    next_obs = torch.as_tensor(obs)
    next_done = torch.zeros(n)
    recent: deque[float] = deque(maxlen=100)
    updates = args.total_timesteps // (n * t_max)
    start, steps = time.perf_counter(), 0
    for update in range(updates):
        for group in optimizer.param_groups:
            group["lr"] = args.lr * (1.0 - update / updates)
        for t in range(t_max):
            obs_buf[t], done_buf[t] = next_obs, next_done
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs)
            act_buf[t], logp_buf[t], val_buf[t] = action, logp, value
            obs, reward, term, trunc, info = envs.step(action.numpy())
            steps += n
            rew_buf[t] = torch.as_tensor(reward)
            next_obs = torch.as_tensor(obs)
            next_done = torch.as_tensor(term | trunc, dtype=torch.float32)
            recent.extend(info["episode"]["r"][info["_episode"]].tolist())

        with torch.no_grad():  # generalized advantage estimation
            next_value = agent.value(next_obs)
            adv = torch.zeros_like(rew_buf)
            last = torch.zeros(n)
            for t in reversed(range(t_max)):
                not_done = 1.0 - (next_done if t == t_max - 1 else done_buf[t + 1])
                following = next_value if t == t_max - 1 else val_buf[t + 1]
                delta = rew_buf[t] + args.gamma * following * not_done - val_buf[t]
                last = delta + args.gamma * args.gae_lambda * not_done * last
                adv[t] = last
            ret = adv + val_buf

        b_obs, b_act = obs_buf.reshape(-1, obs_buf.shape[-1]), act_buf.reshape(-1)
        b_logp, b_adv, b_ret = logp_buf.reshape(-1), adv.reshape(-1), ret.reshape(-1)
        size = n * t_max
        for _ in range(args.epochs):
            order = torch.randperm(size)
            for mb in order.split(size // args.minibatches):
                _, logp, entropy, value = agent.act(b_obs[mb], b_act[mb])
                ratio = (logp - b_logp[mb]).exp()
                mb_adv = (b_adv[mb] - b_adv[mb].mean()) / (b_adv[mb].std() + 1e-8)
                pg_loss = torch.max(
                    -mb_adv * ratio, -mb_adv * ratio.clamp(1 - args.clip, 1 + args.clip)
                ).mean()
                v_loss = 0.5 * (value - b_ret[mb]).pow(2).mean()
                loss = pg_loss + 0.5 * v_loss - 0.0 * entropy.mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()

        if len(recent) == recent.maxlen and np.mean(recent) >= threshold:
            break
    elapsed = time.perf_counter() - start
    print(
        f"{steps} steps in {elapsed:.0f} s: mean return of the last {len(recent)} "
        f"episodes {np.mean(recent):.1f} (threshold {threshold})"
    )


if __name__ == "__main__":
    main()
