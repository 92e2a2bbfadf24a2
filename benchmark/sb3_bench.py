"""End to end: SB3 PPO on CartPole-v1 for a fixed number of steps, with
envpool's adapter against SB3's DummyVecEnv and SubprocVecEnv.

    python3 -P benchmark/sb3_bench.py --timesteps 50000 --repeats 3

Same hyper-parameters and seed for every backend; wall time of
`model.learn` only (env creation excluded). Writes
benchmark/results/sb3_ppo_cartpole.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import gymnasium
import numpy as np
import stable_baselines3
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

import envpool
from envpool.sb3 import VecEnv

RESULTS = Path(__file__).resolve().parent / "results"
BACKENDS = ("envpool", "dummy", "subproc")


def make_env(backend: str, num_envs: int, seed: int):
    """The vectorized CartPole-v1 of one backend."""
    if backend == "envpool":
        pool = envpool.make(
            "CartPole-v1",
            num_envs=num_envs,
            seed=seed,
            autoreset_mode="same_step",
            episode_statistics=True,
        )
        return VecEnv(pool)
    fns = [lambda: gymnasium.make("CartPole-v1") for _ in range(num_envs)]
    vec = DummyVecEnv(fns) if backend == "dummy" else SubprocVecEnv(fns)
    vec.seed(seed)
    return VecMonitor(vec)


def train(backend: str, num_envs: int, timesteps: int, seed: int) -> tuple[float, float]:
    """Seconds spent in `learn`, and the mean return of the last episodes."""
    env = make_env(backend, num_envs, seed)
    model = PPO(
        "MlpPolicy",
        env,
        n_steps=128,
        batch_size=256,
        n_epochs=4,
        learning_rate=1e-3,
        seed=seed,
        device="cpu",
    )
    start = time.perf_counter()
    model.learn(timesteps)
    elapsed = time.perf_counter() - start
    returns = [ep["r"] for ep in model.ep_info_buffer]
    env.close()
    return elapsed, float(np.mean(returns)) if returns else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--timesteps", type=int, default=50_000)
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    times: dict[str, list[float]] = {b: [] for b in BACKENDS}
    scores: dict[str, list[float]] = {b: [] for b in BACKENDS}
    for r in range(args.repeats):
        for backend in BACKENDS[r % 3 :] + BACKENDS[: r % 3]:
            elapsed, score = train(backend, args.num_envs, args.timesteps, seed=r)
            times[backend].append(elapsed)
            scores[backend].append(score)
            print(f"repeat {r} {backend}: {elapsed:.1f} s, mean return {score:.1f}")
    base = statistics.median(times["envpool"])
    lines = [
        "# SB3 PPO on CartPole-v1: envpool adapter vs SB3 vector envs",
        "",
        f"PPO (n_steps=128, batch_size=256, n_epochs=4, lr=1e-3), {args.num_envs} envs, "
        f"{args.timesteps} steps; wall time of `learn`, median of {args.repeats} repeats.",
        "",
        "| backend | median s | steps/s | time vs envpool | mean return at end |",
        "|---|---:|---:|---:|---:|",
    ]
    for backend in BACKENDS:
        med = statistics.median(times[backend])
        lines.append(
            f"| {backend} | {med:.1f} | {args.timesteps / med:,.0f} | {med / base:.2f}x | "
            f"{statistics.median(scores[backend]):.1f} |"
        )
    lines += [
        "",
        f"- command: `python3 -P benchmark/sb3_bench.py --timesteps {args.timesteps} "
        f"--num-envs {args.num_envs} --repeats {args.repeats}`",
        f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
        f"- machine: {platform.machine()}, nproc {os.cpu_count()}; python "
        f"{sys.version.split()[0]}, torch {torch.__version__}, stable-baselines3 "
        f"{stable_baselines3.__version__}",
        "",
    ]
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "sb3_ppo_cartpole.md").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
