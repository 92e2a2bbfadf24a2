"""An ACME-style `EnvironmentLoop` over `env_type="dm"` pools.

dm-acme 0.4.0 does not install on Python 3.11 (it needs dm-launchpad), and
on 3.10 it imports only beside tensorflow (docs/integrations/acme.md; acme's
own loop runs in benchmark/acme_loop.py, `make bench-acme`), so
this is acme's `EnvironmentLoop.run_episode` logic written out: reset, the
actor's `observe_first`, then `select_action` / `step` / `observe` until
`timestep.last()`, accumulating the return and the discount product. A pool
of one env is exactly acme's single environment (`timestep.last()` of a
one-element batch is a one-element bool array).
"""

from __future__ import annotations

import dm_env
import numpy as np

import envpool


class RecordingActor:
    """acme.core.Actor's interface: observe_first, select_action, observe, update."""

    def __init__(self, num_actions: int, seed: int = 0):
        self.rng = np.random.default_rng(seed)
        self.num_actions = num_actions
        self.first, self.observed, self.updates = [], [], 0

    def observe_first(self, timestep):
        self.first.append(timestep)

    def select_action(self, observation):
        return self.rng.integers(0, self.num_actions, size=observation.obs.shape[:1])

    def observe(self, action, next_timestep):
        self.observed.append((action, next_timestep))

    def update(self):
        self.updates += 1


def run_episode(environment, actor):
    """acme.EnvironmentLoop.run_episode, minus the counters and loggers."""
    timestep = environment.reset()
    actor.observe_first(timestep)
    episode_return, episode_discount, episode_steps = 0.0, 1.0, 0
    while not timestep.last():
        action = actor.select_action(timestep.observation)
        timestep = environment.step(action)
        actor.observe(action, next_timestep=timestep)
        actor.update()
        episode_steps += 1
        episode_return += float(timestep.reward[0])
        episode_discount *= float(timestep.discount[0])
    return {
        "episode_length": episode_steps,
        "episode_return": episode_return,
        "discount": episode_discount,
        "last": timestep,
    }


def test_environment_loop_runs_episodes_with_acmes_step_types_and_discounts():
    env = envpool.make_dm("CartPole-v1", num_envs=1, seed=3)
    assert isinstance(env, dm_env.Environment)
    actor = RecordingActor(env.action_spec().num_values)
    results = [run_episode(env, actor) for _ in range(5)]
    for timestep in actor.first:
        assert timestep.first().all() and timestep.step_type[0] == dm_env.StepType.FIRST
    mids = [ts for _, ts in actor.observed if not ts.last().any()]
    assert mids and all(ts.step_type[0] == dm_env.StepType.MID for ts in mids)
    assert all(ts.discount[0] == 1.0 for ts in mids)
    for r in results:
        # a random CartPole policy falls over: termination, discount 0
        assert r["last"].step_type[0] == dm_env.StepType.LAST
        assert r["discount"] == 0.0
        assert r["episode_return"] == r["episode_length"]  # reward 1 per step
    assert actor.updates == sum(r["episode_length"] for r in results)
    assert np.mean([r["episode_length"] for r in results]) < 60


def test_truncation_ends_an_episode_with_discount_one():
    env = envpool.make_dm("CartPole-v1", num_envs=1, seed=0, max_episode_steps=5)
    actor = RecordingActor(2)
    actor.select_action = lambda obs: np.array([0 if obs.obs[0, 2] > 0 else 1])  # balance
    result = run_episode(env, actor)
    assert result["episode_length"] == 5
    assert result["last"].last().all() and result["discount"] == 1.0


def test_batched_loop_each_env_goes_first_mid_last_first():
    env = envpool.make_dm("CartPole-v1", num_envs=4, seed=1)
    timestep = env.reset()
    assert (timestep.step_type == dm_env.StepType.FIRST).all()
    previous = timestep.step_type.copy()
    seen_last = np.zeros(4, bool)
    for _ in range(200):
        timestep = env.step(np.ones(4, np.int64))
        step_type = timestep.step_type
        # after LAST an env's next step is its reset: FIRST, reward 0, discount 1
        after_last = previous == dm_env.StepType.LAST
        assert (step_type[after_last] == dm_env.StepType.FIRST).all()
        assert (timestep.reward[after_last] == 0).all()
        assert (step_type[previous == dm_env.StepType.FIRST] != dm_env.StepType.FIRST).all()
        last = step_type == dm_env.StepType.LAST
        assert (timestep.discount[last] == 0.0).all()  # pushing right terminates
        assert (timestep.discount[~last] == 1.0).all()
        seen_last |= last
        previous = step_type.copy()
    assert seen_last.all()
