"""The process's resident memory, for tests that check what a pool adds to it."""

from __future__ import annotations

from pathlib import Path

STATUS = Path("/proc/self/status")
"""Where Linux reports the process's VmRSS; tests using `rss_mib` skip without it."""


def rss_mib() -> float:
    """The process's resident set size (VmRSS) in MiB."""
    with STATUS.open() as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS in {STATUS}")
