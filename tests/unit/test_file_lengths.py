"""No Python file over 450 lines (issue 38): past that a module is doing more than one job, and
the next engineer reads all of it to change one. Split a file that grows past it along what its
parts do (as engine/swap_garment/ is split along its steps)."""

from __future__ import annotations

import subprocess

from tests.support.paths import REPO

LIMIT = 450


def python_files() -> dict[str, int]:
    """Every Python file of the repository, tracked or new (git's own ignores leave out the
    virtual environments, node_modules and data), with its number of lines."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", "*.py"],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    lengths = {}
    for name in listed:
        path = REPO / name
        if path.is_file():  # a deleted file stays listed until its deletion is committed
            lengths[name] = len(path.read_text(encoding="utf-8").splitlines())
    return lengths


def test_no_python_file_is_over_the_limit() -> None:
    lengths = python_files()
    assert len(lengths) > 100, "the repository's Python files were not found"
    over = {name: n for name, n in lengths.items() if n > LIMIT}
    assert over == {}, f"over {LIMIT} lines (split along what each part does): {over}"
