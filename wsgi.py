"""WSGI entry point: the one module-level app."""
from tichu_scorer import create_app

app = create_app()
