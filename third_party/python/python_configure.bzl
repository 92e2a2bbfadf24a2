"""The Python that runs the build: its headers, numpy's, pybind11's and the
XLA FFI headers of its jaxlib.

The interpreter is $PYTHON_BIN_PATH, else `python3` on PATH.  The repository
also exports the wheel tag and the interpreter path for the wheel rule.
"""

_QUERY = """
import sys, sysconfig
import numpy, pybind11
print(sysconfig.get_paths()["include"])
print(numpy.get_include())
print(pybind11.get_include())
print(sys.executable)
tag = "cp%d%d" % sys.version_info[:2]
print("%s-%s-%s" % (tag, tag, sysconfig.get_platform().replace("-", "_").replace(".", "_")))
import jax.ffi
print(jax.ffi.include_dir())
"""

_BUILD = """
package(default_visibility = ["//visibility:public"])

cc_library(
    name = "python_headers",
    hdrs = glob(["python_include/**/*.h"]),
    includes = ["python_include"],
)

cc_library(
    name = "numpy_headers",
    hdrs = glob(["numpy_include/**/*.h"]),
    includes = ["numpy_include"],
)

# XLA's FFI headers shipped with jaxlib (header-only C API).
cc_library(
    name = "xla_ffi_headers",
    hdrs = glob(["xla_ffi_include/**/*.h"]),
    includes = ["xla_ffi_include"],
)

cc_library(
    name = "pybind11",
    hdrs = glob(["pybind11_include/**/*.h"]),
    includes = ["pybind11_include"],
    deps = [":python_headers"],
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
        fail("%s cannot provide headers (pip install numpy pybind11 jax):\n%s" % (python, result.stderr))
    lines = result.stdout.strip().split("\n")
    ctx.symlink(lines[0], "python_include")
    ctx.symlink(lines[1], "numpy_include")
    ctx.symlink(lines[2], "pybind11_include")
    ctx.symlink(lines[5], "xla_ffi_include")
    ctx.file("BUILD", _BUILD)
    ctx.file("defs.bzl", "PYTHON = %r\nWHEEL_TAG = %r\n" % (lines[3], lines[4]))

python_configure = repository_rule(
    implementation = _python_configure_impl,
    environ = ["PYTHON_BIN_PATH", "PATH"],
    local = True,
)
