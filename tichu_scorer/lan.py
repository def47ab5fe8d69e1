"""`make run`'s first words: `python -m tichu_scorer.lan HOST PORT` checks PUBLIC_URL (a bad
one stops `make run` with the reason) and prints where the other phones at the table open
the app, with a QR code of it, or why they cannot."""

from __future__ import annotations

import io
import ipaddress
import os
import socket
import sys
from typing import TextIO

import segno

from .public import check, is_loopback

EVERY_ADDRESS = ("0.0.0.0", "::", "")  # nosec B104: names what the server listens on


def lan_addresses() -> list[str]:
    """The IPv4 addresses other devices on the network may know this computer by: the one
    of its default route first (a UDP socket's connect sends nothing), then those of its
    host name; no loopback or link-local ones."""
    found = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.254.254.254", 9))  # any address not on this computer
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        named = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        named = []
    found += [str(info[4][0]) for info in named]
    usable = []
    for address in found:
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified) and address not in usable:
            usable.append(address)
    return usable


def banner(host: str, port: int, public_url: str, addresses: list[str], out: TextIO) -> None:
    """What `make run` prints before the server starts: where the other phones open the
    app, with a QR code of it, or why they cannot."""
    if public_url:
        urls = [public_url]
    elif host in EVERY_ADDRESS:
        urls = [f"http://{address}:{port}" for address in addresses]
    elif is_loopback(host):
        print(f"Tichu Scorer on http://{host}:{port} for this computer only: other phones "
              "cannot open it. For the whole table leave HOST out: `make run`.",
              file=out)
        return
    else:
        urls = [f"http://{'[' + host + ']' if ':' in host else host}:{port}"]
    if not urls:
        print(f"Tichu Scorer listens on port {port}, but this computer has no network address: "
              "join the table's Wi-Fi and run it again.", file=out)
        return
    print("Tichu Scorer: the other phones at the table open", file=out)
    for url in urls:
        print(f"    {url}", file=out)
    code = io.StringIO()
    segno.make(urls[0], error="m").terminal(out=code, compact=True)
    try:
        print(f"or scan this:\n{code.getvalue()}", end="", file=out)
    except UnicodeEncodeError:  # a terminal without Unicode: the address alone
        print("(a QR code needs a terminal that shows Unicode)", file=out)
    if urls[0].startswith("http://"):
        print("Playing without signal and installing the app need HTTPS: docs/DEPLOY.md.",
              file=out)
    print("Only this computer (and no one else on the network): make run HOST=127.0.0.1",
          file=out)
    out.flush()


def main(argv: list[str]) -> int:
    """`python -m tichu_scorer.lan HOST PORT`: check PUBLIC_URL, print the banner."""
    host, port = argv[0], int(argv[1])
    try:
        public_url = check(os.environ.get("PUBLIC_URL", ""))
    except ValueError as problem:
        print(f"Tichu Scorer cannot start: {problem}", file=sys.stderr)
        return 2
    banner(host, port, public_url, lan_addresses() if not public_url else [], sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
