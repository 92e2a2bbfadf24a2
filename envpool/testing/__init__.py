"""Test envs of the core (counting, multi-player); no ids are registered.

Tests register them on demand, e.g.
`envpool.register("TestTeam-v0", family="testing", env_class="TestTeam")`.
"""

from __future__ import annotations

import os
import time


def pool_threads(expect: int | None = None, timeout: float = 2.0) -> int:
    """How many of this process's threads are envpool's (named envpool-*).

    Counted by name: a test runner's own threads (pytest-timeout's timer per
    test) come and go on their own time. A joined thread can still be listed
    for a moment after its join returns (the kernel wakes the joiner before it
    removes the thread), so with `expect` the count is retried until it equals
    `expect` or `timeout` seconds pass; a thread that never ends still shows.
    """
    deadline = time.monotonic() + timeout
    while True:
        count = 0
        for task in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{task}/comm") as f:
                    count += f.read().startswith("envpool-")
            except OSError:  # the thread ended while listed
                pass
        if expect is None or count == expect or time.monotonic() > deadline:
            return count
        time.sleep(0.001)
