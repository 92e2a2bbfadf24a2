"""One env of a pool checked beside its own gymnasium reference, step by step.

For alignment tests that step a pool (next-step autoreset) and one reference
env per pool env with the same actions: `check_step` compares env `i`'s row
of a pool step with what its reference gives.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def check_step(
    i: int,
    ref: Any,
    action: Any,
    batch: tuple,
    done: np.ndarray,
    steps: np.ndarray,
    where: str,
) -> float | None:
    """Env `i`'s row of `batch` (a pool step's (obs, rew, term, trunc, info))
    against its reference `ref`, which takes `action`.

    When env `i`'s last step ended an episode (`done[i]`), the pool's step was
    its autoreset: the reference resets without a seed, and the row must be
    that first observation with reward 0, no end and elapsed step 0; returns
    None. Otherwise the reference steps: observation (exactly), reward (ours
    float32), terminated, truncated and elapsed step must be equal; returns the
    reference's reward. `done` and `steps` (per env) are kept up to date.
    """
    obs, rew, term, trunc, info = batch
    if done[i]:
        r_obs, _ = ref.reset()
        np.testing.assert_array_equal(obs[i], r_obs, err_msg=where)
        assert rew[i] == 0 and not term[i] and not trunc[i], where
        assert info["elapsed_step"][i] == 0, where
        done[i] = False
        steps[i] = 0
        return None
    r_obs, r_rew, r_term, r_trunc, _ = ref.step(action)
    steps[i] += 1
    np.testing.assert_array_equal(obs[i], r_obs, err_msg=where)
    assert rew[i] == np.float32(r_rew), (where, rew[i], r_rew)
    assert bool(term[i]) == r_term and bool(trunc[i]) == r_trunc, where
    assert info["elapsed_step"][i] == steps[i], where
    done[i] = bool(term[i] or trunc[i])
    return float(r_rew)
