"""Which ids the whole-id tests step in `make test`; `make test-all-ids` steps every id.

The project-wide tests that make and step every registered id (the
conformance check, the first step) would take longer with every family added.
In `make test` a family of more than SAMPLE_ABOVE ids is checked on one id
in SAMPLE_EVERY of them (chosen by a hash of the id, so the same ones every
run) and always on its SMOKE_TEST_ID; its own tests cover its ids against
its reference. Ids a family declares in SLOW_TEST_IDS (a minute or more of
these checks an id: a camera rendered at every step on a CPU) are left to the
family's own tests in `make test`. ENVPOOL_TEST_ALL=1 (`make test-all-ids`)
checks every id.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterable

import envpool
from envpool.python.registry import family_declaration

SAMPLE_ABOVE = 40
SAMPLE_EVERY = 4


def sampled_ids(ids: Iterable[str]) -> list[str]:
    """`ids`, sorted, less the unsampled ids of large families (see above)."""
    ids = sorted(ids)
    if os.environ.get("ENVPOOL_TEST_ALL"):
        return ids
    by_family: dict[str, list[str]] = {}
    for task_id in ids:
        by_family.setdefault(envpool.make_spec(task_id).entry.family, []).append(task_id)
    kept = []
    for family, family_ids in by_family.items():
        slow = family_declaration(family, "SLOW_TEST_IDS", {})
        family_ids = [t for t in family_ids if t not in slow]
        if len(family_ids) <= SAMPLE_ABOVE:
            kept += family_ids
            continue
        smoke = family_declaration(family, "SMOKE_TEST_ID")
        kept += [t for t in family_ids if t == smoke or zlib.crc32(t.encode()) % SAMPLE_EVERY == 0]
    return sorted(kept)
