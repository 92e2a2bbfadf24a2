"""A short demo of envpool: CartPole-v1 pools stepped with random actions.

    python3 -P benchmark/demo.py            (what `make demo` runs, ~10 s)
    python3 -P benchmark/demo.py --seconds 2

First a sync pool (num_envs 8, every env stepped each call), then an async
one (num_envs 16, batch_size 8: each `recv` returns the first 8 envs to
finish, and `send` steps exactly those). For each it shows a progress bar
and prints the episodes finished, their mean return and the env steps/s.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field

import numpy as np
from tqdm import tqdm

import envpool


@dataclass
class Episodes:
    """Running returns per env and the returns of finished episodes."""

    running: np.ndarray
    finished: list[float] = field(default_factory=list)

    def add(self, env_id: np.ndarray, reward: np.ndarray, done: np.ndarray) -> None:
        """Add one batch's rewards to envs `env_id`, closing the episodes that are `done`."""
        self.running[env_id] += reward
        ended = env_id[done]
        self.finished.extend(self.running[ended].tolist())
        self.running[ended] = 0.0

    @property
    def mean_return(self) -> float:
        """Mean return of the finished episodes (nan before any)."""
        return float(np.mean(self.finished)) if self.finished else float("nan")


def run(title: str, num_envs: int, batch_size: int, seconds: float, seed: int) -> None:
    """Step one pool with random actions for `seconds` s behind a progress bar; print a summary."""
    env = envpool.make(
        "CartPole-v1",
        env_type="gymnasium",
        num_envs=num_envs,
        batch_size=batch_size,
        seed=seed,
    )
    # Random actions drawn up front, so the steps/s shown is mostly envpool's.
    rng = np.random.default_rng(seed)
    actions = rng.integers(int(env.single_action_space.n), size=(8192, num_envs))
    episodes = Episodes(np.zeros(num_envs))
    is_async = batch_size < num_envs
    print(f"{title}: {env!r}, batch_size={batch_size}, action space {env.single_action_space}")
    if is_async:
        env.async_reset()
    else:
        env.reset()
    steps = batches = 0
    bar = tqdm(
        total=round(seconds, 1),
        unit="s",
        bar_format="  {l_bar}{bar}| {n:.1f}/{total:.1f} s{postfix}",
        leave=True,
    )
    start = last = time.perf_counter()
    now = start
    while now - start < seconds:
        # A few hundred batches between clock reads and bar updates.
        for _ in range(256):
            row = actions[batches % len(actions)]
            batches += 1
            if is_async:
                _, reward, terminated, truncated, info = env.recv()
                env_id = info["env_id"]
                env.send(row[: len(env_id)], env_id)
            else:
                _, reward, terminated, truncated, info = env.step(row)
                env_id = info["env_id"]
            episodes.add(env_id, reward, terminated | truncated)
            steps += len(env_id)
        now = time.perf_counter()
        if now - last >= 0.1 or now - start >= seconds:
            bar.set_postfix_str(
                f"{steps:,} steps, {len(episodes.finished):,} episodes, "
                f"{steps / (now - start):,.0f} steps/s",
                refresh=False,
            )
            bar.update(min(now - start, seconds) - bar.n)
            last = now
    bar.close()
    elapsed = now - start
    env.close()
    print(f"  {steps:,} env steps in {elapsed:.2f} s: {steps / elapsed:,.0f} steps/s")
    print(
        f"  {len(episodes.finished):,} episodes finished, mean return "
        f"{episodes.mean_return:.1f} (a random policy averages about 22)\n"
    )


def main() -> None:
    """Run the sync demo, then the async one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="length of each part")
    args = parser.parse_args()
    print(f"envpool {envpool.__version__} from {envpool.__file__}\n")
    run("sync", num_envs=8, batch_size=8, seconds=args.seconds, seed=0)
    run("async", num_envs=16, batch_size=8, seconds=args.seconds, seed=1)


if __name__ == "__main__":
    main()
