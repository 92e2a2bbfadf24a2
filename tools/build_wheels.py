"""Builds envpool's wheel for one or several CPythons with one Bazel workspace.

    python tools/build_wheels.py --out dist                 # every CPython 3.10-3.13 found
    python tools/build_wheels.py --out dist /path/to/python3.12 ...

Each interpreter is given to Bazel as PYTHON_BIN_PATH (see
third_party/python/python_configure.bzl).  Only the native Python modules
(`_core.so`, `_<family>.so`) include Python's headers, so only they are
rebuilt for another version; the env libraries and `libenvpool_core.so` are
shared, and a version built before comes back from Bazel's disk cache.  The
interpreters need nothing installed: the XLA FFI headers are taken from the
jaxlib of --headers-python (default: the interpreter running this script).

Found interpreters: pyenv's newest 3.1x (`~/.pyenv/versions/3.1x.*`, free-
threaded and debug builds left out), else `python3.1x` on PATH.  Every
`envpool-*.whl` in --out is removed first; the wheels built are copied there,
and the seconds each build took are printed.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time

VERSIONS = ["3.10", "3.11", "3.12", "3.13"]


def _patch_key(path: str) -> tuple[int, ...]:
    match = re.search(r"versions/(\d+)\.(\d+)\.(\d+)/", path)
    return tuple(int(x) for x in match.groups()) if match else (0,)


def find_pythons(versions: list[str]) -> list[str]:
    """One interpreter per version found, pyenv's first."""
    home = os.path.expanduser("~")
    found = []
    for version in versions:
        candidates = [
            path
            for path in glob.glob(f"{home}/.pyenv/versions/{version}.*/bin/python{version}")
            if re.search(rf"versions/{re.escape(version)}\.\d+/", path)
        ]
        if candidates:
            found.append(max(candidates, key=_patch_key))
        elif shutil.which(f"python{version}"):
            found.append(shutil.which(f"python{version}"))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pythons", nargs="*", help="interpreters (default: every one found)")
    parser.add_argument("--out", default="dist")
    parser.add_argument("--bazel", default=os.environ.get("BAZEL", "bazel"))
    parser.add_argument("--headers-python", default=sys.executable)
    parser.add_argument(
        "--target",
        default="//:wheel",
        help="//:wheel (every family) or //:demo_wheel (the core and classic_control)",
    )
    args = parser.parse_args()

    pythons = args.pythons or find_pythons(VERSIONS)
    if not pythons:
        sys.exit(f"no CPython {', '.join(VERSIONS)} found")
    os.makedirs(args.out, exist_ok=True)
    for old in glob.glob(os.path.join(args.out, "envpool-*.whl")):
        os.remove(old)

    output_base = subprocess.run(
        [args.bazel, "info", "output_base"], check=True, capture_output=True, text=True
    ).stdout.strip()
    bazel_bin = subprocess.run(
        [args.bazel, "info", "bazel-bin"], check=True, capture_output=True, text=True
    ).stdout.strip()
    times = []
    for python in pythons:
        env = dict(os.environ, PYTHON_BIN_PATH=python, ENVPOOL_HEADERS_PYTHON=args.headers_python)
        print(f"== envpool wheel for {python}", flush=True)
        start = time.monotonic()
        # A progress line every few seconds when the output is not a terminal.
        subprocess.run(
            [args.bazel, "build", "--show_progress_rate_limit=5", args.target],
            check=True,
            env=env,
        )
        seconds = time.monotonic() - start
        with open(os.path.join(output_base, "external", "python", "defs.bzl")) as f:
            tag = re.search(r'WHEEL_TAG = "([^"]+)"', f.read().replace("'", '"')).group(1)
        # The newest: an earlier version's wheel may still lie in bazel-bin.
        name = args.target.rsplit(":", 1)[-1]
        wheels = glob.glob(os.path.join(bazel_bin, name, f"envpool-*-{tag}.whl"))
        if not wheels:
            sys.exit(f"no wheel tagged {tag} in {bazel_bin}")
        wheel = max(wheels, key=os.path.getmtime)
        target = os.path.join(args.out, os.path.basename(wheel))
        shutil.copyfile(wheel, target)
        os.chmod(target, 0o644)
        times.append((os.path.basename(target), seconds))
    for name, seconds in times:
        print(f"{name}: built in {seconds:.0f} s")


if __name__ == "__main__":
    main()
