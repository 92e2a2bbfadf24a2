"""Tests run against the installed envpool wheel, never the source tree, and
read nothing beside the repository.

The source tree has no native modules; when pytest runs from the repository
root, drop the root from sys.path so `import envpool` finds the wheel.

A clone must pass its tests with nothing beside it: every file a test opens
is checked (an audit hook), and a file opened in the repository's parent
folder but outside the repository (for example `../shared`) fails the run.
"""

from __future__ import annotations

import os
import sys
import tempfile

_ROOT = os.path.dirname(os.path.abspath(__file__))
_PARENT = os.path.dirname(_ROOT)
_TEMP = os.path.realpath(tempfile.gettempdir())
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _ROOT]

READS_BESIDE_THE_REPOSITORY: list[str] = []


def is_beside_the_repository(path: str) -> bool:
    """A path in the repository's parent folder but not in the repository."""
    path = os.path.abspath(path)
    inside = path == _ROOT or path.startswith(_ROOT + os.sep)
    in_temp = path == _TEMP or path.startswith(_TEMP + os.sep)
    return path.startswith(_PARENT + os.sep) and not inside and not in_temp


def _audit(event: str, args: tuple) -> None:
    if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.fsdecode(args[0])
        if is_beside_the_repository(path):
            READS_BESIDE_THE_REPOSITORY.append(os.path.abspath(path))


sys.addaudithook(_audit)


def pytest_sessionfinish(session, exitstatus) -> None:
    if READS_BESIDE_THE_REPOSITORY:
        print(
            "\ntests read files outside the repository (copy what they need into it): "
            + ", ".join(sorted(set(READS_BESIDE_THE_REPOSITORY))),
            file=sys.stderr,
        )
        session.exitstatus = 1
