"""The patches the tests apply to the reference (docs/robotics.md).

On mujoco 3.17, gymnasium-robotics 1.4.2's `mujoco_utils.get/set_joint_qpos/qvel`
assert fails for every hinge or slide joint (`np.int32(3) in
(mjtJoint.mjJNT_HINGE, ...)` is False there). Every test of this folder sees
that module's `mujoco` with plain ints for the four joint-type constants;
nothing else changes: a test module imports the autouse fixture
`reference_joint_types` (a module, not a conftest.py, whose name another
test folder's conftest.py takes).

A maze env of the reference writes its model to a new file beside its
temporary folder (`ant_maze<time>.xml` in /tmp) and never removes it: the
autouse fixture `reference_maze_files` puts those files in the test's own
temporary folder.
"""

from __future__ import annotations

import tempfile
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import mujoco
import pytest


class _PlainJointTypes(types.ModuleType):
    """`mujoco` as gymnasium-robotics' mujoco_utils sees it, with plain-int joint types."""

    mjtJoint = types.SimpleNamespace(  # noqa: N815 (mujoco's own name)
        **{
            name: int(getattr(mujoco.mjtJoint, name))
            for name in ("mjJNT_FREE", "mjJNT_BALL", "mjJNT_SLIDE", "mjJNT_HINGE")
        }
    )

    def __getattr__(self, name: str) -> Any:
        return getattr(mujoco, name)


@pytest.fixture(autouse=True)
def reference_joint_types(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Lets the reference's joint-type asserts pass on mujoco 3.17."""
    mujoco_utils = pytest.importorskip("gymnasium_robotics.utils.mujoco_utils")
    monkeypatch.setattr(mujoco_utils, "mujoco", _PlainJointTypes("mujoco"))
    yield


@pytest.fixture(autouse=True)
def reference_maze_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference's maze files go to the test's temporary folder, not /tmp."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
