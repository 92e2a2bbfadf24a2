"""Classic control envs: CartPole, Pendulum, MountainCar, Acrobot."""
