"""Runtime dependencies are what run time imports: learning and extraction need no undeclared package, and no training one."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11's tomllib")

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

# A process that learns a site and extracts a wrapped and two cold pages (one for each shipped model), then names the
# top-level modules it imported from installed distributions.
_RUN = textwrap.dedent("""
    import sys, sysconfig
    from forest.extraction import extract
    from forest.learning.induce import Inducer
    from forest.model import Page
    topics = ["harbour bridge", "orchard apples", "library archive", "stadium league", "museum paintings"]
    pages = [Page("<html><head><title>" + t + "</title></head><body><ul id='nav'><li><a href='/'>Home</a></li></ul>"
                  "<div class='story'><h1>The " + t + " report</h1>"
                  + "".join("<p>Sentence %d about the %s and the plans for next year, officials said today.</p>" % (j, t)
                            for j in range(6))
                  + "</div><p id='legal'>Copyright</p></body></html>", url="http://a.example/%d" % i)
             for i, t in enumerate(topics)]
    wrapper = Inducer().fit(pages, "a.example").wrapper_
    assert extract(wrapper, pages[0].html).method == "wrapper" and extract(None, pages[1].html).method == "classifier"
    # A page with a viewport and no article type is read by the modern model (forest.extraction.models).
    modern = pages[2].html.replace("<head>", "<head><meta name='viewport' content='width=device-width'>")
    assert extract(None, modern).method == "classifier"
    print(" ".join(sorted({name.split(".")[0] for name in sys.modules})))
""")


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;(]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _closure(names: set[str]) -> set[str]:
    """``names`` and every distribution they require, installed ones only (no extras)."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        todo.extend(_name(r) for r in requires if "extra ==" not in r)
    return seen


def test_runtime_dependencies_are_what_learning_and_extraction_import() -> None:
    # scikit-learn above all: importing it takes about a second, and only training needs it.
    done = subprocess.run([sys.executable, "-c", _RUN], capture_output=True, text=True, timeout=120, check=True, cwd=ROOT)
    # What the interpreter imports before any of forest (a .pth file's hooks) is nobody's dependency.
    bare = subprocess.run([sys.executable, "-c", "import sys; print(' '.join(m.split('.')[0] for m in sys.modules))"],
                          capture_output=True, text=True, timeout=60, check=True, cwd=ROOT)
    modules = set(done.stdout.split()) - set(bare.stdout.split())
    providers = metadata.packages_distributions()
    used = {_name(dist) for module in modules for dist in providers.get(module, ())} - {"forest-extract"}
    declared = {_name(r) for r in PROJECT["dependencies"]}
    assert "scikit-learn" not in declared and "scikit-learn" not in used
    assert used <= _closure(declared), sorted(used - _closure(declared))


def test_training_without_scikit_learn_says_what_to_install() -> None:
    script = textwrap.dedent("""
        import sys
        sys.modules["sklearn"] = None  # as if scikit-learn were not installed
        import forest.classifier
        try:
            forest.classifier.TagClassifier
        except ModuleNotFoundError as exc:
            print(exc)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True, cwd=ROOT)
    assert done.stdout.strip() == "training the classifier needs scikit-learn: pip install 'forest-extract[train]'"


def test_every_package_is_in_the_wheel() -> None:
    # The package list is spelled out (pyproject.toml): a new sub-package missing from it installs
    # fine in editable mode and is absent from a wheel.
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {".".join(init.parent.relative_to(ROOT).parts) for top in ("forest", "keywords", "patterns", "store", "eval")
             for init in (ROOT / top).rglob("__init__.py")}
    assert listed == found
