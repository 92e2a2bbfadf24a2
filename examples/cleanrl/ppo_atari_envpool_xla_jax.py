# ruff: noqa: RUF059  (CleanRL unpacks the names it logs to TensorBoard)
"""CleanRL's `cleanrl/ppo_atari_envpool_xla_jax.py` (PPO, Atari, JAX/flax;
the rollout a jitted loop over `env.xla()`'s `step`), ported to gymnasium
1.x, current JAX/flax and this envpool.

Changes from CleanRL's script (written for gym 0.23, EnvPool's 4-tuple gym
step and JAX 0.3/0.4):
- `env.xla()`'s `step` returns `(obs, reward, terminated, truncated, info)`:
  `next_done = terminated | truncated` (what EnvPool's gym `done` was), and
  the episode statistics end an episode on `info["terminated"] | truncated`
  (the game itself is over, or the time limit) where CleanRL read
  `info["terminated"] + info["TimeLimit.truncated"]`; the returns still sum
  the unclipped `info["reward"]`; `envs.reset()` returns `(obs, info)`;
- `import gymnasium as gym` for the `Discrete` check;
- the pool already has `num_envs`, `single_action_space`,
  `single_observation_space` and `is_vector_env`: the four assignments are
  gone;
- `step_env_wrappeed` is the module-level `record_episode_statistics`
  (with `step_env` its first argument), so a test can run it alone;
- `AgentParams` answers `in` (current flax's `TrainState` asks
  `OVERWRITE_WITH_GRADIENT in params`);
- the `XLA_PYTHON_CLIENT_MEM_FRACTION` and `TF_XLA_FLAGS` / cuDNN settings
  are dropped (they are for GPUs);
- tyro is replaced by `Args` and `main(**overrides)`, which returns the last
  iteration's statistics; no wandb or TensorBoard; `--cuda` is gone (JAX
  picks its default device).
- `target_return` and `time_limit` (both off by default) stop the run
  early, for timing how long a return takes to reach
  (benchmark/many_cores.py); the statistics then say why it stopped;
- kept as CleanRL has it: the Gumbel-max action sampling, the unrolled
  Python loops inside `jax.jit` (rollout, GAE, update), the unclipped value
  loss (`clip_vloss` is an unused argument there too) and the
  hyperparameters.

    python3 examples/cleanrl/ppo_atari_envpool_xla_jax.py --env-id Breakout-v5
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import time
from collections.abc import Sequence
from functools import partial

import flax
import flax.linen as nn
import gymnasium as gym
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.linen.initializers import constant, orthogonal
from flax.training.train_state import TrainState

import envpool


@dataclasses.dataclass
class Args:
    seed: int = 1
    env_id: str = "Breakout-v5"
    total_timesteps: int = 10_000_000
    learning_rate: float = 2.5e-4
    num_envs: int = 8
    num_steps: int = 128
    anneal_lr: bool = True
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    norm_adv: bool = True
    clip_coef: float = 0.1
    clip_vloss: bool = True
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float | None = None
    # Not CleanRL's: stop once the mean of the envs' last episodic returns
    # reaches target_return, or once time_limit seconds have passed since
    # the first iteration began (None: run every iteration, as CleanRL does).
    target_return: float | None = None
    time_limit: float | None = None

    @property
    def batch_size(self) -> int:
        return self.num_envs * self.num_steps

    @property
    def minibatch_size(self) -> int:
        return self.batch_size // self.num_minibatches

    @property
    def num_iterations(self) -> int:
        return self.total_timesteps // self.batch_size


class Network(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = jnp.transpose(x, (0, 2, 3, 1))
        x = x / (255.0)
        for features, kernel, stride in ((32, 8, 4), (64, 4, 2), (64, 3, 1)):
            x = nn.Conv(
                features,
                kernel_size=(kernel, kernel),
                strides=(stride, stride),
                padding="VALID",
                kernel_init=orthogonal(np.sqrt(2)),
                bias_init=constant(0.0),
            )(x)
            x = nn.relu(x)
        x = x.reshape((x.shape[0], -1))
        x = nn.Dense(512, kernel_init=orthogonal(np.sqrt(2)), bias_init=constant(0.0))(x)
        return nn.relu(x)


class Critic(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1, kernel_init=orthogonal(1), bias_init=constant(0.0))(x)


class Actor(nn.Module):
    action_dim: Sequence[int]

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.action_dim, kernel_init=orthogonal(0.01), bias_init=constant(0.0))(x)


@flax.struct.dataclass
class AgentParams:
    network_params: flax.core.FrozenDict
    actor_params: flax.core.FrozenDict
    critic_params: flax.core.FrozenDict

    def __contains__(self, key):  # current flax's TrainState asks `"..." in params`
        return False


@flax.struct.dataclass
class Storage:
    obs: jnp.array
    actions: jnp.array
    logprobs: jnp.array
    dones: jnp.array
    values: jnp.array
    advantages: jnp.array
    returns: jnp.array
    rewards: jnp.array


@flax.struct.dataclass
class EpisodeStatistics:
    episode_returns: jnp.array
    episode_lengths: jnp.array
    returned_episode_returns: jnp.array
    returned_episode_lengths: jnp.array


def record_episode_statistics(step_env, episode_stats, handle, action):
    """CleanRL's `step_env_wrappeed`: one `step_env` call and the episode
    statistics (returns of the unclipped reward over a whole game)."""
    handle, (next_obs, reward, terminated, truncated, info) = step_env(handle, action)
    next_done = terminated | truncated
    episode_over = info["terminated"] | truncated
    new_episode_return = episode_stats.episode_returns + info["reward"]
    new_episode_length = episode_stats.episode_lengths + 1
    episode_stats = episode_stats.replace(
        episode_returns=(new_episode_return) * (1 - episode_over),
        episode_lengths=(new_episode_length) * (1 - episode_over),
        # only update the `returned_episode_returns` if the episode is done
        returned_episode_returns=jnp.where(
            episode_over, new_episode_return, episode_stats.returned_episode_returns
        ),
        returned_episode_lengths=jnp.where(
            episode_over, new_episode_length, episode_stats.returned_episode_lengths
        ),
    )
    return episode_stats, handle, (next_obs, reward, next_done, info)


def main(**overrides):
    args = Args(**overrides)
    random.seed(args.seed)
    np.random.seed(args.seed)
    key = jax.random.PRNGKey(args.seed)
    key, network_key, actor_key, critic_key = jax.random.split(key, 4)

    envs = envpool.make(
        args.env_id,
        env_type="gym",
        num_envs=args.num_envs,
        episodic_life=True,
        reward_clip=True,
        seed=args.seed,
    )
    episode_stats = EpisodeStatistics(
        episode_returns=jnp.zeros(args.num_envs, dtype=jnp.float32),
        episode_lengths=jnp.zeros(args.num_envs, dtype=jnp.int32),
        returned_episode_returns=jnp.zeros(args.num_envs, dtype=jnp.float32),
        returned_episode_lengths=jnp.zeros(args.num_envs, dtype=jnp.int32),
    )
    handle, recv, send, step_env = envs.xla()

    step_env_wrappeed = partial(record_episode_statistics, step_env)

    assert isinstance(envs.single_action_space, gym.spaces.Discrete), (
        "only discrete action space is supported"
    )

    def linear_schedule(count):
        # anneal learning rate linearly after one training iteration which contains
        # (args.num_minibatches * args.update_epochs) gradient updates
        frac = 1.0 - (count // (args.num_minibatches * args.update_epochs)) / args.num_iterations
        return args.learning_rate * frac

    network = Network()
    actor = Actor(action_dim=envs.single_action_space.n)
    critic = Critic()
    sample = np.array([envs.single_observation_space.sample()])
    network_params = network.init(network_key, sample)
    agent_state = TrainState.create(
        apply_fn=None,
        params=AgentParams(
            network_params,
            actor.init(actor_key, network.apply(network_params, sample)),
            critic.init(critic_key, network.apply(network_params, sample)),
        ),
        tx=optax.chain(
            optax.clip_by_global_norm(args.max_grad_norm),
            optax.inject_hyperparams(optax.adam)(
                learning_rate=linear_schedule if args.anneal_lr else args.learning_rate, eps=1e-5
            ),
        ),
    )
    network.apply = jax.jit(network.apply)
    actor.apply = jax.jit(actor.apply)
    critic.apply = jax.jit(critic.apply)

    obs_shape = envs.single_observation_space.shape
    action_shape = envs.single_action_space.shape
    storage = Storage(
        obs=jnp.zeros((args.num_steps, args.num_envs, *obs_shape)),
        actions=jnp.zeros((args.num_steps, args.num_envs, *action_shape), dtype=jnp.int32),
        logprobs=jnp.zeros((args.num_steps, args.num_envs)),
        dones=jnp.zeros((args.num_steps, args.num_envs)),
        values=jnp.zeros((args.num_steps, args.num_envs)),
        advantages=jnp.zeros((args.num_steps, args.num_envs)),
        returns=jnp.zeros((args.num_steps, args.num_envs)),
        rewards=jnp.zeros((args.num_steps, args.num_envs)),
    )

    @jax.jit
    def get_action_and_value(agent_state, next_obs, next_done, storage, step, key):
        """sample action, calculate value, logprob, entropy, and update storage"""
        hidden = network.apply(agent_state.params.network_params, next_obs)
        logits = actor.apply(agent_state.params.actor_params, hidden)
        # sample action: Gumbel-softmax trick
        key, subkey = jax.random.split(key)
        u = jax.random.uniform(subkey, shape=logits.shape)
        action = jnp.argmax(logits - jnp.log(-jnp.log(u)), axis=1)
        logprob = jax.nn.log_softmax(logits)[jnp.arange(action.shape[0]), action]
        value = critic.apply(agent_state.params.critic_params, hidden)
        storage = storage.replace(
            obs=storage.obs.at[step].set(next_obs),
            dones=storage.dones.at[step].set(next_done),
            actions=storage.actions.at[step].set(action),
            logprobs=storage.logprobs.at[step].set(logprob),
            values=storage.values.at[step].set(value.squeeze()),
        )
        return storage, action, key

    @jax.jit
    def get_action_and_value2(params, x, action):
        """calculate value, logprob of supplied `action`, and entropy"""
        hidden = network.apply(params.network_params, x)
        logits = actor.apply(params.actor_params, hidden)
        logprob = jax.nn.log_softmax(logits)[jnp.arange(action.shape[0]), action]
        # normalize the logits
        logits = logits - jax.scipy.special.logsumexp(logits, axis=-1, keepdims=True)
        logits = logits.clip(min=jnp.finfo(logits.dtype).min)
        p_log_p = logits * jax.nn.softmax(logits)
        entropy = -p_log_p.sum(-1)
        value = critic.apply(params.critic_params, hidden).squeeze()
        return logprob, entropy, value

    @jax.jit
    def compute_gae(agent_state, next_obs, next_done, storage):
        storage = storage.replace(advantages=storage.advantages.at[:].set(0.0))
        next_value = critic.apply(
            agent_state.params.critic_params,
            network.apply(agent_state.params.network_params, next_obs),
        ).squeeze()
        lastgaelam = 0
        for t in reversed(range(args.num_steps)):
            if t == args.num_steps - 1:
                nextnonterminal = 1.0 - next_done
                nextvalues = next_value
            else:
                nextnonterminal = 1.0 - storage.dones[t + 1]
                nextvalues = storage.values[t + 1]
            delta = (
                storage.rewards[t] + args.gamma * nextvalues * nextnonterminal - storage.values[t]
            )
            lastgaelam = delta + args.gamma * args.gae_lambda * nextnonterminal * lastgaelam
            storage = storage.replace(advantages=storage.advantages.at[t].set(lastgaelam))
        return storage.replace(returns=storage.advantages + storage.values)

    @jax.jit
    def update_ppo(agent_state, storage, key):
        b_obs = storage.obs.reshape((-1, *obs_shape))
        b_logprobs = storage.logprobs.reshape(-1)
        b_actions = storage.actions.reshape((-1, *action_shape))
        b_advantages = storage.advantages.reshape(-1)
        b_returns = storage.returns.reshape(-1)

        def ppo_loss(params, x, a, logp, mb_advantages, mb_returns):
            newlogprob, entropy, newvalue = get_action_and_value2(params, x, a)
            logratio = newlogprob - logp
            ratio = jnp.exp(logratio)
            approx_kl = ((ratio - 1) - logratio).mean()

            if args.norm_adv:
                mb_advantages = (mb_advantages - mb_advantages.mean()) / (
                    mb_advantages.std() + 1e-8
                )

            # Policy loss
            pg_loss1 = -mb_advantages * ratio
            pg_loss2 = -mb_advantages * jnp.clip(ratio, 1 - args.clip_coef, 1 + args.clip_coef)
            pg_loss = jnp.maximum(pg_loss1, pg_loss2).mean()

            # Value loss
            v_loss = 0.5 * ((newvalue - mb_returns) ** 2).mean()

            entropy_loss = entropy.mean()
            loss = pg_loss - args.ent_coef * entropy_loss + v_loss * args.vf_coef
            return loss, (pg_loss, v_loss, entropy_loss, jax.lax.stop_gradient(approx_kl))

        ppo_loss_grad_fn = jax.value_and_grad(ppo_loss, has_aux=True)
        for _ in range(args.update_epochs):
            key, subkey = jax.random.split(key)
            b_inds = jax.random.permutation(subkey, args.batch_size, independent=True)
            for start in range(0, args.batch_size, args.minibatch_size):
                end = start + args.minibatch_size
                mb_inds = b_inds[start:end]
                (loss, (pg_loss, v_loss, entropy_loss, approx_kl)), grads = ppo_loss_grad_fn(
                    agent_state.params,
                    b_obs[mb_inds],
                    b_actions[mb_inds],
                    b_logprobs[mb_inds],
                    b_advantages[mb_inds],
                    b_returns[mb_inds],
                )
                agent_state = agent_state.apply_gradients(grads=grads)
        return agent_state, loss, pg_loss, v_loss, entropy_loss, approx_kl, key

    global_step = 0
    start_time = time.time()
    next_obs, _info = envs.reset()
    next_done = np.zeros(args.num_envs)

    @jax.jit
    def rollout(agent_state, episode_stats, next_obs, next_done, storage, key, handle, global_step):
        for step in range(0, args.num_steps):
            global_step += args.num_envs
            storage, action, key = get_action_and_value(
                agent_state, next_obs, next_done, storage, step, key
            )
            episode_stats, handle, (next_obs, reward, next_done, _) = step_env_wrappeed(
                episode_stats, handle, action
            )
            storage = storage.replace(rewards=storage.rewards.at[step].set(reward))
        return agent_state, episode_stats, next_obs, next_done, storage, key, handle, global_step

    stats = {}
    stopped_by = "num_iterations"
    for _iteration in range(1, args.num_iterations + 1):
        iteration_time_start = time.time()
        agent_state, episode_stats, next_obs, next_done, storage, key, handle, global_step = (
            rollout(
                agent_state, episode_stats, next_obs, next_done, storage, key, handle, global_step
            )
        )
        storage = compute_gae(agent_state, next_obs, next_done, storage)
        agent_state, loss, pg_loss, v_loss, entropy_loss, approx_kl, key = update_ppo(
            agent_state, storage, key
        )
        avg_episodic_return = np.mean(jax.device_get(episode_stats.returned_episode_returns))
        avg_episodic_length = np.mean(jax.device_get(episode_stats.returned_episode_lengths))
        sps = int(global_step / (time.time() - start_time))
        sps_update = int(args.num_envs * args.num_steps / (time.time() - iteration_time_start))
        print(
            f"global_step={int(global_step)}, avg_episodic_return={avg_episodic_return}, "
            f"SPS={sps}, SPS_update={sps_update}"
        )
        stats = {
            "global_step": int(global_step),
            "avg_episodic_return": float(avg_episodic_return),
            "avg_episodic_length": float(avg_episodic_length),
            "returned_episode_returns": np.asarray(episode_stats.returned_episode_returns),
            "returned_episode_lengths": np.asarray(episode_stats.returned_episode_lengths),
            "rewards": np.asarray(storage.rewards),
            "loss": float(loss),
            "approx_kl": float(approx_kl),
            "learning_rate": float(agent_state.opt_state[1].hyperparams["learning_rate"]),
            "agent_state": agent_state,
            "iteration": _iteration,
            "elapsed_s": time.time() - start_time,
        }
        if args.target_return is not None and avg_episodic_return >= args.target_return:
            stopped_by = "target_return"
            break
        if args.time_limit is not None and time.time() - start_time >= args.time_limit:
            stopped_by = "time_limit"
            break
    stats["stopped_by"] = stopped_by
    envs.close()
    return stats


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--env-id", default="Breakout-v5")
    parser.add_argument("--total-timesteps", type=int, default=10_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--num-envs", type=int, default=Args.num_envs)
    parser.add_argument("--num-steps", type=int, default=Args.num_steps)
    parser.add_argument("--num-minibatches", type=int, default=Args.num_minibatches)
    parser.add_argument("--update-epochs", type=int, default=Args.update_epochs)
    parser.add_argument(
        "--target-return", type=float, default=None, help="stop once the mean return reaches it"
    )
    parser.add_argument("--time-limit", type=float, default=None, help="stop after these seconds")
    cli = parser.parse_args()
    stats = main(
        env_id=cli.env_id,
        total_timesteps=cli.total_timesteps,
        seed=cli.seed,
        num_envs=cli.num_envs,
        num_steps=cli.num_steps,
        num_minibatches=cli.num_minibatches,
        update_epochs=cli.update_epochs,
        target_return=cli.target_return,
        time_limit=cli.time_limit,
    )
    print({k: v for k, v in stats.items() if np.isscalar(v)}, flush=True)
