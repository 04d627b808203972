"""The page: static/index.html with one <script> per registered game that has a drawing (its package's
`view.js`, served at /views/<base name>.js), written here from the registry, so a new game's view needs no edit
of the page and no file outside its package."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from ultimata.envs.core.registry import GAMES, game_base_name, game_package

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

STATIC = Path(__file__).parent / "static"
GAME_VIEWS = "<!-- game views: the server writes one <script> per registered game here (ultimata/web/page.py) -->"
"""The line of index.html the game scripts replace."""


def view_scripts() -> dict[str, Traversable]:
    """Base name -> the game's drawing (envs/<game>/view.js), for the registered games that have one, in the
    registry's order."""
    scripts = {}
    for name in GAMES:
        script = resources.files(game_package(name)) / "view.js"
        if script.is_file():
            scripts.setdefault(game_base_name(name), script)
    return scripts


def index_html() -> str:
    page = (STATIC / "index.html").read_text()
    if GAME_VIEWS not in page:
        raise RuntimeError(f"static/index.html has no {GAME_VIEWS} line for the game scripts")
    tags = [f'<script src="/views/{name}.js"></script>' for name in view_scripts()]
    indent = page[: page.index(GAME_VIEWS)].rpartition("\n")[2]
    return page.replace(GAME_VIEWS, f"\n{indent}".join(tags))
