"""Smoke test of the wheels in a folder, each on its own Python.

    python tools/smoke_test.py --wheels dist [--skip-python /path/to/python]

For each wheel (one per CPython, from `make wheels`): a fresh virtual
environment of the interpreter its tag names (pyenv's, else python3.1x on
PATH) in a temporary folder, the wheel with its dependencies, and the runtime
packages the families locate their files in (each family's RUNTIME_PACKAGES:
ale-py's Atari ROMs, the MuJoCo library, ViZDoom's engine and scenarios), at
the versions the requirements files pin; then this script runs inside it
(`--check`): the id each family declares as SMOKE_TEST_ID is made and stepped
with the gymnasium, gym and dm env types, and asynchronously. Out here the
families are the folders `envpool/<family>/` with a registration.py, whose
two declarations are read as literals from its source (nothing is imported:
the development Python needs neither the wheel nor its dependencies); inside,
from the installed wheel. A family whose runtime package
cannot be installed on that Python is skipped with the reason printed; a
family missing from the wheel fails. The wheel of --skip-python's version is
left out (`make test` tests that Python fully).

This is not a pytest file: `make test-wheels` runs it.
"""

from __future__ import annotations

import argparse
import ast
import glob
import os
import re
import subprocess
import sys
import tempfile
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Pinned like the development set-up (the wheel itself asks only for ranges).
BASE_PACKAGES = ["gymnasium", "dm-env"]


def families(package: str = os.path.join(ROOT, "envpool")) -> list[str]:
    """The family folders of the source tree: those with a registration.py."""
    return sorted(
        name
        for name in os.listdir(package)
        if os.path.isfile(os.path.join(package, name, "registration.py"))
    )


def declared_literal(registration: str, name: str, default: Any = None) -> Any:
    """The value of `name = <literal>` at the top level of the file `registration`.

    The smoke test's declarations (SMOKE_TEST_ID, RUNTIME_PACKAGES) are read
    without importing the file. A declaration that is not a literal is an
    error saying so.
    """
    with open(registration) as f:
        tree = ast.parse(f.read(), registration)
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                try:
                    return ast.literal_eval(node.value)
                except ValueError:
                    raise ValueError(
                        f"{registration}: {name} must be a literal (a str or a list of str),"
                        " read without importing the file"
                    ) from None
    return default


def declarations(package: str = os.path.join(ROOT, "envpool")) -> dict[str, tuple[Any, list]]:
    """family -> (SMOKE_TEST_ID or None, RUNTIME_PACKAGES) of each family folder."""
    found = {}
    for family in families(package):
        registration = os.path.join(package, family, "registration.py")
        found[family] = (
            declared_literal(registration, "SMOKE_TEST_ID"),
            list(declared_literal(registration, "RUNTIME_PACKAGES", [])),
        )
    return found


def pins() -> dict[str, str]:
    """name -> `name==version` from the requirements files (the set-up's pins)."""
    found = {}
    for name in ("requirements-demo.txt", "requirements-dev.txt", "requirements-nodeps.txt"):
        with open(os.path.join(ROOT, name)) as f:
            for line in f:
                match = re.match(r"^([A-Za-z0-9_.-]+)==([^\s;#]+)\s*(#.*)?$", line.strip())
                if match:
                    found[match.group(1).lower()] = f"{match.group(1)}=={match.group(2)}"
    return found


def python_for_tag(tag: str) -> str | None:
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from build_wheels import find_pythons

    match = re.match(r"cp3(\d+)$", tag)
    if not match:
        return None
    found = find_pythons([f"3.{match.group(1)}"])
    return found[0] if found else None


def run_wheel(wheel: str, runtime_packages: dict[str, list[str]]) -> bool:
    tag = os.path.basename(wheel).split("-")[2]
    python = python_for_tag(tag)
    if python is None:
        print(f"SKIP {os.path.basename(wheel)}: no Python for {tag} found")
        return True
    pinned = pins()
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="envpool-smoke-") as tmp:
        venv = os.path.join(tmp, "venv")
        subprocess.run([python, "-m", "venv", venv], check=True)
        vpython = os.path.join(venv, "bin", "python")
        pip = [vpython, "-m", "pip", "install", "-q"]
        base = [pinned.get(name, name) for name in BASE_PACKAGES]
        subprocess.run([*pip, wheel, *base], check=True)
        skips = []
        expected = [arg for family in runtime_packages for arg in ("--family", family)]
        wanted = sorted({p for packages in runtime_packages.values() for p in packages})
        failed = {}
        for package in wanted:
            result = subprocess.run(
                [*pip, pinned.get(package, package)], capture_output=True, text=True
            )
            if result.returncode != 0:
                last = (result.stderr.strip().splitlines() or ["?"])[-1]
                failed[package] = f"{pinned.get(package, package)} does not install: {last}"
        for family, packages in runtime_packages.items():
            for package in packages:
                if package in failed:
                    skips += ["--skip", f"{family}={failed[package]}"]
        setup = time.monotonic() - start
        print(f"== {os.path.basename(wheel)} on {python} (set-up {setup:.0f} s)", flush=True)
        # -I: the installed wheel, never the source tree (Python 3.10 has no -P).
        result = subprocess.run(
            [vpython, "-I", os.path.abspath(__file__), "--check", *skips, *expected], cwd=tmp
        )
    print(f"   {os.path.basename(wheel)}: {time.monotonic() - start:.0f} s in all")
    return result.returncode == 0


# ---- inside the wheel's virtual environment ----


def _batch_shape_ok(value, space, num_envs: int) -> bool:
    import gymnasium
    import numpy as np

    if isinstance(space, gymnasium.spaces.Dict):
        return all(_batch_shape_ok(value[k], s, num_envs) for k, s in space.spaces.items())
    value = np.asarray(value)
    return value.shape == (num_envs, *space.shape)


def _actions(space, rows: int, seed: int, mask=None):
    """Random actions for `rows` action rows, or each env's first legal move where a
    game declares `legal_action_mask` (random moves would be refused)."""
    import numpy as np

    if mask is not None:
        return np.argmax(np.asarray(mask), axis=-1).astype(space.dtype)
    space.seed(seed)
    return np.stack([np.asarray(space.sample()) for _ in range(rows)])


def _action_rows(spec, num_envs: int) -> int:
    """One action row per env, or per player where the action is declared per player."""
    desc = spec.description
    per_player = any(d["per_player"] for d in desc["action"])
    return num_envs * desc["max_num_players"] if per_player else num_envs


def check_family(family: str, task_id: str) -> None:
    import numpy as np

    import envpool

    num_envs = 2
    spec = envpool.make_spec(task_id)
    space = spec.action_space
    action_rows = _action_rows(spec, num_envs)
    for env_type in ("gymnasium", "gym"):
        with envpool.make(task_id, env_type=env_type, num_envs=num_envs, seed=1) as env:
            obs, info = env.reset()
            # Observation rows: one per env, or one per player of multi-player envs.
            rows = len(info["players"]["env_id"])
            assert _batch_shape_ok(obs, env.observation_space, rows), (env_type, "reset")
            for i in range(3):
                action = _actions(space, action_rows, i, info.get("legal_action_mask"))
                obs, reward, terminated, truncated, info = env.step(action)
                rows = len(info["players"]["env_id"])
                assert _batch_shape_ok(obs, env.observation_space, rows), (env_type, i)
                assert np.all(np.isfinite(reward)), reward
                flags = np.asarray(terminated), np.asarray(truncated)
                assert all(f.shape == (num_envs,) and f.dtype == bool for f in flags)
                assert list(info["env_id"]) == list(range(num_envs)), info["env_id"]
    with envpool.make(task_id, env_type="dm", num_envs=num_envs, seed=1) as env:
        timestep = env.reset()
        assert np.all(np.asarray(timestep.step_type) == 0), timestep.step_type
        for i in range(3):
            mask = getattr(timestep.observation, "legal_action_mask", None)
            timestep = env.step(_actions(space, action_rows, i, mask))
            assert np.all(np.isfinite(timestep.reward)), timestep.reward
    # Asynchronous: one of the two envs comes back per recv.
    with envpool.make(
        task_id, env_type="gymnasium", num_envs=num_envs, batch_size=1, seed=1, num_threads=2
    ) as env:
        env.async_reset()
        for i in range(4):
            obs, _, _, _, info = env.recv()
            env_id = info["env_id"]
            rows = len(info["players"]["env_id"])
            assert len(env_id) == 1 and _batch_shape_ok(obs, env.observation_space, rows)
            action = _actions(space, action_rows // num_envs, i, info.get("legal_action_mask"))
            env.send(action, env_id)


def check(skips: dict[str, str], expected: list[str]) -> int:
    import envpool
    from envpool.python.registry import families as installed_families
    from envpool.python.registry import family_declaration

    print(f"   envpool from {os.path.dirname(envpool.__file__)}, Python {sys.version.split()[0]}")
    if os.path.abspath(envpool.__file__).startswith(ROOT + os.sep):
        print("FAIL: imported the source tree, not the wheel")
        return 1
    status = 0
    present = installed_families()
    for family in sorted(set(present) | set(expected)):
        task_id = family_declaration(family, "SMOKE_TEST_ID")
        if family not in present:
            print(f"FAIL {family}: not in the wheel")
            status = 1
            continue
        if task_id is None:
            print(f"FAIL {family}: its registration.py declares no SMOKE_TEST_ID")
            status = 1
            continue
        if family in skips:
            print(f"SKIP {family}: {skips[family]}")
            continue
        start = time.monotonic()
        try:
            check_family(family, task_id)
        except Exception as e:  # report every family, then fail
            print(f"FAIL {family} ({task_id}): {type(e).__name__}: {e}")
            status = 1
            continue
        print(f"ok   {family} ({task_id}): {time.monotonic() - start:.1f} s")
    return status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheels", default="dist")
    parser.add_argument("--skip-python", help="leave out the wheel of this Python's version")
    parser.add_argument("--check", action="store_true", help="(inside a wheel's venv)")
    parser.add_argument("--skip", action="append", default=[], help="family=reason")
    parser.add_argument(
        "--family", action="append", default=[], help="(with --check) a family the wheel must hold"
    )
    parser.add_argument("--pins", nargs="+", help="print these packages as pinned, and exit")
    args = parser.parse_args()
    if args.pins:
        pinned = pins()
        print(" ".join(pinned.get(name.lower(), name) for name in args.pins))
        return
    if args.check:
        sys.exit(check(dict(item.split("=", 1) for item in args.skip), args.family))

    wheels = sorted(glob.glob(os.path.join(args.wheels, "envpool-*.whl")))
    if not wheels:
        sys.exit(f"no wheels in {args.wheels} (make wheels)")
    if args.skip_python:
        version = subprocess.run(
            [args.skip_python, "-c", "import sys; print('cp%d%d' % sys.version_info[:2])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        wheels = [w for w in wheels if os.path.basename(w).split("-")[2] != version]
    if not wheels:
        print(f"no wheel of another Python in {args.wheels}: nothing to smoke-test")
        return
    declared = declarations()
    missing = sorted(family for family, (task_id, _) in declared.items() if task_id is None)
    if missing:
        sys.exit(f"families whose registration.py declares no SMOKE_TEST_ID: {missing}")
    runtime_packages = {family: packages for family, (_, packages) in declared.items()}
    ok = [run_wheel(wheel, runtime_packages) for wheel in wheels]
    sys.exit(0 if all(ok) else 1)


if __name__ == "__main__":
    main()
