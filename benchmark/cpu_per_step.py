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
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def cpu_seconds() -> float:
    """User + system CPU seconds of this process, all its threads."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure(task: str, num_envs: int, mode: str, num_threads: int, batches: int) -> dict[str, Any]:
    """CPU and wall nanoseconds per env step over `batches` batches of one pool."""
    sys.path.insert(0, str(HERE))
    from worker import envpool_stepper

    env, step = envpool_stepper(task, num_envs, mode == "async", num_threads)
    try:
        for i in range(max(50, batches // 10)):  # warm-up: the estimate settles
            step(i)
        steps = 0
        cpu0, wall0 = cpu_seconds(), time.perf_counter()
        for i in range(batches):
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
    parser.add_argument("--build", action="append", default=[], help="label=python")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if not args.build:
        result = measure(args.task, args.num_envs, args.mode, args.num_threads, args.batches)
        print(json.dumps(result))
        return
    builds = [tuple(b.split("=", 1)) for b in args.build]
    if any(len(b) != 2 for b in builds):
        parser.error("--build takes label=python")
    cpu: dict[str, list[float]] = {name: [] for name, _ in builds}
    wall: dict[str, list[float]] = {name: [] for name, _ in builds}
    for r in range(args.rounds):
        for name, python in builds if r % 2 == 0 else builds[::-1]:
            result = run_build(python, args)
            cpu[name].append(result["cpu_ns_per_step"])
            wall[name].append(result["wall_ns_per_step"])
    first = builds[0][0]
    print(
        f"{args.task} N={args.num_envs} {args.mode} num_threads={args.num_threads}, "
        f"{args.batches} batches, {args.rounds} rounds"
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
