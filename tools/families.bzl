"""The env families the wheel bundles: adding one is a folder, one
envpool_family call in its BUILD and one line here. Python discovers the
installed families by their registration.py."""

FAMILIES = [
    "atari",
    "box2d",
    "classic_control",
    "dm_control",
    "minigrid",
    "mujoco",
    "procgen",
    "toy_text",
    "vizdoom",
]
