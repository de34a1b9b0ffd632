"""Builds forest's native code with Cython: the page pass (forest/classifier/_walk.pyx, against
lxml's C API), the trees' evaluation (_trees.pyx), the text counts (_text.pyx), the
per-element feature counts (_features.pyx), learning's page index (forest/learning/_name.pyx),
its blocks' inline children (_inline.pyx), the markup guard's scan of a page's text
(forest/_markup.pyx), the body's text nodes the printed date and byline search reads
(forest/_texts.pyx), a region's text blocks without a wrapper's exclusions (patterns/_blocks.pyx),
the reset of the document order an XSLT pass leaves behind (patterns/_order.pyx), and which pattern
keys are one attributed step (patterns/_keys.pyx).

Everything else about the package is in pyproject.toml.  The page pass reads lxml's and libxml2's
structs through the headers lxml's wheels bundle (``lxml.get_include()``): no libxml2-dev is
needed, only a C compiler and Python's headers.
"""

from __future__ import annotations

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.extension import Extension

# What a machine without a working C compiler is told, instead of a compiler's traceback.
NO_COMPILER = (
    "forest: building its native code (forest/*.pyx, forest/classifier/*.pyx, forest/learning/*.pyx, patterns/*.pyx) "
    "needs a C compiler and Python's headers, "
    "and compiling failed ({error}). Install them (Debian/Ubuntu: apt-get install gcc python3-dev; "
    "Fedora: dnf install gcc python3-devel; macOS: xcode-select --install), then install forest again."
)


class BuildExt(build_ext):
    """build_ext whose compiler failures end in one line that says what to install."""

    def build_extension(self, ext: Extension) -> None:
        from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

        try:
            super().build_extension(ext)
        except (CCompilerError, CompileError, ExecError, LinkError, PlatformError, OSError) as exc:
            raise SystemExit(NO_COMPILER.format(error=" ".join(str(exc).split()))) from None


def extensions() -> list[Extension]:
    import lxml
    from Cython.Build import cythonize

    native = [
        Extension("forest.classifier._walk", ["forest/classifier/_walk.pyx"], include_dirs=lxml.get_include()),
        # Plain C over buffers: no lxml or numpy headers.
        Extension("forest.classifier._trees", ["forest/classifier/_trees.pyx"]),
        Extension("forest.classifier._text", ["forest/classifier/_text.pyx"]),
        # The features' counts read the walk's libxml2 nodes (class and id): lxml's C API too.
        Extension("forest.classifier._features", ["forest/classifier/_features.pyx"], include_dirs=lxml.get_include()),
        # Learning's page index and pattern keys: lxml's C API, as the page pass.
        Extension("forest.learning._name", ["forest/learning/_name.pyx"], include_dirs=lxml.get_include()),
        # A block owner's inline children and their text, for learning's block holders: lxml's C API too.
        Extension("forest.learning._inline", ["forest/learning/_inline.pyx"], include_dirs=lxml.get_include()),
        # The markup guard's scan over a page's text (forest.limits.check_markup): plain C over a str.
        Extension("forest._markup", ["forest/_markup.pyx"]),
        # The body's text nodes and their owners, for the printed date and byline search: lxml's C API too.
        Extension("forest._texts", ["forest/_texts.pyx"], include_dirs=lxml.get_include()),
        # A region's text blocks, skipping a wrapper's exclusions (patterns.text's stylesheet is its reference): lxml's C API too.
        Extension("patterns._blocks", ["patterns/_blocks.pyx"], include_dirs=lxml.get_include()),
        # After an XSLT pass, the elements' document order: lxml's C API too.
        Extension("patterns._order", ["patterns/_order.pyx"], include_dirs=lxml.get_include()),
        # Which pattern keys are one attributed step: plain C over a str.
        Extension("patterns._keys", ["patterns/_keys.pyx"]),
    ]
    # The generated C lands in build/, never beside the source (it is not committed, nor shipped).
    return cythonize(native, build_dir="build/cython", compiler_directives={"language_level": "3"}, quiet=True)


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt})
