"""A dm_env-style agent loop over envpool's batched `env_type="dm"`.

    python3 examples/dm_env_agent.py

The agent follows dm_env's protocol per env: a TimeStep is FIRST after a
reset, MID while an episode runs and LAST when it ends, with discount 0 on
termination and 1 on truncation (the value of the next state still counts).
Here a linear policy balances CartPole, and the loop accounts returns per
episode the way an ACME-style actor would.
"""

from __future__ import annotations

import dm_env
import numpy as np

import envpool


class LinearAgent:
    """Pushes the cart towards where the pole is falling."""

    def select_action(self, timestep: dm_env.TimeStep) -> np.ndarray:
        obs = timestep.observation.obs
        return (obs[:, 2] + 0.5 * obs[:, 3] > 0).astype(np.int64)


def main() -> None:
    env = envpool.make_dm("CartPole-v1", num_envs=4, seed=0)
    spec = env.action_spec()
    print(f"action spec: {spec}; observation spec: {env.observation_spec()}")
    agent = LinearAgent()
    timestep = env.reset()
    returns = np.zeros(env.num_envs)
    finished: list[float] = []
    while len(finished) < 20:
        timestep = env.step(agent.select_action(timestep))
        first = timestep.step_type == dm_env.StepType.FIRST
        returns[~first] += timestep.reward[~first]
        last = timestep.step_type == dm_env.StepType.LAST
        for i in np.flatnonzero(last):
            kind = "terminated" if timestep.discount[i] == 0 else "truncated"
            finished.append(returns[i])
            print(f"env {timestep.observation.env_id[i]}: return {returns[i]:.0f} ({kind})")
        returns[last] = 0.0
    print(f"mean return over {len(finished)} episodes: {np.mean(finished):.1f}")


if __name__ == "__main__":
    main()
