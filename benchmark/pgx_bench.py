"""Steps/s of pgx games: this project's pools against pgx's own vmapped, jitted batch.

    python3 -P benchmark/pgx_bench.py                      # Go9x9, Chess, Play2048; N = 1 8 64 256
    python3 -P benchmark/pgx_bench.py --task Play2048-v1 --num-envs 1 8 --seconds 0.2 --repeats 1

Backends, each at every N (`--num-envs`), random legal moves:

- `pgx_vmap`: pgx 2.6.0's batch on JAX's CPU backend,
  `jax.jit(jax.vmap(auto_reset(env.step, env.init)))` over N games (pgx's
  `pgx.experimental.auto_reset`: a game that has ended starts the next, as a
  pool's autoreset). Its compile time (the first call of `init` and of `step`
  at that N, less a compiled call) is excluded from the rate and reported
  apart.
- `pgx_loop`: a Python for-loop over N pgx games, one call of the jitted
  single-game `jax.jit(auto_reset(env.step, env.init))` per game per step
  (compiled once per game kind, before timing).
- `envpool_sync`: this project, `batch_size = num_envs`, `step`.
- `envpool_async`: this project, `batch_size = max(1, num_envs // 2)`,
  `recv`/`send`.
- `envpool127_sync`, `envpool127_async`: the same with the published EnvPool
  1.2.7, run by this file in benchmark/.venv-envpool127 (`--envpool127-python`;
  Python 3.12, made by `make benchmark/.venv-envpool127/bin/python`): one
  process per repeat and N (`--worker`), its two backends one slot of the
  repeat's rotation. Its pgx ids take one action per env (the current
  player's) and give the legal-action mask per env, as this project's.

Only the step is timed: for pgx the compiled step of the N games (until its
result is ready), for the pools `step` or `recv` + `send`. The moves are
drawn outside the timed part from the legal-action mask the last step gave
(pgx: `pgx.experimental.act_randomly`, jitted; the pools: numpy), so the
rates compare the games' step, not the two ways of drawing moves. Each
repeat runs for `--seconds` of wall time; the rate is the env steps (N per
pgx or sync step, batch_size per async recv) over the time spent in the
timed part; the table holds the median of `--repeats`, backends interleaved
within each repeat so that drift of the machine's load spreads over all of
them. It writes benchmark/results/pgx/<task>.md.
"""

from __future__ import annotations

import argparse
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # -P keeps this folder off sys.path

from worker import random_legal  # noqa: E402

TASKS = ("Go9x9-v1", "Chess-v1", "Play2048-v1")
# This project's id -> pgx's env id.
PGX_IDS = {"Go9x9-v1": "go_9x9", "Chess-v1": "chess", "Play2048-v1": "2048"}
BACKENDS = (
    "pgx_vmap",
    "pgx_loop",
    "envpool_sync",
    "envpool_async",
    "envpool127_sync",
    "envpool127_async",
)
PUBLISHED = ("envpool127_sync", "envpool127_async")
"""Backends of EnvPool 1.2.7, measured by `--worker` in its own virtual environment."""
ENVPOOL127_PYTHON = HERE / ".venv-envpool127" / "bin" / "python"
DESCRIPTIONS = {
    "pgx_vmap": "pgx's `jax.jit(jax.vmap(auto_reset(env.step, env.init)))` over N games, "
    "JAX on the CPU; compile time excluded (below)",
    "pgx_loop": "a Python for-loop over N pgx games, one jitted single-game "
    "`auto_reset(env.step, env.init)` call per game per step",
    "envpool_sync": "this project, `batch_size = num_envs`, `step`",
    "envpool_async": "this project, `batch_size = max(1, num_envs // 2)`, `recv`/`send`",
    "envpool127_sync": "EnvPool 1.2.7 (its Python 3.12 venv), `batch_size = num_envs`, `step`",
    "envpool127_async": "EnvPool 1.2.7 (its Python 3.12 venv), "
    "`batch_size = max(1, num_envs // 2)`, `recv`/`send`",
}


class Runner:
    """One backend at one N: `run(seconds)` returns (env steps, seconds timed)."""

    def run(self, seconds: float) -> tuple[int, float]:
        raise NotImplementedError

    def close(self) -> None:
        pass


class PgxRunner(Runner):
    def __init__(self, task: str, num_envs: int, seed: int = 0) -> None:
        import jax
        import pgx
        from pgx.experimental import act_randomly, auto_reset

        self.jax = jax
        env = pgx.make(PGX_IDS[task])
        init = jax.jit(jax.vmap(env.init))
        self.step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))

        def choose(key: Any, mask: Any) -> tuple[Any, Any, Any]:
            key, act_key, step_key = jax.random.split(key, 3)
            action = act_randomly(act_key, mask)
            return key, action, jax.random.split(step_key, num_envs)

        self.choose = jax.jit(choose)
        self.num_envs = num_envs
        key = jax.random.PRNGKey(seed)
        keys = jax.random.split(key, num_envs)
        start = time.perf_counter()
        self.state = jax.block_until_ready(init(keys))
        init_first = time.perf_counter() - start
        start = time.perf_counter()
        jax.block_until_ready(init(keys))
        init_compiled = time.perf_counter() - start
        self.key, action, step_keys = jax.block_until_ready(
            self.choose(key, self.state.legal_action_mask)
        )
        start = time.perf_counter()
        self.state = jax.block_until_ready(self.step(self.state, action, step_keys))
        step_first = time.perf_counter() - start
        self.key, action, step_keys = jax.block_until_ready(
            self.choose(self.key, self.state.legal_action_mask)
        )
        start = time.perf_counter()
        self.state = jax.block_until_ready(self.step(self.state, action, step_keys))
        step_compiled = time.perf_counter() - start
        # The first call's time less a compiled call's: JAX's tracing and XLA's compile.
        self.compile_seconds = {
            "init": max(0.0, init_first - init_compiled),
            "step": max(0.0, step_first - step_compiled),
        }

    def run(self, seconds: float) -> tuple[int, float]:
        jax, timed, steps = self.jax, 0.0, 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            self.key, action, step_keys = jax.block_until_ready(
                self.choose(self.key, self.state.legal_action_mask)
            )
            start = time.perf_counter()
            self.state = jax.block_until_ready(self.step(self.state, action, step_keys))
            timed += time.perf_counter() - start
            steps += self.num_envs
        return steps, timed


@functools.cache
def pgx_single_game(task: str) -> tuple[Any, Any]:
    """pgx's jitted `init` and auto-resetting `step` of ONE game, compiled once per task."""
    import jax
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make(PGX_IDS[task])
    return jax.jit(env.init), jax.jit(auto_reset(env.step, env.init))


class PgxLoopRunner(Runner):
    """N pgx games stepped one by one in a Python loop, as a user without vmap would."""

    def __init__(self, task: str, num_envs: int, seed: int = 0) -> None:
        import jax

        self.jax = jax
        self.init, self.step = pgx_single_game(task)
        self.key = jax.random.PRNGKey(seed)
        self.key, *keys = jax.random.split(self.key, num_envs + 1)
        self.states = jax.block_until_ready([self.init(k) for k in keys])
        self.rng = np.random.default_rng(seed)
        self.num_envs = num_envs

    def run(self, seconds: float) -> tuple[int, float]:
        jax, timed, steps = self.jax, 0.0, 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            # Moves and keys outside the timed part, as for the other backends.
            masks = np.stack([np.asarray(state.legal_action_mask) for state in self.states])
            actions = random_legal(masks, self.rng).astype(np.int32)
            self.key, *keys = jax.random.split(self.key, self.num_envs + 1)
            start = time.perf_counter()
            self.states = jax.block_until_ready(
                [
                    self.step(state, action, key)
                    for state, action, key in zip(self.states, actions, keys, strict=True)
                ]
            )
            timed += time.perf_counter() - start
            steps += self.num_envs
        return steps, timed


class EnvpoolSyncRunner(Runner):
    def __init__(self, task: str, num_envs: int, seed: int = 0) -> None:
        import envpool

        self.env = envpool.make(
            task, env_type="gymnasium", num_envs=num_envs, batch_size=num_envs, seed=seed
        )
        self.rng = np.random.default_rng(seed)
        _, self.info = self.env.reset()

    def run(self, seconds: float) -> tuple[int, float]:
        timed, steps = 0.0, 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            actions = np.empty(len(self.info["env_id"]), np.int64)
            actions[self.info["env_id"]] = random_legal(self.info["legal_action_mask"], self.rng)
            start = time.perf_counter()
            *_, self.info = self.env.step(actions)
            timed += time.perf_counter() - start
            steps += len(actions)
        return steps, timed

    def close(self) -> None:
        self.env.close()


class EnvpoolAsyncRunner(Runner):
    def __init__(self, task: str, num_envs: int, seed: int = 0) -> None:
        import envpool

        batch_size = max(1, num_envs // 2)
        self.env = envpool.make(
            task, env_type="gymnasium", num_envs=num_envs, batch_size=batch_size, seed=seed
        )
        self.rng = np.random.default_rng(seed)
        self.env.async_reset()
        *_, self.info = self.env.recv()

    def run(self, seconds: float) -> tuple[int, float]:
        timed, steps = 0.0, 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            env_id = self.info["env_id"]
            actions = random_legal(self.info["legal_action_mask"], self.rng)
            start = time.perf_counter()
            self.env.send(actions, env_id)
            *_, self.info = self.env.recv()
            timed += time.perf_counter() - start
            steps += len(env_id)
        return steps, timed

    def close(self) -> None:
        self.env.close()


class PublishedRunner(Runner):
    """EnvPool 1.2.7's backends at one N: each `run` is one `--worker` process in its venv.

    One process per repeat (both backends, in turn, after 0.2 s of warm-up
    each), so they take their slot in the repeat's rotation; a process that
    fails is reported as FAILED with its last error line, and not run again.
    """

    def __init__(self, task: str, num_envs: int, backends: list[str], python: str) -> None:
        self.task, self.num_envs, self.backends, self.python = task, num_envs, backends, python
        self.rates: dict[str, list[float]] = {name: [] for name in backends}
        self.failure: str | None = None

    def run_repeat(self, seconds: float) -> None:
        if self.failure is not None:
            return
        cmd = [
            self.python,
            "-P",
            str(Path(__file__).resolve()),
            "--worker",
            "--task",
            self.task,
            "--num-envs",
            str(self.num_envs),
            "--seconds",
            str(seconds),
            "--backends",
            *(name.replace("envpool127", "envpool") for name in self.backends),
        ]
        proc = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            timeout=300 + 4 * seconds,
            check=False,
            cwd=tempfile.gettempdir(),
        )
        if proc.returncode != 0:
            lines = [line for line in proc.stderr.splitlines() if line.strip()]
            self.failure = lines[-1] if lines else f"exited {proc.returncode}"
            print(f"{self.task} N={self.num_envs} EnvPool 1.2.7 FAILED:\n{proc.stderr[-3000:]}")
            return
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        for name in self.backends:
            self.rates[name].append(result[name.replace("envpool127", "envpool")][0])


RUNNERS: dict[str, Callable[[str, int], Runner]] = {
    "pgx_vmap": PgxRunner,
    "pgx_loop": PgxLoopRunner,
    "envpool_sync": EnvpoolSyncRunner,
    "envpool_async": EnvpoolAsyncRunner,
}


def measure(
    task: str,
    num_envs: int,
    backends: list[str],
    repeats: int,
    seconds: float,
    envpool127_python: str = str(ENVPOOL127_PYTHON),
) -> tuple[dict[str, list[float]], dict[str, float], dict[str, str]]:
    """Steps/s of every repeat per backend at one N, pgx's compile seconds, and failures.

    The backends of this process are made first and warmed up; EnvPool
    1.2.7's two, if asked, are one slot of each repeat's rotation, one
    `--worker` process each time.
    """
    local = [name for name in backends if name not in PUBLISHED]
    published = [name for name in backends if name in PUBLISHED]
    slots = local + (["envpool127"] if published else [])
    runners = {name: RUNNERS[name](task, num_envs) for name in local}
    outside = PublishedRunner(task, num_envs, published, envpool127_python)
    try:
        for runner in runners.values():  # warm-up
            runner.run(min(0.2, seconds))
        rates: dict[str, list[float]] = {name: [] for name in local}
        for r in range(repeats):
            order = slots[r % len(slots) :] + slots[: r % len(slots)]
            for name in order:
                if name == "envpool127":
                    outside.run_repeat(seconds)
                    continue
                steps, timed = runners[name].run(seconds)
                rates[name].append(steps / timed if timed > 0 else float("nan"))
        compile_seconds = getattr(runners.get("pgx_vmap"), "compile_seconds", {})
        failures = dict.fromkeys(published, outside.failure) if outside.failure else {}
        rates.update({name: outside.rates[name] for name in published if outside.rates[name]})
        return rates, compile_seconds, failures
    finally:
        for runner in runners.values():
            runner.close()


def worker(args: argparse.Namespace) -> None:
    """`--worker`: one repeat of this process's envpool backends (whichever `envpool`
    it imports), after a warm-up, printed as JSON {backend: [steps/s]}."""
    rates: dict[str, list[float]] = {}
    for name in args.backends:
        runner = RUNNERS[name](args.task[0], args.num_envs[0])
        try:
            runner.run(min(0.2, args.seconds))
            steps, timed = runner.run(args.seconds)
            rates[name] = [steps / timed if timed > 0 else float("nan")]
        finally:
            runner.close()
    print(json.dumps(rates))


def versions() -> str:
    import jax
    import pgx

    import envpool

    return (
        f"pgx {pgx.__version__}, jax {jax.__version__} ({jax.default_backend()}), "
        f"this envpool {envpool.__version__}, Python {platform.python_version()}"
    )


def report(
    task: str,
    ns: list[int],
    backends: list[str],
    rates: dict[int, dict[str, list[float]]],
    compile_seconds: dict[int, dict[str, float]],
    failures: dict[int, dict[str, str]],
    args: argparse.Namespace,
    notes: list[str],
) -> str:
    medians = {
        n: {b: statistics.median(rates[n][b]) for b in backends if rates[n].get(b)} for n in ns
    }
    base = "pgx_vmap" if "pgx_vmap" in backends else None
    head = "| backend | " + " | ".join(f"N={n}" for n in ns) + " |"
    rule = "|---|" + "---:|" * len(ns)

    def cell(n: int, b: str) -> str:
        if b not in medians[n]:
            return "failed" if b in failures[n] else "-"
        v = medians[n][b]
        return f"{v:,.0f}" + (f" ({v / medians[n][base]:.3g}x)" if medians[n].get(base) else "")

    def spread(n: int, b: str) -> str:
        if b not in medians[n]:
            return "-"
        return f"{(max(rates[n][b]) - min(rates[n][b])) / medians[n][b]:.0%}"

    command = "python3 -P benchmark/pgx_bench.py " + shlex.join(sys.argv[1:])
    lines = [
        f"# Benchmark: {task} (pgx)",
        "",
        f"Env steps per second, median of {args.repeats} repeats of {args.seconds:g} s each "
        "(after 0.2 s of warm-up), random legal moves drawn outside the timed step"
        + ("; in brackets the ratio to `pgx_vmap`" if base else "")
        + ". N is `num_envs`; envpool threads: the library's default.",
        "",
        head,
        rule,
        *(f"| {b} | " + " | ".join(cell(n, b) for n in ns) + " |" for b in backends),
        "",
        *(f"- `{b}`: {DESCRIPTIONS[b]}" for b in backends),
        "",
    ]
    if "pgx_loop" in backends and args.loop_max_n is not None:
        lines += [
            f"`pgx_loop` ran up to N={args.loop_max_n} only (`--loop-max-n`): one jitted call "
            "per game per step, its rate no longer grows with N.",
            "",
        ]
    if base:
        lines += [
            "pgx's compile time (seconds; the first call at that N less a compiled one):",
            "",
            "| | " + " | ".join(f"N={n}" for n in ns) + " |",
            "|---|" + "---:|" * len(ns),
            *(
                f"| `{what}` | " + " | ".join(f"{compile_seconds[n][what]:.2f}" for n in ns) + " |"
                for what in ("init", "step")
            ),
            "",
        ]
    lines += [
        "Spread of the repeats, (max - min) / median:",
        "",
        head,
        rule,
        *(f"| {b} | " + " | ".join(spread(n, b) for n in ns) + " |" for b in backends),
        "",
        f"Command: `{command}` ({datetime.date.today().isoformat()}; {versions()}; "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores seen).",
        "",
        *(f"- {note}" for note in notes),
        *(
            f"- FAILED {b} N={n}: " + error.replace("`", "'")
            for n in ns
            for b, error in failures[n].items()
        ),
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", nargs="+", default=list(TASKS), choices=TASKS)
    parser.add_argument("--num-envs", type=int, nargs="+", default=[1, 8, 64, 256])
    parser.add_argument("--backends", nargs="+", default=list(BACKENDS), choices=BACKENDS)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument(
        "--loop-max-n",
        type=int,
        help="largest N `pgx_loop` runs at (one jitted call per game per step); default: all",
    )
    parser.add_argument(
        "--envpool127-python",
        default=str(ENVPOOL127_PYTHON),
        help="python of the virtual environment holding EnvPool 1.2.7",
    )
    parser.add_argument(
        "--note", action="append", default=[], help="a line for the results file (e.g. the load)"
    )
    parser.add_argument(
        "--worker",
        action="store_true",
        help="internal: one repeat of the envpool backends of the `envpool` this python "
        "imports, at the first --task and --num-envs, printed as JSON",
    )
    parser.add_argument("--out-dir", type=Path, default=HERE / "results" / "pgx")
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    notes = list(args.note)
    if any(b in PUBLISHED for b in args.backends) and not Path(args.envpool127_python).exists():
        notes.append(f"skipped {', '.join(PUBLISHED)}: no {args.envpool127_python}")
        args.backends = [b for b in args.backends if b not in PUBLISHED]
    args.envpool127_python = os.path.abspath(args.envpool127_python)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for task in args.task:
        rates, compile_seconds, failures = {}, {}, {}
        load_before, start = os.getloadavg(), time.perf_counter()
        for n in args.num_envs:
            backends = [
                b
                for b in args.backends
                if b != "pgx_loop" or args.loop_max_n is None or n <= args.loop_max_n
            ]
            rates[n], compile_seconds[n], failures[n] = measure(
                task, n, backends, args.repeats, args.seconds, args.envpool127_python
            )
            print(task, n, {b: f"{statistics.median(v):,.0f}" for b, v in rates[n].items()})
        load = os.getloadavg()
        run_notes = [
            *notes,
            f"load average (1 min) {load_before[0]:.2f} before, {load[0]:.2f} after; "
            f"the run took {time.perf_counter() - start:.0f} s",
        ]
        text = report(
            task, args.num_envs, args.backends, rates, compile_seconds, failures, args, run_notes
        )
        (args.out_dir / f"{task}.md").write_text(text)
        print(text)


if __name__ == "__main__":
    main()
