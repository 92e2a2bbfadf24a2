"""CPU time per env step of a one-thread pool, which the machine's load does
not distort (the process's user + sys time, not the wall clock).

    python3 -P cpu_per_step.py --task highway-fast-v0 --num-envs 64 --steps 200

Prints the microseconds of CPU per env step of the stepping alone (the pool
made and reset before the clock starts). Runs with this project or EnvPool
1.2.7 alike (`env_type="gymnasium"`), whichever `envpool` the Python imports.
"""

import argparse
import resource

import numpy as np

import envpool


def cpu_seconds() -> float:
    """User + sys CPU seconds of this process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    """Step the pool and print its CPU per env step."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--task", default="highway-fast-v0")
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env = envpool.make(
        args.task, env_type="gymnasium", num_envs=args.num_envs, num_threads=1, seed=args.seed
    )
    env.reset()
    rng = np.random.default_rng(args.seed)
    # Mostly IDLE and SLOWER (episodes both crash and run their duration),
    # the same sequence for every build.
    actions = rng.choice(5, size=(args.steps, args.num_envs), p=[0.1, 0.4, 0.1, 0.1, 0.3])
    start = cpu_seconds()
    for step in range(args.steps):
        env.step(actions[step])
    used = cpu_seconds() - start
    print(f"{1e6 * used / (args.steps * args.num_envs):.2f}")


if __name__ == "__main__":
    main()
