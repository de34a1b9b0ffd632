"""Which charset labels a page may use, and a guess for pages that declare none (as browsers do)."""

from __future__ import annotations

import codecs
import re

# The encodings of the WHATWG Encoding Standard, as Python codec names: the only
# ones a browser decodes a page with.  A page or header naming anything else
# (rot13, base64, zlib, hex, uu, quopri, punycode, idna, utf-7...) gets the
# fallback a browser uses, never Python's codec of that name: those are not text
# encodings, raise LookupError from bytes.decode, or (utf-7) smuggle markup.
TEXT_CODECS = frozenset({
    "utf-8", "cp866", "iso8859-2", "iso8859-3", "iso8859-4", "iso8859-5", "iso8859-6", "iso8859-7",
    "iso8859-8", "iso8859-10", "iso8859-13", "iso8859-14", "iso8859-15", "iso8859-16", "koi8-r", "koi8-u",
    "mac-roman", "mac-cyrillic", "cp874", "cp1250", "cp1251", "cp1252", "cp1253", "cp1254", "cp1255",
    "cp1256", "cp1257", "cp1258", "gbk", "gb2312", "gb18030", "big5", "big5hkscs", "cp950", "euc_jp",
    "iso2022_jp", "shift_jis", "cp932", "euc_kr", "cp949", "utf-16-le", "utf-16-be", "utf-16",
    "iso8859-1", "ascii", "latin-1", "windows-1252", "iso8859-9", "iso8859-11", "tis-620",
})
# Browsers read these labels as windows-1252 (WHATWG encoding standard), and so do we.
_CP1252_ALIASES = frozenset({"iso-8859-1", "iso8859-1", "latin-1", "latin1", "us-ascii", "ascii", "l1", "cp819"})
# WHATWG decodes these with a superset codec: GBK pages hold GB18030 bytes, Shift_JIS
# pages Windows-932 ones, EUC-KR pages Windows-949 ones.
_SUPERSETS = {"gbk": "gb18030", "gb2312": "gb18030", "shift_jis": "cp932", "euc_kr": "cp949", "iso8859-9": "cp1254",
              "iso8859-11": "cp874", "tis-620": "cp874", "big5": "big5hkscs"}
# Bytes of the page the detector reads: enough for thousands of characters of text,
# and detection time grows with the sample (about 20 ms for 64 KB).
SNIFF_BYTES = 65_536


def text_codec(label: str | bytes | None) -> str | None:
    """The Python codec to decode a page labelled ``label`` with, or None if it names no text encoding."""
    if not label:
        return None
    name = label.decode("ascii", "ignore") if isinstance(label, bytes) else label
    name = name.strip().strip("\"'").lower()
    if name in _CP1252_ALIASES:
        return "cp1252"
    try:
        codec = codecs.lookup(name).name
    except (LookupError, ValueError):  # ValueError: a label with a NUL in it
        return None
    if codec not in TEXT_CODECS:
        return None
    return _SUPERSETS.get(codec, codec)


def sniff(data: bytes) -> str | None:
    """The codec of a page that declares none and is not UTF-8, if a detector can tell; else None.

    charset-normalizer tells Shift-JIS, GB18030, KOI8-R and the single-byte Latin charsets
    apart by which decoding gives the most coherent text; without it (or when it cannot
    tell) the caller falls back to windows-1252, as browsers do for a Western locale.
    """
    try:
        from charset_normalizer import from_bytes
    except ImportError:
        return None
    matches = list(from_bytes(data[:SNIFF_BYTES]))
    if not matches:
        return None
    best = matches[0]
    # A few accented letters decode as well in cp1250, cp1252 and cp1257 alike; among
    # equally good guesses, take the browsers' default for Western pages.
    for match in matches:
        if match.encoding == "cp1252" and match.chaos <= best.chaos and match.coherence >= best.coherence:
            return "cp1252"
    return text_codec(best.encoding)


_XML_DECLARED = re.compile(rb"""^(\s*<\?xml[^>]*?encoding\s*=\s*["'])([^"']*)(["'])""", re.IGNORECASE)
_CHARSET_PARAM = re.compile(r"""; *charset *= *["']?([^;"']*)["']?""", re.IGNORECASE)


def without_bad_charsets(body: bytes, content_type: str) -> tuple[bytes, str]:
    """A feed's bytes and Content-Type with any charset that is no text encoding taken out.

    feedparser decodes with whatever codec a feed names; 'punycode' made it raise. Without
    the label, it sniffs the bytes as for an undeclared feed, as a browser would.
    """
    match = _CHARSET_PARAM.search(content_type)
    if match and text_codec(match.group(1)) is None:
        content_type = content_type[: match.start()] + content_type[match.end():]
    declared = _XML_DECLARED.match(body[:512])
    if declared and text_codec(declared.group(2)) is None:
        body = declared.group(1) + b"utf-8" + declared.group(3) + body[declared.end():]
    return body, content_type
