"""EnvPool's reward shaping here against EnvPool 1.2.5's, step by step.

Runs one vizdoom id with EnvPool 1.2.5's default shaping tables in this
project (`reward_config=ENVPOOL_REWARD_CONFIG`, ...) and in EnvPool 1.2.5
(its defaults, benchmark/.venv-envpool125, `make bench-setup`), with the
same seed and the same random buttons, and a third run here without
shaping (the scenario's reward, as DoomGame's). Prints per step where the
runs differ and writes the summary to benchmark/results/vizdoom-shaping.md:

    python3 -P benchmark/vizdoom_shaping.py --task D3Battle-v1 --steps 2000
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ENVPOOL125 = HERE / ".venv-envpool125" / "bin" / "python"

RUN = r"""
import sys, numpy as np, envpool
which, task, out = sys.argv[1], sys.argv[2], sys.argv[5]
steps, seed = int(sys.argv[3]), int(sys.argv[4])
kw = {}
if which == "ours":
    from envpool.vizdoom import ENVPOOL_REWARD_CONFIG, ENVPOOL_SELECTED_WEAPON_REWARD_CONFIG
    kw = dict(reward_config=ENVPOOL_REWARD_CONFIG,
              selected_weapon_reward_config=ENVPOOL_SELECTED_WEAPON_REWARD_CONFIG)
env = envpool.make(task, env_type="gymnasium", num_envs=1, seed=seed, **kw)
env.reset()
rng = np.random.default_rng(seed)
rewards, ends, health = [], [], []
for _ in range(steps):
    action = rng.integers(0, 2, env.action_space.shape[0]).astype(np.float64)[None]
    _, r, term, trunc, info = env.step(action)
    rewards.append(r[0]); ends.append(bool(term[0] or trunc[0])); health.append(info["HEALTH"][0])
np.savez(out, reward=np.array(rewards), end=np.array(ends), health=np.array(health))
"""


def run(python: str, which: str, task: str, steps: int, seed: int, out: str) -> dict:
    cmd = [python, "-P", "-c", RUN, which, task, str(steps), str(seed), out]
    subprocess.run(cmd, check=True, cwd=tempfile.gettempdir())
    return dict(np.load(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="D3Battle-v1")
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--out", default=str(HERE / "results" / "vizdoom-shaping.md"))
    args = parser.parse_args()
    if not ENVPOOL125.exists():
        sys.exit(f"{ENVPOOL125} is missing: make bench-setup")
    with tempfile.TemporaryDirectory() as tmp:
        ours = run(sys.executable, "ours", args.task, args.steps, args.seed, f"{tmp}/o.npz")
        plain = run(sys.executable, "plain", args.task, args.steps, args.seed, f"{tmp}/p.npz")
        theirs = run(str(ENVPOOL125), "theirs", args.task, args.steps, args.seed, f"{tmp}/t.npz")
    # EnvPool's info repeats the last state's game variables on the step that
    # ends an episode (ours reads them from the engine, as DoomGame does).
    alive = ~ours["end"]
    same_play = bool(
        np.array_equal(ours["end"], theirs["end"])
        and np.array_equal(ours["health"][alive], theirs["health"][alive])
    )
    # Ours with EnvPool's tables = EnvPool's reward + the scenario's reward.
    want = (theirs["reward"].astype(np.float64) + plain["reward"]).astype(np.float32)
    differ = np.nonzero(ours["reward"] != want)[0]
    lines = [
        f"# {args.task}: EnvPool's reward shaping here and in EnvPool 1.2.5",
        "",
        f"`python3 -P benchmark/vizdoom_shaping.py --task {args.task} --steps {args.steps} "
        f"--seed {args.seed}`",
        "",
        f"- steps: {args.steps}, episodes ended: {int(ours['end'].sum())}",
        f"- same episodes (the same steps end them, HEALTH equal at every other step): {same_play}",
        "- steps where our shaped reward differs from EnvPool 1.2.5's reward plus the "
        f"scenario's reward (our unshaped run): {len(differ)}",
        f"- steps where the scenario's reward is not 0: {int(np.count_nonzero(plain['reward']))}",
        f"- steps where EnvPool 1.2.5's reward is not 0: {int(np.count_nonzero(theirs['reward']))}",
    ]
    for i in differ[:20]:
        lines.append(
            f"  - step {i}: ours {ours['reward'][i]!r}, EnvPool {theirs['reward'][i]!r}, "
            f"scenario {plain['reward'][i]!r}"
        )
    text = "\n".join(lines) + "\n"
    print(text)
    Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
