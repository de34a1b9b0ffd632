"""Read the host of a URL that came from a page, a feed or a server without ever raising on it."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

# RFC 1035: a DNS label is at most 63 octets and a name at most 253 characters
# written out; the idna codec raises UnicodeError past either.
MAX_LABEL = 63
MAX_HOST = 253


def host_of(url: str) -> str:
    """The lower-cased host of ``url`` ('' when it has none or cannot be parsed).

    ``urlsplit`` raises ValueError on ``http://[zz::1]/`` or ``http://[::1``; a page's
    canonical link or a feed's item link is whatever its author wrote, so those are just
    URLs without a usable host here.
    """
    try:
        host = urlsplit(url if "//" in url else f"//{url}").hostname
    except ValueError:
        return ""
    return host or ""


def host_problem(host: str) -> str | None:
    """Why ``host`` cannot be looked up in DNS, or None if it can."""
    if not host:
        return "no host"
    if len(host) > MAX_HOST:
        return f"host name is {len(host)} characters, over the {MAX_HOST} DNS allows"
    if host.startswith("[") or ":" in host:
        return None  # an IPv6 literal, already validated by urlsplit
    for label in host.rstrip(".").split("."):
        try:
            # Non-ASCII labels go out as punycode; their encoded length is what DNS limits.
            encoded = label.encode("idna") if not label.isascii() else label.encode("ascii")
        except UnicodeError:
            return f"host label {label[:20]!r}... is not a valid international domain name"
        if not encoded:
            return "host name has an empty label"
        if len(encoded) > MAX_LABEL:
            return f"host label {label[:20]!r}... is {len(encoded)} characters, over the {MAX_LABEL} DNS allows"
    return None


# A URL's authority: after the scheme's "//", up to the path, query or fragment (RFC 3986
# section 3.2, as httpx reads it), optionally after leading whitespace a user pasted.
_AUTHORITY = re.compile(r"\s*(?:[a-zA-Z][a-zA-Z0-9+.\-]*:)?//([^/?#]*)")
# The note said once wherever a URL with credentials was given: they were used, not kept.
CREDENTIALS_NOTE = "the user name and password in the URL were used to fetch it, and are neither stored nor shown"


def strip_credentials(url: str) -> str:
    """``url`` without the ``user:password@`` of its authority, for storing or showing it.

    ``"https://user:pass@host/feed"`` gives ``"https://host/feed"``.  The fetch may use
    them (the user gave them), but a database or a screen is not where a password goes.
    Never raises: text that is not a URL with an authority comes back unchanged.
    """
    found = _AUTHORITY.match(url)
    if found is None or "@" not in found.group(1):
        return url
    host = found.group(1).rpartition("@")[2]
    return url[: found.start(1)] + host + url[found.end(1):]


def has_credentials(url: str) -> bool:
    """Whether ``url`` holds a user name or password (:func:`strip_credentials` would change it)."""
    return strip_credentials(url) != url


# A URL inside a message: a scheme, "://", and what follows up to a space or a quote.
_URL_IN_TEXT = re.compile(r"[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s'\"<>]*")


def without_credentials(text: str) -> str:
    """``text`` (an error message, a line of output) with :func:`strip_credentials` applied to every URL in it."""
    return _URL_IN_TEXT.sub(lambda found: strip_credentials(found.group(0)), text)
