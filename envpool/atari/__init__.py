"""Atari 2600 games through the Arcade Learning Environment (ALE 0.11.2)."""
