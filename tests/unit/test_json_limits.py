"""forest.limits.loads_json's bound on nesting: a document nested deeper than the limit is refused, whether
its values are walked (over the limit's count of brackets) or not (the brackets alone bound its depth)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from forest.limits import json_depth, loads_json

documents = st.recursive(
    st.none() | st.integers() | st.text(alphabet="ab[]{}\u00e9", max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(alphabet="k[{", max_size=2), inner, max_size=3),
    max_leaves=30,
)


@given(documents, st.integers(0, 8), st.booleans())
def test_a_document_is_refused_exactly_when_it_nests_over_the_limit(value: Any, limit: int, as_bytes: bool) -> None:
    text = json.dumps(value, ensure_ascii=False)
    source: str | bytes = text.encode("utf-8") if as_bytes else text
    if json_depth(value) > limit:
        with pytest.raises(ValueError, match="nested"):
            loads_json(source, max_depth=limit)
    else:
        assert loads_json(source, max_depth=limit) == value


def test_brackets_in_strings_alone_do_not_refuse_a_flat_document() -> None:
    assert loads_json('{"a": "[[[[{{{{"}', max_depth=1) == {"a": "[[[[{{{{"}
    with pytest.raises(ValueError, match="nested 2 deep"):
        loads_json('{"a": [1]}', max_depth=1)
