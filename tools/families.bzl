"""The env families the wheel bundles: adding one is a folder, one
envpool_family call in its BUILD and one line here (Bazel 4 cannot list the
subpackages itself; envpool/python/tests/test_families.py checks that this
list is the folders with a registration.py). Python discovers the installed
families by their registration.py."""

FAMILIES = [
    "atari",
    "box2d",
    "classic_control",
    "dm_control",
    "highway",
    "locomotion",
    "metaworld",
    "minigrid",
    "mujoco",
    "pgx",
    "procgen",
    "robotics",
    "toy_text",
    "vizdoom",
]
