"""A bare Flask app that serves a 14 KB page (and /healthz, for the harness): the floor a
request of the app is compared with in `bench_repeat_view.py`, run by gunicorn on the same
settings (`gunicorn.conf.py`)."""

from __future__ import annotations

from flask import Flask

PAGE_BYTES = 14 * 1024
ROW = "<tr><th scope=\"row\">12</th><td>Ann &amp; Bob</td><td>+100</td><td>455</td></tr>\n"
PAGE = ("<!doctype html><html lang=\"en\"><head><title>Bare</title></head><body><table>\n"
        + ROW * ((PAGE_BYTES - 200) // len(ROW)))
PAGE += "x" * (PAGE_BYTES - len(PAGE) - len("</table></body></html>")) + "</table></body></html>"

app = Flask(__name__)


@app.get("/page")
def page() -> str:
    return PAGE


@app.get("/healthz")
def healthz() -> str:
    return "ok"
