"""ACME's own `EnvironmentLoop` (dm-acme 0.4.0) on this project's dm type.

Runs in `benchmark/.venv-acme310` (`make acme-env`, Python 3.10): dm-acme
0.4.0 installs without extras, but `import acme` then fails (acme imports
launchpad, whose courier module links libtensorflow_framework.so.2, shipped
only by tensorflow), so that venv adds tensorflow 2.8.0, numpy < 2 and
protobuf < 3.20 (docs/integrations/acme.md). Not part of `make test`: that
venv weighs about 1.5 GB.

    make acme-env && benchmark/.venv-acme310/bin/python benchmark/acme_loop.py

- one env of a pool (`num_envs=1`), as acme's single environment: the loop's
  episodes, their returns and lengths, checked against the steps the actor saw;
- a batched pool (`num_envs=4`): acme's loop drives one timestep at a time and
  stops at `timestep.last()`, which for a batch means "every env's LAST at
  once"; what happens is written out below and in the JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import acme
import dm_env
import numpy as np
from acme import core
from acme.utils.loggers import NoOpLogger
from dm_env import specs

import envpool


class BatchedRewardSpecs(dm_env.Environment):
    """The pool's reward and discount specs with the batch's shape.

    The dm type's specs are one env's (shape `()`, as EnvPool's), while its
    TimeSteps are batched (`reward` of shape `(num_envs,)`). acme's loop
    starts the return from zeros of `reward_spec()` and adds each reward in
    place: `()` += `(1,)` fails ("non-broadcastable output operand"). With
    the batch's shape the return is an array of `num_envs` returns.
    (acme's own `acme.wrappers.EnvironmentWrapper` needs gym: `acme.wrappers`
    imports its gym adapters.)
    """

    def __init__(self, pool) -> None:
        self._environment = pool

    def reset(self) -> dm_env.TimeStep:
        return self._environment.reset()

    def step(self, action) -> dm_env.TimeStep:
        return self._environment.step(action)

    def observation_spec(self):
        return self._environment.observation_spec()

    def action_spec(self):
        return self._environment.action_spec()

    def reward_spec(self):
        one = self._environment.reward_spec()
        return specs.Array((self._environment.num_envs,), one.dtype, "reward")

    def discount_spec(self):
        one = self._environment.discount_spec()
        shape = (self._environment.num_envs,)
        return specs.BoundedArray(shape, one.dtype, 0.0, 1.0, "discount")


class RandomActor(core.Actor):
    """An acme Actor: uniform random actions, counting what it observes."""

    def __init__(self, num_actions: int, num_envs: int, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.num_actions = num_actions
        self.num_envs = num_envs
        self.first = 0
        self.observed = 0
        self.updates = 0

    def select_action(self, observation):
        return self.rng.integers(0, self.num_actions, self.num_envs, dtype=np.int32)

    def observe_first(self, timestep: dm_env.TimeStep) -> None:
        assert np.all(timestep.step_type == dm_env.StepType.FIRST), timestep.step_type
        self.first += 1

    def observe(self, action, next_timestep: dm_env.TimeStep) -> None:
        self.observed += 1

    def update(self, wait: bool = False) -> None:
        self.updates += 1


def single_env(task: str, episodes: int, seed: int) -> dict:
    pool = envpool.make_dm(task, num_envs=1, seed=seed)
    try:
        acme.EnvironmentLoop(pool, RandomActor(2, 1, seed), logger=NoOpLogger()).run_episode()
        bare = "runs"
    except ValueError as e:  # the reward spec's shape, see BatchedRewardSpecs
        bare = f"{type(e).__name__}: {e}"
    env = BatchedRewardSpecs(envpool.make_dm(task, num_envs=1, seed=seed))
    actor = RandomActor(env.action_spec().num_values, 1, seed)
    loop = acme.EnvironmentLoop(env, actor, logger=NoOpLogger())
    started = time.perf_counter()
    results = [loop.run_episode() for _ in range(episodes)]
    seconds = time.perf_counter() - started
    lengths = [int(r["episode_length"]) for r in results]
    returns = [float(np.asarray(r["episode_return"]).sum()) for r in results]
    assert actor.first == episodes
    assert actor.observed == actor.updates == sum(lengths)
    if task.startswith("CartPole"):
        assert returns == [float(n) for n in lengths], (returns, lengths)  # reward 1 a step
    return {
        "num_envs": 1,
        "bare_pool": bare,
        "episodes": episodes,
        "lengths": lengths,
        "returns": returns,
        "steps_per_second": sum(lengths) / seconds,
    }


def batched(task: str, seed: int) -> dict:
    """A pool of 4 in acme's loop: the loop ends when `last()` is true for all."""
    env = BatchedRewardSpecs(envpool.make_dm(task, num_envs=4, seed=seed))
    actor = RandomActor(env.action_spec().num_values, 4, seed)
    loop = acme.EnvironmentLoop(env, actor, logger=NoOpLogger())
    try:
        result = loop.run_episode()
    except Exception as e:  # what acme's loop makes of a batch
        return {"num_envs": 4, "error": f"{type(e).__name__}: {e}"}
    return {
        "num_envs": 4,
        "episode_length": int(result["episode_length"]),
        "episode_return": np.asarray(result["episode_return"]).tolist(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="CartPole-v1")
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    report = {
        "acme": "dm-acme 0.4.0",
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "task": args.task,
        "single": single_env(args.task, args.episodes, args.seed),
        "batched": batched(args.task, args.seed),
    }
    text = json.dumps(report, indent=1)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
