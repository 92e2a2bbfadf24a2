"""Memory of ViZDoom pools: what one env costs, its engine process included.

Every ViZDoom env runs its own engine process, so a pool's memory is the
Python process's plus its engines'. For each backend and N a fresh worker
process imports numpy and envpool, records its memory, makes a gymnasium-type
pool of N envs, resets it and steps it `--steps` times with random buttons,
then records the memory of itself and of every process it started. Memory is
PSS (`/proc/<pid>/smaps_rollup`: shared pages divided among the processes
that map them, so N engines mapping the same binary are not counted N times)
and, beside it, the plain sum of VmRSS. Per env is (after - before) / N.

    python3 -P benchmark/vizdoom_memory.py --task D1Basic-v1 D3Battle-v1

EnvPool 1.2.5 runs in benchmark/.venv-envpool125 (see bench.py); the table
says when a backend is missing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

WORKER = r"""
import json, os, sys
import numpy as np
import envpool

def kib(path, key):
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0

def descendants(pid):
    children = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out

def memory():
    pids = [os.getpid(), *descendants(os.getpid())]
    pss = sum(kib(f"/proc/{p}/smaps_rollup", "Pss") for p in pids)
    rss = sum(kib(f"/proc/{p}/status", "VmRSS") for p in pids)
    return pss, rss, len(pids) - 1

task, n, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
before = memory()
env = envpool.make_gymnasium(task, num_envs=n, seed=0)
env.reset()
space = env.action_space
space.seed(0)
for _ in range(steps):
    actions = np.stack([np.asarray(space.sample()) for _ in range(n)])
    env.step(actions)
after = memory()
print(json.dumps({"before": before, "after": after}))
env.close()
"""


def measure(python: str, task: str, n: int, steps: int) -> dict | None:
    """One worker's numbers, or None when the backend cannot run."""
    try:
        out = subprocess.run(
            [python, "-P", "-c", WORKER, task, str(n), str(steps)],
            capture_output=True,
            text=True,
            timeout=600,
            cwd="/",
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        print(f"  {python}: {exc}", file=sys.stderr)
        return None
    if out.returncode != 0:
        print(f"  {python}: {out.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", nargs="+", default=["D1Basic-v1", "D3Battle-v1"])
    parser.add_argument("--num-envs", type=int, nargs="+", default=[1, 2, 8, 16])
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument(
        "--envpool125-python", default=str(HERE / ".venv-envpool125" / "bin" / "python")
    )
    parser.add_argument("--out", type=Path, default=HERE / "results" / "vizdoom-memory.md")
    args = parser.parse_args()
    backends = {"this project": sys.executable, "EnvPool 1.2.5": args.envpool125_python}
    start = time.time()
    lines = [
        "# Memory of ViZDoom pools",
        "",
        "Per env: (memory after making a gymnasium-type pool of N envs, resetting it and "
        f"stepping it {args.steps} times - memory before `make`) / N, the engine processes "
        "included. PSS divides shared pages among the processes that map them; RSS sums "
        "each process's resident pages (shared ones once per process). One fresh worker "
        "process per cell. `before` is taken after `import envpool`: this project loads a "
        "family's native module at its first `make` (counted in its per-env figures), "
        "EnvPool 1.2.5 at import (not counted). `each env more`: the total PSS's growth "
        "per env beyond the smallest pool, what a further env costs.",
        "",
    ]
    for task in args.task:
        lines += [
            f"## {task}",
            "",
            "| backend | N | engines | PSS per env | RSS per env | total PSS | each env more |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for name, python in backends.items():
            first = None  # (N, total PSS) of the smallest pool that ran
            for n in sorted(args.num_envs):
                print(f"{task} {name} N={n}", file=sys.stderr)
                result = measure(python, task, n, args.steps)
                if result is None:
                    lines.append(f"| {name} | {n} | - | did not run | | | |")
                    continue
                (pss0, rss0, _), (pss1, rss1, engines) = result["before"], result["after"]
                more = ""
                if first is None:
                    first = (n, pss1)
                elif n > first[0]:
                    more = f"{(pss1 - first[1]) / (n - first[0]) / 1024:.1f} MiB"
                lines.append(
                    f"| {name} | {n} | {engines} | {(pss1 - pss0) / n / 1024:.1f} MiB "
                    f"| {(rss1 - rss0) / n / 1024:.1f} MiB | {pss1 / 1024:.0f} MiB | {more} |"
                )
        lines.append("")
    load = os.getloadavg()[0]
    lines += [
        "## Run",
        "",
        f"- command: `python3 -P benchmark/vizdoom_memory.py --task {' '.join(args.task)} "
        f"--num-envs {' '.join(map(str, args.num_envs))} --steps {args.steps}`",
        f"- date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        f"- machine: {platform.machine()}, nproc {os.cpu_count()}, {platform.platform()}",
        f"- load average (1 min) {load:.2f} after; the run took {time.time() - start:.0f} s",
        "",
    ]
    args.out.write_text("\n".join(lines))
    print(args.out)


if __name__ == "__main__":
    main()
