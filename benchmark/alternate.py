"""Builds compared in alternation: fresh `worker.py step` processes, one build after another.

    python3 -P benchmark/alternate.py --rounds 5 --seconds 1.5 \
        --build base=/tmp/base/bin/python --build new=.venv/bin/python \
        --cell CartPole-v1:1024:sync --cell Ant-v5:8:sync:busy

Each `--build` is a label and the python of a virtual environment holding one
build (this project's wheel, or EnvPool 1.2.5's: both import as `envpool`).
Each `--cell` is `task:num_envs:mode[:competitor]`, mode `sync` or `async`
(`batch_size = num_envs // 2`), competitor `busy` or `learner`
(`competitor.py`, run for the whole cell). Every round runs one process of
each build, in turn, the order reversed every other round, so that the
machine's drift falls on all builds alike; the table gives each build's
median steps/s and, against the first build, the median of the rounds'
ratios and their range. The speed of a 2-core virtual machine drifts by more
than the differences looked for here: only builds timed in alternation are
compared.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def step_rate(python: str, task: str, num_envs: int, mode: str, seconds: float) -> float:
    """Steps/s of one fresh `worker.py step` process.

    As `bench.py` does, an async pool's first recvs collect every env's first
    reset before the clock starts, as a sync pool's `reset` does: a reset
    that builds a model (soccer) would otherwise fill the first slices.
    """
    args = [
        python,
        "-P",
        str(HERE / "worker.py"),
        "step",
        "--backend",
        f"envpool_{mode}",
        "--task",
        task,
        "--num-envs",
        str(num_envs),
        "--seconds",
        str(seconds),
    ]
    if mode == "async":
        args.append("--untimed-first-resets")
    out = subprocess.run(
        args,
        capture_output=True,
        text=True,
        check=False,
        cwd="/",
    )
    if out.returncode != 0:
        raise RuntimeError(f"{python} {task}: {out.stderr.strip()[-500:]}")
    return float(json.loads(out.stdout.strip().splitlines()[-1])["steps_per_s"])


def measure_cell(cell: str, builds: list[tuple[str, str]], rounds: int, seconds: float) -> str:
    """One table row: each build's median rate, and its median ratio to the first build."""
    task, num_envs, mode, *rest = cell.split(":")
    competitor = None
    if rest:
        competitor = subprocess.Popen(
            [sys.executable, "-P", str(HERE / "competitor.py"), rest[0]],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert competitor.stdout is not None
        competitor.stdout.readline()  # "ready"
        time.sleep(0.5)
    rates: dict[str, list[float]] = {name: [] for name, _ in builds}
    try:
        for r in range(rounds):
            for name, python in builds if r % 2 == 0 else builds[::-1]:
                rates[name].append(step_rate(python, task, int(num_envs), mode, seconds))
    finally:
        if competitor is not None:
            competitor.kill()
            competitor.wait()
    first = builds[0][0]
    cells = [cell]
    for name, _ in builds:
        text = f"{statistics.median(rates[name]):,.0f}"
        if name != first:
            ratios = [x / y for x, y in zip(rates[name], rates[first], strict=True)]
            text += f" ({statistics.median(ratios):.2f}x, {min(ratios):.2f}-{max(ratios):.2f})"
        cells.append(text)
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", action="append", required=True, help="label=python")
    parser.add_argument("--cell", action="append", required=True, help="task:N:mode[:competitor]")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.5)
    args = parser.parse_args()
    builds = [tuple(b.split("=", 1)) for b in args.build]
    if any(len(b) != 2 for b in builds):
        parser.error("--build takes label=python")
    names = [name for name, _ in builds]
    print("| cell | " + " | ".join(names) + " |")
    print("| --- |" + " ---: |" * len(names), flush=True)
    for cell in args.cell:
        print(measure_cell(cell, builds, args.rounds, args.seconds), flush=True)


if __name__ == "__main__":
    main()
