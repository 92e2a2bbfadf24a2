"""What a family knows is declared in its folder and discovered (docs/adding_a_family.md).

Each family's registration.py declares its smoke-test id, the runtime
packages it reads files from, the folder its native code reads files from
(ASSET_DIR) and its exceptions to the conformance checker's seed rules, with
the reasons; the tools find them there. The last test adds a throwaway family
the way the doc says, without touching anything outside its folder.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

import envpool
from envpool.python import registry
from envpool.python.registry import families, family_declaration
from envpool.python.spec import load_family
from envpool.testing import conformance

ROOT = Path(__file__).resolve().parents[3]
EXCEPTIONS = ("SEED_INDEPENDENT_RESET", "SEED_INDEPENDENT", "HISTORY_DEPENDENT")


@pytest.fixture(scope="module")
def smoke_test():
    """tools/smoke_test.py, the script `make test-wheels` runs."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import smoke_test

        yield smoke_test
    finally:
        sys.path.remove(str(ROOT / "tools"))


def bazel_families() -> list[str]:
    """FAMILIES of tools/families.bzl (Bazel 4 cannot list subpackages itself)."""
    tree = ast.parse((ROOT / "tools" / "families.bzl").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id == "FAMILIES":
            return ast.literal_eval(node.value)
    raise AssertionError("tools/families.bzl has no FAMILIES")


def test_bazel_builds_every_family_folder() -> None:
    folders = sorted(p.parent.name for p in (ROOT / "envpool").glob("*/registration.py"))
    listed = bazel_families()
    missing, stale = sorted(set(folders) - set(listed)), sorted(set(listed) - set(folders))
    assert not missing, f"add {missing} to FAMILIES in tools/families.bzl (the wheel needs them)"
    assert not stale, f"FAMILIES in tools/families.bzl names {stale}, which have no registration.py"
    assert listed == sorted(listed), "keep FAMILIES in tools/families.bzl sorted"
    for family in folders:
        build = (ROOT / "envpool" / family / "BUILD").read_text()
        assert f'envpool_family(\n    name = "{family}"' in build or (
            f'envpool_family(name = "{family}"' in build
        ), f"envpool/{family}/BUILD makes no envpool_family named {family!r}"


@pytest.mark.parametrize("family", families())
def test_family_declares_its_smoke_test_id(family: str, smoke_test) -> None:
    task_id = family_declaration(family, "SMOKE_TEST_ID")
    assert task_id is not None, f"envpool/{family}/registration.py declares no SMOKE_TEST_ID"
    assert envpool.make_spec(task_id).entry.family == family
    # tools/smoke_test.py reads the source without importing it: the same values.
    source_id, packages = smoke_test.declarations(str(ROOT / "envpool"))[family]
    assert source_id == task_id
    assert packages == list(family_declaration(family, "RUNTIME_PACKAGES", []))


def test_runtime_packages_are_pinned(smoke_test) -> None:
    pins = smoke_test.pins()
    declared = {
        package for f in families() for package in family_declaration(f, "RUNTIME_PACKAGES", [])
    }
    assert declared == {"ale-py", "mujoco", "vizdoom"}
    assert all(package in pins for package in declared), sorted(declared - set(pins))


@pytest.mark.parametrize("family", families())
def test_conformance_exceptions_are_the_familys_own_ids_with_reasons(family: str) -> None:
    for name in EXCEPTIONS:
        declared = family_declaration(family, name, {})
        assert isinstance(declared, dict), f"{family}'s {name} maps each id to its reason"
        for task_id, reason in declared.items():
            assert envpool.make_spec(task_id).entry.family == family, (name, task_id)
            assert isinstance(reason, str) and reason.strip(), (name, task_id)
    reset = family_declaration(family, "SEED_INDEPENDENT_RESET", {})
    assert set(family_declaration(family, "SEED_INDEPENDENT", {})) <= set(reset)


def test_conformance_reads_the_families_declarations() -> None:
    for name in EXCEPTIONS:
        union = set().union(*(family_declaration(f, name, {}) for f in families()))
        assert getattr(conformance, name) == union, name
    assert "FrozenLake-v1" in conformance.SEED_INDEPENDENT_RESET
    assert "CoinrunExploration-v0" in conformance.SEED_INDEPENDENT
    assert "BipedalWalker-v3" in conformance.HISTORY_DEPENDENT


@pytest.mark.parametrize("family", families())
def test_the_core_gets_the_folder_the_family_declares(family: str) -> None:
    core = load_family(family)
    assert core.asset_dir(family) == (family_declaration(family, "ASSET_DIR") or "")


def test_a_family_reads_its_files_from_the_folder_it_declares(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hopper's model is looked up in mujoco's ASSET_DIR, not in a folder its
    # native module found for itself when it was loaded.
    envpool.make_spec("Hopper-v5")
    module = sys.modules["envpool.mujoco.registration"]
    monkeypatch.setattr(module, "ASSET_DIR", str(tmp_path))
    with pytest.raises(ValueError, match=re.escape(str(tmp_path / "hopper.xml"))):
        envpool.make("Hopper-v5", num_envs=1)
    monkeypatch.undo()
    with envpool.make("Hopper-v5", num_envs=1) as env:
        env.reset()


# -- a throwaway family ---------------------------------------------------------------

THROWAWAY_REGISTRATION = '''\
"""Ids of the throwaway family."""

from envpool.python.registry import register

register("Throwaway-v0", family="throwaway", env_class="TestCounter", episode_length=4)

SMOKE_TEST_ID = "Throwaway-v0"
ASSET_DIR = {asset_dir!r}
RUNTIME_PACKAGES = ["numpy"]
HISTORY_DEPENDENT = {{"Throwaway-v0": "a reason, for the test"}}
'''


def test_a_new_family_is_one_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, smoke_test
) -> None:
    """A family folder beside the installed ones is found, made, checked and declares
    what the tools read, with nothing listed elsewhere (the native module is the
    core's test envs', standing in for the `_throwaway.so` its BUILD would make)."""
    folder = tmp_path / "throwaway"
    folder.mkdir()
    (folder / "__init__.py").write_text('"""A throwaway family."""\n')
    (folder / "_throwaway.py").write_text("import envpool.testing._testing  # noqa: F401\n")
    assets = tmp_path / "assets"
    (folder / "registration.py").write_text(THROWAWAY_REGISTRATION.format(asset_dir=str(assets)))
    monkeypatch.setattr(envpool, "__path__", [*envpool.__path__, str(tmp_path)])
    monkeypatch.setattr(registry, "_families_loaded", False)
    try:
        assert "throwaway" in families()
        assert "Throwaway-v0" in envpool.list_all_envs()
        with envpool.make("Throwaway-v0", num_envs=2) as env:
            obs, _ = env.reset()
            assert obs.shape == (2, 2)
        assert load_family("throwaway").asset_dir("throwaway") == str(assets)
        assert conformance.declared_exceptions("HISTORY_DEPENDENT")["Throwaway-v0"]
        conformance.check_env("Throwaway-v0")
        assert envpool.make_spec(family_declaration("throwaway", "SMOKE_TEST_ID"))
        assert smoke_test.declarations(str(tmp_path)) == {"throwaway": ("Throwaway-v0", ["numpy"])}
    finally:
        monkeypatch.undo()
        registry._REGISTRY.pop("Throwaway-v0", None)
        for name in ("registration", "_throwaway", ""):
            sys.modules.pop(f"envpool.throwaway.{name}".rstrip("."), None)
        gymnasium = sys.modules.get("gymnasium")
        if gymnasium is not None:
            gymnasium.registry.pop("envpool/Throwaway-v0", None)
    assert "throwaway" not in families()
    assert "Throwaway-v0" not in envpool.list_all_envs()
