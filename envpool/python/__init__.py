"""The Python side of envpool: registry, specs and the three API styles."""
