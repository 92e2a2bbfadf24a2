"""env.xla()'s CUDA custom calls (envpool/core/xla.h: envpool_send_cuda,
envpool_recv_cuda), as far as a machine without a GPU can check them.

On a GPU they copy the call's buffers to the host, run the CPU handler and
copy the results back (benchmark/many_cores.py part 3 compares them with the
CPU path there). Here: they are exported, registered only where JAX has a
CUDA backend, answer XLA's metadata query like the CPU handlers, and a call
that cannot reach a GPU raises a clear error while the pool goes on.
"""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

import envpool
from envpool.python import xla

jax = pytest.importorskip("jax")
jnp = jax.numpy


def core_library():
    from envpool.python.spec import load_family

    return load_family("classic_control"), ctypes.CDLL(load_family("classic_control").__file__)


def test_cuda_handlers_are_exported_for_each_cpu_target():
    core, library = core_library()
    for name in core.xla_targets():
        assert getattr(library, f"{name}_cuda") is not None


@pytest.mark.skipif(xla._has_cuda_backend(jax), reason="this machine's JAX has a CUDA backend")
def test_no_cuda_backend_is_seen_without_a_gpu():
    assert xla._has_cuda_backend(jax) is False


def test_a_staged_call_that_reaches_no_gpu_raises_and_the_pool_goes_on():
    _, library = core_library()
    # Registered for the CPU under a name of its own, so that XLA runs the
    # staging code here: it answers the metadata query at registration, then
    # finds no CUDA driver or no GPU stream at the call.
    jax.ffi.register_ffi_target(
        "envpool_test_staged_send", jax.ffi.pycapsule(library.envpool_send_cuda), platform="cpu"
    )
    env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=2, seed=0)
    handle, _, _, step = env.xla()
    env.reset()
    staged = jax.ffi.ffi_call(
        "envpool_test_staged_send", jax.ShapeDtypeStruct((1,), jnp.int32), has_side_effect=True
    )
    action = jnp.zeros(2, dtype=jnp.int32)
    env_id = jnp.arange(2, dtype=jnp.int32)
    with pytest.raises(Exception, match=r"CUDA|GPU|stream"):
        jax.block_until_ready(staged(handle, env_id, action, pool=np.int64(env._pool.address)))
    handle, (obs, *_, info) = jax.jit(step)(handle, action)
    assert obs.shape == (2, 4) and list(np.asarray(info["env_id"])) == [0, 1]
    env.close()
