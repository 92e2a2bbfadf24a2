"""`worker.py share` for several builds in turn, one line per pool slice, and medians by phase.

    python3 -P benchmark/share_builds.py run --runs 8 --task CartPole-v1 --num-envs 1024 \
        --out slices.txt --build base=/tmp/base/bin/python --build new=.venv/bin/python
    python3 -P benchmark/share_builds.py summary slices.txt

Each `--build` is `LABEL=PYTHON` or `LABEL=PYTHON=VARIABLE` (the run sets the environment
variable VARIABLE to 1: one build, two variants). Every run starts one `worker.py share
--cores 2 --rounds 8` process per build, in turn, the order reversed every other run, and
appends a line per pool slice to `--out`: label, mode, the round trip read beside the slice
(ns) and the slice's share of the no-pool ceiling; the whole answer of each process goes to
`--out` + `.jsonl`. `summary` gives the median share of each label and mode by phase: fast
(round trip 75-130 ns), slow (over 130 ns) and very fast (under 75 ns), as
`results/large_n/README.md` reads them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(args: argparse.Namespace) -> None:
    builds = []
    for spec in args.build:
        label, python, *variable = spec.split("=", 2)
        builds.append((label, python, variable[0] if variable else ""))
    out = Path(args.out)
    for k in range(args.runs):
        for label, python, variable in builds if k % 2 == 0 else builds[::-1]:
            env = dict(os.environ)
            if variable:
                env[variable] = "1"
            command = [
                python,
                "-P",
                str(HERE / "worker.py"),
                "share",
                "--task",
                args.task,
                "--num-envs",
                str(args.num_envs),
                "--cores",
                "2",
                "--rounds",
                "8",
            ]
            done = subprocess.run(
                command, capture_output=True, text=True, env=env, check=False, cwd="/"
            )
            if done.returncode != 0:
                sys.exit(f"{label}: {done.stderr[-2000:]}")
            answer = json.loads(done.stdout.strip().splitlines()[-1])
            with out.open("a") as lines:
                for mode in ("sync", "async"):
                    slices = zip(answer["shares"][mode], answer["round_trip_ns"][mode], strict=True)
                    for share, trip in slices:
                        lines.write(f"{label} {mode} {trip:.0f} {share:.3f}\n")
            with Path(f"{out}.jsonl").open("a") as whole:
                whole.write(json.dumps({"label": label, "task": args.task, **answer}) + "\n")
            print(label, k, answer["median_fast_shares"], flush=True)


def summary(path: str) -> None:
    shares: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    for line in Path(path).read_text().splitlines():
        label, mode, trip, share = line.split()
        ns = float(trip)
        phase = "fast" if 75 <= ns <= 130 else ("slow" if ns > 130 else "very fast")
        shares[(label, mode, phase)].append(float(share))
    for key in sorted(shares):
        values = shares[key]
        print(*key, f"{len(values)} slices", f"median {statistics.median(values):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    runs = sub.add_parser("run")
    runs.add_argument("--runs", type=int, default=8)
    runs.add_argument("--task", default="CartPole-v1")
    runs.add_argument("--num-envs", type=int, default=1024)
    runs.add_argument("--out", required=True)
    runs.add_argument("--build", action="append", required=True)
    summaries = sub.add_parser("summary")
    summaries.add_argument("path")
    args = parser.parse_args()
    if args.command == "run":
        run(args)
    else:
        summary(args.path)


if __name__ == "__main__":
    main()
