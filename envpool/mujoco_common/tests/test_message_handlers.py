"""MuJoCo's messages in the MuJoCo-based families (message_handlers.h)."""

from __future__ import annotations

import subprocess
import sys

import pytest

# A model of each family whose XML sets the deprecated compiler attribute
# settotalmass, which MuJoCo still applies: gymnasium's half_cheetah.xml and
# dm_control's cheetah.xml.
SETTOTALMASS_IDS = ["HalfCheetah-v3", "CheetahRun-v1"]


@pytest.mark.parametrize("task_id", SETTOTALMASS_IDS)
def test_makes_print_no_settotalmass_deprecation(task_id: str) -> None:
    # MuJoCo's warning about it is dropped; other warnings still print.
    script = (
        "import warnings, envpool\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    for _ in range(2):\n"
        f"        envpool.make({task_id!r}, num_envs=1).reset()\n"
        "assert not [w for w in caught if 'settotalmass' in str(w.message)], caught\n"
    )
    done = subprocess.run(
        [sys.executable, "-P", "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "settotalmass" not in done.stderr
