"""Import direction: keywords, patterns and store depend on nothing of the project; forest uses them;
eval uses forest; nothing imports against that, and no module imports itself back through others.

Every import statement counts, function-local ones included: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("keywords", "patterns", "store", "forest", "eval")
# What each top-level package may import of the project (itself always).
ALLOWED = {
    "keywords": set(),
    "patterns": {"keywords"},
    "store": set(),
    "forest": {"keywords", "patterns", "store"},
    "eval": {"keywords", "patterns", "store", "forest"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    # A compiled module (forest/classifier/_walk.pyx) counts by its stub, whose imports stand for its own.
    stubs = {module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.pyi"))}
    return stubs | {module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


def imports_of(name: str, path: Path, known: Iterable[str]) -> set[str]:
    """The project modules ``name`` imports, anywhere in its file (TYPE_CHECKING blocks aside)."""
    modules = set(known)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    type_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            type_only.update(id(child) for stmt in node.body for child in ast.walk(stmt))
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from a.b import c` imports a.b, or the module a.b.c when c is one.
            targets = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def violations(edges: Mapping[str, Iterable[str]]) -> list[str]:
    """Imports against the direction, and import cycles, as readable lines."""
    found = []
    for source, targets in edges.items():
        top = source.split(".")[0]
        for target in targets:
            other = target.split(".")[0]
            if other != top and other not in ALLOWED.get(top, set()):
                found.append(f"{source} imports {target}: {top} may not depend on {other}")
    found.extend(f"cycle: {' -> '.join(cycle)}" for cycle in cycles(edges))
    return found


def cycles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component) + [min(component)])
    for node in sorted(edges):
        if node not in index:
            visit(node)
    return components


def test_no_import_against_the_direction_and_no_cycle() -> None:
    assert violations(graph()) == []


def test_the_check_catches_the_imports_it_was_written_for() -> None:
    # The tangles found at commit a4f739b (issue 14): each must be reported.
    edges = {
        "forest.classifier.train": {"eval.datasets"},
        "store.wrappers": {"forest.errors"},
        "forest.wrapper": {"forest.extraction"},
        "forest.extraction": {"forest.wrapper"},
        "keywords.tfidf": {"patterns.dom"},
        "eval.suite": {"forest.classifier.report"},
    }
    found = violations(edges)
    assert "forest.classifier.train imports eval.datasets: forest may not depend on eval" in found
    assert "store.wrappers imports forest.errors: store may not depend on forest" in found
    assert "keywords.tfidf imports patterns.dom: keywords may not depend on patterns" in found
    assert "cycle: forest.extraction -> forest.wrapper -> forest.extraction" in found
    assert len(found) == 4  # eval may import forest


def test_local_imports_count(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("def f():\n    from forest.extraction import extract\n    import eval.command\n")
    assert imports_of("store.m", source, ["forest.extraction", "eval.command", "eval"]) == {"forest.extraction", "eval.command"}


@pytest.mark.parametrize("name", sorted(project_modules()))
def test_every_module_imports(name: str) -> None:
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as exc:
        # An optional extra's package (the web app's starlette), never one of ours.
        if (exc.name or "").split(".")[0] in PACKAGES:
            raise
        pytest.skip(f"{name} needs {exc.name}, an optional dependency that is not installed")


def test_forest_package_import_is_light() -> None:
    # The public names load on first use, so `import forest` (and `forest --help`) skip lxml and scikit-learn.
    code = "import sys, forest; print(sorted(m for m in sys.modules if m.split('.')[0] in ('lxml', 'sklearn', 'eval')))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True, cwd=ROOT)
    assert result.stdout.strip() == "[]"


def test_public_names_resolve() -> None:
    code = "import forest; print(sorted(n for n in forest.__all__ if getattr(forest, n, None) is None))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True, cwd=ROOT)
    assert result.stdout.strip() == "[]"


def test_extract_is_the_function_after_the_submodule_loads() -> None:
    import forest
    import forest.extraction  # noqa: F401

    from forest import extract

    assert extract is forest.extraction.extract
