"""The address other phones open: every link and QR code the app hands out, and the address
`make run` prints.

A link the app hands out (a match's Share page, a table's invite and scorer links) is built
on PUBLIC_URL when it is set, else on the address the request came to. An address that names
the computer itself (127.0.0.1, localhost, ::1) opens only on that computer: the pages that
hand out links then say so (`unreachable`), and how to give the other phones one they can
open. `make run` prints the address to open (`tichu_scorer/lan.py`).
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any
from urllib.parse import urlsplit

from flask import current_app, request, url_for

EXAMPLES = "like https://tichu.example or http://192.168.1.20:5000"
HOST_NAME = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.?$")


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or an address, an IPv6 one with or without brackets) is this
    computer itself, or no address at all: no other phone can open it.

    >>> [is_loopback(h) for h in ("127.0.0.1", "localhost", "[::1]", "0.0.0.0", "192.168.1.2")]
    [True, True, True, True, False]
    """
    name = host.strip().strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def check(value: str) -> str:
    """PUBLIC_URL as the app uses it ("" when unset), or ValueError saying what is wrong.

    >>> check(" https://Tichu.example/ ")
    'https://tichu.example'
    >>> check("http://192.168.1.20:5000")
    'http://192.168.1.20:5000'
    """
    text = value.strip()
    if not text:
        return ""
    rule = (f"PUBLIC_URL must be the address the other phones open: http:// or https://, "
            f"a host name or address and an optional port, nothing after it ({EXAMPLES}); "
            f"got {text!r}")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise ValueError(rule) from None
    host = parts.hostname or ""
    if (parts.scheme not in ("http", "https") or not host or port == 0
            or parts.username is not None or parts.password is not None
            or parts.path not in ("", "/") or "?" in text or "#" in text
            or not _host_name(host)):
        raise ValueError(rule)
    if is_loopback(host):
        raise ValueError(f"PUBLIC_URL {text!r} names this computer itself: no other phone can "
                         f"open it. Give the address the other phones open ({EXAMPLES}), or "
                         "leave PUBLIC_URL unset.")
    return f"{parts.scheme}://{parts.netloc.lower()}"


def _host_name(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return bool(HOST_NAME.match(host))
    return True


def link(endpoint: str, **values: Any) -> str:
    """The full address of `endpoint` as another phone opens it: on PUBLIC_URL when set,
    else on the scheme and host the request came to (the proxy's, with PROXY_COUNT)."""
    base = current_app.config.get("PUBLIC_URL") or ""
    if base:
        return base + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)


def unreachable() -> bool:
    """Whether the links this request gets name this computer itself (no PUBLIC_URL, and
    the page was opened at 127.0.0.1 or localhost): other phones cannot open them."""
    if current_app.config.get("PUBLIC_URL"):
        return False
    return is_loopback(urlsplit("//" + request.host).hostname or "")
