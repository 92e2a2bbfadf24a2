"""envpool: many RL environments stepped in C++ threads, batched for Python.

    import envpool
    env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=8)
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step(actions)

Importing envpool loads no env family: each family's native module loads on
the first `make` of one of its ids.
"""

from envpool.python.registry import (
    list_all_envs,
    make,
    make_dm,
    make_gym,
    make_gymnasium,
    make_spec,
    register,
)

__version__ = "0.1.0"

__all__ = [
    "list_all_envs",
    "make",
    "make_dm",
    "make_gym",
    "make_gymnasium",
    "make_spec",
    "register",
]
