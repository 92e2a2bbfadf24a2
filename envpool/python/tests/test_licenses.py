"""The wheel carries the project's licence and the licences of what it bundles."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import envpool

LICENSES = Path(envpool.__file__).parent / "licenses"
NOTICES = LICENSES / "THIRD_PARTY_NOTICES.md"
# What each licence's text starts with or says (a wrong file is caught).
MARKERS = {
    "Apache-2.0": "Apache License",
    "BSD-3-Clause": "Redistribution and use in source and binary forms",
    "GPL-2.0": "GNU GENERAL PUBLIC LICENSE",
    "LGPL-3.0": "GNU LESSER GENERAL PUBLIC LICENSE",
    "MIT": "Permission is hereby granted, free of charge",
    "Zlib": "This software is provided 'as-is'",
}


def rows() -> list[tuple[str, str, list[str]]]:
    """(component, licence, text files) of each row of the notices' table."""
    found = []
    for line in NOTICES.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] not in ("Component", "---"):
            found.append((cells[0], cells[3], re.findall(r"`([^`]+)`", cells[4])))
    return found


def test_the_wheel_states_the_projects_licence() -> None:
    metadata = importlib.metadata.metadata("envpool")
    assert metadata["License"] == "Apache-2.0"
    files = importlib.metadata.files("envpool") or []
    text = next(f for f in files if f.name == "LICENSE" and "dist-info" in str(f.parent))
    assert "Apache License" in text.read_text() and "Version 2.0" in text.read_text()


def test_the_wheel_holds_every_licence_text_the_notices_name() -> None:
    table = rows()
    assert len(table) >= 10, table
    named = set()
    for component, licence, texts in table:
        assert texts, component
        for name in texts:
            path = LICENSES / name
            assert path.is_file(), f"{component}: {name} is not in the wheel's envpool/licenses/"
            assert path.stat().st_size > 300, name
            named.add(name)
        marker = MARKERS.get(licence)
        if marker is not None:
            assert any(marker in (LICENSES / t).read_text() for t in texts), (component, licence)
    shipped = {p.name for p in LICENSES.iterdir()} - {NOTICES.name, "__init__.py"}
    assert shipped == named, "every licence text shipped has a row in THIRD_PARTY_NOTICES.md"
