"""ViZDoom scenarios on the ViZDoom 1.3.2 engine (its wheel provides the engine and scenarios)."""
