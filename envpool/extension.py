"""Building an env package outside envpool (docs/custom_envs.md).

A package's `setup.py` is one call:

    from setuptools import setup
    from envpool.extension import env_extension

    setup(ext_modules=[env_extension("my_env._my_env", ["my_env/my_env.cc"])])

`env_extension` is a setuptools `Extension` that compiles C++17 against the
headers this envpool ships (`envpool.get_include()`) and links its core
(`libenvpool_core.so` in `envpool.get_library_dir()`). The library it builds
is loaded by envpool itself (it is no Python module: no pybind11 needed), and
only by the envpool version it was built against.
"""

from __future__ import annotations

import glob
import os
from typing import Any

import envpool


def get_include() -> str:
    """The folder to add to the include path: `#include "envpool/core/plugin.h"`."""
    return os.path.join(os.path.dirname(envpool.__file__), "core", "include")


def get_library_dir() -> str:
    """The folder of `libenvpool_core.so`, which an env library links."""
    return os.path.join(os.path.dirname(envpool.__file__), "core")


def _stamp() -> str:
    """A file under build/ named by the digest of envpool's headers, made now
    when new: another envpool makes setuptools compile again, rather than keep
    a library in build/ made against the previous headers (which the core
    would refuse). The headers' own times do not tell: a wheel's files keep
    the times it was packed with."""
    with open(os.path.join(get_include(), "envpool", "core", "headers_digest.h")) as f:
        digest = f.read().split('"')[1]
    stamp = os.path.join("build", f"envpool-headers-{digest}.stamp")
    if not os.path.exists(stamp):
        os.makedirs("build", exist_ok=True)
        with open(stamp, "w") as f:
            f.write(f"envpool {envpool.__version__}, env headers {digest}\n")
    return stamp


def env_extension(name: str, sources: list[str], **kwargs: Any) -> Any:
    """A setuptools Extension for the env library `name` (for example
    `"my_env._my_env"`, the default NATIVE_LIBRARY of family `my_env`).

    Extra keyword arguments go to setuptools' `Extension` (more
    `include_dirs`, `libraries`, `extra_compile_args`, ...), added to
    envpool's.
    """
    from setuptools import Extension

    library_dir = get_library_dir()
    if not os.path.isfile(os.path.join(library_dir, "libenvpool_core.so")) or not os.path.isfile(
        os.path.join(get_include(), "envpool", "core", "plugin.h")
    ):
        raise RuntimeError(
            f"this envpool ({envpool.__file__}) has no env headers or core library: "
            "install envpool's wheel (pip install envpool-*.whl), not a source tree"
        )
    options: dict[str, Any] = {
        "include_dirs": [get_include()],
        "library_dirs": [library_dir],
        "libraries": ["envpool_core"],
        "runtime_library_dirs": [library_dir],
        "depends": [*glob.glob(os.path.join(get_include(), "envpool", "core", "*.h")), _stamp()],
        # Hidden: the library's own symbols cannot clash with another env
        # package's or envpool's; plugin.h exports the three it needs.
        "extra_compile_args": ["-std=c++17", "-O2", "-fvisibility=hidden"],
        "language": "c++",
    }
    for key, value in kwargs.items():
        ours = options.get(key)
        options[key] = [*ours, *value] if isinstance(ours, list) else value
    return Extension(name, sources, **options)
