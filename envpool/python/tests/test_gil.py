"""Env work runs without the GIL, inline stepping included: other Python threads go on."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import envpool

envpool.register("TestSlowCounter-v0", family="testing", env_class="TestCounter", sleep_us=100_000)


def progress_while(call) -> int:
    """How often another Python thread ran its loop while `call` ran."""
    count = 0
    stop = threading.Event()

    def spin() -> None:
        nonlocal count
        while not stop.is_set():
            count += 1
            time.sleep(0.001)

    thread = threading.Thread(target=spin)
    thread.start()
    time.sleep(0.01)
    before = count
    call()
    during = count - before
    stop.set()
    thread.join()
    return during


@pytest.mark.parametrize(
    "kwargs", [{"num_envs": 1}, {"num_envs": 2, "num_threads": 1}, {"num_envs": 4, "batch_size": 2}]
)
def test_another_python_thread_runs_while_envs_step(kwargs):
    env = envpool.make("TestSlowCounter-v0", **kwargs)
    n = env.spec.config.batch_size
    env.async_reset()
    for _ in range(env.spec.config.num_envs // n):  # every reset collected
        *_, info = env.recv()
    action = np.zeros(n, np.int64)
    ids = info["env_id"]
    # each step sleeps 0.1 s in the env: the other thread must get ~100 turns
    assert progress_while(lambda: env.step(action, ids)) > 20
    env.close()


def test_the_first_reset_of_an_inline_pool_releases_the_gil():
    env = envpool.make("TestSlowCounter-v0", num_envs=1)
    env.reset()  # resets do not sleep; steps do
    assert progress_while(lambda: env.step(np.zeros(1, np.int64))) > 20
