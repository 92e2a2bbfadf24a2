"""benchmark/cpu_per_step.py's drawn actions, as highway's CPU figures use them.

benchmark/results/envpool127/README.md measures highway-fast-v0's CPU per env
step with `--action-probs 0.1,0.4,0.1,0.1,0.3 --warmup 0`: the timed batches
must be the ones its recorded figures stepped (numpy's `default_rng(seed)`,
one `choice` over (batches, rows)), whatever the warm-up, and `--build` must
take the relative interpreter path its docstring shows.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "benchmark" / "cpu_per_step.py"
HIGHWAY_IDLE = [0.1, 0.4, 0.1, 0.1, 0.3]


def load_script():
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        return __import__("cpu_per_step")
    finally:
        sys.path.remove(str(SCRIPT.parent))


@pytest.mark.parametrize("warmup", [0, 3])
def test_timed_batches_are_the_seeded_draw(warmup: int) -> None:
    script = load_script()
    env, step = script.drawn_stepper(
        "highway-fast-v0", 4, False, 1, HIGHWAY_IDLE, seed=0, batches=5, warmup=warmup
    )
    stepped = []
    env.step = lambda actions: stepped.append(np.array(actions))
    try:
        for i in range(warmup + 5):
            assert step(i) == 4
    finally:
        env.close()
    expected = np.random.default_rng(0).choice(5, size=(5, 4), p=HIGHWAY_IDLE)
    np.testing.assert_array_equal(np.stack(stepped[warmup:]), expected)


def test_measure_counts_every_env_step() -> None:
    script = load_script()
    result = script.measure("highway-fast-v0", 2, "sync", 1, 4, warmup=0, probs=HIGHWAY_IDLE)
    assert result["steps"] == 8
    assert result["cpu_ns_per_step"] > 0


def test_probabilities_are_checked() -> None:
    script = load_script()
    with pytest.raises(Exception, match="summing to 1"):
        script.parse_probs("0.5,0.6")
    with pytest.raises(ValueError, match="one per action of a discrete space"):
        script.drawn_stepper("highway-fast-v0", 1, False, 1, [0.5, 0.5], 0, 1, 0)


def test_build_takes_a_relative_interpreter(tmp_path: Path) -> None:
    # The measured processes run in /; a path relative to the caller's
    # directory, which names nothing from /, must still name the same
    # interpreter (and its environment: the link is not resolved).
    inside = os.path.relpath(sys.executable, sys.prefix)
    if inside.startswith(".."):
        pytest.skip(f"{sys.executable} is outside sys.prefix {sys.prefix}")
    (tmp_path / "env-link").symlink_to(sys.prefix, target_is_directory=True)
    python = os.path.join("env-link", inside)
    out = subprocess.run(
        [
            sys.executable,
            "-P",
            str(SCRIPT),
            "--task",
            "highway-fast-v0",
            "--num-envs",
            "2",
            "--mode",
            "sync",
            "--num-threads",
            "1",
            "--batches",
            "3",
            "--warmup",
            "0",
            "--action-probs",
            ",".join(map(str, HIGHWAY_IDLE)),
            "--rounds",
            "1",
            "--build",
            f"here={python}",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "here: CPU" in out.stdout
    assert "actions drawn from 0.1,0.4,0.1,0.1,0.3" in out.stdout
