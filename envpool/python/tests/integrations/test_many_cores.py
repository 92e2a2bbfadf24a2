"""benchmark/many_cores.py scaled down (`--smoke`), and the kit it travels with.

The script's full run needs a 16-core machine with a GPU
(benchmark/results/many_cores/README.md); this runs every part small on the
machine at hand, so a broken part is found before that machine's minutes are
spent. Each part is bounded by its budget, so the run is too.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]
BENCHMARK = ROOT / "benchmark"
SMOKE_BUDGETS = {1: 15.0, 2: 5.0, 3: 60.0, 4: 90.0}


def load(name: str):
    sys.path.insert(0, str(BENCHMARK))
    try:
        return __import__(name)
    finally:
        sys.path.remove(str(BENCHMARK))


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("many_cores")
    budgets = [f"{part}={seconds:g}" for part, seconds in SMOKE_BUDGETS.items()]
    cmd = [sys.executable, "-P", str(BENCHMARK / "many_cores.py"), "--smoke"]
    # any return reaches the target: part 4 stops after its first iteration
    cmd += ["--out", str(out), "--target-return=-1000", "--budget", *budgets]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out, json.loads((out / "results.json").read_text())


def test_smoke_run_writes_the_tables_plots_and_machine(smoke_run):
    out, results = smoke_run
    assert sorted(p.name for p in out.iterdir()) == [
        "many_cores.md",
        "part1.png",
        "part2.png",
        "part4.png",
        "results.json",
    ]
    report = (out / "many_cores.md").read_text()
    for title in ("Part 1: scaling", "Part 2: procgen", "Part 3: env.xla()", "Part 4: CleanRL"):
        assert f"## {title}" in report
    assert report.count("- nproc: ") == 4 and "- command: " in report
    for part in "1234":
        assert results[part]["machine"]["cpu"]


def test_part1_measures_within_its_budget(smoke_run):
    _, results = smoke_run
    part = results["1"]
    cells = part["data"]["cells"]
    measured = [c for c in cells if c.get("steps_per_s")]
    assert measured, cells
    assert all(c["steps_per_s"] > 0 for c in measured)
    assert not [c for c in cells if "error" in c]  # e.g. the pinned rows' worker option
    # every cell is either measured, failed with a reason, or left out for the budget
    planned = {(c["task"], c["backend"], c["threads"]) for c in cells}
    planned |= {tuple(s) for s in part["data"]["skipped"]}
    assert {t for t, _, _ in planned} == {"Pong-v5", "Ant-v5", "CartPole-v1", "CoinrunEasy-v0"}
    assert part["took_s"] < SMOKE_BUDGETS[1] + 60  # a started cell may run past the budget


def test_part2_sets_the_library_copies(smoke_run):
    _, results = smoke_run
    data = results["2"]["data"]
    assert data["task"] == "CoinrunEasy-v0" and data["threads"] == 2
    first = data["cells"][0]
    assert first["copies"] == 1 and first["steps_per_s"] > 0
    assert not [c for c in data["cells"] if "error" in c]  # the variable reached the worker
    assert "procgen" in data


def test_part3_checks_the_cpu_path_and_records_why_the_gpu_is_skipped(smoke_run):
    _, results = smoke_run
    data = results["3"]["data"]
    assert data["cpu_equals_numpy"] is True
    if data["default_backend"] == "cpu":
        assert data["gpu"].startswith("skipped: ")


def test_part4_trains_or_stops_at_its_budget(smoke_run):
    _, results = smoke_run
    data = results["4"]["data"]
    assert "--target-return=-1000.0" in data["command"] and "Pong-v5" in data["command"]
    if data["curve"]:  # ppo_atari_envpool_xla_jax.py's --target-return ended it
        assert len(data["curve"]) == 1 and data["stopped_by"] == "target_return"
        assert data["reached_s"] == data["curve"][0][0]
    else:  # no iteration within the budget (a loaded machine): the watchdog ended it
        assert data["wall_s"] >= SMOKE_BUDGETS[4] - 1
    assert data["wall_s"] < SMOKE_BUDGETS[4] + 15  # the watchdog ends a run that prints nothing


def test_kit_trims_a_wheel_and_rewrites_its_record(tmp_path):
    kit = load("many_cores_kit")
    source = tmp_path / "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(source, "w") as wheel:
        wheel.writestr("pkg/__init__.py", "x = 1\n")
        wheel.writestr("pkg/experimental/big.so", b"\0" * 1000)
        wheel.writestr("pkg-1.0.dist-info/RECORD", "stale\n")
    target = tmp_path / "trimmed" / source.name
    target.parent.mkdir()
    assert kit.trim_wheel(source, target, ("pkg/experimental/",)) == 1
    with zipfile.ZipFile(target) as wheel:
        assert sorted(wheel.namelist()) == ["pkg-1.0.dist-info/RECORD", "pkg/__init__.py"]
        record = wheel.read("pkg-1.0.dist-info/RECORD").decode().splitlines()
    assert record[0].startswith("pkg/__init__.py,sha256=") and record[0].endswith(",6")
    assert record[1] == "pkg-1.0.dist-info/RECORD,,"


def test_kit_plan_fetches_cp312_wheels_within_the_limit(tmp_path):
    wheel = tmp_path / "envpool-0.1.0-cp312-cp312-linux_x86_64.whl"
    wheel.write_bytes(b"")
    cmd = [sys.executable, str(BENCHMARK / "many_cores_kit.py"), "--wheel", str(wheel)]
    plan = subprocess.run(
        [*cmd, "--out", str(tmp_path / "kit"), "--dry-run"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    downloads = [line for line in plan.splitlines() if " download " in line]
    assert len(downloads) == len(load("many_cores_kit").REFERENCE_WHEELS)
    assert all("--python-version 3.12" in line and "--no-deps" in line for line in downloads)
    assert "trim mujoco: leave out mujoco/experimental/" in plan
    assert not (tmp_path / "kit").exists()  # a dry run fetches and writes nothing
    refused = subprocess.run(
        [*cmd[:-1], str(tmp_path / "envpool-0.1.0-cp311-cp311-linux_x86_64.whl"), "--dry-run"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode != 0 and "not a cp312 wheel" in refused.stderr


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_target_builds_the_slim_wheel_then_the_kit():
    env = dict(os.environ, PYTHON312="/opt/python3.12")
    plan = subprocess.run(
        ["make", "-n", "many-cores-kit"], cwd=ROOT, capture_output=True, text=True, env=env
    ).stdout
    assert "--target //:many_cores_wheel" in plan and "/opt/python3.12" in plan
    assert "benchmark/many_cores_kit.py --out .kit" in plan
