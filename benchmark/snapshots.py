"""What snapshots cost: get_state/set_state per env, and search-style rollouts.

    python3 -P benchmark/snapshots.py                  # every part, a few seconds each
    python3 -P benchmark/snapshots.py --seconds 0.5    # a smoke run

Part 1 times `get_state` and `set_state` of a pool of `--num-envs` envs, for
one id per family with snapshots, after `--warmup` random steps (a replaying
family's restore grows with the episode: docs/snapshots.md), and reports
microseconds per env and the bytes of one state.

Part 2 times the loop of a planner that searches with the real simulator:
restore a saved state, roll `--rollout-steps` random steps, repeat. envpool
restores every env of a pool at once and steps them on its threads; the
references are the engines' own single-env loops in this process: ale-py's
`cloneState`/`restoreState` with `act` (Pong, the frame skip of envpool's
Pong-v5 done as that many `act` calls, ALE's screen read once a step), and
the `mujoco` package's `mj_getState`/`mj_setState` with `mj_step` (Hopper,
gymnasium's model, its frame skip). It reports env steps per second.
Each number is the median of `--repeats` timings of about `--seconds` each.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

import numpy as np

import envpool

# One id per family with snapshots.
IDS = [
    "CartPole-v1",
    "FrozenLake-v1",
    "MiniGrid-DoorKey-8x8-v0",
    "BipedalWalker-v3",
    "Hopper-v5",
    "CheetahRun-v1",
    "Pong-v5",
    "CoinrunHard-v0",
    "Highway-v0",
    "ConnectFour-v1",
    "DmcCmuHumanoidGoToTarget-v1",
    "FetchPush-v4",
    "MetaWorld/ButtonPress-v3",
]


def _timed(run: Callable[[], int], seconds: float, repeats: int) -> float:
    """Median of units per second of `run` (which returns the units it did)."""
    rates = []
    for _ in range(repeats):
        done = 0
        start = time.perf_counter()
        while True:
            done += run()
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        rates.append(done / elapsed)
    return statistics.median(rates)


def _random_actions(env: object, steps: int, seed: int) -> list[np.ndarray]:
    """`steps` batches of random actions, one row per env of the pool."""
    space = env.action_space  # type: ignore[attr-defined]  # one env's space
    space.seed(seed)
    num_envs = env.config["num_envs"]  # type: ignore[attr-defined]
    return [np.stack([space.sample() for _ in range(num_envs)]) for _ in range(steps)]


def _warm_up(env: object, steps: int) -> None:
    """Reset, then `steps` random steps (board games: random legal moves)."""
    _, info = env.reset(seed=0)  # type: ignore[attr-defined]
    rng = np.random.default_rng(0)
    for action in _random_actions(env, steps, seed=0):
        mask = info.get("legal_action_mask")
        if mask is not None:  # pgx refuses an illegal move
            action = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        _, _, _, _, info = env.step(action)  # type: ignore[attr-defined]


def state_costs(args: argparse.Namespace) -> None:
    print(f"\n## get_state / set_state, {args.num_envs} envs, after {args.warmup} steps\n")
    print("| id | get_state (us/env) | set_state (us/env) | state (bytes) |")
    print("| --- | --- | --- | --- |")
    for task_id in args.ids:
        # No truncation inside the warm-up (Meta-World allows 500 steps at most).
        longest = 500 if task_id.startswith("MetaWorld/") else 100_000
        env = envpool.make(
            task_id, env_type="gymnasium", num_envs=args.num_envs, max_episode_steps=longest
        )
        _warm_up(env, args.warmup)
        states = env.get_state()

        def get(env: object = env) -> int:
            env.get_state()  # type: ignore[attr-defined]
            return args.num_envs

        def put(env: object = env, states: list = states) -> int:
            env.set_state(states)  # type: ignore[attr-defined]
            return args.num_envs

        get_rate = _timed(get, args.seconds, args.repeats)
        set_rate = _timed(put, args.seconds, args.repeats)
        print(
            f"| {task_id} | {1e6 / get_rate:.1f} | {1e6 / set_rate:.1f} | {len(states[0].data)} |"
        )
        env.close()


def envpool_rollouts(task_id: str, args: argparse.Namespace) -> float:
    env = envpool.make(
        task_id,
        env_type="gymnasium",
        num_envs=args.num_envs,
        num_threads=args.num_threads,
        max_episode_steps=100_000,
    )
    env.reset(seed=0)
    for action in _random_actions(env, 10, seed=1):
        env.step(action)
    states = env.get_state()
    plan = _random_actions(env, args.rollout_steps, seed=2)

    def rollout() -> int:
        env.set_state(states)
        for action in plan:
            env.step(action)
        return args.num_envs * args.rollout_steps

    rate = _timed(rollout, args.seconds, args.repeats)
    env.close()
    return rate


def ale_rollouts(args: argparse.Namespace) -> float:
    import ale_py

    probe = envpool.make("Pong-v5", env_type="gymnasium", num_envs=1)
    config = probe.config
    probe.close()
    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.setInt("random_seed", 0)
    ale.setFloat("repeat_action_probability", float(config["repeat_action_probability"]))
    ale.loadROM(ale_py.roms.get_rom_path("pong"))
    actions = ale.getMinimalActionSet()
    for _ in range(10 * config["frame_skip"]):
        ale.act(actions[0])
    saved = ale.cloneState(include_rng=True)
    rng = np.random.default_rng(2)
    plan = [actions[i] for i in rng.integers(0, len(actions), args.rollout_steps)]
    screen = np.empty((210, 160), np.uint8)

    def rollout() -> int:
        ale.restoreState(saved)
        for action in plan:
            for _ in range(config["frame_skip"]):
                ale.act(action)
            ale.getScreenGrayscale(screen)
        return args.rollout_steps

    return _timed(rollout, args.seconds, args.repeats)


def mujoco_rollouts(args: argparse.Namespace) -> float:
    import gymnasium
    import mujoco

    path = os.path.join(
        os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets", "hopper.xml"
    )
    model = mujoco.MjModel.from_xml_path(path)
    data = mujoco.MjData(model)
    frame_skip = 4  # gymnasium's Hopper
    rng = np.random.default_rng(2)
    for _ in range(10 * frame_skip):
        mujoco.mj_step(model, data)
    signature = mujoco.mjtState.mjSTATE_INTEGRATION
    saved = np.empty(mujoco.mj_stateSize(model, signature))
    mujoco.mj_getState(model, data, saved, signature)
    plan = rng.uniform(-1, 1, (args.rollout_steps, model.nu))

    def rollout() -> int:
        mujoco.mj_setState(model, data, saved, signature)
        for action in plan:
            data.ctrl[:] = action
            for _ in range(frame_skip):
                mujoco.mj_step(model, data)
        return args.rollout_steps

    return _timed(rollout, args.seconds, args.repeats)


def rollouts(args: argparse.Namespace) -> None:
    print(
        f"\n## restore, roll {args.rollout_steps} steps, repeat "
        f"(env steps/s; envpool: {args.num_envs} envs, {args.num_threads} threads)\n"
    )
    print("| task | envpool | the engine's own loop (one env) |")
    print("| --- | --- | --- |")
    print(
        f"| Pong-v5 | {envpool_rollouts('Pong-v5', args):.0f} | "
        f"{ale_rollouts(args):.0f} (ale-py cloneState/restoreState) |"
    )
    print(
        f"| Hopper-v5 | {envpool_rollouts('Hopper-v5', args):.0f} | "
        f"{mujoco_rollouts(args):.0f} (mujoco mj_getState/mj_setState) |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--num-threads", type=int, default=0, help="0: the pool's default")
    parser.add_argument("--warmup", type=int, default=100, help="steps before part 1's save")
    parser.add_argument("--rollout-steps", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=2.0, help="per timing")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--part", choices=["all", "costs", "rollouts"], default="all")
    parser.add_argument(
        "--ids", nargs="+", default=IDS, help="part 1's ids (default: one per family)"
    )
    args = parser.parse_args()
    if args.part in ("all", "costs"):
        state_costs(args)
    if args.part in ("all", "rollouts"):
        rollouts(args)


if __name__ == "__main__":
    main()
