"""What a site is: the registered domain of a URL's host, one definition for learning, extraction and the store.

A site is the domain a registrant controls: the host's public suffix from the Public
Suffix List (``co.uk``, ``com``, and private suffixes such as ``blogspot.com``) plus one
label.  ``news.bbc.co.uk`` and ``www.bbc.co.uk`` are both ``bbc.co.uk``: a subdomain
that uses another template is learned as alternate patterns of the same site, the way
a site's mixed templates are.  IP addresses and single-label hosts (``localhost``) are
their own sites, with the port when the URL names one: two servers on one machine are two
sites (``127.0.0.1:8001``, ``localhost:4000``).  A host under an unknown suffix
(``example.test``) is its last two labels.

The list is the one bundled with the publicsuffixlist package: nothing is downloaded at
run time, and a site key only changes when that package is upgraded.
"""

from __future__ import annotations

import functools
import ipaddress
from urllib.parse import urlsplit

from publicsuffixlist import PublicSuffixList

from forest.urls import host_of


@functools.lru_cache(maxsize=1)
def _suffixes() -> PublicSuffixList:
    # Parsing the bundled list takes ~50 ms: once per process.
    return PublicSuffixList(accept_unknown=True)


def site_of(url: str) -> str:
    """The site of ``url`` (or of a bare host name): its registered domain.

    ``"https://WWW.News.Example.co.uk:8080/a"`` gives ``"example.co.uk"``.

    :raises ValueError: if ``url`` has no host.
    """
    host = host_of(url).rstrip(".")
    if not host:
        raise ValueError(f"URL {url!r} has no host")
    if _machine(host):
        return site_host(url)
    return _suffixes().privatesuffix(host) or host  # a host that is itself a public suffix stays whole


def site_host(url: str) -> str:
    """The host the store looks ``url``'s site up by: the host, with the port for an IP address or a
    single-label host (``127.0.0.1:8001``); '' when ``url`` has no host."""
    host = host_of(url).rstrip(".")
    if not host or not _machine(host):
        return host
    if ":" in host:
        host = str(ipaddress.ip_address(host))  # one spelling of an IPv6 address
    try:
        parts = urlsplit(url if "//" in url else f"//{url}")
        port = parts.port
    except ValueError:
        port = None
    shown = f"[{host}]" if ":" in host else host
    return f"{shown}:{port}" if port is not None and port != _DEFAULT_PORTS.get(parts.scheme.lower()) else host


# Ports a URL need not name: a site on its scheme's port is the host alone.
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _machine(host: str) -> bool:
    """Whether ``host`` names a machine rather than a registered domain: an IP address or a single label."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return "." not in host
    return True


def site_or_none(url: str | None) -> str | None:
    """:func:`site_of`, or None for a missing or host-less URL."""
    if not url:
        return None
    try:
        return site_of(url)
    except ValueError:
        return None
