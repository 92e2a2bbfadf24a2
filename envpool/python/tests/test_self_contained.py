"""The project's tests need nothing beside the clone (see the root conftest.py)."""

from __future__ import annotations

import os
import sys

import pytest

import envpool
from envpool.python.registry import families, plugin_families


def conftest():
    module = sys.modules.get("conftest")
    if module is None or not hasattr(module, "is_beside_the_repository"):
        pytest.skip("run from the repository root, where conftest.py audits file reads")
    return module


def test_a_read_beside_the_repository_is_caught_and_fails_the_run():
    guard = conftest()
    parent = os.path.dirname(guard._ROOT)
    assert not guard.is_beside_the_repository(os.path.join(guard._ROOT, "envpool", "x.json"))
    if not guard.SIBLINGS:
        pytest.skip("nothing lies beside this clone")
    beside = os.path.join(parent, sorted(guard.SIBLINGS)[0], "reference", "env_ids.tsv")
    assert guard.is_beside_the_repository(beside)
    before = len(guard.READS_BESIDE_THE_REPOSITORY)
    try:
        open(beside).close()
    except OSError:
        pass  # the audit event comes before the open itself
    assert guard.READS_BESIDE_THE_REPOSITORY[before:] == [beside]
    del guard.READS_BESIDE_THE_REPOSITORY[before:]


def test_reference_facts_live_in_the_repository():
    root = conftest()._ROOT
    for name in ("env_ids.tsv", "env_specs.json", "api_surface.json"):
        assert os.path.isfile(os.path.join(root, "envpool", "testing", "reference", name))


def test_families_are_discovered_from_the_installed_package():
    # The installed wheel holds every family folder of the source tree (a
    # folder with a registration.py), and nothing lists them.
    source = os.path.join(conftest()._ROOT, "envpool")
    assert families() == sorted(
        name
        for name in os.listdir(source)
        if os.path.isfile(os.path.join(source, name, "registration.py"))
    )
    assert "classic_control" in families()
    registered = {envpool.make_spec(t).entry.family for t in envpool.list_all_envs()}
    # other tests may register ids of the core's test envs ("testing"), and
    # env packages installed beside envpool bring their families
    # (docs/custom_envs.md)
    assert registered - {"testing"} - set(plugin_families()) == set(families())
