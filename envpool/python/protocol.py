"""Types of the public API, under the names EnvPool's users import.

    from envpool.python.protocol import EnvPool, EnvSpec

`EnvSpec` is what `envpool.make_spec` returns; `EnvPool` is any pool
`envpool.make` returns (`GymnasiumEnvPool` for env_type "gymnasium" and
"gym", `DMEnvPool` for "dm"); `ArraySpec` describes one array of
`EnvSpec.action_array_spec` / `EnvSpec.state_array_spec`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from envpool.python.pool import PoolBase as EnvPool
from envpool.python.spec import ArraySpec, EnvSpec

if TYPE_CHECKING:
    from envpool.python.dm_api import DMEnvPool
    from envpool.python.gymnasium_api import GymEnvPool, GymnasiumEnvPool


def __getattr__(name: str) -> Any:
    # The API classes import gymnasium and dm_env; load them on first use.
    if name == "GymnasiumEnvPool":
        from envpool.python.gymnasium_api import GymnasiumEnvPool

        return GymnasiumEnvPool
    if name == "GymEnvPool":
        from envpool.python.gymnasium_api import GymEnvPool

        return GymEnvPool
    if name == "DMEnvPool":
        from envpool.python.dm_api import DMEnvPool

        return DMEnvPool
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ArraySpec", "DMEnvPool", "EnvPool", "EnvSpec", "GymEnvPool", "GymnasiumEnvPool"]
