"""RLlib 2.60.0 PPO on envpool pools, on a local two-node Ray cluster.

ray[rllib] 2.60.0 pins gymnasium 1.2.2, so RLlib lives in its own virtual
environment (`make rllib-env`: benchmark/.venv-rllib, this project's wheel
installed into it; RLLIB_PYTHON names another interpreter). This test runs
`rllib_cluster.py` there: two Ray nodes of one CPU each, two EnvRunners of
one CPU each (so one per node), each holding one envpool pool of 8 envs made
through gymnasium's `VECTOR_ENTRY_POINT` mode. It checks

- the two EnvRunners run on the two different nodes, each with a pool;
- PPO samples and trains a few iterations on CartPole-v1 and one on Pong-v5;
- every episode RLlib assembles from the pool's next-step autoresets is whole
  (a reset state first, elapsed_step 0 to its length, terminated outside
  CartPole's bounds or truncated at max_episode_steps);
- the same checks do fail on a same_step pool (RLlib assumes next-step
  autoresets and reads no `autoreset_mode`): the checks can fail;
- the run, Ray's shutdown included, ends by itself.

It also runs the snippets of docs/ray.md there (marked not run for
test_docs.py, whose interpreter has no ray): pools in plain Ray actors,
RLlib's single-agent config, a multi-player id through RLlib's multi-agent API.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]
SCRIPT = Path(__file__).resolve().parent / "rllib_cluster.py"
RAY_PAGE = ROOT / "docs" / "ray.md"
RAY_SNIPPET = re.compile(r"<!-- snippet: not run: needs ray.*test_rllib\.py runs it there -->")
MAX_EPISODE_STEPS = 40
# Ray's start, three PPO builds and their training, and Ray's shutdown: 4 to 6
# minutes on 2 cores under a load of 10; a hang fails before pytest's timeout.
RUN_TIMEOUT_S = 540


def rllib_python() -> str | None:
    default = ROOT / "benchmark" / ".venv-rllib" / "bin" / "python"
    path = os.environ.get("RLLIB_PYTHON") or str(default)
    return path if os.path.exists(path) else None


def needs_rllib_python() -> str:
    python = rllib_python()
    if python is None:
        pytest.skip(
            "RLlib needs its own venv: run `make rllib-env` "
            "(benchmark/.venv-rllib) or set RLLIB_PYTHON"
        )
    return python


def ray_page_snippets() -> list[tuple[int, str]]:
    """docs/ray.md's Python snippets marked as run here, as (line, code)."""
    lines = RAY_PAGE.read_text().splitlines()
    found = []
    for i, line in enumerate(lines):
        if line.strip() == "```python" and i and RAY_SNIPPET.search(lines[i - 1]):
            end = lines.index("```", i + 1)
            found.append((i + 2, "\n".join(lines[i + 1 : end]) + "\n"))
    return found


@pytest.mark.parametrize(
    "line, code", [pytest.param(n, c, id=f"ray.md:{n}") for n, c in ray_page_snippets()]
)
def test_ray_page_snippet_runs(line, code, tmp_path):
    python = needs_rllib_python()
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "PYTHONWARNINGS": "ignore"}
    run = subprocess.run(
        [python, "-P", "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
    )
    assert run.returncode == 0, f"docs/ray.md:{line}\n" + run.stderr[-6000:]


def test_the_ray_page_has_its_snippets():
    assert len(ray_page_snippets()) == 3


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> dict:
    python = needs_rllib_python()
    folder = tmp_path_factory.mktemp("rllib")
    out = folder / "report.json"
    command = [
        python,
        "-P",
        str(SCRIPT),
        "--tasks",
        "CartPole-v1",
        "Pong-v5",
        "--iterations",
        "3",
        "--image-iterations",
        "1",
        "--fragment",
        "48",
        "--max-episode-steps",
        str(MAX_EPISODE_STEPS),
        "--image-fragment",
        "24",
        "--image-max-episode-steps",
        "20",
        "--same-step-iterations",
        "1",
        "--out",
        str(out),
    ]
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "PYTHONWARNINGS": "ignore"}
    try:
        run = subprocess.run(
            command, cwd=folder, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S
        )
    except subprocess.TimeoutExpired as e:
        tail = (e.stderr or b"")[-4000:]
        pytest.fail(f"the RLlib run did not end within {RUN_TIMEOUT_S} s: {tail!r}")
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-8000:]
    return json.loads(out.read_text())


def test_env_runners_sit_on_both_nodes_each_with_a_pool(report):
    nodes = set(report["nodes"])
    assert len(nodes) == 2
    for task, result in report["tasks"].items():
        runners = result["runners"]
        assert {r["node_id"] for r in runners} == nodes, task
        for runner in runners:
            assert runner["env_class"] == "envpool.python.gymnasium_api.GymnasiumVectorEnv"
            assert runner["task_id"] == task
            assert runner["num_envs"] == 8
            assert runner["autoreset_mode"] == "NextStep"


@pytest.mark.parametrize("task", ["CartPole-v1", "Pong-v5"])
def test_sampling_and_autoresets_as_rllib_expects(report, task):
    rows = report["tasks"][task]["iterations"]
    fragment = 48 if task == "CartPole-v1" else 24
    for row in rows:
        # 2 EnvRunners x 8 envs x the fragment per iteration (RLlib may round up).
        assert row["env_steps_sampled"] >= 2 * 8 * fragment
        assert row["autoreset_faults"] == 0, row
    last = rows[-1]
    assert last["episodes_checked"] > 0
    assert last["episodes_truncated"] > 0  # the max_episode_steps path
    if task == "CartPole-v1":
        # terminated episodes too (a random-ish policy falls within 40 steps)
        assert last["episodes_checked"] > last["episodes_truncated"]
    else:
        # each Pong env was truncated once (after 20 steps) in its 24
        assert last["episodes_checked"] == 16


def test_the_autoreset_checks_fail_on_same_step_pools(report):
    control = report["tasks"]["CartPole-v1"]["same_step"]
    assert {r["autoreset_mode"] for r in control["runners"]} == {"SameStep"}
    assert control["iterations"][-1]["autoreset_faults"] > 0
