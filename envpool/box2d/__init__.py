"""Box2D envs: LunarLander, BipedalWalker, CarRacing (Box2D 2.3)."""
