"""The Python the wheel is built for: its headers, its wheel tag, and the
XLA FFI headers.

The target interpreter is $PYTHON_BIN_PATH, else `python3` on PATH; only its
`sysconfig` is asked (no package needs to be installed in it), so any CPython
3.10+ works, a bare pyenv one included.  pybind11 is pinned in WORKSPACE
(`@pybind11`), the same headers for every Python.

The XLA FFI headers are a C API that does not depend on the Python version:
they come from the jaxlib of $ENVPOOL_HEADERS_PYTHON when set, else of the
target interpreter (`pip install jax`).  `make wheels` sets
ENVPOOL_HEADERS_PYTHON to the development interpreter, so every version's
`_core.so` is compiled against the same headers.

Only what includes these headers (the native Python modules) is rebuilt when
the target interpreter changes; the env libraries and libenvpool_core.so do
not depend on this repository, so Bazel reuses them.

The repository also exports the wheel tag and the interpreter path for the
wheel rule (`defs.bzl`).
"""

_QUERY = """
import sys, sysconfig
if sys.implementation.name != "cpython" or sys.version_info < (3, 10):
    sys.exit("envpool's wheel needs CPython 3.10 or newer, not %s" % sys.version)
print(sysconfig.get_paths()["include"])
print(sys.executable)
# The interpreter tag and the ABI tag of a C extension of this interpreter
# (a free-threaded build's ABI is cp3XXt, a debug build's cp3XXd).
tag = "cp%d%d" % sys.version_info[:2]
abi = tag + ("t" if sysconfig.get_config_var("Py_GIL_DISABLED") else "")
abi += "d" if hasattr(sys, "gettotalrefcount") else ""
platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
print("%s-%s-%s" % (tag, abi, platform))
print("%d.%d" % sys.version_info[:2])
"""

_FFI_QUERY = """
import jax.ffi
print(jax.ffi.include_dir())
"""

_BUILD = """
package(default_visibility = ["//visibility:public"])

# Python {version}'s C API headers ({include}).
cc_library(
    name = "python_headers",
    hdrs = glob(["python_include/**/*.h"]),
    includes = ["python_include"],
)

# XLA's FFI headers shipped with jaxlib (header-only C API).
cc_library(
    name = "xla_ffi_headers",
    hdrs = glob(["xla_ffi_include/**/*.h"]),
    includes = ["xla_ffi_include"],
)

# pybind11 (pinned in WORKSPACE) on this Python's headers.
cc_library(
    name = "pybind11",
    deps = [
        ":python_headers",
        "@pybind11//:headers",
    ],
)
"""

def _python_configure_impl(ctx):
    python = ctx.os.environ.get("PYTHON_BIN_PATH", "")
    if not python:
        python = str(ctx.which("python3") or "")
    if not python:
        fail("no python3 found: set PYTHON_BIN_PATH")
    result = ctx.execute([python, "-c", _QUERY])
    if result.return_code != 0:
        fail("%s cannot build envpool:\n%s" % (python, result.stderr))
    include, executable, wheel_tag, version = result.stdout.strip().split("\n")

    headers_python = ctx.os.environ.get("ENVPOOL_HEADERS_PYTHON", "") or python
    ffi = ctx.execute([headers_python, "-c", _FFI_QUERY])
    if ffi.return_code != 0:
        fail("%s has no jaxlib to take the XLA FFI headers from (pip install jax, or set " % headers_python +
             "ENVPOOL_HEADERS_PYTHON to a Python that has it):\n%s" % ffi.stderr)
    ctx.symlink(include, "python_include")
    ctx.symlink(ffi.stdout.strip(), "xla_ffi_include")
    ctx.file("BUILD", _BUILD.format(version = version, include = include))
    ctx.file("defs.bzl", "PYTHON = %r\nPYTHON_VERSION = %r\nWHEEL_TAG = %r\n" % (executable, version, wheel_tag))

python_configure = repository_rule(
    implementation = _python_configure_impl,
    environ = ["PYTHON_BIN_PATH", "ENVPOOL_HEADERS_PYTHON", "PATH"],
    local = True,
)
