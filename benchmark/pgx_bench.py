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
- `envpool_sync`: this project, `batch_size = num_envs`, `step`.
- `envpool_async`: this project, `batch_size = max(1, num_envs // 2)`,
  `recv`/`send`.

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
import os
import platform
import shlex
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
TASKS = ("Go9x9-v1", "Chess-v1", "Play2048-v1")
# This project's id -> pgx's env id.
PGX_IDS = {"Go9x9-v1": "go_9x9", "Chess-v1": "chess", "Play2048-v1": "2048"}
BACKENDS = ("pgx_vmap", "envpool_sync", "envpool_async")
DESCRIPTIONS = {
    "pgx_vmap": "pgx's `jax.jit(jax.vmap(auto_reset(env.step, env.init)))` over N games, "
    "JAX on the CPU; compile time excluded (below)",
    "envpool_sync": "this project, `batch_size = num_envs`, `step`",
    "envpool_async": "this project, `batch_size = max(1, num_envs // 2)`, `recv`/`send`",
}


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly drawn legal action per row of `mask` (every row has one)."""
    counts = mask.sum(axis=1)
    legal = np.flatnonzero(mask)  # row by row, in order
    first = np.cumsum(counts) - counts
    pick = legal[first + rng.integers(0, 1 << 30, len(mask)) % counts]
    return pick - np.arange(len(mask)) * mask.shape[1]


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


class EnvpoolSyncRunner(Runner):
    def __init__(self, task: str, num_envs: int, seed: int = 0) -> None:
        import envpool

        self.env = envpool.make(task, num_envs=num_envs, batch_size=num_envs, seed=seed)
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
        self.env = envpool.make(task, num_envs=num_envs, batch_size=batch_size, seed=seed)
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


RUNNERS: dict[str, Callable[[str, int], Runner]] = {
    "pgx_vmap": PgxRunner,
    "envpool_sync": EnvpoolSyncRunner,
    "envpool_async": EnvpoolAsyncRunner,
}


def measure(
    task: str, num_envs: int, backends: list[str], repeats: int, seconds: float
) -> tuple[dict[str, list[float]], dict[str, float]]:
    """Steps/s of every repeat per backend at one N, and pgx's compile seconds."""
    runners = {name: RUNNERS[name](task, num_envs) for name in backends}
    try:
        for runner in runners.values():  # warm-up
            runner.run(min(0.2, seconds))
        rates: dict[str, list[float]] = {name: [] for name in backends}
        for r in range(repeats):
            order = backends[r % len(backends) :] + backends[: r % len(backends)]
            for name in order:
                steps, timed = runners[name].run(seconds)
                rates[name].append(steps / timed if timed > 0 else float("nan"))
        compile_seconds = getattr(runners.get("pgx_vmap"), "compile_seconds", {})
        return rates, compile_seconds
    finally:
        for runner in runners.values():
            runner.close()


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
    repeats: int,
    seconds: float,
) -> str:
    medians = {n: {b: statistics.median(rates[n][b]) for b in backends} for n in ns}
    base = "pgx_vmap" if "pgx_vmap" in backends else None
    head = "| backend | " + " | ".join(f"N={n}" for n in ns) + " |"
    rule = "|---|" + "---:|" * len(ns)

    def cell(n: int, b: str) -> str:
        v = medians[n][b]
        return f"{v:,.0f}" + (f" ({v / medians[n][base]:.3g}x)" if base else "")

    command = "python3 -P benchmark/pgx_bench.py " + shlex.join(sys.argv[1:])
    lines = [
        f"# Benchmark: {task} (pgx)",
        "",
        f"Env steps per second, median of {repeats} repeats of {seconds:g} s each "
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
        *(
            f"| {b} | "
            + " | ".join(f"{(max(rates[n][b]) - min(rates[n][b])) / medians[n][b]:.0%}" for n in ns)
            + " |"
            for b in backends
        ),
        "",
        f"Command: `{command}` ({datetime.date.today().isoformat()}; {versions()}; "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores seen, "
        f"load average {os.getloadavg()[0]:.1f} at the end).",
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
    parser.add_argument("--out-dir", type=Path, default=HERE / "results" / "pgx")
    args = parser.parse_args()
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for task in args.task:
        rates, compile_seconds = {}, {}
        for n in args.num_envs:
            rates[n], compile_seconds[n] = measure(
                task, n, args.backends, args.repeats, args.seconds
            )
            print(task, n, {b: f"{statistics.median(v):,.0f}" for b, v in rates[n].items()})
        text = report(
            task, args.num_envs, args.backends, rates, compile_seconds, args.repeats, args.seconds
        )
        (args.out_dir / f"{task}.md").write_text(text)
        print(text)


if __name__ == "__main__":
    main()
