"""The ids of the point_nav family (read by envpool through the entry point)."""

import envpool

envpool.register(
    "PointNav-v0",
    family="point_nav",
    env_class="PointNav",
    max_episode_steps=200,
)
envpool.register(
    "PointNavSmallGoal-v0",
    family="point_nav",
    env_class="PointNav",
    max_episode_steps=400,
    goal_radius=0.05,
)

# The compiled library (the default: <package>._<family>).
NATIVE_LIBRARY = "point_nav._point_nav"
