"""The pool's CPU time per env step, builds compared in alternation.

    python3 -P benchmark/cpu_per_step.py --task CartPole-v1 --num-envs 1024 \
        --mode sync --num-threads 1 --batches 3000 --rounds 6 \
        --build base=/tmp/base/bin/python --build new=.venv/bin/python

On a shared machine wall time measures the other work as much as the pool;
the CPU time this process spends (user + system, all its threads, from
`getrusage`) over a fixed number of batches does not, or far less. Each round
runs one fresh process of each build, in turn, the order reversed every
other round; a process steps `--batches` batches after a warm-up and prints
its CPU and wall nanoseconds per env step. The table gives each build's
median and, against the first build, the median of the rounds' CPU ratios
and their range.

With `--num-threads 1` (sync) every env is stepped on the calling thread and
the CPU is the work itself; with more threads it also counts the time idle
threads poll for work before they sleep (see docs/scheduler.md).
Without `--build` it runs one measurement in this interpreter and prints it
as JSON.

The actions are the benchmark's (`worker.py`: 256 uniformly drawn batches,
cycled). `--action-probs` draws them instead from the given distribution
over a discrete action space, a fresh batch for each step (warm-up
included), from `numpy.random.default_rng(--seed)`: the timed batches come
first in the sequence, the warm-up's after them, so the timed part is the
same for every `--warmup`. For highway-env's ids, mostly IDLE and SLOWER
(episodes that both crash and run their duration):

    python3 -P benchmark/cpu_per_step.py --task highway-fast-v0 --num-envs 64 \
        --mode sync --num-threads 1 --batches 200 --warmup 0 \
        --action-probs 0.1,0.4,0.1,0.1,0.3 --build ours=.venv/bin/python

`--env-type dm` steps a dm pool instead (TimeSteps), with the same actions.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def cpu_seconds() -> float:
    """User + system CPU seconds of this process, all its threads."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def parse_probs(text: str) -> list[float]:
    """`--action-probs`' comma-separated probabilities, checked to sum to 1."""
    try:
        probs = [float(p) for p in text.split(",")]
    except ValueError as e:
        raise argparse.ArgumentTypeError(
            f"--action-probs takes numbers like 0.1,0.4,0.5: {e}"
        ) from e
    if len(probs) < 1 or any(not 0.0 <= p <= 1.0 for p in probs) or abs(sum(probs) - 1) > 1e-9:
        raise argparse.ArgumentTypeError(
            f"--action-probs {text}: each in [0, 1], summing to 1 (sum {sum(probs):g})"
        )
    return probs


def drawn_stepper(
    task: str,
    num_envs: int,
    asynchronous: bool,
    num_threads: int,
    probs: list[float],
    seed: int,
    batches: int,
    warmup: int,
) -> tuple[Any, Callable[[int], int]]:
    """A pool and its step function, as `worker.envpool_stepper` makes them,
    stepping actions drawn from `probs`: batch i < `batches` is the timed
    part's i-th, batch `batches + j` the warm-up's j-th."""
    sys.path.insert(0, str(HERE))
    import numpy as np
    from worker import action_rows_per_env

    import envpool

    batch_size = max(1, num_envs // 2) if asynchronous else num_envs
    env = envpool.make(
        task,
        env_type="gymnasium",
        num_envs=num_envs,
        batch_size=batch_size,
        num_threads=num_threads,
        seed=seed,
    )
    space = env.single_action_space
    if not hasattr(space, "n") or int(space.n) != len(probs):
        env.close()
        raise ValueError(
            f"--action-probs gives {len(probs)} probabilities; {task}'s action space is "
            f"{space}: give one per action of a discrete space"
        )
    rng = np.random.default_rng(seed)
    rows = batch_size * action_rows_per_env(env)
    actions = rng.choice(len(probs), size=(batches + warmup, rows), p=probs).astype(space.dtype)
    order = [*range(batches, batches + warmup), *range(batches)]  # warm-up, then timed
    if asynchronous:
        env.async_reset()

        def step(i: int) -> int:
            info = env.recv()[4]
            env.send(actions[order[i]], info["env_id"])
            return batch_size

    else:
        env.reset()

        def step(i: int) -> int:
            env.step(actions[order[i]])
            return num_envs

    return env, step


def measure(
    task: str,
    num_envs: int,
    mode: str,
    num_threads: int,
    batches: int,
    warmup: int | None = None,
    probs: list[float] | None = None,
    seed: int = 0,
    env_type: str = "gymnasium",
) -> dict[str, Any]:
    """CPU and wall nanoseconds per env step over `batches` batches of one pool.

    `warmup` batches (default max(50, batches // 10)) run before the clock
    starts; `probs` draws the actions from that distribution (else the
    benchmark's uniform batches). `env_type="dm"` steps a dm pool (not with
    `probs`).
    """
    sys.path.insert(0, str(HERE))
    from worker import envpool_stepper

    if warmup is None:
        warmup = max(50, batches // 10)  # the estimate settles
    if probs is None:
        env, step = envpool_stepper(task, num_envs, mode == "async", num_threads, env_type=env_type)
    elif env_type != "gymnasium":
        raise ValueError("--action-probs is for the gymnasium pools only")
    else:
        env, step = drawn_stepper(
            task, num_envs, mode == "async", num_threads, probs, seed, batches, warmup
        )
    try:
        for i in range(warmup):
            step(i)
        steps = 0
        cpu0, wall0 = cpu_seconds(), time.perf_counter()
        for i in range(warmup, warmup + batches):
            steps += step(i)
        cpu1, wall1 = cpu_seconds(), time.perf_counter()
    finally:
        env.close()
    return {
        "cpu_ns_per_step": (cpu1 - cpu0) * 1e9 / steps,
        "wall_ns_per_step": (wall1 - wall0) * 1e9 / steps,
        "steps": steps,
    }


def run_build(python: str, args: argparse.Namespace) -> dict[str, Any]:
    """One measurement in a fresh process of `python`."""
    out = subprocess.run(
        [
            python,
            "-P",
            str(Path(__file__).resolve()),
            "--task",
            args.task,
            "--num-envs",
            str(args.num_envs),
            "--mode",
            args.mode,
            "--num-threads",
            str(args.num_threads),
            "--batches",
            str(args.batches),
            *(["--warmup", str(args.warmup)] if args.warmup is not None else []),
            *(["--action-probs", args.action_probs_text] if args.action_probs else []),
            "--seed",
            str(args.seed),
            "--env-type",
            args.env_type,
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd="/",
    )
    if out.returncode != 0:
        raise RuntimeError(f"{python}: {out.stderr.strip()[-500:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="CartPole-v1")
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--mode", choices=("sync", "async"), default="sync")
    parser.add_argument("--num-threads", type=int, default=0, help="0 = the pool's default")
    parser.add_argument("--batches", type=int, default=2000)
    parser.add_argument(
        "--warmup",
        type=int,
        default=None,
        help="batches before the clock; default max(50, batches/10)",
    )
    parser.add_argument(
        "--action-probs",
        type=parse_probs,
        default=None,
        help="P0,P1,...: draw each action from this distribution over a discrete space",
    )
    parser.add_argument("--seed", type=int, default=0, help="the pool's seed (and --action-probs')")
    parser.add_argument(
        "--env-type", choices=("gymnasium", "dm"), default="gymnasium", help="the pool's API"
    )
    parser.add_argument("--build", action="append", default=[], help="label=python")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if args.warmup is not None and args.warmup < 0:
        parser.error("--warmup takes a count >= 0")
    args.action_probs_text = ",".join(repr(p) for p in args.action_probs or [])
    if not args.build:
        result = measure(
            args.task,
            args.num_envs,
            args.mode,
            args.num_threads,
            args.batches,
            args.warmup,
            args.action_probs,
            args.seed,
            args.env_type,
        )
        print(json.dumps(result))
        return
    builds = [tuple(b.split("=", 1)) for b in args.build]
    if any(len(b) != 2 for b in builds):
        parser.error("--build takes label=python")
    # The processes run in / (so that no checkout shadows the installed
    # wheel): a relative interpreter path is taken from here, not resolved
    # through its links, which would leave the virtual environment.
    builds = [(name, os.path.abspath(py) if os.sep in py else py) for name, py in builds]
    cpu: dict[str, list[float]] = {name: [] for name, _ in builds}
    wall: dict[str, list[float]] = {name: [] for name, _ in builds}
    for r in range(args.rounds):
        for name, python in builds if r % 2 == 0 else builds[::-1]:
            result = run_build(python, args)
            cpu[name].append(result["cpu_ns_per_step"])
            wall[name].append(result["wall_ns_per_step"])
    first = builds[0][0]
    print(
        f"{args.task} N={args.num_envs} {args.mode} num_threads={args.num_threads}"
        + (f", env_type={args.env_type}" if args.env_type != "gymnasium" else "")
        + ", "
        f"{args.batches} batches, {args.rounds} rounds"
        + (f", actions drawn from {args.action_probs_text}" if args.action_probs else "")
    )
    for name, _ in builds:
        line = (
            f"{name}: CPU {statistics.median(cpu[name]):.1f} ns/step "
            f"(wall {statistics.median(wall[name]):.1f})"
        )
        if name != first:
            ratios = [x / y for x, y in zip(cpu[name], cpu[first], strict=True)]
            line += (
                f", CPU ratio to {first} median {statistics.median(ratios):.3f} "
                f"({min(ratios):.3f}-{max(ratios):.3f})"
            )
        print(line, flush=True)


if __name__ == "__main__":
    main()
