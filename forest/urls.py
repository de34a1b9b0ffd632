"""Read the host of a URL that came from a page, a feed or a server without ever raising on it."""

from __future__ import annotations

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
