"""highway-env's driving scenes (highway-env 1.12.1), in C++."""
