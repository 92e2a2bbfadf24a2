"""Ids of the metaworld family (Meta-World 3.1.1's Sawyer tasks).

EnvPool 1.2.7's 50 ids `MetaWorld/<Task>-v3` with its option names, each
playing the reference's episodes step for step (docs/metaworld.md).
`task_name` is Meta-World's name of the task; `partially_observable=False`
shows the goal in the observation (Meta-World's goal-observable variants).
"""

from __future__ import annotations

import os

from envpool.python.registry import register

# (id stem, Meta-World's task name), for the tasks implemented.
TASKS = [
    ("Assembly", "assembly-v3"),
    ("Basketball", "basketball-v3"),
    ("BinPicking", "bin-picking-v3"),
    ("BoxClose", "box-close-v3"),
    ("ButtonPress", "button-press-v3"),
    ("ButtonPressTopdown", "button-press-topdown-v3"),
    ("ButtonPressTopdownWall", "button-press-topdown-wall-v3"),
    ("ButtonPressWall", "button-press-wall-v3"),
    ("CoffeeButton", "coffee-button-v3"),
    ("CoffeePull", "coffee-pull-v3"),
    ("CoffeePush", "coffee-push-v3"),
    ("DialTurn", "dial-turn-v3"),
    ("Disassemble", "disassemble-v3"),
    ("DoorClose", "door-close-v3"),
    ("DoorLock", "door-lock-v3"),
    ("DoorOpen", "door-open-v3"),
    ("DoorUnlock", "door-unlock-v3"),
    ("DrawerClose", "drawer-close-v3"),
    ("DrawerOpen", "drawer-open-v3"),
    ("FaucetClose", "faucet-close-v3"),
    ("FaucetOpen", "faucet-open-v3"),
    ("Hammer", "hammer-v3"),
    ("HandInsert", "hand-insert-v3"),
    ("HandlePress", "handle-press-v3"),
    ("HandlePressSide", "handle-press-side-v3"),
    ("HandlePull", "handle-pull-v3"),
    ("HandlePullSide", "handle-pull-side-v3"),
    ("LeverPull", "lever-pull-v3"),
    ("PegInsertSide", "peg-insert-side-v3"),
    ("PegUnplugSide", "peg-unplug-side-v3"),
    ("PickOutOfHole", "pick-out-of-hole-v3"),
    ("PickPlace", "pick-place-v3"),
    ("PickPlaceWall", "pick-place-wall-v3"),
    ("PlateSlide", "plate-slide-v3"),
    ("PlateSlideBack", "plate-slide-back-v3"),
    ("PlateSlideBackSide", "plate-slide-back-side-v3"),
    ("PlateSlideSide", "plate-slide-side-v3"),
    ("Push", "push-v3"),
    ("PushBack", "push-back-v3"),
    ("PushWall", "push-wall-v3"),
    ("Reach", "reach-v3"),
    ("ReachWall", "reach-wall-v3"),
    ("ShelfPlace", "shelf-place-v3"),
    ("Soccer", "soccer-v3"),
    ("StickPull", "stick-pull-v3"),
    ("StickPush", "stick-push-v3"),
    ("Sweep", "sweep-v3"),
    ("SweepInto", "sweep-into-v3"),
    ("WindowClose", "window-close-v3"),
    ("WindowOpen", "window-open-v3"),
]

for _stem, _task_name in TASKS:
    register(
        f"MetaWorld/{_stem}-v3",
        family="metaworld",
        env_class="MetaWorld",
        max_episode_steps=500,
        reward_threshold=10.0,
        task_name=_task_name,
    )


# -- What this family declares (docs/adding_a_family.md) --

# The id tools/smoke_test.py makes and steps in every wheel.
SMOKE_TEST_ID = "MetaWorld/PickPlace-v3"
# Meta-World's models, shipped in the wheel beside this file (taken from the
# pinned metaworld wheel at build time).
ASSET_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "assets")
# pip packages the family reads files from at run time (pinned in
# requirements-dev.txt): the MuJoCo library.
RUNTIME_PACKAGES = ["mujoco"]
# The plate-slide tasks' puck starts at one place; their seeded draw is the
# goal, which the observation hides (partially_observable, the default): the
# reset's observation is the same whatever the seed, the rewards are not.
SEED_INDEPENDENT_RESET = {
    f"MetaWorld/{_stem}-v3": (
        "the puck starts where Meta-World puts it; the seeded goal is hidden from the observation"
    )
    for _stem in ("PlateSlide", "PlateSlideBack", "PlateSlideBackSide", "PlateSlideSide")
}
# pick-out-of-hole's object box is a point (the hole); its seeded goal is
# hidden as well.
SEED_INDEPENDENT_RESET["MetaWorld/PickOutOfHole-v3"] = (
    "the object starts in the hole, at the one place Meta-World's object box allows; "
    "the seeded goal is hidden from the observation"
)
