"""Pages as they read before names became links to the players' pages: tests written
against a name's bare text (`<th scope="row">Ann</th>`) read the page through `unlinked`."""

import re

_LINK = re.compile(r'<a href="/players/[A-Za-z0-9_-]+">([^<]*)</a>')


def unlinked(page: str) -> str:
    """The page with every link to a player's page replaced by the player's name."""
    return _LINK.sub(r"\1", page)
