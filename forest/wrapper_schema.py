"""Check a stored wrapper record against its schema before it is used: types, finite numbers, XPaths that compile."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NoReturn

from lxml import etree

from forest.errors import StoreError

# A document to try each stored XPath on once: an XPath that compiles can still call
# a function lxml lacks (document(), a typo'd name) and fail only when evaluated.
_PROBE = "<html><head><title>t</title></head><body><div id='a' class='b'><p>x</p></div></body></html>"
# Longest XPath accepted: learned ones are under 200 characters.
MAX_XPATH = 2_000


def check_wrapper_record(data: object) -> None:
    """Refuse a wrapper record (a dict from JSON) that :meth:`Wrapper.from_dict` could not use safely.

    :raises StoreError: naming the first bad field, in one line.
    """
    if not isinstance(data, Mapping):
        _bad(f"the record is a {type(data).__name__}, not an object")
    _text(data, "site", required=True)
    probe = etree.fromstring(_PROBE)  # per call: lxml trees are not to be shared across threads
    patterns = data.get("patterns")
    if not isinstance(patterns, list) or not patterns:
        _bad("'patterns' must be a non-empty list")
    for index, pattern in enumerate(patterns):
        where = f"patterns[{index}]"
        if not isinstance(pattern, Mapping):
            _bad(f"{where} must be an object")
        _xpath(pattern.get("xpath"), f"{where}.xpath", probe, nodes=True)
        for name in ("score", "level"):
            _number(pattern.get(name), f"{where}.{name}")
        for name in ("support", "terms"):
            if name in pattern or name == "support":
                _count(pattern.get(name), f"{where}.{name}")
        if "prose" in pattern:
            _number(pattern.get("prose"), f"{where}.prose")
    for name in ("template_blocks", "sample", "notes"):
        _strings(data.get(name, []), name)
    if data.get("parts") is not None:
        _strings(data["parts"], "parts")
    exclusions = data.get("exclusions", [])
    _strings(exclusions, "exclusions")
    for index, xpath in enumerate(exclusions):
        _xpath(xpath, f"exclusions[{index}]", probe, nodes=True)
    for name in ("variant", "fields"):
        value = data.get(name, {})
        if not isinstance(value, Mapping) or not all(isinstance(v, (str, int, float)) for v in value.values()):
            _bad(f"{name!r} must be an object of strings")
    for name, xpath in data.get("fields", {}).items():
        _xpath(xpath, f"fields.{name}", probe, nodes=False)
    _text(data, "learned_at", required=False)
    if data.get("feed_url") is not None:
        _text(data, "feed_url", required=False)
    for name, form in (("title_affixes", "[prefix, suffix]"), ("span", "[start, end]")):
        if name in data:
            _strings(data.get(name), name)
            if len(data[name]) != 2:
                _bad(f"{name!r} must be {form}")
    if data.get("comments"):
        _xpath(data.get("comments"), "comments", probe, nodes=True)
    if "misses_at_learn" in data:
        _count(data.get("misses_at_learn"), "misses_at_learn")
    if not isinstance(data.get("classifier_agrees", True), bool):
        _bad("'classifier_agrees' must be true or false")


def _bad(what: str) -> NoReturn:
    raise StoreError(f"malformed wrapper record: {what}; relearn the site (`forest forget SITE`, then `forest learn`)")


def _text(data: Mapping[str, Any], name: str, *, required: bool) -> None:
    value = data.get(name)
    if value is None and not required:
        return
    if not isinstance(value, str) or (required and not value.strip()):
        _bad(f"{name!r} must be a{' non-empty' if required else ''} string")


def _strings(value: object, name: str) -> None:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        _bad(f"{name!r} must be a list of strings")


def _number(value: object, where: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        _bad(f"{where} must be a finite number, not {str(value)[:40]!r}")


def _count(value: object, where: str) -> None:
    _number(value, where)
    assert isinstance(value, (int, float))
    if value < 0 or value != int(value) or value > 2**53:
        _bad(f"{where} must be a whole number from 0 to 2^53, not {value!r}")


def _xpath(value: object, where: str, probe: etree._Element, *, nodes: bool) -> None:
    if not isinstance(value, str) or not value.strip():
        _bad(f"{where} must be a non-empty XPath string")
    assert isinstance(value, str)
    if len(value) > MAX_XPATH:
        _bad(f"{where} is {len(value)} characters long, over {MAX_XPATH}")
    try:
        result = etree.XPath(value)(probe)
    except (etree.XPathError, ValueError, TypeError) as exc:
        _bad(f"{where} {value[:60]!r} is not a usable XPath ({exc})")
    if nodes and not isinstance(result, list):
        _bad(f"{where} {value[:60]!r} selects a {type(result).__name__}, not elements")
