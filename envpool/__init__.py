"""envpool: many RL environments stepped in C++ threads, batched for Python.

    import envpool
    env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=8)
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step(actions)

Importing envpool loads no env family, nor gymnasium: each family's native
module loads on the first `make` of one of its ids.
`gymnasium.make_vec("envpool/<id>", ...)` and `gymnasium.make("envpool/<id>")`
work too, whichever of envpool and gymnasium is imported first (see
envpool.python.gymnasium_registration).
"""

from typing import Any

from envpool.python import gymnasium_registration
from envpool.python.api import make, make_dm, make_gym, make_gymnasium, make_spec
from envpool.python.gymnasium_registration import register_gymnasium_envs
from envpool.python.pool import PoolBase as EnvPool
from envpool.python.registry import list_all_envs, register
from envpool.python.spec import EnvSpec

__version__ = "0.1.0"

# EnvPool's order: the spec and pool types first.
__all__ = [  # noqa: RUF022
    "EnvSpec",
    "EnvPool",
    "DMEnvPool",
    "GymnasiumEnvPool",
    "GymEnvPool",
    "list_all_envs",
    "make",
    "make_dm",
    "make_gym",
    "make_gymnasium",
    "make_spec",
    "register",
    "register_gymnasium_envs",
    "get_include",
    "get_library_dir",
]


def get_include() -> str:
    """The include folder for env packages built outside envpool (docs/custom_envs.md)."""
    from envpool.extension import get_include as include

    return include()


def get_library_dir() -> str:
    """The folder of libenvpool_core.so, which such an env package links."""
    from envpool.extension import get_library_dir as library_dir

    return library_dir()


def __getattr__(name: str) -> Any:
    # The API classes import gymnasium or dm_env: load them on first use only.
    if name in ("GymnasiumEnvPool", "GymEnvPool", "DMEnvPool"):
        from envpool.python import protocol

        return getattr(protocol, name)
    raise AttributeError(f"module 'envpool' has no attribute {name!r}")


# Make the ids known to gymnasium now if it is loaded (it is when gymnasium
# imports envpool for `make_vec("envpool:envpool/<id>")`), else right after
# gymnasium's own import.
gymnasium_registration.install()
