# ruff: noqa: RUF059  (CleanRL unpacks the names it logs to TensorBoard)
"""CleanRL's `cleanrl/ppo_continuous_action_envpool_xla_jax_scan.py` (PPO,
MuJoCo, the rollout a `jax.lax.scan` over `env.xla()`), ported to
gymnasium 1.x, current JAX and this envpool.

Changes from CleanRL's script (written for gym 0.23, EnvPool's 4-tuple gym
step and JAX 0.3):
- `env.xla()`'s `recv`/`step` return `(obs, reward, terminated, truncated,
  info)`: `VectorEnvNormObs.recv` takes the 5-tuple instead of reading
  `info["TimeLimit.truncated"]`; `envs.reset()` returns `(obs, info)`:
  `VectorEnvWrapper.reset` passes the observation on;
- `from jax.config import config` is `jax.config`, `jax.tree_map` is
  `jax.tree_util.tree_map` (both removed from JAX); the
  `JAX_DEFAULT_DTYPE_BITS` and `XLA_PYTHON_CLIENT_MEM_FRACTION` settings
  are dropped (the first does nothing in current JAX, the second is for GPUs);
  without the first, `jax.random.normal` under `jax_enable_x64` draws
  float64 noise, which makes the actions, log-probabilities and gradients
  float64 and breaks the float32 optimizer state in the update's
  `lax.scan` carry: the noise is drawn as `dtype=logits.dtype` (float32),
  the `stdlog` parameter is initialised as float32,
  and the advantages (float64 from the GAE scan's default-dtype zeros) are
  cast to float32;
- `RunningMeanStd`'s array defaults are `default_factory` fields (Python
  3.11's dataclasses refuse unhashable defaults); `AgentParams` answers
  `in` (current flax's `TrainState` asks `OVERWRITE_WITH_GRADIENT in params`);
- `envs.is_vector_env = True` is gone (the pool is a vector env);
- argparse is replaced by `Args` and `main(**overrides)`, which returns the
  last update's statistics; no wandb or TensorBoard;
- kept as CleanRL has it: `jax_enable_x64` on, the float32 episode
  statistics carried through the rollout scan (they stay float32 because
  the pool's reward is float32), and `VectorEnvClipAct.send` returning the
  unclipped action.

    python3 examples/cleanrl/ppo_continuous_action_envpool_xla_jax_scan.py --env-id Hopper-v4
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
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.linen.initializers import constant, orthogonal
from flax.training.train_state import TrainState

import envpool

jax.config.update("jax_enable_x64", True)  # envpool only accept double type action input


@dataclasses.dataclass
class Args:
    seed: int = 1
    env_id: str = "Ant-v3"
    total_timesteps: int = 3_000_000
    learning_rate: float = 3e-4
    num_envs: int = 64
    num_steps: int = 32
    anneal_lr: bool = True
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 32
    update_epochs: int = 10
    norm_adv: bool = False
    clip_coef: float = 0.2
    ent_coef: float = 0.0
    vf_coef: float = 0.25
    max_grad_norm: float = 0.5
    target_kl: float | None = None
    rew_norm: int = True

    @property
    def batch_size(self) -> int:
        return self.num_envs * self.num_steps

    @property
    def minibatch_size(self) -> int:
        return self.batch_size // self.num_minibatches

    @property
    def num_updates(self) -> int:
        return self.total_timesteps // self.batch_size


class RunningMeanStd(flax.struct.PyTreeNode):
    eps: jnp.array = flax.struct.field(
        default_factory=lambda: jnp.array(jnp.finfo(jnp.float64).eps.item(), dtype=jnp.float64)
    )
    mean: jnp.array = 0.0
    var: jnp.array = 1.0
    clip_max: jnp.array = flax.struct.field(
        default_factory=lambda: jnp.array(10.0, dtype=jnp.float64)
    )
    count: jnp.array = flax.struct.field(default_factory=lambda: jnp.array(0, dtype=jnp.int64))

    def norm(self, data_array):
        data_array = (data_array - self.mean) / jnp.sqrt(self.var + self.eps)
        return jnp.clip(data_array, -self.clip_max, self.clip_max)

    def update(self, data_array: jnp.ndarray):
        batch_mean, batch_var = jnp.mean(data_array, axis=0), jnp.var(data_array, axis=0)
        batch_count = len(data_array)
        delta = batch_mean - self.mean
        total_count = self.count + batch_count
        new_mean = self.mean + delta * batch_count / total_count
        m_a = self.var * self.count
        m_b = batch_var * batch_count
        m_2 = m_a + m_b + delta**2 * self.count * batch_count / total_count
        new_var = m_2 / total_count
        return self.replace(mean=new_mean, var=new_var, count=total_count)


@flax.struct.dataclass
class EnvWrapper:
    def recv(self, ret):
        return self, ret

    def reset(self, ret):
        return self, ret

    def send(self, action):
        return action


class VectorEnvWrapper:
    def __init__(self, envs, wrappers):
        self.envs = envs
        self.wrappers = wrappers
        self._handle, self._recv, self._send, self._step = self.envs.xla()

    def reset(self):
        result, _info = self.envs.reset()
        handles = [self._handle]
        for wrapper in self.wrappers:
            handle, result = wrapper.reset(result)
            handles += [handle]
        return handles, result

    def xla(self):
        @jax.jit
        def send(handle: jnp.ndarray, action, env_id=None):
            for wrapper in self.wrappers:
                action = wrapper.send(action)
            return [self._send(handle[0], action, env_id), *handle[1:]]

        @jax.jit
        def recv(handles: jnp.ndarray):
            _handle, ret = self._recv(handles[0])
            new_handles = []
            for handle in reversed(handles[1:]):
                handle, ret = handle.recv(ret)
                new_handles += [handle]
            return [_handle, *reversed(new_handles)], ret

        def step(handle, action, env_id=None):
            return recv(send(handle, action, env_id))

        return self._handle, recv, send, step


@flax.struct.dataclass
class VectorEnvNormObs(EnvWrapper):
    obs_rms: RunningMeanStd = RunningMeanStd()

    def recv(self, ret):
        next_obs, reward, next_done, next_truncated, info = ret
        obs_rms = self.obs_rms.update(next_obs)
        return self.replace(obs_rms=obs_rms), (
            obs_rms.norm(next_obs),
            reward,
            next_done,
            next_truncated,
            info,
        )

    def reset(self, ret):
        obs = ret
        obs_rms = self.obs_rms.update(obs)
        obs = obs_rms.norm(obs).astype(jnp.float32)
        return self.replace(obs_rms=obs_rms), obs


@flax.struct.dataclass
class VectorEnvClipAct(EnvWrapper):
    action_low: jnp.array
    action_high: jnp.array

    def send(self, action):
        action_remap = jnp.clip(action, -1.0, 1.0)
        action_remap = (
            self.action_low + (action_remap + 1.0) * (self.action_high - self.action_low) / 2.0
        ).astype(jnp.float64)
        return action  # as CleanRL's: the remapped action is not sent


class Critic(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(64, kernel_init=orthogonal(jnp.float_(np.sqrt(2))), bias_init=constant(0.0))(x)
        x = nn.tanh(x)
        x = nn.Dense(64, kernel_init=orthogonal(jnp.float_(np.sqrt(2))), bias_init=constant(0.0))(x)
        x = nn.tanh(x)
        return nn.Dense(1, kernel_init=orthogonal(jnp.float_(np.sqrt(2))), bias_init=constant(0.0))(
            x
        )


class Actor(nn.Module):
    action_dim: Sequence[int]

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(64, kernel_init=orthogonal(jnp.float_(np.sqrt(2))), bias_init=constant(0.0))(x)
        x = nn.tanh(x)
        x = nn.Dense(64, kernel_init=orthogonal(jnp.float_(np.sqrt(2))), bias_init=constant(0.0))(x)
        x = nn.tanh(x)
        x = nn.Dense(
            self.action_dim, kernel_init=orthogonal(jnp.float_(0.0)), bias_init=constant(0.0)
        )(x)
        stdlog = self.param(
            "stdlog", lambda rng, shape: -jnp.ones(shape, jnp.float32) / 2, (self.action_dim,)
        )
        return x, stdlog


class AgentTrainState(TrainState):
    ret_rms: RunningMeanStd = RunningMeanStd()


@flax.struct.dataclass
class AgentParams:
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
    truncated: jnp.array
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


def main(**overrides):
    args = Args(**overrides)
    random.seed(args.seed)
    np.random.seed(args.seed)
    key = jax.random.PRNGKey(args.seed)
    key, actor_key, critic_key = jax.random.split(key, 3)

    envs = envpool.make(args.env_id, env_type="gym", num_envs=args.num_envs, seed=args.seed)
    single_action_space = envs.action_space
    single_observation_space = envs.observation_space
    episode_stats = EpisodeStatistics(
        episode_returns=jnp.zeros(args.num_envs, dtype=jnp.float32),
        episode_lengths=jnp.zeros(args.num_envs, dtype=jnp.int32),
        returned_episode_returns=jnp.zeros(args.num_envs, dtype=jnp.float32),
        returned_episode_lengths=jnp.zeros(args.num_envs, dtype=jnp.int32),
    )
    wrappers = [
        VectorEnvNormObs(),
        VectorEnvClipAct(envs.action_space.low, envs.action_space.high),
    ]
    envs = VectorEnvWrapper(envs, wrappers)
    handle, recv, send, step_env = envs.xla()

    def step_env_wrappeed(episode_stats, handle, action):
        handle, (next_obs, reward, next_done, next_truncated, info) = step_env(handle, action)
        new_episode_return = episode_stats.episode_returns + reward
        new_episode_length = episode_stats.episode_lengths + 1
        episode_stats = episode_stats.replace(
            episode_returns=(new_episode_return) * (1 - next_done) * (1 - next_truncated),
            episode_lengths=(new_episode_length) * (1 - next_done) * (1 - next_truncated),
            returned_episode_returns=jnp.where(
                next_done + next_truncated,
                new_episode_return,
                episode_stats.returned_episode_returns,
            ),
            returned_episode_lengths=jnp.where(
                next_done + next_truncated,
                new_episode_length,
                episode_stats.returned_episode_lengths,
            ),
        )
        return episode_stats, handle, (next_obs, reward, next_done, next_truncated, info)

    def linear_schedule(count):
        frac = 1.0 - (count // (args.num_minibatches * args.update_epochs)) / args.num_updates
        return args.learning_rate * frac

    actor = Actor(action_dim=np.prod(single_action_space.shape))
    critic = Critic()
    sample = np.array([single_observation_space.sample()], dtype=jnp.float32)
    agent_state = AgentTrainState.create(
        apply_fn=None,
        params=AgentParams(actor.init(actor_key, sample), critic.init(critic_key, sample)),
        tx=optax.chain(
            optax.clip_by_global_norm(args.max_grad_norm),
            optax.inject_hyperparams(optax.adam)(
                learning_rate=linear_schedule if args.anneal_lr else args.learning_rate, eps=1e-5
            ),
        ),
        ret_rms=RunningMeanStd(),
    )
    actor.apply = jax.jit(actor.apply)
    critic.apply = jax.jit(critic.apply)

    @jax.jit
    def get_action_and_value(agent_state, next_obs, key):
        logits, stdlog = actor.apply(agent_state.params.actor_params, next_obs)
        key, subkey = jax.random.split(key)
        u = jax.random.normal(subkey, shape=logits.shape, dtype=logits.dtype)
        action = logits + u * jnp.exp(stdlog)
        logprob = (
            -0.5 * ((action - logits) / jnp.exp(stdlog)) ** 2 - 0.5 * jnp.log(2.0 * jnp.pi) - stdlog
        )
        logprob = logprob.sum(-1)
        value = critic.apply(agent_state.params.critic_params, next_obs)
        return action, logprob, value.squeeze(1), key

    @jax.jit
    def get_action_and_value2(params, x, action):
        logits, stdlog = actor.apply(params.actor_params, x)
        logprob = (
            -0.5 * ((action - logits) / jnp.exp(stdlog)) ** 2 - 0.5 * jnp.log(2.0 * jnp.pi) - stdlog
        )
        logprob = logprob.sum(-1)
        entropy = (2 * stdlog + jnp.log(2 * jnp.pi) + 1) / 2
        value = critic.apply(params.critic_params, x).squeeze()
        return logprob, entropy.sum(-1), value

    def compute_gae_once(carry, inp, gamma, gae_lambda):
        advantages = carry
        nextdone, nexttruncated, nextvalues, curvalues, reward = inp
        nextnonterminal = (1.0 - nextdone) * (1.0 - nexttruncated)
        delta = reward + gamma * nextvalues - curvalues
        advantages = delta + gamma * gae_lambda * nextnonterminal * advantages
        return advantages, advantages

    compute_gae_once = partial(compute_gae_once, gamma=args.gamma, gae_lambda=args.gae_lambda)

    @jax.jit
    def compute_gae(agent_state, next_obs, next_done, next_truncated, storage):
        values = critic.apply(
            agent_state.params.critic_params,
            jnp.concatenate([storage.obs, next_obs[None, :]], axis=0),
        ).squeeze()
        if args.rew_norm:
            values = values * jnp.sqrt(agent_state.ret_rms.var).astype(jnp.float32)
        advantages = jnp.zeros((args.num_envs,))
        dones = jnp.concatenate([storage.dones, next_done[None, :]], axis=0)
        truncated = jnp.concatenate([storage.truncated, next_truncated[None, :]], axis=0)
        _, advantages = jax.lax.scan(
            compute_gae_once,
            advantages,
            (
                dones[1:],
                truncated[1:],
                values[1:] * (1.0 - dones[1:]),
                values[:-1],
                storage.rewards,
            ),
            reverse=True,
        )
        advantages = advantages.astype(jnp.float32)
        returns = advantages + values[:-1]
        if args.rew_norm:
            returns = (returns / jnp.sqrt(agent_state.ret_rms.var + 10e-8)).astype(jnp.float32)
            agent_state = agent_state.replace(ret_rms=agent_state.ret_rms.update(returns.flatten()))
        storage = storage.replace(advantages=advantages, returns=returns)
        return storage, agent_state

    def ppo_loss(params, x, a, logp, mb_advantages, mb_returns, truncated):
        newlogprob, entropy, newvalue = get_action_and_value2(params, x, a)
        logratio = newlogprob - logp
        ratio = jnp.exp(logratio)
        approx_kl = ((ratio - 1) - logratio).mean()
        if args.norm_adv:
            mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)
        pg_loss1 = -mb_advantages * ratio
        pg_loss2 = -mb_advantages * jnp.clip(ratio, 1 - args.clip_coef, 1 + args.clip_coef)
        pg_loss = (jnp.maximum(pg_loss1, pg_loss2) * (1 - truncated)).sum() / (1 - truncated).sum()
        v_loss = (((newvalue - mb_returns) * (1 - truncated)) ** 2).sum() / (1 - truncated).sum()
        entropy_loss = entropy.mean()
        loss = pg_loss + v_loss * args.vf_coef
        return loss, (pg_loss, v_loss, entropy_loss, jax.lax.stop_gradient(approx_kl))

    ppo_loss_grad_fn = jax.value_and_grad(ppo_loss, has_aux=True)

    @jax.jit
    def update_ppo(agent_state, next_obs, next_done, next_truncated, storage, key):
        def update_epoch(carry, unused_inp):
            agent_state, key = carry
            key, subkey = jax.random.split(key)

            def flatten(x):
                return x.reshape((-1, *x.shape[2:]))

            def convert_data(x: jnp.ndarray):
                x = jax.random.permutation(subkey, x)
                return jnp.reshape(x, (args.num_minibatches, -1, *x.shape[1:]))

            newstorage, agent_state = compute_gae(
                agent_state, next_obs, next_done, next_truncated, storage
            )
            flatten_storage = jax.tree_util.tree_map(flatten, newstorage)
            shuffled_storage = jax.tree_util.tree_map(convert_data, flatten_storage)

            def update_minibatch(agent_state, minibatch):
                (loss, (pg_loss, v_loss, entropy_loss, approx_kl)), grads = ppo_loss_grad_fn(
                    agent_state.params,
                    minibatch.obs,
                    minibatch.actions,
                    minibatch.logprobs,
                    minibatch.advantages,
                    minibatch.returns,
                    minibatch.truncated,
                )
                agent_state = agent_state.apply_gradients(grads=grads)
                return agent_state, (loss, pg_loss, v_loss, entropy_loss, approx_kl, grads)

            agent_state, outputs = jax.lax.scan(update_minibatch, agent_state, shuffled_storage)
            return (agent_state, key), outputs

        (agent_state, key), (loss, pg_loss, v_loss, entropy_loss, approx_kl, _grads) = jax.lax.scan(
            update_epoch, (agent_state, key), (), length=args.update_epochs
        )
        return agent_state, loss, pg_loss, v_loss, entropy_loss, approx_kl, key

    global_step = 0
    handle, next_obs = envs.reset()
    next_obs = next_obs.astype(jnp.float32)
    next_done = jnp.zeros(args.num_envs, dtype=jax.numpy.bool_)
    next_truncated = jnp.zeros(args.num_envs, dtype=jax.numpy.bool_)

    def step_once(carry, step, env_step_fn):
        agent_state, episode_stats, obs, done, truncated, key, handle = carry
        action, logprob, value, key = get_action_and_value(agent_state, obs, key)
        episode_stats, handle, (next_obs, reward, next_done, next_truncated, _) = env_step_fn(
            episode_stats, handle, action.astype(jnp.float64)
        )
        next_obs = next_obs.astype(jnp.float32)
        storage = Storage(
            obs=obs,
            actions=action,
            logprobs=logprob,
            dones=done,
            truncated=truncated,
            values=value,
            rewards=reward,
            returns=jnp.zeros_like(reward),
            advantages=jnp.zeros_like(reward),
        )
        return (
            agent_state,
            episode_stats,
            next_obs,
            next_done,
            next_truncated,
            key,
            handle,
        ), storage

    def rollout(agent_state, episode_stats, next_obs, next_done, next_truncated, key, handle,
                step_once_fn, max_steps):  # fmt: skip
        carry, storage = jax.lax.scan(
            step_once_fn,
            (agent_state, episode_stats, next_obs, next_done, next_truncated, key, handle),
            (),
            max_steps,
        )
        agent_state, episode_stats, next_obs, next_done, next_truncated, key, handle = carry
        return agent_state, episode_stats, next_obs, next_done, next_truncated, storage, key, handle

    rollout = partial(
        rollout,
        step_once_fn=partial(step_once, env_step_fn=step_env_wrappeed),
        max_steps=args.num_steps,
    )
    stats = {}
    for _update in range(1, args.num_updates + 1):
        update_time_start = time.time()
        (agent_state, episode_stats, next_obs, next_done, next_truncated, storage, key, handle) = (
            rollout(agent_state, episode_stats, next_obs, next_done, next_truncated, key, handle)
        )
        global_step += args.num_steps * args.num_envs
        agent_state, loss, pg_loss, v_loss, entropy_loss, approx_kl, key = update_ppo(
            agent_state, next_obs, next_done, next_truncated, storage, key
        )
        avg_episodic_return = np.mean(jax.device_get(episode_stats.returned_episode_returns))
        avg_episodic_length = np.mean(jax.device_get(episode_stats.returned_episode_lengths))
        sps = int(args.num_steps * args.num_envs / (time.time() - update_time_start))
        print(
            f"global_step={global_step}, avg_episodic_length={avg_episodic_length}, "
            f"avg_episodic_return={avg_episodic_return}, SPS_update={sps}"
        )
        stats = {
            "global_step": global_step,
            "avg_episodic_return": float(avg_episodic_return),
            "loss": float(loss[-1, -1]),
            "reward_dtype": storage.rewards.dtype,
            "episode_returns_dtype": episode_stats.episode_returns.dtype,
        }
    return stats


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--env-id", default="Ant-v3")
    parser.add_argument("--total-timesteps", type=int, default=3_000_000)
    parser.add_argument("--seed", type=int, default=1)
    cli = parser.parse_args()
    print(main(env_id=cli.env_id, total_timesteps=cli.total_timesteps, seed=cli.seed))
