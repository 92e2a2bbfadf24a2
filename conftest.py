"""Tests run against the installed envpool wheel, never the source tree, and
read nothing beside the repository.

The source tree has no native modules; when pytest runs from the repository
root, drop the root from sys.path so `import envpool` finds the wheel.

A clone must pass its tests with nothing beside it: every file a test opens
is checked (an audit hook), and a file opened under what lay beside the clone
when the tests started (a folder of reference facts next to the clone, say) fails the run.
"""

from __future__ import annotations

import os
import sys

_ROOT = os.path.dirname(os.path.abspath(__file__))
_PARENT = os.path.dirname(_ROOT)
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _ROOT]


def _siblings() -> frozenset[str]:
    """What lies beside the clone when the tests start (pytest's own temporary
    folders aside): a test reads none of it."""
    try:
        names = os.listdir(_PARENT)
    except OSError:
        return frozenset()
    root = os.path.basename(_ROOT)
    return frozenset(n for n in names if n != root and not n.startswith("pytest-of-"))


SIBLINGS = _siblings()

READS_BESIDE_THE_REPOSITORY: list[str] = []


def is_beside_the_repository(path: str) -> bool:
    """A path under something that lay beside the clone when the tests started."""
    path = os.path.abspath(path)
    if not path.startswith(_PARENT + os.sep):
        return False
    first = path[len(_PARENT) + 1 :].split(os.sep, 1)[0]
    return first in SIBLINGS


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
