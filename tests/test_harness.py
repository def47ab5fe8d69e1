"""benchmarks/harness.py, which the race, server and limit tests drive their phones with."""

from __future__ import annotations

import socket
import threading

import pytest

from benchmarks.harness import Session

pytestmark = pytest.mark.one_database  # no database is asked

ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok"


def closing_server(answers: int) -> tuple[socket.socket, list[bytes]]:
    """A server that answers each connection once, then closes it, as gunicorn does with a
    kept-alive connection left idle past its `keepalive`."""
    listener = socket.create_server(("127.0.0.1", 0))
    asked: list[bytes] = []

    def serve() -> None:
        for _ in range(answers):
            conn, _ = listener.accept()
            with conn:
                asked.append(conn.recv(4096).split(b"\r\n", 1)[0])
                conn.sendall(ANSWER)
    threading.Thread(target=serve, daemon=True).start()
    return listener, asked


def test_a_get_on_a_connection_the_server_closed_is_sent_again_on_a_new_one():
    listener, asked = closing_server(2)
    with listener:
        phone = Session(f"http://127.0.0.1:{listener.getsockname()[1]}", timeout=5)
        assert phone.get("/a") == (200, b"ok")
        assert phone.get("/b") == (200, b"ok")  # the kept connection was closed meanwhile
        phone.close()
    assert asked == [b"GET /a HTTP/1.1", b"GET /b HTTP/1.1"]


def test_a_post_on_a_connection_the_server_closed_is_not_sent_again():
    listener, asked = closing_server(1)
    with listener:
        phone = Session(f"http://127.0.0.1:{listener.getsockname()[1]}", timeout=5)
        assert phone.get("/a") == (200, b"ok")
        with pytest.raises(OSError):
            phone.request("POST", "/save", b"x=1", "application/x-www-form-urlencoded")
    assert asked == [b"GET /a HTTP/1.1"]
