"""Reset rate and steps/s of a MiniGrid-WFC id: minigrid's Python generator
against this project's C++ levels (bench.py times steps only, and a WFC
episode's cost is its reset).

    python3 -P benchmark/wfc_bench.py --task MiniGrid-WFC-ObstaclesHogs3-v0 --num-envs 1 8 64

minigrid 3.2.0 needs the pattern images its wheel lacks: the script copies
the repository's (envpool/minigrid/wfc_patterns/) into the installed package
first, as the tests do. Measured, each the median of `--repeats`:

- reference reset: `gymnasium.make(task).reset()`, one env in a loop; N envs
  of a gymnasium SyncVectorEnv reset one after the other, so its rate is the
  same at every N;
- reference steps: random actions in a loop, episodes ended by the goal or
  the 500-step limit reset as they come (`loop`, at every N the same), and
  the step rate of one episode without its reset (`loop, no resets`);
- this project: `env.reset()` of all N envs (N new layouts) and `env.step`
  of random actions for `--seconds` with the autoresets that come (sync,
  batch_size = N).

It writes benchmark/results/<task>.md.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import os
import platform
import shlex
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
MINIGRID_CONFTEST = HERE.parent / "envpool" / "minigrid" / "tests" / "conftest.py"


def install_patterns() -> None:
    """The tests' copy of the pattern images into the installed minigrid
    (envpool/minigrid/tests/conftest.py), run from here."""
    spec = importlib.util.spec_from_file_location("minigrid_test_conftest", MINIGRID_CONFTEST)
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    conftest.install_wfc_patterns()


def reference_rates(task: str, repeats: int, seconds: float) -> dict[str, float]:
    import gymnasium
    import minigrid  # noqa: F401

    env = gymnasium.make(task, disable_env_checker=True)
    env.reset(seed=0)
    reset_times = []
    for _ in range(repeats):
        start = time.perf_counter()
        env.reset()
        reset_times.append(time.perf_counter() - start)
    rng = np.random.default_rng(0)
    # one episode's steps without its reset
    step_rates = []
    for _ in range(repeats):
        env.reset()
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            _, _, term, trunc, _ = env.step(int(rng.integers(0, 7)))
            steps += 1
            if term or trunc:
                break
        step_rates.append(steps / (time.perf_counter() - start))
    # steps with the resets that come, over whole episodes
    env.reset()
    steps, episodes, start = 0, 0, time.perf_counter()
    while episodes < max(2, repeats // 2):
        _, _, term, trunc, _ = env.step(int(rng.integers(0, 7)))
        steps += 1
        if term or trunc:
            env.reset()
            episodes += 1
    loop_rate = steps / (time.perf_counter() - start)
    return {
        "reset": 1.0 / statistics.median(reset_times),
        "reset_spread": (max(reset_times) - min(reset_times)) / statistics.median(reset_times),
        "steps_no_reset": statistics.median(step_rates),
        "steps": loop_rate,
    }


def envpool_rates(task: str, num_envs: int, repeats: int, seconds: float) -> dict[str, float]:
    import envpool

    env = envpool.make(task, num_envs=num_envs, seed=0)
    env.reset()
    reset_rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        env.reset()
        reset_rates.append(num_envs / (time.perf_counter() - start))
    rng = np.random.default_rng(0)
    actions = rng.integers(0, 7, size=(4096, num_envs))
    step_rates = []
    for _ in range(repeats):
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            env.step(actions[steps % len(actions)])
            steps += 1
        step_rates.append(steps * num_envs / (time.perf_counter() - start))
    env.close()
    return {"reset": statistics.median(reset_rates), "steps": statistics.median(step_rates)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="MiniGrid-WFC-ObstaclesHogs3-v0")
    parser.add_argument("--num-envs", type=int, nargs="+", default=[1, 8, 64])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--out-dir", type=Path, default=HERE / "results")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    install_patterns()
    ref = reference_rates(args.task, args.repeats, args.seconds)
    ours = {n: envpool_rates(args.task, n, args.repeats, args.seconds) for n in args.num_envs}
    ns = args.num_envs
    head = "| backend | " + " | ".join(f"N={n}" for n in ns) + " |"
    rule = "|---|" + "---:|" * len(ns)

    def row(name: str, values: list[float], base: float | None = None) -> str:
        cells = [
            f"{v:,.1f}" + (f" ({v / base:,.0f}x)" if base else "")
            if v < 100
            else f"{v:,.0f}" + (f" ({v / base:,.0f}x)" if base else "")
            for v in values
        ]
        return f"| {name} | " + " | ".join(cells) + " |"

    command = "python3 -P benchmark/wfc_bench.py " + shlex.join(sys.argv[1:])
    lines = [
        f"# Benchmark: {args.task} (reset rate and steps/s)",
        "",
        f"Command: `{command}` ({datetime.date.today().isoformat()}; "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores seen, "
        f"load average {os.getloadavg()[0]:.1f} at the end). Medians of {args.repeats}; "
        "in brackets the ratio to minigrid's loop. See benchmark/wfc_bench.py's docstring "
        "for what each row times.",
        "",
        "Resets (new layouts) per second:",
        "",
        head,
        rule,
        row("minigrid loop (gymnasium.make(task).reset())", [ref["reset"]] * len(ns)),
        row("this project, sync", [ours[n]["reset"] for n in ns], ref["reset"]),
        "",
        f"minigrid's reset: {1 / ref['reset']:.2f} s a layout "
        f"(spread of the repeats {ref['reset_spread']:.0%}).",
        "",
        "Env steps per second (random actions; the resets of episodes that end included):",
        "",
        head,
        rule,
        row("minigrid loop, no resets", [ref["steps_no_reset"]] * len(ns)),
        row("minigrid loop", [ref["steps"]] * len(ns)),
        row("this project, sync", [ours[n]["steps"] for n in ns], ref["steps"]),
        "",
    ]
    out = args.out_dir / f"{args.task}.md"
    out.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
