"""What a site is: the registered domain of a URL's host, one definition for learning, extraction and the store.

A site is the domain a registrant controls: the host's public suffix from the Public
Suffix List (``co.uk``, ``com``, and private suffixes such as ``blogspot.com``) plus one
label.  ``news.bbc.co.uk`` and ``www.bbc.co.uk`` are both ``bbc.co.uk``: a subdomain
that uses another template is learned as alternate patterns of the same site, the way
a site's mixed templates are.  IP addresses and single-label hosts (``localhost``) are
their own sites; a host under an unknown suffix (``example.test``) is its last two labels.

The list is the one bundled with the publicsuffixlist package: nothing is downloaded at
run time, and a site key only changes when that package is upgraded.
"""

from __future__ import annotations

import functools
import ipaddress
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
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        pass
    if "." not in host:
        return host
    return _suffixes().privatesuffix(host) or host  # a host that is itself a public suffix stays whole


def site_or_none(url: str | None) -> str | None:
    """:func:`site_of`, or None for a missing or host-less URL."""
    if not url:
        return None
    try:
        return site_of(url)
    except ValueError:
        return None
