"""A process that keeps one core busy, as a learner beside the env pool does.

    python3 -P benchmark/competitor.py busy      # a Python busy loop
    python3 -P benchmark/competitor.py learner   # a small torch MLP update, in a loop

`bench.py --contention busy|learner` runs one of these for the whole
measurement, so every backend meets the same competition. The learner is a
policy-gradient-sized update (a 2-layer MLP of 256 units on a batch of 1024
inputs of 128 features, Adam), one torch thread: it keeps one core busy
with the memory traffic of real training, not only the ALU of a spin. It
runs until killed, or for `--seconds` when given, and prints its update
rate when it ends by itself.
"""

from __future__ import annotations

import argparse
import time


def busy(until: float) -> int:
    """Spin in Python until the clock passes `until`; the spins done."""
    spins = 0
    while time.monotonic() < until:
        for _ in range(10_000):
            spins += 1
    return spins


def learner(until: float) -> int:
    """Adam updates of a small MLP until the clock passes `until`; the updates done."""
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(128, 256),
        torch.nn.Tanh(),
        torch.nn.Linear(256, 256),
        torch.nn.Tanh(),
        torch.nn.Linear(256, 18),
    )
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    inputs = torch.randn(1024, 128)
    targets = torch.randint(0, 18, (1024,))
    updates = 0
    while time.monotonic() < until:
        loss = torch.nn.functional.cross_entropy(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        updates += 1
    return updates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("busy", "learner"))
    parser.add_argument("--seconds", type=float, default=float("inf"))
    args = parser.parse_args()
    if args.kind == "learner":
        import torch  # noqa: F401  (imported before the clock starts)
    print("ready", flush=True)
    start = time.monotonic()
    done = (busy if args.kind == "busy" else learner)(start + args.seconds)
    elapsed = time.monotonic() - start
    print(f"{args.kind}: {done / elapsed:.1f} per second over {elapsed:.1f} s")


if __name__ == "__main__":
    main()
