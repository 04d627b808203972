"""The page: static/index.html with one <script> per registered game that has a drawing
(static/games/<base name>.js), written here from the registry, so a new game's view needs no edit of the
page."""

from __future__ import annotations

from pathlib import Path

from ultimata.envs.core.registry import GAMES, game_base_name

STATIC = Path(__file__).parent / "static"
GAME_VIEWS = "<!-- game views: the server writes one <script> per registered game here (ultimata/web/page.py) -->"
"""The line of index.html the game scripts replace."""


def drawn_games() -> list[str]:
    """The base names of the registered games whose drawing exists, in the registry's order."""
    names = dict.fromkeys(game_base_name(name) for name in GAMES)
    return [name for name in names if (STATIC / "games" / f"{name}.js").is_file()]


def index_html() -> str:
    page = (STATIC / "index.html").read_text()
    if GAME_VIEWS not in page:
        raise RuntimeError(f"static/index.html has no {GAME_VIEWS} line for the game scripts")
    tags = [f'<script src="/static/games/{name}.js"></script>' for name in drawn_games()]
    indent = page[: page.index(GAME_VIEWS)].rpartition("\n")[2]
    return page.replace(GAME_VIEWS, f"\n{indent}".join(tags))
