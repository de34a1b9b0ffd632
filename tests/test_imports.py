"""Import direction (keywords -> patterns -> forest; store is a leaf), checked in a fresh interpreter as click does."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import json, sys
before = set(sys.modules)
import {module}
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def imported_by(module: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module)], capture_output=True, text=True, timeout=120, check=True
    )
    names: list[str] = json.loads(result.stdout)
    return names


def ours(names: list[str], package: str) -> set[str]:
    return {n for n in names if n == package or n.startswith(f"{package}.")}


@pytest.mark.parametrize("module", ["keywords", "patterns", "patterns.ranking", "patterns.refine"])
def test_keywords_and_patterns_do_not_import_forest(module: str) -> None:
    names = imported_by(module)
    assert not ours(names, "forest")
    assert not ours(names, "store") and not ours(names, "eval")


def test_keywords_do_not_import_patterns() -> None:
    assert not ours(imported_by("keywords"), "patterns")


def test_store_imports_only_forest_errors() -> None:
    names = imported_by("store")
    assert ours(names, "forest") == {"forest", "forest.errors"}
    assert not ours(names, "keywords") and not ours(names, "patterns")


def test_forest_package_import_is_light() -> None:
    # The public names load on first use, so `import forest` (and `forest --help`) skip lxml and scikit-learn.
    names = imported_by("forest")
    assert ours(names, "forest") == {"forest", "forest.errors"}
    assert "sklearn" not in names and "lxml" not in names


def test_public_names_resolve() -> None:
    code = "import forest; print(sorted(n for n in forest.__all__ if getattr(forest, n, None) is None))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert result.stdout.strip() == "[]"


def test_extract_is_the_function_after_the_submodule_loads() -> None:
    import forest
    import forest.extraction  # noqa: F401

    from forest import extract

    assert extract is forest.extraction.extract
