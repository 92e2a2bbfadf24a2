"""The CleanRL ports under examples/cleanrl, each run for a few updates."""

from __future__ import annotations

import importlib.util
import sys
from functools import partial
from pathlib import Path

import numpy as np
import torch

import envpool

EXAMPLES = Path(__file__).resolve().parents[4] / "examples" / "cleanrl"


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"cleanrl_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_ppo_atari_envpool_runs_updates_on_breakout():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        # Breakout has lives: RecordEpisodeStatistics' has_lives path
        result = load("ppo_atari_envpool").main(
            env_id="Breakout-v5", total_timesteps=2 * 4 * 64, num_envs=4, num_steps=64
        )
    finally:
        torch.set_num_threads(threads)
    assert result["global_step"] == 512
    assert np.isfinite(result["loss"])


def test_ppo_continuous_action_envpool_xla_jax_scan_runs_updates_on_hopper():
    import jax

    previous = jax.config.jax_enable_x64
    try:
        module = load("ppo_continuous_action_envpool_xla_jax_scan")  # enables x64
        stats = module.main(
            env_id="Hopper-v4",
            total_timesteps=2 * 8 * 32,
            num_envs=8,
            num_steps=32,
            num_minibatches=4,
            update_epochs=2,
        )
    finally:
        jax.config.update("jax_enable_x64", previous)
    assert stats["global_step"] == 512
    assert np.isfinite(stats["loss"])
    # the float32 reward keeps the float32 episode statistics in the scan carry
    assert stats["reward_dtype"] == np.float32
    assert stats["episode_returns_dtype"] == np.float32


def test_ppo_atari_envpool_xla_jax_runs_an_update_on_breakout():
    import jax

    module = load("ppo_atari_envpool_xla_jax")
    num_envs, num_steps = 4, 4
    stats = module.main(
        env_id="Breakout-v5",
        total_timesteps=num_envs * num_steps,  # one iteration: one compile of each jitted step
        num_envs=num_envs,
        num_steps=num_steps,
        num_minibatches=1,
        update_epochs=1,
    )
    assert stats["global_step"] == num_envs * num_steps
    assert np.isfinite(stats["loss"]) and np.isfinite(stats["approx_kl"])
    assert stats["agent_state"].step == 1  # one minibatch of one epoch was applied
    assert stats["rewards"].shape == (num_steps, num_envs)
    assert set(np.unique(stats["rewards"])) <= {-1.0, 0.0, 1.0}  # reward_clip
    leaves = jax.tree_util.tree_leaves(stats["agent_state"].params)
    assert all(np.isfinite(np.asarray(leaf)).all() for leaf in leaves)


def test_ppo_atari_envpool_xla_jax_episode_statistics_span_a_whole_game():
    """The port's `record_episode_statistics` (CleanRL's `step_env_wrappeed`):
    with `episodic_life` a lost life is `terminated` (a GAE boundary), but an
    episode's return and length run until `info["terminated"]`, the game over,
    and sum the unclipped `info["reward"]`: the same figures a plain Python
    loop over a second pool with the same seed gives."""
    import jax
    import jax.numpy as jnp

    module = load("ppo_atari_envpool_xla_jax")
    num_envs, seed = 2, 3
    kwargs = dict(env_type="gym", num_envs=num_envs, episodic_life=True, reward_clip=True)
    envs = envpool.make("Breakout-v5", seed=seed, **kwargs)
    handle, _recv, _send, step_env = envs.xla()
    envs.reset()
    step = jax.jit(partial(module.record_episode_statistics, step_env))
    stats = module.EpisodeStatistics(
        episode_returns=jnp.zeros(num_envs, dtype=jnp.float32),
        episode_lengths=jnp.zeros(num_envs, dtype=jnp.int32),
        returned_episode_returns=jnp.zeros(num_envs, dtype=jnp.float32),
        returned_episode_lengths=jnp.zeros(num_envs, dtype=jnp.int32),
    )
    reference = envpool.make("Breakout-v5", seed=seed, **kwargs)
    reference.reset()
    returns, lengths = np.zeros(num_envs), np.zeros(num_envs, int)
    games, life_losses = [], 0
    rng = np.random.default_rng(0)
    for _ in range(3000):
        action = rng.integers(0, 4, num_envs).astype(np.int32)
        stats, handle, (_obs, reward, done, _info) = step(stats, handle, jnp.asarray(action))
        _, ref_reward, terminated, truncated, info = reference.step(action)
        np.testing.assert_array_equal(np.asarray(reward), ref_reward)
        np.testing.assert_array_equal(np.asarray(done), terminated | truncated)
        returns += info["reward"]
        lengths += 1
        over = info["terminated"].astype(bool) | truncated
        life_losses += int((terminated & ~over).sum())
        for i in np.flatnonzero(over):
            assert stats.returned_episode_returns[i] == returns[i]
            assert stats.returned_episode_lengths[i] == lengths[i]
            games.append((returns[i], lengths[i]))
        returns[over], lengths[over] = 0, 0
        np.testing.assert_array_equal(np.asarray(stats.episode_returns), returns)
        if len(games) >= 2:
            break
    assert len(games) >= 2 and life_losses >= 4  # Breakout: 5 lives a game
