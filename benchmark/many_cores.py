"""The many-core and GPU measurements (issue 45), one part at a time, each bounded in time.

    python3 -P benchmark/many_cores.py                       # every part, the full sizes
    python3 -P benchmark/many_cores.py --parts 1 3 --out /tmp/mc
    python3 -P benchmark/many_cores.py --smoke --out /tmp/mc # scaled down for 2 cores

Parts (`--parts`, any subset, in the order given):

1. scaling: Pong-v5, Ant-v5, CartPole-v1 and CoinrunEasy-v0 at 1, 2, 4, 8,
   12 and 16 threads (N = `--envs-per-thread` x threads envs): this project
   sync and async, each with `thread_affinity_offset` unset and 0, EnvPool
   1.2.5 where its virtual environment exists, gymnasium's `AsyncVectorEnv`
   of N processes and a for-loop of one env; steps/s and frames/s, and the
   share of threads x one env's rate (a pool of one env, stepped inline);
2. procgen's library copies: CoinrunEasy-v0 at the largest thread count
   with `ENVPOOL_PROCGEN_LIBRARY_COPIES` = 1, 2, 4, 8, 16, and procgen's own
   `ProcgenGym3Env` where `--reference-python` imports procgen;
3. `env.xla()` inside `jax.jit`: on the CPU against the numpy `step`, and
   with JAX's default backend where that is a GPU, against the CPU path (a
   recorded skip where there is no GPU or no CUDA FFI target);
4. end to end: examples/cleanrl/ppo_atari_envpool_xla_jax.py on Pong-v5
   until the mean episodic return reaches `--target-return` or the part's
   budget is spent; the return against wall time.

Each measurement of parts 1 and 2 is `benchmark/worker.py step` in a fresh
process (`bench.run_worker`). A part stops starting measurements once its
budget (`--budget PART=SECONDS`) is spent; what it did not reach is listed
as such. The cells are measured in an order that spends a cut budget on the
least telling ones (12 and 2 threads, the pinned sync pool) last.

Everything goes to `--out` (default benchmark/results/many_cores/):
results.json (every part's raw results, merged with those of earlier runs
into the same folder, so parts can be rerun alone), many_cores.md (the
tables of every part there, each with its command, date and machine),
part1.png, part2.png and part4.png: six files with the device script's log,
within the eight a device run can return.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import bench  # noqa: E402  (benchmark/ is not a package)
import worker  # noqa: E402

ROOT = HERE.parent
CLEANRL_PPO = ROOT / "examples" / "cleanrl" / "ppo_atari_envpool_xla_jax.py"

TASKS = ("Pong-v5", "Ant-v5", "CartPole-v1", "CoinrunEasy-v0")
THREADS = (1, 2, 4, 8, 12, 16)
THREAD_PRIORITY = (1, 16, 8, 4, 2, 12)
"""The order thread counts are measured in: a cut budget loses 12 and 2 first."""
COPIES = (1, 2, 4, 8, 16)
COPIES_PRIORITY = (1, 16, 4, 8, 2)
"""The order library copies are measured in: a cut budget loses 8 and 2 first."""

FRAMES_PER_STEP = {"Pong-v5": 4, "Ant-v5": 5, "CartPole-v1": 1, "CoinrunEasy-v0": 1}
"""Frames per env step as the seeds count them: Atari's emulator frames
(frame_skip 4), MuJoCo's physics steps (Ant's frame_skip 5), one otherwise."""


@dataclass(frozen=True)
class Backend:
    """One row of part 1: a worker.py backend, its interpreter and pinning."""

    name: str
    worker_backend: str
    python_key: str  # "envpool", "envpool125" or "reference"
    affinity: bool = False
    description: str = ""


BACKENDS = (
    Backend("this sync", "envpool_sync", "envpool", False, "this project, `step` of all N"),
    Backend("this async", "envpool_async", "envpool", False, "this project, `recv`/`send` of N/2"),
    Backend(
        "this async pinned",
        "envpool_async",
        "envpool",
        True,
        "the same with `thread_affinity_offset=0` (worker i on core i)",
    ),
    Backend("this sync pinned", "envpool_sync", "envpool", True, "`step`, pinned likewise"),
    Backend("EnvPool 1.2.5 sync", "envpool_sync", "envpool125", False, "EnvPool 1.2.5, `step`"),
    Backend(
        "EnvPool 1.2.5 async", "envpool_async", "envpool125", False, "EnvPool 1.2.5, recv/send"
    ),
    Backend(
        "subprocess",
        "gym_async",
        "reference",
        False,
        "gymnasium `AsyncVectorEnv` of N reference envs, one process each",
    ),
)
LOOP = Backend("for-loop", "loop", "reference", False, "one reference env in a Python loop")
SINGLE = Backend(
    "one env", "envpool_sync", "envpool", False, "this project, a pool of one env, inline"
)


def now_utc() -> str:
    """The date and time, for the results."""
    return f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}"


def command_line() -> str:
    """How this script was started."""
    return shlex.join([Path(sys.executable).name, "-P", *sys.argv])


def run_text(cmd: list[str]) -> str:
    """A command's stdout, or '' when it is missing or fails."""
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def package_versions(python: str) -> str:
    """The versions of the packages the parts use, as `python` imports them."""
    probe = (
        "import importlib.metadata as m, sys\n"
        "names = ('envpool', 'numpy', 'gymnasium', 'ale-py', 'mujoco', 'jax', 'jaxlib', "
        "'flax', 'optax', 'procgen')\n"
        "found = []\n"
        "for n in names:\n"
        "    try:\n"
        "        found.append(f'{n} {m.version(n)}')\n"
        "    except m.PackageNotFoundError:\n"
        "        pass\n"
        "print(f'python {sys.version.split()[0]}, ' + ', '.join(found))\n"
    )
    return run_text([python, "-c", probe]) or f"{python}: could not be asked"


def machine_description(args: argparse.Namespace) -> dict[str, str]:
    """nproc, CPU model, GPU, memory, the interpreters' packages, the command and date."""
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    gpu = run_text(
        [
            "nvidia-smi",
            "--query-gpu=name,memory.total,driver_version",
            "--format=csv,noheader",
        ]
    )
    memory = "?"
    try:
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f"{kib / 2**20:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    description = {
        "nproc": f"{os.cpu_count()} ({bench.usable_cores()} usable by this process)",
        "cpu": cpu,
        "memory": memory,
        "gpu": gpu or "none (no nvidia-smi answer)",
        "os": platform.platform(),
        "this project's python": package_versions(args.envpool_python),
        "command": command_line(),
        "date": now_utc(),
    }
    if args.envpool125_python:
        description["EnvPool 1.2.5's python"] = package_versions(args.envpool125_python)
    return description


class Budget:
    """A part's time budget: `spent()` once it is over."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.start = time.monotonic()

    def left(self) -> float:
        return self.seconds - (time.monotonic() - self.start)

    def spent(self) -> bool:
        return self.left() <= 0


def measure_cell(
    args: argparse.Namespace,
    backend: Backend,
    task: str,
    num_envs: int,
    threads: int,
    env: dict[str, str] | None = None,
) -> dict[str, Any]:
    """One worker.py step measurement: {'steps_per_s': ...} or {'error': ...}."""
    python = {
        "envpool": args.envpool_python,
        "envpool125": args.envpool125_python,
        "reference": args.reference_python,
    }[backend.python_key]
    worker_args = [
        "step",
        f"--backend={backend.worker_backend}",
        f"--task={task}",
        f"--num-envs={num_envs}",
        f"--num-threads={threads if backend.python_key != 'reference' else 0}",
        f"--seconds={args.seconds}",
        f"--warmup={args.warmup}",
    ]
    if backend.affinity:
        worker_args.append("--thread-affinity-offset=0")
    try:
        result = bench.run_worker(python, worker_args, args.seconds + args.warmup + 120.0, env)
    except bench.WorkerError as error:
        print(f"  FAILED: {error}", file=sys.stderr, flush=True)
        return {"error": bench.last_line(error)}
    return {"steps_per_s": result["steps_per_s"], "reference": result.get("reference")}


def part1_backends(args: argparse.Namespace) -> list[Backend]:
    """Part 1's rows that can run here (EnvPool 1.2.5 only where its python exists)."""
    rows = [b for b in BACKENDS if b.python_key != "envpool125" or args.envpool125_python]
    if args.smoke:  # the pinned sync pool and EnvPool 1.2.5 add nothing a smoke run checks
        rows = [b for b in rows if b.name != "this sync pinned" and b.python_key != "envpool125"]
    return rows


def part1(args: argparse.Namespace) -> dict[str, Any]:
    """Scaling: every task, thread count and backend, within the part's budget."""
    budget = Budget(args.budget[1])
    threads = [t for t in THREAD_PRIORITY if t in args.threads] + [
        t for t in args.threads if t not in THREAD_PRIORITY
    ]
    backends = part1_backends(args)
    without_reference = [t for t in args.tasks if not has_reference(args, t)]
    cells: list[tuple[str, Backend, int]] = [(task, SINGLE, 1) for task in args.tasks]
    for k, t in enumerate(threads):
        for backend in backends:
            cells += [
                (task, backend, t)
                for task in args.tasks
                if backend.python_key != "reference" or task not in without_reference
            ]
        if k == 0:  # the for-loop once, after the first thread count's cells
            cells += [(task, LOOP, 1) for task in args.tasks if task not in without_reference]
    results: dict[str, Any] = {
        "tasks": list(args.tasks),
        "threads": sorted(args.threads),
        "cells": [],
        "skipped": [],
    }
    for k, (task, backend, t) in enumerate(cells, 1):
        n = 1 if backend in (LOOP, SINGLE) else args.envs_per_thread * t
        if budget.spent():
            results["skipped"].append([task, backend.name, t])
            continue
        print(f"[1: {k}/{len(cells)}] {task} {backend.name} T={t} N={n}", file=sys.stderr)
        cell = measure_cell(args, backend, task, n, t)
        results["cells"].append(
            {"task": task, "backend": backend.name, "threads": t, "num_envs": n, **cell}
        )
    results["notes"] = part1_notes(args, without_reference)
    return results


def has_reference(args: argparse.Namespace, task: str) -> bool:
    """Whether the reference rows (for-loop, subprocess) can step `task`: a
    procgen id needs procgen, which has no gymnasium env."""
    return worker.procgen_task(task) is None or imports(args.reference_python, "procgen")


def imports(python: str, module: str) -> bool:
    """Whether `python` can import `module`."""
    probe = [python, "-c", f"import {module}"]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


PROCGEN_MISSING = (
    "cannot import procgen (procgen 0.10.7, the last release, has wheels up to Python 3.10 only)"
)


def part1_notes(args: argparse.Namespace, without_reference: list[str]) -> list[str]:
    """Why a row is missing."""
    notes = [
        f"{task}: no for-loop or subprocess row: {args.reference_python} {PROCGEN_MISSING}"
        for task in without_reference
    ]
    if not args.envpool125_python:
        notes.append(
            "EnvPool 1.2.5 not measured: no interpreter holding it (--envpool125-python); "
            "its cp312 wheel (about 50 MiB) and the envpool-assets wheel it requires (about "
            "60 MiB) do not fit beside this project's in the 55 MiB a device run carries"
        )
    return notes


def part2(args: argparse.Namespace) -> dict[str, Any]:
    """procgen's library copies at the largest thread count, and procgen's own vector env."""
    budget = Budget(args.budget[2])
    task = "CoinrunEasy-v0"
    t = max(args.threads)
    n = args.envs_per_thread * t
    results: dict[str, Any] = {"task": task, "threads": t, "num_envs": n, "cells": []}
    results["skipped"] = []
    order = [k for k in COPIES_PRIORITY if k in args.copies]
    for copies in order + [k for k in args.copies if k not in order]:
        for backend in BACKENDS[:2]:
            if budget.spent():
                results["skipped"].append([backend.name, copies])
                continue
            print(f"[2] {task} {backend.name} copies={copies} T={t} N={n}", file=sys.stderr)
            env = {"ENVPOOL_PROCGEN_LIBRARY_COPIES": str(copies)}
            cell = measure_cell(args, backend, task, n, t, env)
            results["cells"].append({"backend": backend.name, "copies": copies, **cell})
    if not imports(args.reference_python, "procgen"):
        results["procgen"] = {"error": f"not measured: {args.reference_python} {PROCGEN_MISSING}"}
    elif budget.spent():
        results["procgen"] = {"error": "not measured: the part's budget was spent"}
    else:
        vec = Backend("ProcgenGym3Env", "procgen_vec", "reference")
        results["procgen"] = measure_cell(args, vec, task, n, t)
    return results


XLA_CHECK = r"""
import json, sys
import numpy as np
import jax
import envpool

task, steps = sys.argv[1], int(sys.argv[2])
result = {"default_backend": jax.default_backend(), "devices": [str(d) for d in jax.devices()]}


def run(device):
    env = envpool.make(task, env_type="gymnasium", num_envs=4, seed=7)
    handle, _, _, step = env.xla()
    rng = np.random.default_rng(0)
    actions = [rng.integers(0, env.single_action_space.n, 4).astype(np.int32)
               for _ in range(steps)]
    env.reset()
    observations = []
    with jax.default_device(device):
        jitted = jax.jit(step)
        for action in actions:
            handle, (obs, rew, term, trunc, _) = jitted(handle, jax.device_put(action, device))
            observations.append([np.asarray(x) for x in (obs, rew, term, trunc)])
    env.close()
    numpy_env = envpool.make(task, env_type="gymnasium", num_envs=4, seed=7)
    numpy_env.reset()
    expected = [list(numpy_env.step(a)[:4]) for a in actions]
    numpy_env.close()
    return observations, expected


def same(a, b):
    return all(np.array_equal(x, y) for xs, ys in zip(a, b) for x, y in zip(xs, ys))


cpu_obs, expected = run(jax.devices("cpu")[0])
result["cpu_equals_numpy"] = same(cpu_obs, expected)
if jax.default_backend() == "cpu":
    result["gpu"] = "skipped: JAX's default backend is the CPU (no GPU here)"
else:
    try:
        gpu_obs, _ = run(jax.devices()[0])
        result["gpu_equals_cpu"] = same(gpu_obs, cpu_obs)
        result["gpu"] = "equal" if result["gpu_equals_cpu"] else "DIFFERS from the CPU path"
    except Exception as error:
        text = str(error).strip().splitlines()
        result["gpu"] = (
            f"skipped: no CUDA FFI target for env.xla() ({type(error).__name__}: "
            f"{text[0] if text else ''})"
        )
print(json.dumps(result))
"""


def part3(args: argparse.Namespace) -> dict[str, Any]:
    """env.xla() in jax.jit on the CPU and with JAX's default backend."""
    task, steps = "CartPole-v1", 50
    cmd = [args.envpool_python, "-P", "-c", XLA_CHECK, task, str(steps)]
    try:
        proc = subprocess.run(
            cmd, capture_output=True, text=True, timeout=args.budget[3], check=False
        )
    except subprocess.TimeoutExpired:
        return {"error": f"not finished within the part's budget of {args.budget[3]:g} s"}
    if proc.returncode != 0:
        lines = proc.stderr.strip().splitlines()
        return {"error": lines[-1] if lines else f"exited {proc.returncode}"}
    return {"task": task, "steps": steps, **json.loads(proc.stdout.strip().splitlines()[-1])}


PPO_LINE = re.compile(r"global_step=(\d+), avg_episodic_return=([-\d.e+naif]+)")
PPO_STOP = re.compile(r"'stopped_by': '(\w+)'")


def part4(args: argparse.Namespace, results: dict[str, Any]) -> dict[str, Any]:
    """CleanRL's PPO on Pong-v5 until the target return or the budget; return vs wall time."""
    budget = args.budget[4]
    env = dict(os.environ)
    gpu = results.get("3", {}).get("data", {}).get("gpu", "")
    if args.jax_platform == "auto":
        platform_name = None if gpu == "equal" else "cpu"
    else:
        platform_name = None if args.jax_platform == "default" else args.jax_platform
    if platform_name:
        env["JAX_PLATFORMS"] = platform_name
    options = [
        "--env-id=Pong-v5",
        f"--target-return={args.target_return}",
        f"--time-limit={max(1.0, budget - 60.0)}",
        f"--num-envs={args.ppo_num_envs}",
    ]
    if args.smoke:
        options += [
            "--total-timesteps=64",
            "--num-steps=8",
            "--num-minibatches=1",
            "--update-epochs=1",
        ]
    else:
        options.append("--total-timesteps=10000000")
    cmd = [args.envpool_python, "-P", str(CLEANRL_PPO), *options]
    print(f"[4] {shlex.join(cmd)}", file=sys.stderr, flush=True)
    start = time.monotonic()
    curve: list[list[float]] = []
    output: list[str] = []
    process = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
    )
    # Ends the run at the budget even while it prints nothing (compiling).
    watchdog = threading.Timer(budget, process.kill)
    watchdog.start()
    try:
        assert process.stdout is not None
        for line in process.stdout:
            output.append(line.rstrip())
            match = PPO_LINE.search(line)
            if match:
                curve.append([time.monotonic() - start, int(match.group(1)), float(match.group(2))])
            if time.monotonic() - start > budget:
                break
    finally:
        watchdog.cancel()
        if process.poll() is None:
            process.kill()
        process.wait()
    wall = time.monotonic() - start
    reached = next((point for point in curve if point[2] >= args.target_return), None)
    stops = [m.group(1) for line in output if (m := PPO_STOP.search(line))]
    return {
        "command": shlex.join(cmd),
        "jax_platforms": platform_name or "JAX's default",
        "jax_platform_reason": (
            f"part 3's GPU check: {gpu or 'not run'}" if args.jax_platform == "auto" else "asked"
        ),
        "target_return": args.target_return,
        "curve": curve,
        "wall_s": wall,
        "reached_s": reached[0] if reached else None,
        "stopped_by": stops[-1] if stops else "the part's budget",
        "returncode": process.returncode,
        "last_lines": output[-5:],
    }


# ---------------------------------------------------------------------------
# Tables and plots


def rate_of(cells: list[dict[str, Any]], **match: Any) -> float | None:
    """The steps/s of the cell matching `match`, None if unmeasured or failed."""
    for cell in cells:
        if all(cell.get(k) == v for k, v in match.items()):
            return cell.get("steps_per_s")
    return None


def cell_text(cells: list[dict[str, Any]], **match: Any) -> str:
    """A table cell: steps/s, 'failed' or '-'."""
    for cell in cells:
        if all(cell.get(k) == v for k, v in match.items()):
            rate = cell.get("steps_per_s")
            return "failed" if rate is None else f"{rate:,.0f}"
    return "-"


def part1_tables(data: dict[str, Any]) -> list[str]:
    """The seeds' table (frames/s at the largest thread count) and one scaling table per task."""
    cells = data["cells"]
    tasks = data["tasks"]
    threads = data["threads"]
    names = [b.name for b in (*BACKENDS, LOOP) if any(c["backend"] == b.name for c in cells)]
    lines = [
        "Highest frames/s of each method over the thread counts measured (the seeds' table; "
        f"frames: {describe_frames(tasks)}), with the threads that gave it:",
        "",
        "| method | " + " | ".join(tasks) + " |",
        "|---|" + "---:|" * len(tasks) + "",
    ]
    for name in names:
        row = []
        for task in tasks:
            rates = [
                (c["steps_per_s"], c["threads"])
                for c in cells
                if c["task"] == task and c["backend"] == name and c.get("steps_per_s")
            ]
            if not rates:
                row.append("-")
                continue
            rate, at = max(rates)
            where = "" if name == LOOP.name else f" (T={at})"
            row.append(f"{rate * FRAMES_PER_STEP.get(task, 1):,.0f}{where}")
        lines.append(f"| {name} | " + " | ".join(row) + " |")
    lines.append("")
    for task in tasks:
        single = rate_of(cells, task=task, backend=SINGLE.name)
        lines += [
            f"### {task}: steps/s by threads (N = envs per thread x threads)",
            "",
            f"One env alone (a pool of one env, inline): "
            f"{'-' if single is None else f'{single:,.0f}'} steps/s. In brackets: the share "
            "of threads x that rate.",
            "",
            "| backend | " + " | ".join(f"T={t}" for t in threads) + " |",
            "|---|" + "---:|" * len(threads),
        ]
        for name in names:
            row = []
            for t in threads:
                at = 1 if name == LOOP.name else t
                text = cell_text(cells, task=task, backend=name, threads=at)
                rate = rate_of(cells, task=task, backend=name, threads=at)
                if rate is not None and single:
                    text += f" ({rate / (t * single):.2f})"
                row.append(text)
            lines.append(f"| {name} | " + " | ".join(row) + " |")
        lines.append("")
    lines += [f"- `{b.name}`: {b.description}" for b in (*BACKENDS, LOOP, SINGLE)]
    lines += [f"- {note}" for note in data.get("notes", [])]
    failed = [c for c in cells if "error" in c]
    lines += [
        f"- FAILED {c['task']} {c['backend']} T={c['threads']}: "
        + str(c["error"]).replace("`", "'")
        for c in failed
    ]
    if data.get("skipped"):
        lines.append(
            f"- not measured, the part's budget spent: {len(data['skipped'])} cells ("
            + ", ".join(f"{t} {b} T={n}" for t, b, n in data["skipped"][:12])
            + (", ..." if len(data["skipped"]) > 12 else "")
            + ")"
        )
    return [*lines, ""]


def describe_frames(tasks: list[str]) -> str:
    return ", ".join(f"{t} {FRAMES_PER_STEP.get(t, 1)} per step" for t in tasks)


def part2_tables(data: dict[str, Any]) -> list[str]:
    cells = data["cells"]
    copies = sorted({c["copies"] for c in cells})
    names = list(dict.fromkeys(c["backend"] for c in cells))
    lines = [
        f"{data['task']}, {data['threads']} threads, N={data['num_envs']}: steps/s by "
        "`ENVPOOL_PROCGEN_LIBRARY_COPIES`.",
        "",
        "| backend | " + " | ".join(f"copies={k}" for k in copies) + " |",
        "|---|" + "---:|" * len(copies),
    ]
    for name in names:
        row = [cell_text(cells, backend=name, copies=k) for k in copies]
        lines.append(f"| {name} | " + " | ".join(row) + " |")
    procgen = data.get("procgen", {})
    if "steps_per_s" in procgen:
        lines += ["", f"procgen's `ProcgenGym3Env` (N={data['num_envs']}): "]
        lines[-1] += f"{procgen['steps_per_s']:,.0f} steps/s"
    else:
        lines += ["", f"procgen's `ProcgenGym3Env`: {procgen.get('error', '-')}"]
    if data.get("skipped"):
        lines.append(f"- not measured, the part's budget spent: {data['skipped']}")
    return [*lines, ""]


def part3_tables(data: dict[str, Any]) -> list[str]:
    if "error" in data:
        return [f"FAILED: {data['error']}", ""]
    return [
        f"`env.xla()`'s step in `jax.jit`, {data['steps']} steps of {data['task']} (4 envs):",
        "",
        f"- JAX's default backend: {data['default_backend']} ({', '.join(data['devices'])})",
        f"- on the CPU, equal to the numpy `step`: {data['cpu_equals_numpy']}",
        f"- with the default backend: {data['gpu']}",
        "",
    ]


def part4_tables(data: dict[str, Any]) -> list[str]:
    curve = data["curve"]
    reached = data["reached_s"]
    last = curve[-1] if curve else None
    lines = [
        f"- command: `{data['command']}` (JAX_PLATFORMS: {data['jax_platforms']}; "
        f"{data['jax_platform_reason']})",
        f"- target return {data['target_return']:g}: "
        + (f"reached after {reached:.0f} s" if reached is not None else "not reached")
        + f"; the run took {data['wall_s']:.0f} s, {len(curve)} iterations, "
        f"stopped by: {data['stopped_by']}",
    ]
    if last:
        lines.append(
            f"- last iteration: {last[1]:,} env steps ({4 * last[1]:,} frames) at "
            f"{last[0]:.0f} s, mean episodic return {last[2]:.1f}"
        )
    if data["returncode"] not in (0, -9, None):
        lines.append(f"- exited {data['returncode']}: " + " / ".join(data["last_lines"]))
    return [*lines, ""]


def plot_part1(data: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cells = [c for c in data["cells"] if c.get("steps_per_s")]
    tasks = data["tasks"]
    fig, axes = plt.subplots(1, len(tasks), figsize=(4.2 * len(tasks), 4.2), squeeze=False)
    for ax, task in zip(axes[0], tasks, strict=True):
        single = rate_of(cells, task=task, backend=SINGLE.name)
        names = dict.fromkeys(
            c["backend"] for c in cells if c["task"] == task and c["backend"] != SINGLE.name
        )
        for name in names:
            points = sorted(
                (c["threads"], c["steps_per_s"])
                for c in cells
                if c["task"] == task and c["backend"] == name
            )
            if name == LOOP.name:
                ax.axhline(points[0][1], color="gray", linestyle=":", label=name)
                continue
            color = f"C{[b.name for b in BACKENDS].index(name) % 10}"  # the same in every panel
            ax.plot(*zip(*points, strict=True), marker="o", label=name, color=color)
        if single:
            ts = sorted({c["threads"] for c in cells})
            ax.plot(ts, [t * single for t in ts], "k--", linewidth=0.8, label="T x one env")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(task)
        ax.set_xlabel("threads")
        ax.grid(alpha=0.3)
        ax.set_xticks(data["threads"], [str(t) for t in data["threads"]])
    axes[0][0].set_ylabel("env steps / s")
    labels: dict[str, Any] = {}
    for ax in axes[0]:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            labels.setdefault(label, handle)
    fig.legend(labels.values(), labels.keys(), loc="lower center", ncol=len(labels), fontsize=7)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_bars(labels: list[str], values: list[float], title: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.6))
    ax.bar(range(len(values)), values)
    ax.set_xticks(range(len(values)), labels, rotation=30, ha="right", fontsize=7)
    ax.set_ylabel("env steps / s")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_part4(data: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.6))
    if data["curve"]:
        seconds, _, returns = zip(*data["curve"], strict=True)
        ax.plot(seconds, returns, marker=".")
    ax.axhline(data["target_return"], color="gray", linestyle=":")
    ax.set_xlabel("wall time (s)")
    ax.set_ylabel("mean episodic return")
    ax.set_title("CleanRL ppo_atari_envpool_xla_jax, Pong-v5")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


TITLES = {
    "1": "Part 1: scaling",
    "2": "Part 2: procgen's library copies",
    "3": "Part 3: env.xla() in jax.jit",
    "4": "Part 4: CleanRL PPO on Pong-v5, wall time",
}
TABLES: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "1": part1_tables,
    "2": part2_tables,
    "3": part3_tables,
    "4": part4_tables,
}


def write_outputs(out: Path, results: dict[str, Any]) -> None:
    """many_cores.md from every part in `results`, and the parts' plots."""
    lines = [
        "# Many cores and a GPU (benchmark/many_cores.py)",
        "",
        "Each part below says how it was run and on what machine.",
        "",
    ]
    for part in sorted(results):
        entry = results[part]
        lines += [f"## {TITLES[part]}", "", *TABLES[part](entry["data"])]
        lines += [f"- budget {entry['budget_s']:g} s, took {entry['took_s']:.0f} s"]
        lines += [f"- {key}: {value}" for key, value in entry["machine"].items()]
        lines.append("")
    (out / "many_cores.md").write_text("\n".join(lines))
    if "1" in results:
        plot_part1(results["1"]["data"], out / "part1.png")
    if "2" in results:
        data = results["2"]["data"]
        cells = [c for c in data["cells"] if c.get("steps_per_s")]
        labels = [f"{c['backend']}, copies={c['copies']}" for c in cells]
        values = [c["steps_per_s"] for c in cells]
        if "steps_per_s" in data.get("procgen", {}):
            labels.append("ProcgenGym3Env")
            values.append(data["procgen"]["steps_per_s"])
        title = f"{data['task']}, {data['threads']} threads, N={data['num_envs']}"
        plot_bars(labels, values, title, out / "part2.png")
    if "4" in results:
        plot_part4(results["4"]["data"], out / "part4.png")


# ---------------------------------------------------------------------------
# Command line

DEFAULT_BUDGETS = {1: 270.0, 2: 60.0, 3: 60.0, 4: 150.0}
SMOKE_BUDGETS = {1: 40.0, 2: 15.0, 3: 60.0, 4: 90.0}


def parse_budgets(items: list[str], smoke: bool) -> dict[int, float]:
    """`PART=SECONDS` items over the defaults."""
    budgets = dict(SMOKE_BUDGETS if smoke else DEFAULT_BUDGETS)
    for item in items:
        part, _, seconds = item.partition("=")
        try:
            budgets[int(part)] = float(seconds)
        except ValueError:
            raise ValueError(f"{item!r} is not PART=SECONDS (e.g. 1=240)") from None
    return budgets


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", type=int, nargs="+", choices=(1, 2, 3, 4), default=[3, 1, 2, 4])
    parser.add_argument("--smoke", action="store_true", help="scaled down for 2 cores")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "many_cores")
    parser.add_argument("--budget", nargs="+", default=[], metavar="PART=SECONDS")
    parser.add_argument("--tasks", nargs="+", default=list(TASKS))
    parser.add_argument("--threads", type=int, nargs="+", help=f"default {THREADS}")
    parser.add_argument("--envs-per-thread", type=int, default=2)
    parser.add_argument("--copies", type=int, nargs="+", help=f"default {COPIES}")
    parser.add_argument("--seconds", type=float, help="length of one measurement (default 0.5)")
    parser.add_argument("--warmup", type=float, help="untimed steps before each (default 0.2)")
    parser.add_argument("--target-return", type=float, default=20.0)
    parser.add_argument("--ppo-num-envs", type=int, help="part 4's num_envs (default 8)")
    parser.add_argument(
        "--jax-platform",
        default="auto",
        help="part 4's JAX_PLATFORMS: auto (JAX's default where part 3 found the GPU path "
        "equal, else cpu), default, cpu, cuda, ...",
    )
    parser.add_argument("--envpool-python", default=sys.executable)
    parser.add_argument("--reference-python", default=sys.executable)
    parser.add_argument(
        "--envpool125-python",
        default=str(bench.PUBLISHED["envpool125"][1]),
        help="python holding EnvPool 1.2.5; its rows are left out where it does not exist",
    )
    args = parser.parse_args(argv)
    try:
        args.budget = parse_budgets(args.budget, args.smoke)
    except ValueError as error:
        parser.error(f"--budget: {error}")
    if args.threads is None:
        args.threads = [1, 2] if args.smoke else list(THREADS)
    if args.copies is None:
        args.copies = [1, 2] if args.smoke else list(COPIES)
    if args.seconds is None:
        args.seconds = 0.1 if args.smoke else 0.5
    if args.warmup is None:
        args.warmup = 0.05 if args.smoke else 0.2
    if args.ppo_num_envs is None:
        args.ppo_num_envs = 2 if args.smoke else 8
    for name in ("envpool_python", "reference_python", "envpool125_python"):
        setattr(args, name, os.path.abspath(getattr(args, name)))
    if not Path(args.envpool125_python).exists():
        args.envpool125_python = ""
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    store = args.out / "results.json"
    results: dict[str, Any] = json.loads(store.read_text()) if store.exists() else {}
    machine = machine_description(args)
    for part in args.parts:
        start = time.monotonic()
        print(f"== part {part}: budget {args.budget[part]:g} s", file=sys.stderr, flush=True)
        if part == 1:
            data = part1(args)
        elif part == 2:
            data = part2(args)
        elif part == 3:
            data = part3(args)
        else:
            data = part4(args, results)
        results[str(part)] = {
            "data": data,
            "budget_s": args.budget[part],
            "took_s": time.monotonic() - start,
            "machine": machine,
        }
        store.write_text(json.dumps(results, indent=1))
        write_outputs(args.out, results)
        print(f"== part {part} took {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    print(f"wrote {args.out}/many_cores.md", file=sys.stderr)


if __name__ == "__main__":
    main()
