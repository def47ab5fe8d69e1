"""benchmarks/harness.py, which the race, server and limit tests drive their phones with."""

from __future__ import annotations

import select
import socket
import threading

import pytest

from benchmarks import harness
from benchmarks.harness import Session

pytestmark = pytest.mark.one_database  # no database is asked

ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok"


def closing_server(answers: int, answer: bytes = ANSWER) -> tuple[socket.socket, list[bytes]]:
    """A server that answers each connection once, then closes it, as gunicorn does with a
    kept-alive connection left idle past its `keepalive` (with `answer` empty: closes it
    without an answer, as a server that went away while the request was on its way)."""
    listener = socket.create_server(("127.0.0.1", 0))
    asked: list[bytes] = []

    def serve() -> None:
        for _ in range(answers):
            conn, _ = listener.accept()
            with conn:
                asked.append(conn.recv(4096).split(b"\r\n", 1)[0])
                conn.sendall(answer)
    threading.Thread(target=serve, daemon=True).start()
    return listener, asked


def closed_by_now(phone: Session) -> None:
    """Until the server's end of the kept connection has reached the phone."""
    assert phone.conn is not None and phone.conn.sock is not None
    select.select([phone.conn.sock], [], [], 5)


def test_a_get_on_a_connection_the_server_closed_is_sent_again_on_a_new_one():
    listener, asked = closing_server(2)
    with listener:
        phone = Session(f"http://127.0.0.1:{listener.getsockname()[1]}", timeout=5)
        assert phone.get("/a") == (200, b"ok")
        assert phone.get("/b") == (200, b"ok")  # the kept connection was closed meanwhile
        phone.close()
    assert asked == [b"GET /a HTTP/1.1", b"GET /b HTTP/1.1"]


def test_a_post_goes_on_a_new_connection_when_the_kept_one_was_closed():
    listener, asked = closing_server(2)
    with listener:
        phone = Session(f"http://127.0.0.1:{listener.getsockname()[1]}", timeout=5)
        assert phone.get("/a") == (200, b"ok")
        closed_by_now(phone)
        assert phone.request("POST", "/save", b"x=1",
                             "application/x-www-form-urlencoded")[:2] == (200, b"ok")
        phone.close()
    assert asked == [b"GET /a HTTP/1.1", b"POST /save HTTP/1.1"]  # sent once


def test_a_post_goes_on_a_new_connection_when_the_kept_one_idled_too_long(monkeypatch):
    listener, asked = closing_server(2)
    with listener:
        phone = Session(f"http://127.0.0.1:{listener.getsockname()[1]}", timeout=5)
        assert phone.get("/a") == (200, b"ok")
        monkeypatch.setattr(phone, "_dropped", lambda: False)  # not seen closed yet
        phone.used -= harness.IDLE_REUSE + 0.1
        assert phone.request("POST", "/save", b"x=1",
                             "application/x-www-form-urlencoded")[:2] == (200, b"ok")
        phone.close()
    assert asked == [b"GET /a HTTP/1.1", b"POST /save HTTP/1.1"]


def test_a_post_the_server_closed_without_an_answer_is_not_sent_again():
    listener, asked = closing_server(1, answer=b"")
    with listener:
        phone = Session(f"http://127.0.0.1:{listener.getsockname()[1]}", timeout=5)
        with pytest.raises(OSError):
            phone.request("POST", "/save", b"x=1", "application/x-www-form-urlencoded")
    assert asked == [b"POST /save HTTP/1.1"]
