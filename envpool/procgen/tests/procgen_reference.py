"""Runs procgen 0.10.7 itself for the alignment tests (needs Python <= 3.10).

    python procgen_reference.py cases.json out.npz

Each case of cases.json names a game, procgen's keyword options, a
rand_seed and a list of actions (-1: end the episode, as procgen's act
takes it). For each case this makes `ProcgenGym3Env(num=1, ...)`, observes
the first frame, then acts and observes once per action, and stores every
frame (64, 64, 3), reward, first flag and info (prev_level_seed,
prev_level_complete, level_seed) under the case's name. A case with
"render" makes the env with render_mode="rgb_array" and stores its 512x512
info["rgb"] frames too; with "gym" as well it steps procgen's gym env
(gym.make("procgen:procgen-<game>-v0", render_mode="rgb_array")) through
the same actions and stores, per frame, the largest difference of its
render(mode="rgb_array") from the gym3 env's frame.
"""

from __future__ import annotations

import json
import sys

import numpy as np
from procgen import ProcgenGym3Env
from procgen.env import BaseProcgenEnv

INFO_KEYS = ("prev_level_seed", "prev_level_complete", "level_seed")


def make(case: dict):
    options = dict(case["options"])
    raw = options.pop("raw_options", None)
    if raw is not None:
        # Options procgen's Python wrapper does not take (use_easy_jump) go
        # to the library as ProcgenGym3Env would pass its own.
        return BaseProcgenEnv(
            1, case["game"], raw, rand_seed=case["rand_seed"], num_threads=0, **options
        )
    if case.get("render"):
        options["render_mode"] = "rgb_array"
    return ProcgenGym3Env(
        num=1, env_name=case["game"], rand_seed=case["rand_seed"], num_threads=0, **options
    )


def gym_renders(case: dict) -> np.ndarray:
    import warnings

    import gym

    warnings.filterwarnings("ignore")
    options = dict(case["options"])
    env = gym.make(
        f"procgen:procgen-{case['game']}-v0",
        render_mode="rgb_array",
        rand_seed=case["rand_seed"],
        **options,
    )
    env.reset()
    frames = [env.render(mode="rgb_array").copy()]
    for action in case["actions"]:
        env.step(action)
        frames.append(env.render(mode="rgb_array").copy())
    env.close()
    return np.stack(frames)


def run(case: dict) -> dict[str, np.ndarray]:
    env = make(case)
    frames, rewards, firsts, infos, renders = [], [], [], [], []

    def record() -> None:
        reward, obs, first = env.observe()
        info = env.get_info()[0]
        frames.append(obs["rgb"][0].copy())
        rewards.append(reward[0])
        firsts.append(first[0])
        infos.append([int(info[k]) for k in INFO_KEYS])
        if case.get("render"):
            renders.append(info["rgb"].copy())

    record()
    for action in case["actions"]:
        env.act(np.array([action], dtype=np.int32))
        record()
    env.close()
    name = case["name"]
    if renders:
        out = {
            f"{name}/frames": np.stack(frames),
            f"{name}/renders": np.stack(renders),
            f"{name}/infos": np.array(infos, dtype=np.int32),
        }
        if case.get("gym"):
            gym = gym_renders(case).astype(np.int16)
            diff = np.abs(gym - out[f"{name}/renders"].astype(np.int16))
            out[f"{name}/gym_render_diff"] = diff.reshape(len(diff), -1).max(axis=1)
        return out
    return {
        f"{name}/frames": np.stack(frames),
        f"{name}/rewards": np.array(rewards, dtype=np.float32),
        f"{name}/firsts": np.array(firsts, dtype=bool),
        f"{name}/infos": np.array(infos, dtype=np.int32),
    }


def main() -> None:
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    out: dict[str, np.ndarray] = {}
    for case in cases:
        out.update(run(case))
    # Uncompressed: the 512x512 render frames compress slowly.
    np.savez(sys.argv[2], **out)


if __name__ == "__main__":
    main()
