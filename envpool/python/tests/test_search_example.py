"""examples/search/random_shooting.py: a planner over snapshots beats a random
policy clearly; with set_state doing nothing it would not."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "search" / "random_shooting.py"


@pytest.fixture(scope="module")
def search() -> ModuleType:
    spec = importlib.util.spec_from_file_location("random_shooting", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


def test_pendulum_is_swung_up_and_held(search: ModuleType) -> None:
    planned = search.plan_and_act("Pendulum-v1", steps=200, candidates=16, horizon=20)
    random = search.act_randomly("Pendulum-v1", steps=200)
    assert planned.total_reward > -400 and random.total_reward < -800, (planned, random)


def test_cartpole_never_falls(search: ModuleType) -> None:
    planned = search.plan_and_act("CartPole-v1", steps=200, candidates=8, horizon=20)
    random = search.act_randomly("CartPole-v1", steps=200)
    assert planned.episodes_ended == 0 and random.episodes_ended >= 5, (planned, random)


def test_the_planner_needs_the_snapshots(
    search: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Copies that keep their own state plan for another env than the real one.
    from envpool.python.pool import PoolBase

    monkeypatch.setattr(PoolBase, "set_state", lambda self, states, env_ids=None: None)
    planned = search.plan_and_act("CartPole-v1", steps=200, candidates=8, horizon=20)
    assert planned.episodes_ended >= 3, planned
