"""End to end: a fixed Tianshou PPO run and a fixed rl_games PPO run on
CartPole-v1, each on this project's envpool, on EnvPool 1.2.5 and on the
trainer's own default vector env.

    python3 -P benchmark/trainers_bench.py --repeats 3

Every run is a fresh interpreter (`--worker`), one torch thread, the same
hyperparameters and seed for every backend:
- Tianshou 2.0.1's high-level `PPOExperimentBuilder` over
  `EnvFactoryRegistered(venv_type=DUMMY)`, with `envpool_factory=EnvPoolFactory()`
  (Tianshou calls `envpool.make_gymnasium`) or without it (Tianshou's
  `DummyVectorEnv` of `gymnasium.make` envs); wall time of `experiment.run`
  (its training and test collection);
- rl_games 1.6.5's `Runner`: `env_name: envpool` (its `Envpool` wrapper,
  `env_type: gymnasium`) or its registered `CartPole-v1`, whose
  `vecenv_type` is `RAY` (one ray actor per env; needs `ray`); wall time of
  `runner.run`.

"this project" runs in the interpreter that runs the script, "EnvPool 1.2.5"
in `benchmark/.venv-envpool125` (`make bench` builds it with envpool
1.2.5; the trainers go in with `benchmark/.venv-envpool125/bin/pip install
-r benchmark/requirements-trainers.txt`, which also lists `ray` for
rl_games' default vector env). Besides the wall time, the CPU time of the
training process (`time.process_time`: its own threads, envpool's
included; not ray's actor processes) is less sensitive to a loaded machine.
Writes benchmark/results/<trainer>_ppo_cartpole.md.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
ENVPOOL125 = HERE / ".venv-envpool125" / "bin" / "python"
BACKENDS = ("envpool", "envpool125", "default")
NUM_ENVS = 8


def tianshou_run(backend: str, epochs: int, seed: int, log_dir: str) -> dict:
    from tianshou.highlevel.config import OnPolicyTrainingConfig
    from tianshou.highlevel.env import EnvFactoryRegistered, EnvPoolFactory, VectorEnvType
    from tianshou.highlevel.experiment import ExperimentConfig, PPOExperimentBuilder
    from tianshou.highlevel.params.algorithm_params import PPOParams

    factory = EnvPoolFactory() if backend != "default" else None
    env_factory = EnvFactoryRegistered(
        task="CartPole-v1", venv_type=VectorEnvType.DUMMY, envpool_factory=factory
    )
    experiment = (
        PPOExperimentBuilder(
            env_factory,
            ExperimentConfig(
                seed=seed,
                device="cpu",
                watch=False,
                persistence_base_dir=log_dir,
                persistence_enabled=False,
            ),
            OnPolicyTrainingConfig(
                max_epochs=epochs,
                epoch_num_steps=5000,
                num_training_envs=NUM_ENVS,
                num_test_envs=4,
                test_step_num_episodes=8,
                collection_step_num_env_steps=1000,
                update_step_num_repetitions=4,
                batch_size=256,
                buffer_size=2000,
            ),
        )
        .with_ppo_params(PPOParams(lr=3e-3, gamma=0.99, ent_coef=0.0))
        .with_actor_factory_default((64, 64))
        .with_critic_factory_default((64, 64))
        .build()
    )
    start, cpu = time.perf_counter(), time.process_time()
    result = experiment.run(run_name="bench", raise_error_on_dirname_collision=False)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    envs = type(result.world.envs.training_envs)
    return {
        "seconds": elapsed,
        "cpu_seconds": cpu,
        "steps": result.world.training_collector.collect_step,
        "score": float(result.trainer_result.best_reward),
        "vector_env": f"{envs.__module__}.{envs.__name__}",
    }


def rl_games_run(backend: str, epochs: int, seed: int, log_dir: str) -> dict:
    from rl_games.common.algo_observer import DefaultAlgoObserver
    from rl_games.torch_runner import Runner

    class Capture(DefaultAlgoObserver):
        def after_init(self, algo):
            super().after_init(algo)
            self.algo = algo

    if backend == "default":
        env = {"env_name": "CartPole-v1", "env_config": {"seed": seed}}
    else:
        env = {
            "env_name": "envpool",
            "env_config": {"env_name": "CartPole-v1", "env_type": "gymnasium", "seed": seed},
        }
    params = {
        "seed": seed,
        "algo": {"name": "a2c_discrete"},
        "model": {"name": "discrete_a2c"},
        "network": {
            "name": "actor_critic",
            "separate": False,
            "space": {"discrete": {}},
            "mlp": {"units": [64, 64], "activation": "relu", "initializer": {"name": "default"}},
        },
        "config": {
            "name": "bench",
            **env,
            "reward_shaper": {"scale_value": 0.1},
            "normalize_advantage": True,
            "normalize_input": False,
            "normalize_value": False,
            "value_bootstrap": True,
            "gamma": 0.99,
            "tau": 0.95,
            "learning_rate": 3e-3,
            "lr_schedule": "None",
            "grad_norm": 1.0,
            "entropy_coef": 0.0,
            "truncate_grads": True,
            "e_clip": 0.2,
            "clip_value": False,
            "num_actors": NUM_ENVS,
            "horizon_length": 128,
            "minibatch_size": 512,
            "mini_epochs": 4,
            "critic_coef": 1,
            "max_epochs": epochs,
            "device": "cpu",
            "train_dir": log_dir,
            "save_frequency": 0,
            "print_stats": False,
            "torch_compile": False,
        },
    }
    observer = Capture()
    runner = Runner(algo_observer=observer)
    runner.load({"params": params})
    start, cpu = time.perf_counter(), time.process_time()
    runner.run({"train": True, "play": False})
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    algo = observer.algo
    vec = type(algo.vec_env)
    return {
        "seconds": elapsed,
        "cpu_seconds": cpu,
        "steps": int(algo.frame),
        "score": float(algo.game_rewards.get_mean()[0]),
        "vector_env": f"{vec.__module__}.{vec.__name__}",
    }


def worker(trainer: str, backend: str, epochs: int, seed: int) -> None:
    import torch

    import envpool

    torch.set_num_threads(1)
    run = tianshou_run if trainer == "tianshou" else rl_games_run
    with tempfile.TemporaryDirectory() as log_dir:
        stats = run(backend, epochs, seed, log_dir)
    stats["envpool"] = getattr(envpool, "__version__", "?")
    print("RESULT " + json.dumps(stats))


def spawn(trainer: str, backend: str, epochs: int, seed: int, timeout: float) -> dict:
    python = str(ENVPOOL125) if backend == "envpool125" else sys.executable
    cmd = [python, "-P", __file__, "--worker", trainer, backend, "--epochs", str(epochs)]
    cmd += ["--seed", str(seed)]
    env = dict(os.environ, RAY_raylet_start_wait_time_s="240")  # ray's node on a loaded machine
    try:
        out = subprocess.run(
            cmd, capture_output=True, text=True, check=False, cwd=HERE, env=env, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return {"error": f"no result in {timeout:.0f} s"}
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT ") :])
    tail = [line for line in (out.stdout + out.stderr).strip().splitlines() if line.strip()]
    return {"error": tail[-1] if tail else f"exit status {out.returncode}"}


def write_table(trainer: str, epochs: int, args, results: dict, load_before) -> str:
    names = {"envpool": "this envpool", "envpool125": "EnvPool 1.2.5", "default": "default"}
    if trainer == "tianshou":
        run = (
            f"Tianshou 2.0.1's high-level PPO builder, {epochs} epoch(s) of 5000 steps "
            "(collection 1000 steps, 4 repetitions, batch 256, and its test episodes: 4 "
            "envs, 8 episodes, before training and after each epoch); wall time of "
            "`experiment.run`"
        )
    else:
        run = (
            f"rl_games 1.6.5's `Runner`, PPO, {epochs} epochs of 8 actors x 128 steps "
            "(4 mini-epochs, minibatch 512); wall time of `runner.run`"
        )
    lines = [
        f"# {trainer} PPO on CartPole-v1: this envpool, EnvPool 1.2.5, the trainer's "
        "own vector env",
        "",
        f"{run}. {NUM_ENVS} training envs, one torch thread, a fresh interpreter per "
        f"run; median of {args.repeats} repeats (seeds {args.seed}.."
        f"{args.seed + args.repeats - 1}), backends interleaved.",
        "",
        "| backend | vector env | median wall s | median CPU s | wall vs this envpool "
        "| CPU vs this envpool | steps | score (median) |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    medians = {}
    for backend, runs in results.items():
        ok = [r for r in runs if "error" not in r]
        if ok:
            medians[backend] = (
                statistics.median(r["seconds"] for r in ok),
                statistics.median(r["cpu_seconds"] for r in ok),
            )
    base = medians.get("envpool")
    for backend, runs in results.items():
        ok = [r for r in runs if "error" not in r]
        if not ok:
            lines.append(
                f"| {names[backend]} | - | - | - | - | - | - | not run: {runs[0]['error']} |"
            )
            continue
        wall, cpu = medians[backend]
        vec = ok[0]["vector_env"].rsplit(".", 1)[-1]
        score = statistics.median(r["score"] for r in ok)
        ratios = [f"{wall / base[0]:.2f}x", f"{cpu / base[1]:.2f}x"] if base else ["-", "-"]
        lines.append(
            f"| {names[backend]} | `{vec}` | {wall:.1f} | {cpu:.1f} | {ratios[0]} | {ratios[1]} "
            f"| {ok[0]['steps']} | {score:.1f} |"
        )
    load_after = os.getloadavg()
    score = (
        "Tianshou's best test return"
        if trainer == "tianshou"
        else "rl_games' mean return of its last episodes"
    )
    lines += [
        "",
        f"Score: {score} (a random policy averages about 22).",
        "",
        f"- command: `python3 -P benchmark/trainers_bench.py --trainers {trainer} "
        f"--epochs {epochs} --repeats {args.repeats} --backends {' '.join(results)}`",
        f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
        f"- machine: {platform.machine()}, nproc {os.cpu_count()}; python {sys.version.split()[0]}",
        f"- load average (1, 5, 15 min, `uptime`): {' '.join(f'{x:.1f}' for x in load_before)}"
        f" before, {' '.join(f'{x:.1f}' for x in load_after)} after, on {os.cpu_count()} "
        "cores: the machine was shared and heavily loaded, so wall times are stretched and "
        "noisy; the CPU times are the steadier comparison",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", nargs=2, metavar=("TRAINER", "BACKEND"))
    parser.add_argument("--trainers", nargs="+", default=["tianshou", "rl_games"])
    parser.add_argument("--backends", nargs="+", default=list(BACKENDS))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=0, help="0: 1 (Tianshou), 10 (rl_games)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds a run may take")
    args = parser.parse_args()
    if args.worker:
        worker(*args.worker, args.epochs, args.seed)
        return
    for trainer in args.trainers:
        epochs = args.epochs or (1 if trainer == "tianshou" else 10)
        load_before = os.getloadavg()
        results: dict[str, list[dict]] = {b: [] for b in args.backends}
        for r in range(args.repeats):
            k = r % len(args.backends)
            for backend in args.backends[k:] + args.backends[:k]:
                stats = spawn(trainer, backend, epochs, args.seed + r, args.timeout)
                results[backend].append(stats)
                print(trainer, backend, r, stats, flush=True)
        table = write_table(trainer, epochs, args, results, load_before)
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / f"{trainer}_ppo_cartpole.md").write_text(table)
        print(table)


if __name__ == "__main__":
    main()
