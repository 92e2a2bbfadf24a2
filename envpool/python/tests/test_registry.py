"""Every classic_control and toy_text id of the reference is registered with
the reference's defaults and spaces (EnvPool 1.2.5's registry, read off into
envpool/testing/reference)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

import envpool

REFERENCE = Path(__file__).resolve().parents[2] / "testing" / "reference"
FAMILIES = ("classic_control", "toy_text")


def reference_ids() -> list[str]:
    with open(REFERENCE / "env_ids.tsv") as f:
        return [row["id"] for row in csv.DictReader(f, delimiter="\t") if row["family"] in FAMILIES]


SPECS = json.loads((REFERENCE / "env_specs.json").read_text())
IDS = reference_ids()


def test_reference_lists_the_expected_number_of_ids():
    assert len(IDS) == 21


def test_every_reference_id_is_registered():
    missing = sorted(set(IDS) - set(envpool.list_all_envs()))
    assert not missing


def test_every_atari_and_mujoco_reference_id_is_registered():
    with open(REFERENCE / "env_ids.tsv") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["family"] in ("atari", "mujoco")]
    assert len(rows) == 104 + 33
    missing = sorted({r["id"] for r in rows} - set(envpool.list_all_envs()))
    assert not missing


@pytest.mark.parametrize("task_id", IDS)
def test_config_matches_reference(task_id):
    ref = SPECS[task_id]["config"]
    config = envpool.make_spec(task_id).config._asdict()
    for key, value in ref.items():
        if key == "env_seed":  # EnvPool's internal list; `seed` takes lists here
            continue
        assert key in config, key
        assert config[key] == value, (key, config[key], value)


def _check_space(space, ref):
    assert space.dtype == np.dtype(ref["dtype"])
    if ref["type"] == "Discrete":
        assert space.n == ref["n"]
        assert space.start == ref["start"]
        return
    assert list(space.shape) == ref["shape"]
    for bound in ("low", "high"):
        if ref[bound] != "elementwise":
            np.testing.assert_allclose(getattr(space, bound), ref[bound])


@pytest.mark.parametrize("task_id", IDS)
def test_spaces_match_reference(task_id):
    spec = envpool.make_spec(task_id)
    _check_space(spec.observation_space, SPECS[task_id]["observation_space"])
    _check_space(spec.action_space, SPECS[task_id]["action_space"])
