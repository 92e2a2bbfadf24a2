"""RLlib on envpool: sampling throughput, learning curves, and the Ray actor hop.

Runs in RLlib's venv (`make rllib-env`; `make bench-rllib` runs it all):

    benchmark/.venv-rllib/bin/python -P benchmark/rllib_bench.py --out-dir benchmark/results/rllib

On a local Ray cluster of `--nodes` nodes (`ray.cluster_utils.Cluster`, CPUs
split evenly; one EnvRunner per node by default), for each backend, with the
same PPO config, seeds and env counts:

- `envpool`: `"envpool:envpool/<task>"` with
  `gym_env_vectorize_mode=VECTOR_ENTRY_POINT`: one envpool pool per EnvRunner;
- `sync` / `async`: gymnasium's reference env `<task>` (`CartPole-v1` from
  gymnasium itself) in RLlib's default `SyncVectorEnv`, or `AsyncVectorEnv`
  (one subprocess per env).

Parts (`--only` picks some):

- `throughput`: env steps per second of the EnvRunners sampling (their
  `sample(num_timesteps=...)`, RLlib's policy forward pass included), timed
  inside each EnvRunner and summed, after a warm-up; `--repeats` runs;
- `curves`: PPO trained until RLlib's reward threshold for the task
  (`episode_return_mean >= --threshold`, 450 for CartPole-v1 as RLlib's own
  tuned example) or `--max-env-steps`, per seed: the return against env steps
  and wall time, side by side (`curves.png`);
- `hop`: one envpool pool stepped in the driver's process against the same
  pool stepped through a plain Ray actor (`actor.step.remote(a)`, `ray.get`),
  and an empty actor call: the per-step overhead of the actor hop.

Writes `<out-dir>/<part>.json` (and `curves.png`), each with the
command line and the machine.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import gymnasium
import numpy as np
import ray
from ray.cluster_utils import Cluster
from ray.rllib.algorithms.ppo import PPOConfig

import envpool

BACKENDS = ("envpool", "sync", "async")
PARTS = ("throughput", "curves", "hop")
OBJECT_STORE_BYTES = 200 * 1024 * 1024


def ppo_config(backend: str, args: argparse.Namespace, seed: int) -> PPOConfig:
    """The same PPO for every backend; only the env and its vectorization differ."""
    if backend == "envpool":
        env, mode = f"envpool:envpool/{args.task}", gymnasium.VectorizeMode.VECTOR_ENTRY_POINT
        env_config = {"num_threads": args.cpus_per_runner}
    else:
        env, mode = args.task, gymnasium.VectorizeMode(backend)
        env_config = {}
    return (
        PPOConfig()
        .environment(env, env_config=env_config)
        .env_runners(
            num_env_runners=args.runners,
            num_envs_per_env_runner=args.num_envs,
            num_cpus_per_env_runner=args.cpus_per_runner,
            gym_env_vectorize_mode=mode,
            rollout_fragment_length=args.fragment,
        )
        .learners(num_learners=0)
        .fault_tolerance(restart_failed_env_runners=False)
        .training(
            train_batch_size_per_learner=args.runners * args.num_envs * args.fragment,
            minibatch_size=args.minibatch,
            num_epochs=args.epochs,
            lr=args.lr,
            vf_loss_coeff=0.01,
        )
        .debugging(seed=seed)
    )


def timed_sample(runner, num_timesteps: int) -> tuple[int, float]:
    """Inside an EnvRunner: env steps sampled and the seconds it took."""
    started = time.perf_counter()
    episodes = runner.sample(num_timesteps=num_timesteps, explore=True)
    seconds = time.perf_counter() - started
    return sum(len(e) for e in episodes), seconds


def throughput(args: argparse.Namespace) -> dict:
    rows = []
    for backend in args.backends:
        for repeat in range(args.repeats):
            algo = ppo_config(backend, args, args.seeds[0]).build_algo()
            group = algo.env_runner_group
            group.foreach_env_runner(
                lambda r: timed_sample(r, args.warmup_steps), local_env_runner=False
            )
            wall = time.perf_counter()
            done = group.foreach_env_runner(
                lambda r: timed_sample(r, args.sample_steps), local_env_runner=False
            )
            wall = time.perf_counter() - wall
            algo.stop()
            steps = sum(s for s, _ in done)
            row = {
                "backend": backend,
                "repeat": repeat,
                "env_steps": steps,
                "runner_steps_per_s": sum(s / t for s, t in done),
                "wall_steps_per_s": steps / wall,
            }
            print(json.dumps(row), flush=True)
            rows.append(row)
    summary = {
        b: statistics.median(r["runner_steps_per_s"] for r in rows if r["backend"] == b)
        for b in args.backends
    }
    return {"rows": rows, "median_runner_steps_per_s": summary}


def curves(args: argparse.Namespace) -> dict:
    runs = []
    for backend in args.backends:
        for seed in args.seeds:
            algo = ppo_config(backend, args, seed).build_algo()
            started, points = time.perf_counter(), []
            while True:
                result = algo.train()
                runners = result["env_runners"]
                point = {
                    "env_steps": int(result.get("num_env_steps_sampled_lifetime", 0)),
                    "seconds": time.perf_counter() - started,
                    "return_mean": float(runners.get("episode_return_mean", np.nan)),
                }
                points.append(point)
                print(json.dumps({"backend": backend, "seed": seed, **point}), flush=True)
                if point["return_mean"] >= args.threshold:
                    break
                if point["env_steps"] >= args.max_env_steps:
                    break
            algo.stop()
            runs.append(
                {
                    "backend": backend,
                    "seed": seed,
                    "reached": points[-1]["return_mean"] >= args.threshold,
                    "points": points,
                }
            )
    return {"threshold": args.threshold, "runs": runs}


@ray.remote
class PoolActor:
    """One envpool pool in a Ray actor (docs/ray.md)."""

    def __init__(self, task: str, num_envs: int) -> None:
        import envpool as ep

        self.env = ep.make_gymnasium(task, num_envs=num_envs, seed=0)
        self.env.reset()

    def step(self, action: np.ndarray) -> tuple:
        obs, reward, terminated, truncated, _ = self.env.step(action)
        return obs, reward, terminated, truncated

    def ping(self) -> None:
        return None


def hop(args: argparse.Namespace) -> dict:
    """Per-step seconds: the pool here, the pool through an actor, an empty call."""
    local = envpool.make_gymnasium(args.task, num_envs=args.num_envs, seed=0)
    local.reset()
    action = np.zeros(args.num_envs, dtype=np.int64)
    actor = PoolActor.options(num_cpus=1).remote(args.task, args.num_envs)
    ray.get(actor.ping.remote())
    rows = []
    for repeat in range(args.repeats):
        row = {"repeat": repeat}
        started = time.perf_counter()
        for _ in range(args.hop_steps):
            local.step(action)
        row["local_s"] = (time.perf_counter() - started) / args.hop_steps
        started = time.perf_counter()
        for _ in range(args.hop_steps):
            ray.get(actor.step.remote(action))
        row["actor_s"] = (time.perf_counter() - started) / args.hop_steps
        started = time.perf_counter()
        for _ in range(args.hop_steps):
            ray.get(actor.ping.remote())
        row["empty_call_s"] = (time.perf_counter() - started) / args.hop_steps
        row["hop_overhead_s"] = row["actor_s"] - row["local_s"]
        print(json.dumps(row), flush=True)
        rows.append(row)
    local.close()
    ray.kill(actor)
    median = {k: statistics.median(r[k] for r in rows) for k in rows[0] if k != "repeat"}
    return {"num_envs": args.num_envs, "rows": rows, "median": median}


def plot_curves(result: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    colors = dict(zip(BACKENDS, ("C0", "C1", "C2"), strict=True))
    for run in result["runs"]:
        steps = [p["env_steps"] for p in run["points"]]
        secs = [p["seconds"] for p in run["points"]]
        ret = [p["return_mean"] for p in run["points"]]
        label = f"{run['backend']} seed {run['seed']}"
        axes[0].plot(steps, ret, color=colors[run["backend"]], alpha=0.8, label=label)
        axes[1].plot(secs, ret, color=colors[run["backend"]], alpha=0.8, label=label)
    for ax, xlabel in zip(axes, ("env steps", "wall seconds"), strict=True):
        ax.axhline(result["threshold"], color="gray", ls="--", lw=1)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("episode return (mean)")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="CartPole-v1")
    parser.add_argument("--only", nargs="+", choices=PARTS, default=list(PARTS))
    parser.add_argument("--backends", nargs="+", choices=BACKENDS, default=list(BACKENDS))
    parser.add_argument("--nodes", type=int, default=2)
    parser.add_argument("--runners", type=int, default=2, help="num_env_runners")
    parser.add_argument("--cpus-per-runner", type=int, default=1)
    parser.add_argument("--num-envs", type=int, default=8, help="num_envs_per_env_runner")
    parser.add_argument("--fragment", type=int, default=64, help="rollout_fragment_length")
    parser.add_argument("--minibatch", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--warmup-steps", type=int, default=2_000)
    parser.add_argument("--sample-steps", type=int, default=20_000, help="per EnvRunner")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--threshold", type=float, default=450.0)
    parser.add_argument("--max-env-steps", type=int, default=500_000)
    parser.add_argument("--hop-steps", type=int, default=2_000)
    parser.add_argument("--out-dir", default="benchmark/results/rllib")
    args = parser.parse_args()

    out = Path(args.out_dir).resolve()
    out.mkdir(parents=True, exist_ok=True)
    # Ray's workers put the driver's working directory first on their path:
    # from the repository root they would import the source tree's envpool
    # (no compiled modules) instead of the installed wheel.
    os.chdir(tempfile.mkdtemp(prefix="rllib-bench-"))
    cpus = args.runners * args.cpus_per_runner
    per_node = max(1, cpus // args.nodes)
    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": per_node, "object_store_memory": OBJECT_STORE_BYTES},
    )
    for _ in range(args.nodes - 1):
        cluster.add_node(num_cpus=per_node, object_store_memory=OBJECT_STORE_BYTES)
    ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False)
    machine = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg(),
        "platform": platform.platform(),
        "ray": ray.__version__,
        "gymnasium": gymnasium.__version__,
    }
    try:
        for part in args.only:
            result = {"machine": machine, "args": vars(args)}
            result.update({"throughput": throughput, "curves": curves, "hop": hop}[part](args))
            (out / f"{part}.json").write_text(json.dumps(result, indent=1) + "\n")
            if part == "curves":
                plot_curves(result, out / "curves.png")
    finally:
        ray.shutdown()
        cluster.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
