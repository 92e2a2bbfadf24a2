"""Steps/s of one task id under gymnasium, this envpool and the published EnvPool 1.2.5 / 1.2.7.

    python3 -P benchmark/bench.py --task CartPole-v1 --num-envs 1 8 64 --repeats 6
    python3 -P benchmark/bench.py --task Pong-v5 --num-envs 1 8 --num-threads envpool_async=1
    python3 -P benchmark/bench.py --task MetaWorld/MT10 --num-envs 1 2 8 16

`MetaWorld/MT10` is no id but a pool of Meta-World's MT10 classes, env i
playing class i % 10, in every backend (`worker.py`'s `MT10_TASK`); its loop
steps all N envs and is measured at every N.

Each measurement runs `benchmark/worker.py` in a fresh process (the envpools
all import as `envpool`; EnvPool 1.2.5 runs in benchmark/.venv-envpool125, made by
`python3 -m venv benchmark/.venv-envpool125` and installing envpool==1.2.5 and
numpy into it with its pip; EnvPool 1.2.7, whose wheels start at Python 3.12,
runs in benchmark/.venv-envpool127, made the same way from a Python 3.12:
`make benchmark/.venv-envpool127/bin/python`). `--envpool-python` runs this
project's backends with another interpreter; `make bench127` runs this script
from benchmark/.venv-py312, a Python 3.12 venv holding this project's 3.12
wheel, so both run on the same Python. Backends are interleaved round-robin across
repeats, each repeat starting one place further along, so slow drift of the
machine's load spreads over all of them. It writes benchmark/results/<task>.md
(the table, the command, the machine) and benchmark/results/<task>.png.

The gymnasium backends step the task's reference env (`worker.gym_reference`:
`gymnasium.make(task)`, or for an Atari id ale-py's env wrapped to do what
envpool's defaults do); the results file names it. When N=1 is measured, the
file also states the limit of the machine, usable cores x the raw rate of one
env (`envpool_sync` at N=1, which steps inline on the calling thread), and how
close each envpool backend comes to it at every N >= 8. Those medians come
from separate processes, up to minutes apart, and this machine's speed drifts
between them; so this project's backends are also timed against one env in
alternation inside one process (`worker.py limit`, `--paired-rounds`), which
states the share with the drift cancelled in each ratio, and the machine's
own ceiling is timed the same way (`worker.py ceiling`: every usable core
stepping one env at once, with no pool), since the limit assumes independent
cores and a virtual machine's vCPUs may not be. Where the largest N is more
than one env per core, the ceiling is also timed with N / cores envs stepped
in turn by each process (`worker.py ceiling --games`): envs whose state
outgrows a core's caches are slower per step whatever steps them.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import functools
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
WORKER = HERE / "worker.py"
# The published EnvPool releases measured side by side: backend prefix ->
# (version, the python of the virtual environment holding it).
PUBLISHED = {
    "envpool125": ("1.2.5", HERE / ".venv-envpool125" / "bin" / "python"),
    "envpool127": ("1.2.7", HERE / ".venv-envpool127" / "bin" / "python"),
}

BACKENDS = (
    "loop",
    "gym_sync",
    "gym_async",
    "procgen_vec",
    "envpool_sync",
    "envpool_async",
    "envpool125_sync",
    "envpool125_async",
    "envpool127_sync",
    "envpool127_async",
)
DESCRIPTIONS = {
    "loop": "one reference env stepped in a Python for-loop "
    "(reset when an episode ends); the same at every N",
    "gym_sync": "gymnasium `SyncVectorEnv` of N reference envs",
    "gym_async": "gymnasium `AsyncVectorEnv` of N reference envs (one process each)",
    "procgen_vec": "procgen's own vector env of N games (procgen ids only)",
    "envpool_sync": "this project, `batch_size = num_envs`, `step`",
    "envpool_async": "this project, `batch_size = max(1, num_envs // 2)`, `recv`/`send`",
    "envpool125_sync": "EnvPool 1.2.5, `batch_size = num_envs`, `step`",
    "envpool125_async": "EnvPool 1.2.5, `batch_size = max(1, num_envs // 2)`, `recv`/`send`",
    "envpool127_sync": "EnvPool 1.2.7, `batch_size = num_envs`, `step`",
    "envpool127_async": "EnvPool 1.2.7, `batch_size = max(1, num_envs // 2)`, `recv`/`send`",
}
MT10_TASK = "MetaWorld/MT10"
"""A pool of Meta-World's MT10 classes, env i playing class i % 10 (`worker.mt10_classes`):
every backend steps N envs of several classes, so `loop` is measured at every N."""
MT10_DESCRIPTIONS = {
    "loop": "Meta-World's MT10 envs of the N (env i class i % 10) stepped round-robin in a "
    "Python for-loop (each reset when its episode ends); measured at every N",
    "gym_sync": "gymnasium `SyncVectorEnv` of the N MT10 envs",
    "gym_async": "gymnasium `AsyncVectorEnv` of the N MT10 envs (one process each)",
}
ENVPOOL_BACKENDS = tuple(b for b in BACKENDS if b.startswith("envpool"))
REFERENCE_BACKENDS = ("loop", "gym_sync", "gym_async", "procgen_vec")
"""Backends run by `--reference-python` (procgen's reference needs Python <= 3.10)."""


@dataclass(frozen=True)
class Job:
    """One (backend, num_envs) cell of the table, measured once per repeat."""

    backend: str
    num_envs: int

    @property
    def published(self) -> str | None:
        """The PUBLISHED prefix of the release this job runs, None for this project."""
        return published_prefix(self.backend)

    @property
    def worker_backend(self) -> str:
        """The backend name `worker.py` knows (a release runs the envpool code paths)."""
        prefix = self.published
        return self.backend.replace(prefix, "envpool") if prefix else self.backend


def published_prefix(backend: str) -> str | None:
    """`envpool125` for `envpool125_sync`, ...; None for a backend of no release."""
    prefix = backend.split("_", 1)[0]
    return prefix if prefix in PUBLISHED else None


@dataclass
class Results:
    """Everything measured in one run of this script."""

    steps: dict[Job, list[float]] = field(default_factory=dict)
    imports: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)
    """What failed (a job, or an import measurement), with the last line of its error."""
    reference: str | None = None
    """How the gymnasium backends built their env, as the worker described it."""
    pools: dict[str, str] = field(default_factory=dict)
    """How an envpool backend made its pool where the worker says (an MT10 pool)."""
    paired: dict[Job, list[dict[str, list[float]]]] = field(default_factory=dict)
    """`worker.py limit` runs per (this project's backend, N >= 8): slices' shares, rates."""
    ceiling: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    """`worker.py ceiling` runs by envs per process: what the cores give at once, against
    one env alone."""


class WorkerError(RuntimeError):
    """A worker process failed; the message ends with its stderr."""


@functools.cache
def isolation_flag(python: str) -> str:
    """-P keeps the worker's folder off sys.path; Python < 3.11 (procgen's
    reference) lacks it, and -I does that too."""
    probe = "import sys; print(sys.version_info >= (3, 11))"
    out = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=False)
    return "-P" if out.stdout.strip() == "True" else "-I"


def run_worker(
    python: str, worker_args: list[str], timeout: float, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """Run `worker.py` with `python` in a fresh process and return its JSON line.

    It runs in the temporary directory, where files that libraries drop in
    the working directory (EnvPool 1.2.5's MuJoCo writes MUJOCO_LOG.TXT) go.
    `env` adds variables to its environment.
    """
    cmd = [python, isolation_flag(python), str(WORKER), *worker_args]
    try:
        proc = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            cwd=tempfile.gettempdir(),
            env=None if env is None else {**os.environ, **env},
        )
    except subprocess.TimeoutExpired as exc:
        raise WorkerError(f"{shlex.join(cmd)} timed out after {timeout:.0f} s") from exc
    if proc.returncode != 0:
        raise WorkerError(f"{shlex.join(cmd)} exited {proc.returncode}:\n{proc.stderr[-4000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def last_line(error: Exception) -> str:
    """The last non-empty line of an error's message (a traceback's exception line)."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[-1] if lines else type(error).__name__


def make_jobs(backends: list[str], num_envs: list[int], task: str = "") -> list[Job]:
    """The cells to measure: `loop` once (its rate doesn't depend on N, but for an MT10
    pool's), the rest per N."""
    jobs: list[Job] = []
    for backend in backends:
        if backend == "loop" and task != MT10_TASK:
            jobs.append(Job(backend, 1))
        else:
            jobs.extend(Job(backend, n) for n in num_envs)
    return jobs


def measure(args: argparse.Namespace, backends: list[str], venvs: dict[str, str]) -> Results:
    """Measure every job `args.repeats` times, round-robin, plus the import costs.

    `venvs` maps a PUBLISHED prefix to its python. A job whose worker fails
    is recorded in `failures` and not run again.
    """
    results = Results()
    jobs = make_jobs(backends, args.num_envs, args.task)
    import_runs = [("this project", args.envpool_python)]
    for prefix in sorted({published_prefix(b) for b in backends} - {None}):
        import_runs.append((f"EnvPool {PUBLISHED[prefix][0]}", venvs[prefix]))
    timeout = args.seconds + args.warmup + args.worker_timeout
    total = len(jobs) * args.repeats
    done = 0
    for repeat in range(args.repeats):
        shift = repeat % len(jobs)
        for job in jobs[shift:] + jobs[:shift]:
            label = f"{job.backend} N={job.num_envs}"
            if label in results.failures:
                continue
            python = venvs[job.published] if job.published else args.envpool_python
            if job.backend in REFERENCE_BACKENDS:
                python = args.reference_python
            worker_args = [
                "step",
                f"--backend={job.worker_backend}",
                f"--task={args.task}",
                f"--num-envs={job.num_envs}",
                f"--num-threads={args.num_threads.get(job.backend, 0)}",
                f"--seconds={args.seconds}",
                f"--warmup={args.warmup}",
            ]
            if job.worker_backend == "envpool_async":
                # Sync's reset is untimed; async's first recvs collect the resets.
                worker_args.append("--untimed-first-resets")
            done += 1
            progress = f"[{done}/{total}] repeat {repeat + 1} {job.backend:<17} N={job.num_envs:<4}"
            try:
                result = run_worker(python, worker_args, timeout)
            except WorkerError as error:
                results.failures[label] = last_line(error)
                print(f"{progress} FAILED:\n{error}", file=sys.stderr, flush=True)
                continue
            rate = result["steps_per_s"]
            results.reference = result.get("reference", results.reference)
            if "pool" in result:
                results.pools[job.backend] = result["pool"]
            results.steps.setdefault(job, []).append(rate)
            print(f"{progress} {rate:>14,.0f} steps/s", file=sys.stderr, flush=True)
    for _ in range(args.import_runs):
        for name, python in import_runs:
            label = f"import {name}"
            if label in results.failures:
                continue
            try:
                result = run_worker(python, ["import", f"--task={args.task}"], timeout)
            except WorkerError as error:
                results.failures[label] = last_line(error)
                print(f"{label} FAILED:\n{error}", file=sys.stderr, flush=True)
                continue
            results.imports.setdefault(name, []).append(result)
    return results


PAIRED_BACKENDS = ("envpool_sync", "envpool_async")
"""The backends of this engine, whose share of its own limit `measure_paired` times."""
PAIRED_MIN_N = 8
"""The checklist's limit target holds from N=8 on."""


def paired_ns(ns: list[int]) -> list[int]:
    """The N at which the limit's share is stated: every N >= 8, else the largest."""
    return [n for n in ns if n >= PAIRED_MIN_N] or [max(ns)]


def run_alternation(
    args: argparse.Namespace, results: Results, label: str, progress: str, worker_args: list[str]
) -> dict[str, Any] | None:
    """One `worker.py` process timing slices in alternation with one env (`limit`, `ceiling`).

    `worker_args` are the command and its own options; the task, the cores
    and the slices' count and length are added here. A failure is recorded
    under `label` and gives None.
    """
    worker_args = [
        *worker_args,
        f"--task={args.task}",
        f"--cores={usable_cores()}",
        f"--rounds={args.paired_rounds}",
        f"--seconds={args.paired_seconds}",
        f"--warmup={args.warmup}",
    ]
    timeout = (2 * args.paired_rounds + 1) * args.paired_seconds + 2 * args.warmup + 180.0
    try:
        result = run_worker(args.envpool_python, worker_args, timeout)
    except WorkerError as error:
        results.failures[label] = last_line(error)
        print(f"{progress} {label} FAILED:\n{error}", file=sys.stderr, flush=True)
        return None
    share = statistics.median(result["shares"])
    print(f"{progress} {label}: share {share:.3f}", file=sys.stderr, flush=True)
    return result


def measure_paired(args: argparse.Namespace, backends: list[str], results: Results) -> None:
    """Time each of this engine's backends against one env in alternation (`worker.py limit`).

    `args.paired_runs` processes per (backend, N), round-robin over the
    cells: each times `args.paired_rounds` slices of the pool of N envs, each
    between two slices of a pool of one env (the raw rate), so each ratio
    compares rates timed a second apart. Several processes, since one
    process's rates also depend on where its envs landed in memory (the
    same cell's medians differ by up to 0.2 from process to process here,
    while one process's slices agree within a few hundredths).
    """
    if args.paired_rounds < 1 or args.paired_runs < 1:
        return
    jobs = [
        Job(b, n)
        for b in PAIRED_BACKENDS
        if b in backends
        for n in paired_ns(args.num_envs)
        if n > 1
    ]
    runs = [job for _ in range(args.paired_runs) for job in jobs]
    for k, job in enumerate(runs, 1):
        label = f"limit {job.backend} N={job.num_envs}"
        if label in results.failures:
            continue
        worker_args = [
            "limit",
            f"--backend={job.backend}",
            f"--num-envs={job.num_envs}",
            f"--num-threads={args.num_threads.get(job.backend, 0)}",
        ]
        result = run_alternation(args, results, label, f"[{k}/{len(runs)}]", worker_args)
        if result is not None:
            results.paired.setdefault(job, []).append(result)


def measure_ceiling(args: argparse.Namespace, results: Results) -> None:
    """Time the machine's own parallel ceiling for the task (`worker.py ceiling`).

    `args.paired_runs` processes, each timing `args.paired_rounds` slices of
    all usable cores stepping one env each at once, between slices of one
    core alone: the share of the limit that the hardware gives with no pool.
    Where the largest N of the limit's shares is more than one env per core,
    the same again with N / cores envs stepped in turn by each process.
    """
    cores = usable_cores()
    if args.paired_rounds < 1 or args.paired_runs < 1 or cores < 2:
        return
    for games in sorted({1, max(1, max(paired_ns(args.num_envs)) // cores)}):
        label = "ceiling" if games == 1 else f"ceiling games={games}"
        for k in range(1, args.paired_runs + 1):
            worker_args = ["ceiling", f"--games={games}"]
            result = run_alternation(args, results, label, f"[{k}/{args.paired_runs}]", worker_args)
            if result is None:
                break
            results.ceiling.setdefault(games, []).append(result)


def quartiles(values: list[float]) -> tuple[float, float, float]:
    """(first quartile, median, third quartile) of `values`."""
    if len(values) == 1:
        return values[0], values[0], values[0]
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


def cell_rates(results: Results, backend: str, num_envs: int) -> list[float] | None:
    """The repeats of one cell; `loop` measured at N=1 only is the same cell at every N."""
    rates = results.steps.get(Job(backend, num_envs))
    if rates is None and backend == "loop":
        rates = results.steps.get(Job(backend, 1))
    return rates


def median_rate(results: Results, backend: str, num_envs: int) -> float | None:
    """Median steps/s of one cell, None if unmeasured."""
    rates = cell_rates(results, backend, num_envs)
    return statistics.median(rates) if rates else None


def spread(results: Results, backend: str, num_envs: int) -> float | None:
    """(max - min) / median of one cell's repeats, None if unmeasured."""
    rates = cell_rates(results, backend, num_envs)
    return (max(rates) - min(rates)) / statistics.median(rates) if rates else None


def mt10_lines(ns: list[int]) -> list[str]:
    """Which class each env of an MT10 pool plays, at every N of the table."""
    lines = [
        "Env i of an MT10 pool plays Meta-World's MT10 class i % 10 (`metaworld.MT10(seed=0)`'s "
        "classes in their order: 0 reach, 1 push, 2 pick-place, 3 door-open, 4 drawer-open, "
        "5 drawer-close, 6 button-press-topdown, 7 peg-insert-side, 8 window-open, "
        "9 window-close), in every backend:",
        "",
    ]
    for n in ns:
        classes = [i % 10 for i in range(n)]
        lines.append(f"- N={n}: classes {', '.join(map(str, classes))}")
    return [
        *lines,
        "",
        "The classes' steps cost differently, so a rate at N < 10 is of its own mix; the "
        "limit's raw rate (`envpool_sync` at N=1) is reach's alone, which makes the shares "
        "below an approximation for the mixes.",
        "",
    ]


def usable_cores() -> int:
    """The CPUs this process may run on (its affinity), else the machine's count."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def limit_lines(results: Results, backends: list[str], ns: list[int]) -> list[str]:
    """The machine's limit (cores x one env's raw rate) and each envpool backend's share of it.

    The raw rate is `envpool_sync` at N=1, which steps inline on the calling
    thread; it still pays one Python call per step, so at large N, where that
    call is shared by many envs, a backend can come slightly above the limit.
    The shares are stated at every N >= 8 (`paired_ns`): from the table's
    medians when `envpool_sync` was measured at N=1, and from the paired
    measurements (`measure_paired`) when they ran.
    """
    raw = median_rate(results, "envpool_sync", 1) if 1 in ns else None
    lines: list[str] = []
    cores = usable_cores()
    at = paired_ns(ns)
    header = "| backend | " + " | ".join(f"N={n}" for n in at) + " |"
    rule = "|---|" + "---:|" * len(at)
    if raw is not None:
        limit = cores * raw
        lines += [
            "## Against the machine's limit",
            "",
            f"Raw step rate of one env in this engine (`envpool_sync`, N=1, stepped inline on "
            f"the calling thread): {raw:,.0f} steps/s. Limit = {cores} usable cores x that "
            f"= {limit:,.0f} steps/s. Share of it, from the medians of the table above:",
            "",
            header,
            rule,
        ]
        for backend in backends:
            if backend not in ENVPOOL_BACKENDS:
                continue
            cells = []
            for n in at:
                rate = median_rate(results, backend, n)
                cells.append("-" if rate is None else f"{rate:,.0f} ({rate / limit:.2f})")
            lines.append(f"| {backend} | " + " | ".join(cells) + " |")
        lines.append("")
    if results.paired:
        some = next(iter(results.paired.values()))
        rounds = len(some[0]["shares"])
        seconds = some[0]["seconds"]
        if not lines:
            lines += ["## Against the machine's limit", ""]
        lines += [
            f"Timed in alternation (`worker.py limit`): {len(some)} processes per cell, each "
            f"holding a pool of one env and the pool of N, each timing {rounds} slices of "
            f"{seconds:g} s of the pool between slices of the one env; a slice's share is its "
            f"rate / ({cores} cores x the mean of the two one-env rates beside it). Median "
            "share of all the cell's slices, first to third quartile in brackets, the range "
            "of the processes' own medians, and the median one-env rate:",
            "",
            header,
            rule,
        ]
        for backend in PAIRED_BACKENDS:
            cells = []
            for n in at:
                runs = results.paired.get(Job(backend, n))
                if not runs:
                    cells.append("-")
                    continue
                q1, q2, q3 = quartiles([x for run in runs for x in run["shares"]])
                per_run = [statistics.median(run["shares"]) for run in runs]
                single = statistics.median(x for run in runs for x in run["single_rates"])
                cells.append(
                    f"{q2:.2f} ({q1:.2f}-{q3:.2f}; runs {min(per_run):.2f}-{max(per_run):.2f}), "
                    f"one env {single:,.0f}"
                )
            if any(c != "-" for c in cells):
                lines.append(f"| {backend} | " + " | ".join(cells) + " |")
        lines.append("")
    for games, runs in sorted(results.ceiling.items()):
        q1, q2, q3 = quartiles([x for run in runs for x in run["shares"]])
        per_run = [statistics.median(run["shares"]) for run in runs]
        rounds = len(runs[0]["shares"])
        seconds = runs[0]["seconds"]
        if not lines:
            lines += ["## Against the machine's limit", ""]
        if games > 1:
            lines += [
                f"With {games} envs stepped in turn by each of the {cores} processes "
                f"(`worker.py ceiling --games {games}`), the work of N={games * cores} with "
                f"no pool, timed the same way in {len(runs)} runs: a median {q2:.2f} of the "
                f"limit ({q1:.2f}-{q3:.2f}; runs {min(per_run):.2f}-{max(per_run):.2f}). "
                f"A share near that at N={games * cores} is as high as this hardware "
                "allows for that many envs.",
                "",
            ]
            continue
        lines += [
            f"The limit assumes {cores} independent cores. What this machine gives with no "
            f"pool at all (`worker.py ceiling`): {cores} processes, each stepping one env "
            f"inline, timed at once in {rounds} slices of {seconds:g} s between slices of one "
            f"alone, in {len(runs)} runs, reach a median {q2:.2f} of the limit "
            f"({q1:.2f}-{q3:.2f}; runs {min(per_run):.2f}-{max(per_run):.2f}). A share of "
            "the limit near that is as high as this hardware allows for this task.",
            "",
        ]
    return lines


def format_threads(num_threads: dict[str, int], backends: list[str]) -> str:
    """The envpool thread counts, for the results file."""
    envpools = [b for b in backends if b in ENVPOOL_BACKENDS]
    counts = {num_threads.get(b, 0) for b in envpools}
    if counts <= {0}:
        return "the library's default"
    if len(counts) == 1:
        return str(counts.pop())
    return ", ".join(f"{b} {num_threads.get(b, 0) or 'default'}" for b in envpools)


def format_ratio(ratio: float) -> str:
    """A ratio with about three significant digits: 1234x, 73.4x, 1.00x, 0.0762x."""
    return f"{ratio:.0f}x" if ratio >= 100 else f"{ratio:#.3g}x"


def machine_facts(venvs: dict[str, str], envpool_python: str) -> list[str]:
    """Lines about the machine and the interpreters, for the results file."""
    import gymnasium
    import numpy

    lines = [
        f"- machine: {platform.machine()}, nproc {os.cpu_count()} "
        f"({usable_cores()} usable by this process), {platform.platform()}",
        f"- python {platform.python_version()}, numpy {numpy.__version__}, "
        f"gymnasium {gymnasium.__version__} ({sys.executable})",
    ]
    probe = (
        "import sys, numpy, gymnasium; "
        "print(sys.version.split()[0], numpy.__version__, gymnasium.__version__)"
    )
    others = [(f"EnvPool {PUBLISHED[p][0]} venv", python) for p, python in sorted(venvs.items())]
    if envpool_python != sys.executable:
        others.insert(0, (f"this project's venv ({envpool_python})", envpool_python))
    for name, python in others:
        out = subprocess.run(
            [python, "-P", "-c", probe], capture_output=True, text=True, check=False
        ).stdout.split()
        if len(out) == 3:
            lines.append(f"- {name}: python {out[0]}, numpy {out[1]}, gymnasium {out[2]}")
    return lines


def format_report(
    args: argparse.Namespace,
    results: Results,
    backends: list[str],
    notes: list[str],
    facts: list[str],
) -> str:
    """The markdown results file: steps/s table, spread, import costs, command and machine."""
    ns = args.num_envs
    header = "| backend | " + " | ".join(f"N={n}" for n in ns) + " |"
    rule = "|---|" + "---:|" * len(ns)
    rows = [header, rule]
    for backend in backends:
        cells = []
        for n in ns:
            rate = median_rate(results, backend, n)
            loop = median_rate(results, "loop", n)
            if rate is None:
                failed = f"{backend} N={1 if backend == 'loop' else n}" in results.failures
                cells.append("failed" if failed else "-")
            elif loop:
                cells.append(f"{rate:,.0f} ({format_ratio(rate / loop)})")
            else:
                cells.append(f"{rate:,.0f}")
        rows.append(f"| {backend} | " + " | ".join(cells) + " |")
    spread_rows = [header, rule]
    for backend in backends:
        cells = []
        for n in ns:
            value = spread(results, backend, n)
            cells.append("-" if value is None else f"{100 * value:.0f}%")
        spread_rows.append(f"| {backend} | " + " | ".join(cells) + " |")
    import_rows = [
        "| package | `import envpool` | RSS growth | first `make` | RSS growth of first `make` |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, runs in results.imports.items():
        version = runs[0]["envpool_version"]

        def med(key: str, runs: list[dict[str, Any]] = runs) -> float:
            return statistics.median(r[key] for r in runs)

        label = name if name.endswith(version) else f"{name} {version}"
        import_rows.append(
            f"| {label} | {1000 * med('import_s'):.1f} ms "
            f"| {med('import_rss_kib') / 1024:.1f} MiB | {1000 * med('make_s'):.1f} ms "
            f"| {med('make_rss_kib') / 1024:.1f} MiB |"
        )
    descriptions = {**DESCRIPTIONS, **(MT10_DESCRIPTIONS if args.task == MT10_TASK else {})}
    legend = [
        f"- `{b}`: {descriptions[b]}" + (f"; {results.pools[b]}" if b in results.pools else "")
        for b in backends
    ]
    # Plain text, not code: error messages may hold backticks themselves.
    failures = [
        f"- FAILED {label}: " + error.replace("`", "'") for label, error in results.failures.items()
    ]
    command = shlex.join(
        [Path(sys.executable).name, *(["-P"] if sys.flags.safe_path else []), *sys.argv]
    )
    threads = format_threads(args.num_threads, backends)
    reference = (
        [f"The reference env of the gymnasium backends: {results.reference}.", ""]
        if results.reference
        else []
    )
    parts = [
        f"# Benchmark: {args.task}",
        "",
        f"Env steps per second, median of {args.repeats} repeats of {args.seconds:g} s each "
        f"(after {args.warmup:g} s of warm-up), random actions drawn before timing; "
        "in brackets the ratio to `loop`"
        + (" at the same N" if args.task == MT10_TASK else "")
        + ". N is `num_envs`; envpool threads: "
        f"{threads}. The pools' first resets are untimed (the async pools' first "
        "`recv`s, which collect them, come before the warm-up).",
        "",
        *rows,
        "",
        *legend,
        "",
        *reference,
        *(mt10_lines(args.num_envs) if args.task == MT10_TASK else []),
        *limit_lines(results, backends, ns),
        "Spread of the repeats, (max - min) / median:",
        "",
        *spread_rows,
        "",
        f"## Import cost (median of {args.import_runs} fresh processes)",
        "",
        "Measured after `import numpy, gymnasium`; RSS is VmRSS from /proc. "
        "First `make` is `envpool.make("
        f"{('MetaWorld/Reach-v3' if args.task == MT10_TASK else args.task)!r}, "
        "env_type='gymnasium', num_envs=1)`.",
        "",
        *import_rows,
        "",
        "## Run",
        "",
        f"- command: `{command}`",
        f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}",
        *facts,
        *(f"- {note}" for note in notes),
        *failures,
        "",
    ]
    return "\n".join(parts)


def plot(args: argparse.Namespace, results: Results, backends: list[str], path: Path) -> None:
    """A grouped bar chart, log scale: steps/s per backend at each N, ratio to loop on top."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ns = args.num_envs
    width = 0.8 / len(backends)
    fig, ax = plt.subplots(figsize=(max(7.0, 2.6 * len(ns)), 4.8))
    for i, backend in enumerate(backends):
        xs, ys = [], []
        for j, n in enumerate(ns):
            rate = median_rate(results, backend, n)
            if rate is not None:
                xs.append(j + (i - (len(backends) - 1) / 2) * width)
                ys.append(rate)
        ax.bar(xs, ys, width, label=backend)
        for x, y, n in zip(xs, ys, ns, strict=False):
            loop = median_rate(results, "loop", n)
            if loop:
                ax.annotate(
                    format_ratio(y / loop),
                    (x, y),
                    xytext=(0, 2),
                    textcoords="offset points",
                    ha="center",
                    va="bottom",
                    fontsize=6,
                    rotation=90,
                )
    ax.set_yscale("log")
    ax.set_xticks(range(len(ns)), [f"num_envs={n}" for n in ns])
    ax.set_ylabel("env steps / s (median)")
    loop_name = "the N envs' Python loop" if args.task == MT10_TASK else "a single-env Python loop"
    ax.set_title(f"{args.task}: steps/s, ratio to {loop_name} on top")
    ax.legend(fontsize=7, ncol=2, loc="upper left")
    ax.margins(y=0.25)
    ax.grid(axis="y", which="major", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def parse_threads(items: list[str]) -> dict[str, int]:
    """`--num-threads` items, `N` (every envpool backend) or `BACKEND=N`, as backend -> N."""
    threads: dict[str, int] = {}
    for item in items:
        name, _, value = item.rpartition("=")
        if name and name not in ENVPOOL_BACKENDS:
            raise ValueError(f"{name!r} is not one of {', '.join(ENVPOOL_BACKENDS)}")
        try:
            count = int(value)
        except ValueError:
            raise ValueError(f"{item!r} is not N or BACKEND=N") from None
        if count < 0:
            raise ValueError(f"{item!r}: a thread count is >= 0")
        threads.update({name: count} if name else dict.fromkeys(ENVPOOL_BACKENDS, count))
    return threads


@contextlib.contextmanager
def competitor(kind: str | None):
    """Runs benchmark/competitor.py `kind` (none when None) while the block
    runs; yields the note that says so."""
    if kind is None:
        yield ""
        return
    process = subprocess.Popen(
        [sys.executable, "-P", str(HERE / "competitor.py"), kind],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        process.stdout.readline()  # "ready": compete from the first measurement
        yield (
            f"contention: `benchmark/competitor.py {kind}` (one process, one thread) ran "
            "for the whole measurement"
        )
    finally:
        process.kill()
        process.wait()


def parse_args() -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="CartPole-v1")
    parser.add_argument("--num-envs", type=int, nargs="+", default=[1, 8, 64])
    parser.add_argument("--repeats", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one measurement")
    parser.add_argument("--warmup", type=float, default=0.2, help="untimed steps before each")
    parser.add_argument(
        "--num-threads",
        nargs="+",
        default=[],
        metavar="[BACKEND=]N",
        help="envpool threads: N for every envpool backend, BACKEND=N for one "
        "(e.g. envpool_async=1); 0 or unset = the library's default",
    )
    parser.add_argument(
        "--backends",
        nargs="+",
        choices=BACKENDS,
        default=[b for b in BACKENDS if b != "procgen_vec" and not b.startswith("envpool127")],
        help="what to measure; `loop`, the reference of the ratios, always runs",
    )
    parser.add_argument("--import-runs", type=int, default=7)
    parser.add_argument(
        "--worker-timeout",
        type=float,
        default=120.0,
        help="seconds a measurement's process may take beyond --seconds and --warmup "
        "(making its envs: gym_async's N processes of a slow reference on a busy machine "
        "need more)",
    )
    parser.add_argument(
        "--paired-runs",
        type=int,
        default=3,
        help="processes per cell timing this project's pools at N >= 8 in alternation with "
        "one env for the limit's share (`worker.py limit`); 0 = none",
    )
    parser.add_argument(
        "--paired-rounds", type=int, default=6, help="slices of the pool per such process"
    )
    parser.add_argument(
        "--paired-seconds", type=float, default=0.4, help="length of one such slice"
    )
    for prefix, (version, python) in PUBLISHED.items():
        parser.add_argument(
            f"--{prefix}-python",
            default=str(python),
            help=f"python of the virtual environment holding EnvPool {version}",
        )
    parser.add_argument(
        "--envpool-python",
        default=sys.executable,
        help="python of this project's backends (envpool_sync, envpool_async), e.g. "
        "benchmark/.venv-py312/bin/python to compare with EnvPool 1.2.7 on Python 3.12",
    )
    parser.add_argument(
        "--reference-python",
        default=sys.executable,
        help="python of the reference backends (loop, gym_*, procgen_vec), e.g. "
        "benchmark/.venv-procgen310/bin/python for a procgen id",
    )
    parser.add_argument(
        "--contention",
        choices=("busy", "learner"),
        help="run benchmark/competitor.py (a busy loop, or a torch learner step in a loop) "
        "for the whole measurement, keeping one core busy as a learner beside the pool "
        "does; results go to <out-dir>/contention/<task>-<kind>.md",
    )
    parser.add_argument(
        "--note",
        action="append",
        default=[],
        help="a line for the results file's Run section (e.g. how busy the machine was)",
    )
    parser.add_argument("--out-dir", type=Path, default=HERE / "results")
    args = parser.parse_args()
    args.reference_python = os.path.abspath(args.reference_python)
    # Workers run in another directory (`run_worker`).
    for prefix in PUBLISHED:
        setattr(args, f"{prefix}_python", os.path.abspath(getattr(args, f"{prefix}_python")))
    args.envpool_python = os.path.abspath(args.envpool_python)
    try:
        args.num_threads = parse_threads(args.num_threads)
    except ValueError as error:
        parser.error(f"--num-threads: {error}")
    if args.repeats < 1 or any(n < 1 for n in args.num_envs):
        parser.error("--repeats and --num-envs must be positive")
    return args


def main() -> None:
    """Measure, then write and print the results."""
    args = parse_args()
    backends = list(dict.fromkeys(["loop", *args.backends]))
    notes: list[str] = list(args.note)
    venvs: dict[str, str] = {}
    for prefix in PUBLISHED:
        wanted = [b for b in backends if published_prefix(b) == prefix]
        python = getattr(args, f"{prefix}_python")
        if not wanted:
            continue
        if Path(python).exists():
            venvs[prefix] = python
            continue
        backends = [b for b in backends if b not in wanted]
        notes.append(f"skipped {', '.join(wanted)}: no {python}")
        print(f"warning: {notes[-1]}", file=sys.stderr)
    load_before = os.getloadavg()
    start = time.perf_counter()
    with competitor(args.contention) as competition:
        results = measure(args, backends, venvs)
        if not args.contention:  # shares of the limit mean nothing beside a competitor
            measure_paired(args, backends, results)
            measure_ceiling(args, results)
    elapsed = time.perf_counter() - start
    load_after = os.getloadavg()
    notes.append(
        f"load average (1 min) {load_before[0]:.2f} before, {load_after[0]:.2f} after; "
        f"the run took {elapsed:.0f} s"
    )
    if competition:
        notes.append(competition)
    facts = machine_facts(venvs, args.envpool_python)
    report = format_report(args, results, backends, notes, facts)
    stem = args.task.replace("/", "_")
    if args.contention:
        args.out_dir = args.out_dir / "contention"
        stem = f"{stem}-{args.contention}"
    args.out_dir.mkdir(parents=True, exist_ok=True)
    (args.out_dir / f"{stem}.md").write_text(report)
    plot(args, results, backends, args.out_dir / f"{stem}.png")
    print(report)
    print(f"wrote {args.out_dir / stem}.md and .png", file=sys.stderr)


if __name__ == "__main__":
    main()
