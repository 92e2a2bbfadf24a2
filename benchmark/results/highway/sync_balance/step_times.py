"""The CPU time of each env step of IntersectionMultiAgent-v1, env by env.

    python3 -P step_times.py --envs 64 --steps 400 --out step_times.npz

Env i is a one-env pool seeded `i` (env i of a pool seeded 0), stepped
`--steps` times on the calling thread (`num_threads=1`, sync), with uniform
random actions for both players as `benchmark/bench.py` draws them. Each
step is timed with the calling thread's CPU clock (`time.thread_time_ns`),
which the machine's load distorts far less than the wall clock; it includes
the binding's per-step work (a few microseconds, the same for every step).
Saves the (envs, steps) array of nanoseconds, and whether each step reset
its env (autoreset: the step after a terminated or truncated one).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import envpool


def main() -> None:
    """Time every step of `--envs` one-env pools and save the arrays."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--task", default="IntersectionMultiAgent-v1")
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--skip", type=int, default=20, help="untimed first steps")
    parser.add_argument("--out", default="step_times.npz")
    args = parser.parse_args()
    ns = np.zeros((args.envs, args.steps), np.int64)
    resets = np.zeros((args.envs, args.steps), bool)
    for i in range(args.envs):
        env = envpool.make(args.task, env_type="gymnasium", num_envs=1, num_threads=1, seed=i)
        space = env.single_action_space
        space.seed(i)
        players = int(getattr(env.spec.config, "max_num_players", 1))
        env.reset()
        done = False
        for t in range(-args.skip, args.steps):
            action = np.array([space.sample() for _ in range(players)])
            start = time.thread_time_ns()
            _, _, terminated, truncated, _ = env.step(action)
            used = time.thread_time_ns() - start
            if t >= 0:
                ns[i, t] = used
                resets[i, t] = done
            done = bool(np.any(terminated) or np.any(truncated))
        env.close()
    np.savez_compressed(args.out, ns=ns.astype(np.int32), resets=resets)
    steps = ns[~resets]
    print(
        f"{args.task}: {ns.size} steps, mean {ns.mean() / 1e3:.1f} us; steps "
        f"(no reset) mean {steps.mean() / 1e3:.1f}, CV {steps.std() / steps.mean():.2f}, "
        f"p10/p50/p90/p99 {np.percentile(steps, [10, 50, 90, 99]).round(-2) / 1e3}; "
        f"resets {resets.sum()}, mean {ns[resets].mean() / 1e3 if resets.any() else 0:.1f} us"
    )


if __name__ == "__main__":
    main()
