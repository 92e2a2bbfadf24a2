"""Toy text envs: Catch, FrozenLake, Taxi, NChain, CliffWalking, Blackjack."""
