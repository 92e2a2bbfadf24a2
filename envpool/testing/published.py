"""An id's spec checked against the published EnvPool's, as the tests copy it.

The families' tests keep EnvPool 1.2.7's specs (`env_specs.json` of the
reference facts) beside them; `check_spec` compares an id's config, observation
space and action space with such an entry.
"""

from __future__ import annotations

from typing import Any

import envpool


def check_spec(task_id: str, expected: dict[str, Any]) -> Any:
    """Assert that `task_id`'s spec has `expected`'s config values (but the
    seed), observation keys, shapes and dtypes (and the bounds of integer
    arrays where `expected` gives them), and action shape and bounds.
    Returns the spec, for a family's own further checks."""
    spec = envpool.make_spec(task_id)
    config = spec.config._asdict()
    for key, value in expected["config"].items():
        if key != "env_seed":
            assert config[key] == value, f"{task_id}: config {key}"
    spaces = spec.observation_space.spaces
    assert set(spaces) == set(expected["observation_space"]["spaces"]), task_id
    for key, space in expected["observation_space"]["spaces"].items():
        assert list(spaces[key].shape) == space["shape"], f"{task_id}: {key}"
        assert str(spaces[key].dtype) == space["dtype"], f"{task_id}: {key}"
        if space["dtype"].startswith("int") and isinstance(space.get("low"), int | float):
            assert spaces[key].low.min() == space["low"], f"{task_id}: {key}"
            assert spaces[key].high.max() == space["high"], f"{task_id}: {key}"
    action = expected["action_space"]
    assert list(spec.action_space.shape) == action["shape"], task_id
    assert (spec.action_space.low == action["low"]).all(), task_id
    assert (spec.action_space.high == action["high"]).all(), task_id
    return spec
