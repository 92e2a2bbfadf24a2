"""Every Python snippet of the README and docs/ runs as documented.

A page's snippets run top to bottom in one fresh interpreter, sharing their
names, as a reader pastes them one after another. A snippet that is not a
program (a template with placeholders, an excerpt of a file, code that needs a
package this project does not install) is marked on the line before its fence
with `<!-- snippet: not run: <why> -->`; every other snippet runs.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
NOT_RUN = re.compile(r"<!-- snippet: not run: (.+?) -->")

# Runs each snippet of one page in order, in one namespace; a failure names
# the page and the snippet's line.
RUNNER = """
import json, sys, traceback
page, snippets = json.load(sys.stdin)
names = {"__name__": "__main__"}
for line, code in snippets:
    try:
        exec(compile(code, f"{page}:{line}", "exec"), names)
    except BaseException:
        traceback.print_exc()
        sys.exit(f"the snippet at {page}:{line} failed")
"""


def snippets(page: Path) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The page's Python snippets as (line, code): those to run, those marked not run."""
    run, skipped = [], []
    lines = page.read_text().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            start = i + 1
            end = start
            while lines[end].strip() != "```":
                end += 1
            code = "\n".join(lines[start:end]) + "\n"
            marker = NOT_RUN.search(lines[i - 1]) if i else None
            (skipped if marker else run).append((start + 1, code))
            i = end
        i += 1
    return run, skipped


def test_the_pages_have_snippets() -> None:
    # The collection itself can fail: a docs folder that moved, a fence
    # spelled otherwise. These pages are known to hold runnable snippets.
    counts = {p.relative_to(ROOT).as_posix(): len(snippets(p)[0]) for p in PAGES}
    for page in ("README.md", "docs/api.md", "docs/integrations/gymnasium.md"):
        assert counts[page] >= 1, counts
    assert sum(counts.values()) >= 20, counts


def test_a_marked_snippet_says_why() -> None:
    for page in PAGES:
        text = page.read_text()
        for marker in re.findall(r"<!-- snippet:.*?-->", text):
            assert NOT_RUN.fullmatch(marker), f"{page}: {marker} (write: not run: <why>)"


@pytest.mark.parametrize(
    "page",
    [p for p in PAGES if snippets(p)[0]],
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_snippets_of_page_run(page: Path, tmp_path: Path) -> None:
    run, _ = snippets(page)
    # Trainers write logs into the working folder: a fresh one per page (and
    # SB3's logger into $SB3_LOGDIR, else a new /tmp/SB3-<date>).
    env = dict(
        os.environ,
        MPLBACKEND="Agg",
        SDL_VIDEODRIVER="dummy",
        PYTHONHASHSEED="0",
        SB3_LOGDIR=str(tmp_path / "sb3"),
    )
    result = subprocess.run(
        [sys.executable, "-P", "-c", RUNNER],
        input=json.dumps([page.relative_to(ROOT).as_posix(), run]),
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=540,
    )
    assert result.returncode == 0, result.stderr[-4000:]
