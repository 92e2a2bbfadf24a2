"""Steps/s of a MuJoCo task observed as pixels: this envpool's `from_pixels`,
gymnasium's `AddRenderObservation` and the published EnvPool 1.2.5's
`from_pixels`, side by side.

    python3 -P benchmark/pixels_bench.py --task Ant-v5 --size 84 --num-envs 1 4 --repeats 3

Every measurement runs in a fresh process (this file, `--worker`), backends
interleaved round-robin across repeats. The observation of every backend is
one `size x size` RGB frame per step (channel-first uint8 for the envpools,
gymnasium's `(size, size, 3)`), drawn by MuJoCo's offscreen renderer
through EGL:

- `gym_loop`: `gymnasium.make(task, render_mode="rgb_array", width=size,
  height=size)` wrapped in `AddRenderObservation(render_only=True)`, one env
  stepped in a Python loop (the same at every N);
- `gym_sync`: gymnasium's `SyncVectorEnv` of N such envs;
- `envpool_sync`: this project, `from_pixels=True`, `batch_size = num_envs`;
- `envpool125_sync`: EnvPool 1.2.5 (benchmark/.venv-envpool125, `make
  bench-setup`), `from_pixels=True`. Its wheel bundles its own libEGL and
  libOpenGL, which fail to load Mesa's GL here (`gladLoadGL error`); the
  system's glvnd libraries are preloaded (`LD_PRELOAD`) for it.

It writes benchmark/results/<task>-pixels.md.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV125 = HERE / ".venv-envpool125" / "bin" / "python"
GLVND = "/usr/lib/x86_64-linux-gnu"
PRELOAD_125 = " ".join(
    f"{GLVND}/{lib}" for lib in ("libGLdispatch.so.0", "libOpenGL.so.0", "libEGL.so.1")
)
BACKENDS = ("gym_loop", "gym_sync", "envpool_sync", "envpool125_sync")


def worker(backend: str, task: str, size: int, num_envs: int, seconds: float) -> dict:
    """Steps `backend` for `seconds` after one untimed step; returns the rate."""
    import numpy as np

    rng = np.random.default_rng(0)
    if backend.startswith("envpool"):
        import envpool

        env = envpool.make(
            task,
            env_type="gymnasium",
            num_envs=num_envs,
            from_pixels=True,
            render_width=size,
            render_height=size,
        )
        shape = (num_envs, *env.action_space.shape)
        low, high = env.action_space.low, env.action_space.high
        obs, _ = env.reset()
        step = env.step
        n = num_envs
    else:
        import gymnasium as gym
        from gymnasium.wrappers import AddRenderObservation

        def make() -> gym.Env:
            e = gym.make(task, render_mode="rgb_array", width=size, height=size)
            return AddRenderObservation(e, render_only=True)

        if backend == "gym_loop":
            env = make()
            n = 1
            shape = env.action_space.shape
            low, high = env.action_space.low, env.action_space.high
            obs, _ = env.reset(seed=0)

            def step(action: np.ndarray) -> tuple:
                out = env.step(action)
                if out[2] or out[3]:
                    env.reset()
                return out

        else:
            env = gym.vector.SyncVectorEnv([make] * num_envs)
            n = num_envs
            shape = env.action_space.shape
            low, high = env.single_action_space.low, env.single_action_space.high
            obs, _ = env.reset(seed=0)
            step = env.step
    frame_shape = tuple(obs.shape)
    step(rng.uniform(low, high, size=shape))
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        step(rng.uniform(low, high, size=shape))
        steps += n
    elapsed = time.perf_counter() - start
    env.close()
    return {"steps": steps, "seconds": elapsed, "obs_shape": frame_shape}


def run_one(backend: str, args: argparse.Namespace, num_envs: int) -> float | None:
    """One measurement in a fresh process; None when the backend fails."""
    cmd_args = [
        "--worker",
        backend,
        "--task",
        args.task,
        "--size",
        str(args.size),
        "--seconds",
        str(args.seconds),
        "--num-envs",
        str(num_envs),
    ]
    env = dict(os.environ, MUJOCO_GL="egl")
    if backend == "envpool125_sync":
        python = str(VENV125)
        env["LD_PRELOAD"] = PRELOAD_125
        flags = ["-I"]
    else:
        python = sys.executable
        flags = ["-P"]
    proc = subprocess.run(
        [python, *flags, str(Path(__file__).resolve()), *cmd_args],
        capture_output=True,
        text=True,
        env=env,
        timeout=args.seconds * 10 + 300,
        cwd=HERE,
    )
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:]
        print(f"{backend} N={num_envs} failed: {tail}", file=sys.stderr)
        return None
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    return out["steps"] / out["seconds"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", default="Ant-v5")
    parser.add_argument("--size", type=int, default=84)
    parser.add_argument("--num-envs", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--backends", nargs="+", default=list(BACKENDS), choices=BACKENDS)
    parser.add_argument("--worker", choices=BACKENDS, help=argparse.SUPPRESS)
    parser.add_argument("--out-dir", type=Path, default=HERE / "results")
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.task, args.size, args.num_envs[0], args.seconds)))
        return
    jobs = [
        (b, n) for n in args.num_envs for b in args.backends if not (b == "gym_loop" and n != 1)
    ]
    rates: dict[tuple[str, int], list[float]] = {job: [] for job in jobs}
    load_before = os.getloadavg()
    for r in range(args.repeats):
        order = jobs[r % len(jobs) :] + jobs[: r % len(jobs)]
        for backend, n in order:
            rate = run_one(backend, args, n)
            if rate is not None:
                rates[(backend, n)].append(rate)
            print(f"repeat {r} {backend} N={n}: {rate}", file=sys.stderr)
    load_after = os.getloadavg()
    lines = [
        f"# Benchmark: {args.task} observed as {args.size}x{args.size} pixels",
        "",
        f"Env steps per second (each step draws one frame per env), median of {args.repeats}"
        f" repeats of {args.seconds:g} s; in brackets the ratio to `gym_loop`.",
        "",
        "| backend | " + " | ".join(f"N={n}" for n in args.num_envs) + " |",
        "|---|" + "---:|" * len(args.num_envs),
    ]
    base = rates.get(("gym_loop", 1)) or []
    base_rate = statistics.median(base) if base else None
    for backend in args.backends:
        cells = []
        for n in args.num_envs:
            key = (backend, 1 if backend == "gym_loop" else n)
            vals = rates.get(key) or []
            if not vals:
                cells.append("failed" if key in rates else "-")
                continue
            med = statistics.median(vals)
            ratio = f" ({med / base_rate:.2f}x)" if base_rate else ""
            cells.append(f"{med:,.1f}{ratio}")
        lines.append(f"| {backend} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Backends: see `benchmark/pixels_bench.py`'s docstring.",
        "",
        "Command:",
        "",
        "    python3 -P benchmark/pixels_bench.py " + shlex.join(sys.argv[1:]),
        "",
        "Machine: "
        + f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores,"
        + f" Python {platform.python_version()}, {datetime.date.today().isoformat()};"
        + f" load average (1 min) {load_before[0]:.1f} before, {load_after[0]:.1f} after.",
        "",
    ]
    args.out_dir.mkdir(parents=True, exist_ok=True)
    path = args.out_dir / f"{args.task}-pixels.md"
    path.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
