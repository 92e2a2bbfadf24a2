"""The CleanRL ports under examples/cleanrl, each run for a few updates."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import torch

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
