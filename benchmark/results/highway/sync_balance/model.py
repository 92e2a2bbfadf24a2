"""A sync batch's idle time on 2 threads, fed with measured step times.

    python3 model.py step_times.npz

Replays `step_times.py`'s per-env step costs (env i's t-th step is row i,
column t; batch t steps column t of envs 0..N-1) through the scheduler's
sync rules (docs/scheduler.md, "Homes"): the envs dealt out in runs of
consecutive ids to the two threads (the worker: the first half; the caller:
the second); each thread steps its own queue from the front, one env at a
time (a step costs far more than `kChunkNs`); a thread with nothing of its
own takes the newest task of the other queue, and that env's home moves to
it. Both threads start when the batch is sent, and the batch ends when the
last env is done: until then a thread that has finished idles (it polls).
Work outside the envs (the send, the caller's Python) is left out.

Prints, for N = 8 and 64, the threads' idle share (1 - work / (2 x span))
and idle microseconds per batch, under the order the scheduler uses and
under others:

- `homes, id order`: as now;
- `homes, last-longest`: each home queue ordered by the env's last step
  cost, longest first (the newest, which the other thread takes, is then a
  cheap one);
- `homes, true-longest`: the same, ordered by the step's true cost;
- `one queue, id order` / `last-longest` / `true-longest`: one order for
  both threads, each taking the next env when it is free (list scheduling);
  true-longest is the LPT rule, a near-best bound.
"""

from __future__ import annotations

import sys

import numpy as np


def homes_span(costs: np.ndarray, home: list[int], key: np.ndarray) -> tuple[float, list[float]]:
    """A batch under the home queues; `home` updated in place. (span, busy per thread)"""
    queues: list[list[int]] = [[], []]
    for env in range(len(costs)):
        queues[home[env]].append(env)
    for q in queues:
        q.sort(key=lambda e: -key[e])  # stable: equal keys keep id order
    busy = [0.0, 0.0]
    while queues[0] or queues[1]:
        t = 0 if busy[0] <= busy[1] else 1
        if queues[t]:
            env = queues[t].pop(0)
        else:
            env = queues[1 - t].pop()
            home[env] = t
        busy[t] += costs[env]
    return max(busy), busy


def one_queue_span(costs: np.ndarray, key: np.ndarray) -> tuple[float, list[float]]:
    """A batch taken from one queue ordered by `key`, longest first."""
    busy = [0.0, 0.0]
    for env in np.argsort(-key, kind="stable"):
        t = 0 if busy[0] <= busy[1] else 1
        busy[t] += costs[env]
    return max(busy), busy


def replay(ns: np.ndarray, num_envs: int, rule: str, order: str) -> dict[str, float]:
    """Idle share and idle us per batch (both threads, and each) over the columns."""
    envs = ns[:num_envs]
    home = [0 if e < num_envs // 2 else 1 for e in range(num_envs)]
    work = span_sum = 0.0
    idle = [0.0, 0.0]
    for t in range(1, envs.shape[1]):
        costs = envs[:, t]
        key = {"id": np.zeros(num_envs), "last": envs[:, t - 1], "true": costs}[order]
        if rule == "homes":
            span, busy = homes_span(costs, home, key)
        else:
            span, busy = one_queue_span(costs, key)
        work += costs.sum()
        span_sum += span
        idle = [idle[k] + span - busy[k] for k in range(2)]
    batches = envs.shape[1] - 1
    return {
        "share": 1 - work / (2 * span_sum),
        "us": (2 * span_sum - work) / batches / 1e3,
        "worker_us": idle[0] / batches / 1e3,
        "caller_us": idle[1] / batches / 1e3,
        "span_us": span_sum / batches / 1e3,
    }


def main() -> None:
    """Print the idle shares for N = 8 and 64 under each order."""
    data = np.load(sys.argv[1] if len(sys.argv) > 1 else "step_times.npz")
    ns = data["ns"].astype(float)
    print(f"{ns.shape[0]} envs x {ns.shape[1]} steps, mean step {ns.mean() / 1e3:.1f} us")
    for num_envs in (8, 64):
        if num_envs > ns.shape[0]:
            continue
        for rule in ("homes", "one queue"):
            for order in ("id", "last", "true"):
                r = replay(ns, num_envs, rule, order)
                name = f"{rule}, {order if order == 'id' else order + '-longest'}"
                print(
                    f"N={num_envs} {name:>24}: idle {100 * r['share']:4.1f}% of the threads' "
                    f"time, {r['us']:4.0f} us a batch of {r['span_us']:.0f} us "
                    f"(worker {r['worker_us']:.0f}, caller {r['caller_us']:.0f})"
                )


if __name__ == "__main__":
    main()
