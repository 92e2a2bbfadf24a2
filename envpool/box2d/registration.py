"""Ids of the box2d family and their option overrides."""

from envpool.python.registry import register

for version in ("v2", "v3"):
    register(
        f"LunarLander-{version}",
        family="box2d",
        env_class="LunarLander",
        max_episode_steps=1000,
        reward_threshold=200.0,
    )
    register(
        f"LunarLanderContinuous-{version}",
        family="box2d",
        env_class="LunarLander",
        max_episode_steps=1000,
        reward_threshold=200.0,
        continuous=True,
    )
register(
    "BipedalWalker-v3",
    family="box2d",
    env_class="BipedalWalker",
    max_episode_steps=1600,
    reward_threshold=300.0,
    hardcore=False,
)
register(
    "BipedalWalkerHardcore-v3",
    family="box2d",
    env_class="BipedalWalker",
    max_episode_steps=2000,
    reward_threshold=300.0,
    hardcore=True,
)
for version in ("v2", "v3"):
    register(
        f"CarRacing-{version}",
        family="box2d",
        env_class="CarRacing",
        max_episode_steps=1000,
        reward_threshold=900.0,
    )


# -- What this family declares (docs/adding_a_family.md) --

# The id tools/smoke_test.py makes and steps in every wheel.
SMOKE_TEST_ID = "LunarLander-v3"
# Conformance exceptions (envpool.testing.conformance), each with its reason.
HISTORY_DEPENDENT = {
    _task_id: "gymnasium's BipedalWalker keeps one b2World for the env's lifetime: what "
    "the broad phase keeps of earlier bodies changes the order later contacts are solved "
    "in, so reset(seed=s) after an episode need not repeat a new env's rollout "
    "(docs/box2d.md); compared by the first observation only"
    for _task_id in ("BipedalWalker-v3", "BipedalWalkerHardcore-v3")
}
