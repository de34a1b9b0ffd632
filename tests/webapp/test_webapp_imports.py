"""forest.webapp uses forest only through its public names, so it survives forest's modules moving."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import forest

WEBAPP = Path(forest.__file__).resolve().parent / "webapp"
# The bundled example site's server, which the screenshot command serves (as `forest demo` does),
# the page and region as extraction reads them, which the page view marks up, the classifier's
# blocks (and its page size limit), which it highlights on a page extracted cold, and forest's own
# renderers, which print the article panel and its markdown (one renderer per format: the CLI's).
ALLOWED_INTERNAL = {"forest.demo", "forest.html", "forest.region", "forest.classifier.page", "forest.limits",
                    "forest.article.render", "forest.article.clean_html"}


def forest_imports(path: Path) -> list[tuple[str, list[str]]]:
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((alias.name, []) for alias in node.names if alias.name.split(".")[0] == "forest")
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "forest":
            found.append((node.module, [alias.name for alias in node.names]))
    return found


@pytest.mark.parametrize("path", sorted(WEBAPP.glob("*.py")), ids=lambda p: p.name)
def test_webapp_imports_only_public_forest_names(path: Path) -> None:
    for module, names in forest_imports(path):
        if module == "forest":
            assert set(names) <= set(forest.__all__), names
        else:
            assert module.startswith("forest.webapp") or module in ALLOWED_INTERNAL, module


def test_forest_attributes_used_are_public() -> None:
    used = {
        node.attr
        for path in WEBAPP.glob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "forest"
    }
    assert used and used <= set(forest.__all__), used - set(forest.__all__)
