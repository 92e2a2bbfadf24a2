"""Ids of the highway family and their option overrides.

The canonical ids are EnvPool 1.2.7's; each has highway-env's own lower-case
id as an alias with the same options.
"""

from envpool.python.registry import register

_HIGHWAY_FAST = {
    "duration": 30,
    "ego_spacing": 1.5,
    "lanes_count": 3,
    "max_episode_steps": 30,
    "other_vehicles_check_collisions": False,
    "simulation_frequency": 5,
    "vehicles_count": 20,
}

for task_id in ("Highway-v0", "highway-v0"):
    register(
        task_id,
        family="highway",
        env_class="Highway",
        duration=40,
        max_episode_steps=40,
    )
for task_id in ("HighwayFast-v0", "highway-fast-v0"):
    register(task_id, family="highway", env_class="Highway", **_HIGHWAY_FAST)
for task_id, version in (("Merge-v0", 0), ("merge-v0", 0), ("Merge-v1", 1), ("merge-v1", 1)):
    register(
        task_id,
        family="highway",
        env_class="Merge",
        duration=200,
        max_episode_steps=200,
        # -v1: highway-env's ConnectedLaneMergeEnv.
        neighbour_vehicles_connected_lanes=version == 1,
    )
for task_id, version in (("Exit-v0", 0), ("exit-v0", 0), ("Exit-v1", 1), ("exit-v1", 1)):
    register(
        task_id,
        family="highway",
        env_class="Exit",
        duration=18,
        max_episode_steps=18,
        simulation_frequency=5,
        # -v1: highway-env's ConnectedLaneExitEnv.
        neighbour_vehicles_connected_lanes=version == 1,
    )
for task_id, version in (
    ("Roundabout-v0", 0),
    ("roundabout-v0", 0),
    ("Roundabout-v1", 1),
    ("roundabout-v1", 1),
):
    register(
        task_id,
        family="highway",
        env_class="Roundabout",
        duration=11,
        max_episode_steps=11,
        # -v1: highway-env's ConnectedLaneRoundaboutEnv.
        neighbour_vehicles_connected_lanes=version == 1,
    )
for task_id in ("TwoWay-v0", "two-way-v0"):
    register(task_id, family="highway", env_class="TwoWay", duration=15, max_episode_steps=15)
for task_id, version in (("UTurn-v0", 0), ("u-turn-v0", 0), ("UTurn-v1", 1), ("u-turn-v1", 1)):
    register(
        task_id,
        family="highway",
        env_class="UTurn",
        duration=10,
        max_episode_steps=10,
        # -v1: highway-env's ConnectedLaneUTurnEnv.
        neighbour_vehicles_connected_lanes=version == 1,
    )
for task_id, version in (
    ("MergeGeneric-v0", 0),
    ("merge-generic-v0", 0),
    ("MergeGeneric-v1", 1),
    ("merge-generic-v1", 1),
):
    register(
        task_id,
        family="highway",
        env_class="MergeGeneric",
        duration=200,
        max_episode_steps=200,
        # -v1: highway-env's ConnectedLaneMergeGenericEnv.
        neighbour_vehicles_connected_lanes=version == 1,
    )
for task_id, version in (
    ("RoundaboutGeneric-v0", 0),
    ("roundabout-generic-v0", 0),
    ("RoundaboutGeneric-v1", 1),
    ("roundabout-generic-v1", 1),
):
    register(
        task_id,
        family="highway",
        env_class="RoundaboutGeneric",
        duration=17,
        max_episode_steps=17,
        vehicles_count=5,
        # -v1: highway-env's ConnectedLaneRoundaboutGenericEnv.
        neighbour_vehicles_connected_lanes=version == 1,
    )


# -- What this family declares (docs/adding_a_family.md) --

# The id tools/smoke_test.py makes and steps in every wheel.
SMOKE_TEST_ID = "HighwayFast-v0"
