"""Test set-up of the minigrid family: minigrid 3.2.0's wheel lacks the WFC
pattern images its WFC levels read, so the repository's copies (the same
files, envpool/minigrid/wfc_patterns/) are put into the installed package's
`minigrid/envs/wfc/patterns/` where missing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

PATTERNS = Path(__file__).resolve().parents[1] / "wfc_patterns"


def install_wfc_patterns() -> Path:
    """Copy the pattern images into the installed minigrid; its folder."""
    import minigrid.envs.wfc.config as wfc_config

    target = Path(wfc_config.PATTERN_PATH)
    target.mkdir(parents=True, exist_ok=True)
    for image in sorted(PATTERNS.glob("*.png")):
        dest = target / image.name
        if not dest.exists() or dest.read_bytes() != image.read_bytes():
            shutil.copyfile(image, dest)
    return target


@pytest.fixture(scope="session", autouse=True)
def _wfc_patterns_in_reference() -> None:
    install_wfc_patterns()
