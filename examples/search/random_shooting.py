"""Model-predictive control with the real simulator: random shooting over
envpool snapshots.

At every step of a "real" env, the planner copies that env's state into the
`candidates` envs of a second pool (`set_state`), plays a random action
sequence of `horizon` steps in each copy, and takes the first action of the
copy that collected the most reward. The copies are exact (docs/snapshots.md):
what the planner sees in a copy is what the real env would do.

    python examples/search/random_shooting.py --task HalfCheetah-v5
    python examples/search/random_shooting.py --task Breakout-v5 --steps 1000

prints the planner's return and a random policy's over the same number of
steps of the same seed.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import gymnasium as gym
import numpy as np

import envpool


@dataclass
class Result:
    """What one run collected."""

    total_reward: float
    episodes_ended: int
    env_steps: int  # real steps plus the planner's simulated ones
    seconds: float


def _random_actions(space: gym.Space, n: int, rng: np.random.Generator) -> np.ndarray:
    if isinstance(space, gym.spaces.Discrete):
        return rng.integers(space.start, space.start + space.n, size=n, dtype=np.int64)
    if isinstance(space, gym.spaces.Box):
        low = np.broadcast_to(space.low, (n, *space.shape))
        high = np.broadcast_to(space.high, (n, *space.shape))
        return rng.uniform(low, high).astype(space.dtype)
    raise NotImplementedError(f"random actions of {space}")


def plan_and_act(
    task: str,
    steps: int,
    candidates: int = 16,
    horizon: int = 20,
    discount: float = 0.99,
    seed: int = 0,
    **options: object,
) -> Result:
    """Run `steps` steps of one env of `task`, each chosen by random shooting."""
    real = envpool.make(task, env_type="gymnasium", num_envs=1, seed=seed, **options)
    # The copies' own seed does not matter: set_state replaces every stream.
    plan = envpool.make(task, env_type="gymnasium", num_envs=candidates, seed=seed, **options)
    rng = np.random.default_rng(seed)
    space = real.action_space
    real.reset()
    plan.reset()
    total, ended, simulated = 0.0, 0, 0
    start = time.perf_counter()
    for _ in range(steps):
        plan.set_state(real.get_state() * candidates)
        first = _random_actions(space, candidates, rng)
        returns = np.zeros(candidates)
        alive = np.ones(candidates, dtype=bool)
        action = first
        for h in range(horizon):
            _, reward, terminated, truncated, _ = plan.step(action)
            returns += np.where(alive, reward, 0.0) * discount**h
            alive &= ~(terminated | truncated)
            action = _random_actions(space, candidates, rng)
        simulated += candidates * horizon
        best = int(np.argmax(returns))
        _, reward, terminated, truncated, _ = real.step(first[best : best + 1])
        total += float(reward[0])
        ended += int(terminated[0] or truncated[0])
    real.close()
    plan.close()
    return Result(total, ended, steps + simulated, time.perf_counter() - start)


def act_randomly(task: str, steps: int, seed: int = 0, **options: object) -> Result:
    """Run `steps` steps of one env of `task` with uniformly random actions."""
    real = envpool.make(task, env_type="gymnasium", num_envs=1, seed=seed, **options)
    rng = np.random.default_rng(seed)
    real.reset()
    total, ended = 0.0, 0
    start = time.perf_counter()
    for _ in range(steps):
        _, reward, terminated, truncated, _ = real.step(_random_actions(real.action_space, 1, rng))
        total += float(reward[0])
        ended += int(terminated[0] or truncated[0])
    real.close()
    return Result(total, ended, steps, time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", default="HalfCheetah-v5")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--candidates", type=int, default=16)
    parser.add_argument("--horizon", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    planned = plan_and_act(args.task, args.steps, args.candidates, args.horizon, seed=args.seed)
    random = act_randomly(args.task, args.steps, seed=args.seed)
    for name, result in (("random shooting", planned), ("random policy", random)):
        print(
            f"{args.task} {name}: return {result.total_reward:.1f} over {args.steps} steps "
            f"({result.episodes_ended} episodes ended; {result.env_steps} env steps "
            f"in {result.seconds:.1f} s)"
        )


if __name__ == "__main__":
    main()
