"""Does the benchmark's short slice of a fresh pool cost what a long run does?

    python3 -P window_cost.py --num-envs 64 --batches 600

Steps the pool `benchmark/bench.py` times (`worker.envpool_stepper`: seed 0,
its 256 action batches drawn with seed 0), here on one thread
(`num_threads=1`, sync), and times each batch on the calling thread's CPU
clock. Every fresh process of the benchmark steps these same batches, its
envs' episodes in step from the reset, so a slice of it is no random sample:
prints the CPU per env step over the batches a slice of `--warmup` s then
`--seconds` s covers at the quiet run's rate (`--rate`, env steps/s), against
the mean over the batches after it. Each batch's cost is the least of
`--rounds` fresh pools' (the same batches each time: the machine's load only
adds to a batch's time, so the least is the nearest to its own cost).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

BENCHMARK = Path(__file__).resolve().parents[3]


def main() -> None:
    """Time every batch and compare the slice's mean with the later batches'."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--task", default="IntersectionMultiAgent-v1")
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--batches", type=int, default=600)
    parser.add_argument("--rate", type=float, default=8812.0, help="the quiet run's env steps/s")
    parser.add_argument("--warmup", type=float, default=0.2)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, str(BENCHMARK))
    from worker import envpool_stepper

    ns = np.full(args.batches, np.inf)
    for _ in range(args.rounds):
        env, step = envpool_stepper(args.task, args.num_envs, False, 1)
        for i in range(args.batches):
            start = time.thread_time_ns()
            step(i)
            ns[i] = min(ns[i], time.thread_time_ns() - start)
        env.close()
    per_env = ns / args.num_envs / 1e3
    batches_per_s = args.rate / args.num_envs
    first = round(args.warmup * batches_per_s)
    end = first + round(args.seconds * batches_per_s)
    print(
        f"{args.task} N={args.num_envs}: slice = batches {first}-{end - 1}: "
        f"{per_env[first:end].mean():.1f} us per env step; batches {end}-{args.batches - 1}: "
        f"{per_env[end:].mean():.1f}; ratio {per_env[first:end].mean() / per_env[end:].mean():.3f}"
    )


if __name__ == "__main__":
    main()
