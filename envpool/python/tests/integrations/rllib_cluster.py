"""PPO on envpool pools in RLlib, on a local two-node Ray cluster.

Run by `test_rllib.py` with the interpreter of `benchmark/.venv-rllib`
(`make rllib-env`: ray[rllib] 2.60.0 pins gymnasium 1.2.2, so it has a
virtual environment of its own, with this project's wheel installed):

    benchmark/.venv-rllib/bin/python -P rllib_cluster.py --task CartPole-v1 --out r.json

Each EnvRunner builds its envs with `gymnasium.make_vec("envpool:envpool/<id>",
vectorization_mode=VECTOR_ENTRY_POINT)`: one pool of
`num_envs_per_env_runner` envs. The `envpool:` prefix makes gymnasium import
envpool in the EnvRunner's process (gymnasium 1.x loads no plugins), which
registers the `envpool/<id>` ids there. The two nodes have one CPU each and each
EnvRunner asks for one, so the two EnvRunners must sit on different nodes.
Callbacks check every episode RLlib assembles from the pool's autoresets
(CartPole's reset range, its termination bounds, reward 1 per step, the
pool's `elapsed_step`) and count what they find in RLlib's metrics; the
driver writes those counts, the EnvRunners' node ids and the returns to
`--out` as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import gymnasium
import numpy as np
import ray
from ray.cluster_utils import Cluster
from ray.rllib.algorithms.ppo import PPOConfig
from ray.tune.registry import register_env

import envpool

# CartPole-v1 (gymnasium's and this project's): a reset draws each state
# component from [-0.05, 0.05]; an episode terminates once |x| > 2.4 or
# |theta| > 12 degrees, and is truncated after 500 steps.
RESET_BOUND = 0.05
X_BOUND = 2.4
THETA_BOUND = 12 * 2 * np.pi / 360
MAX_STEPS = 500
OBJECT_STORE_BYTES = 100 * 1024 * 1024


def _count(metrics_logger, key: str, value: int = 1) -> None:
    metrics_logger.log_value(key, value, reduce="lifetime_sum")


def _fault(metrics_logger, what: str) -> None:
    # Printed by the EnvRunner: Ray forwards it to the driver's stderr.
    print(f"autoreset fault: {what}", file=sys.stderr, flush=True)
    _count(metrics_logger, "envpool_autoreset_faults")


def _max_steps(env_runner) -> int:
    return int(env_runner.config.env_config.get("max_episode_steps", MAX_STEPS))


def on_episode_start(*, episode, metrics_logger, **_) -> None:
    """A new episode starts with the pool's reset step (elapsed_step 0)."""
    first = np.asarray(episode.get_observations(0))
    if first.shape == (4,) and np.abs(first).max() > RESET_BOUND:
        _fault(metrics_logger, f"first observation {first} is not a CartPole reset state")
    elapsed = int(episode.get_infos(0)["elapsed_step"])
    if elapsed != 0:
        _fault(metrics_logger, f"first info has elapsed_step {elapsed}")
    _count(metrics_logger, "envpool_episodes_started")


def on_episode_end(*, episode, env_runner, metrics_logger, **_) -> None:
    """A finished episode is one whole episode of the pool, ended where it should."""
    length = episode.t  # steps since the reset, earlier chunks included
    elapsed = int(episode.get_infos(-1)["elapsed_step"])
    if elapsed != length:
        _fault(metrics_logger, f"last info has elapsed_step {elapsed}, episode has {length}")
    if episode.is_truncated and length != _max_steps(env_runner):
        _fault(metrics_logger, f"truncated after {length} steps, not {_max_steps(env_runner)}")
    if not episode.is_terminated and not episode.is_truncated:
        _fault(metrics_logger, "ended neither terminated nor truncated")
    observations = np.asarray(episode.get_observations())
    if observations.shape[1:] == (4,):  # CartPole: its bounds and rewards
        rewards = np.asarray(episode.get_rewards())
        last, inside = observations[-1], observations[:-1]
        if not np.all(rewards == 1.0):
            _fault(metrics_logger, f"rewards other than 1: {rewards[rewards != 1.0]}")
        if inside.size and (
            np.abs(inside[:, 0]).max() > X_BOUND or np.abs(inside[:, 2]).max() > THETA_BOUND
        ):
            _fault(metrics_logger, "an observation before the last is out of bounds")
        out_of_bounds = abs(last[0]) > X_BOUND or abs(last[2]) > THETA_BOUND
        if episode.is_terminated and not out_of_bounds:
            _fault(metrics_logger, f"terminated at {last}, inside the bounds")
    _count(metrics_logger, "envpool_episodes_checked")
    _count(metrics_logger, "envpool_episodes_truncated", int(bool(episode.is_truncated)))


def make_channel_last_pool(env_config: dict):
    """An envpool Atari pool with observations as float32 (84, 84, 4) in [0, 1].

    RLlib's default CNN encoder reads float images channel-last; envpool's
    Atari stack is uint8 and channel-first (4, 84, 84). Registered with `register_env`, it
    is RLlib's vector entry point: called with `num_envs` in `env_config`.
    """
    options = dict(env_config)
    task = options.pop("task")
    pool = gymnasium.make_vec(
        f"envpool:envpool/{task}",  # imports envpool in the EnvRunner
        vectorization_mode=gymnasium.VectorizeMode.VECTOR_ENTRY_POINT,
        **options,
    )
    channels, height, width = pool.single_observation_space.shape
    single = gymnasium.spaces.Box(0.0, 1.0, (height, width, channels), np.float32)
    return gymnasium.wrappers.vector.TransformObservation(
        pool,
        lambda obs: obs.transpose(0, 2, 3, 1).astype(np.float32) / 255.0,
        gymnasium.vector.utils.batch_space(single, pool.num_envs),
        single_observation_space=single,
    )


def runner_facts(runner) -> dict:
    """Where an EnvRunner runs and what it steps."""
    pool = runner.env.unwrapped
    return {
        "node_id": ray.get_runtime_context().get_node_id(),
        "pid": os.getpid(),
        "env_class": f"{type(pool).__module__}.{type(pool).__qualname__}",
        "num_envs": int(runner.num_envs),
        "task_id": pool.spec.id,
        "autoreset_mode": str(pool.metadata["autoreset_mode"].value),
    }


def is_image(task: str) -> bool:
    return len(envpool.make_spec(task).observation_space.shape) == 3


def build_config(
    task: str, args: argparse.Namespace, autoreset_mode: str = "next_step"
) -> PPOConfig:
    """PPO with one envpool pool per EnvRunner (env_config: pool options)."""
    image = is_image(task)
    pool_options = {"num_threads": args.num_threads, "autoreset_mode": autoreset_mode}
    max_steps = args.image_max_episode_steps if image else args.max_episode_steps
    if max_steps:
        pool_options["max_episode_steps"] = max_steps
    fragment = args.image_fragment if image else args.fragment
    if image:
        env = "envpool-channel-last"
        register_env(env, make_channel_last_pool)
        pool_options["task"] = task
    else:
        env = f"envpool:envpool/{task}"
    config = (
        PPOConfig()
        .environment(env, env_config=pool_options)
        .env_runners(
            num_env_runners=args.num_env_runners,
            num_envs_per_env_runner=args.num_envs,
            num_cpus_per_env_runner=1,
            gym_env_vectorize_mode=gymnasium.VectorizeMode.VECTOR_ENTRY_POINT,
            rollout_fragment_length=fragment,
        )
        .learners(num_learners=0)
        # An EnvRunner that fails ends the run at once: no restarts.
        .fault_tolerance(restart_failed_env_runners=False)
        .training(
            train_batch_size_per_learner=args.num_env_runners * args.num_envs * fragment,
            minibatch_size=128,
            num_epochs=args.epochs,
            lr=3e-4,
            vf_loss_coeff=0.01,
        )
        .debugging(seed=args.seed)
    )
    return config.callbacks(on_episode_start=on_episode_start, on_episode_end=on_episode_end)


def train(config: PPOConfig, iterations: int) -> dict:
    """Build the algorithm, train it, stop it: what the EnvRunners saw."""
    algo = config.build_algo()
    report: dict = {
        "runners": algo.env_runner_group.foreach_env_runner(runner_facts, local_env_runner=False)
    }
    rows = []
    for _ in range(iterations):
        runners = algo.train()["env_runners"]
        rows.append(
            {
                "env_steps_sampled": int(runners.get("num_env_steps_sampled", 0)),
                "episodes": int(runners.get("num_episodes", 0)),
                "episode_return_mean": float(runners.get("episode_return_mean", np.nan)),
                "episodes_started": int(runners.get("envpool_episodes_started", 0)),
                "episodes_checked": int(runners.get("envpool_episodes_checked", 0)),
                "episodes_truncated": int(runners.get("envpool_episodes_truncated", 0)),
                "autoreset_faults": int(runners.get("envpool_autoreset_faults", 0)),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    report["iterations"] = rows
    stop_started = time.perf_counter()
    algo.stop()
    report["stop_seconds"] = time.perf_counter() - stop_started
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="+", default=["CartPole-v1"])
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument(
        "--image-iterations",
        type=int,
        default=1,
        help="iterations of an id with image observations (Atari: a CNN on CPU is slow)",
    )
    parser.add_argument("--image-fragment", type=int, default=24)
    parser.add_argument("--image-max-episode-steps", type=int, default=20)
    parser.add_argument("--num-env-runners", type=int, default=2)
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--num-threads", type=int, default=1)
    parser.add_argument("--fragment", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-episode-steps", type=int, default=0, help="a pool option")
    parser.add_argument(
        "--same-step-iterations",
        type=int,
        default=0,
        help="then train that many iterations on same_step pools (the checks' control)",
    )
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    started = time.perf_counter()
    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "object_store_memory": OBJECT_STORE_BYTES},
    )
    cluster.add_node(num_cpus=1, object_store_memory=OBJECT_STORE_BYTES)
    ray.init(address=cluster.address, include_dashboard=False, log_to_driver=True)
    report: dict = {"nodes": [n["NodeID"] for n in ray.nodes() if n["Alive"]], "tasks": {}}
    try:
        for task in args.tasks:
            image = is_image(task)
            iterations = args.image_iterations if image else args.iterations
            task_started = time.perf_counter()
            report["tasks"][task] = train(build_config(task, args), iterations)
            report["tasks"][task]["seconds"] = time.perf_counter() - task_started
            if args.same_step_iterations and not image:
                # The control: a pool in same_step mode (RLlib reads no
                # autoreset_mode and assumes next_step) must fail the checks.
                same_step = build_config(task, args, autoreset_mode="same_step")
                task_started = time.perf_counter()
                control = train(same_step, args.same_step_iterations)
                control["seconds"] = time.perf_counter() - task_started
                report["tasks"][task]["same_step"] = control
    finally:
        ray.shutdown()
        cluster.shutdown()
    report["seconds"] = time.perf_counter() - started
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
