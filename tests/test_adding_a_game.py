"""docs/adding_a_game.md's Nim runs. The page's files (its code blocks that open with a `# path` line) are
written to a scratch tree and plugged in as one more game with the page's registry line; then PettingZoo's
api_test, the page's own tests, its training config and difficulty levels, the scripted bot in the arena,
the web view and the drawing in a browser run on it, and the layout checks the shipped games keep. So the
page cannot drift from the code, and a sixth game written from it edits no shared file of code but the
registry."""

from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path

import pytest
import yaml
from pettingzoo.test import api_test, render_test, seed_test

import tests
import ultimata.agents.scripted
import ultimata.envs
from ultimata import arena
from ultimata.envs.core.registry import GAMES
from ultimata.envs.core.rng import Rng
from ultimata.training.config import load_train_config
from ultimata.web.difficulty import load_difficulty
from ultimata.web.page import STATIC
from ultimata.web.views import seat_view, view_module

from .test_layout import GAME_PY_MOST_LINES, game_py_lines, naming_problems, raw_env_problems
from .web.browser import chromium_page

DOC = Path(__file__).parents[1] / "docs" / "adding_a_game.md"
FILE_BLOCK = re.compile(r"^```\w+\n((?:#|//) ([\w./]+\.\w+)\n.*?)^```", re.S | re.M)
"""A code block that is a whole file: its first line names the file's path in a comment."""
NAME = "nim_v0"
PACKAGES = {"envs": ultimata.envs, "agents/scripted": ultimata.agents.scripted, "tests": tests}
"""Where the scratch tree's folders join the installed packages."""


def example_files() -> dict[str, str]:
    return {path: text for text, path in FILE_BLOCK.findall(DOC.read_text())}


@pytest.fixture(scope="module")
def nim(tmp_path_factory):
    """The page's game, registered for this module's tests; gone from the registry and imports after."""
    root = tmp_path_factory.mktemp("sixth_game")
    for path, text in example_files().items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    registry_line = re.search(rf'^    "({NAME})": "([\w.]+)",$', DOC.read_text(), re.M)
    assert registry_line, "the page shows the registry line"
    with pytest.MonkeyPatch.context() as patch:
        for folder, package in PACKAGES.items():
            patch.setattr(package, "__path__", [*package.__path__, str(root / folder)])
        patch.setitem(GAMES, *registry_line.groups())
        yield root
    for name, module in list(sys.modules.items()):
        if str(getattr(module, "__file__", None) or "").startswith(str(root)):
            parent, _, child = name.rpartition(".")
            del sys.modules[name]
            if hasattr(sys.modules.get(parent), child):
                delattr(sys.modules[parent], child)


def test_the_page_shows_every_piece_as_a_file() -> None:
    assert {
        "envs/nim/phases.py", "envs/nim/config.py", "envs/nim/actions.py", "envs/nim/observation.py",
        "envs/nim/words.py", "envs/nim/text.py", "envs/nim/state.py", "envs/nim/game.py", "envs/nim/view.py",
        "envs/nim/difficulty.yaml", "envs/nim_v0.py",
        "agents/scripted/nim.py", "configs/nim.yaml", "ultimata/web/static/games/nim.js",
        "tests/nim/positions.py", "tests/nim/random_play.py",
    } <= set(example_files())


def test_the_example_passes_pettingzoos_own_checks(nim) -> None:
    api_test(ultimata.envs.make(NAME), num_cycles=300)
    seed_test(lambda **kw: ultimata.envs.make(NAME, **kw), num_cycles=100)
    render_test(lambda **kw: ultimata.envs.make(NAME, **kw))


def test_the_examples_own_tests_pass(nim) -> None:
    ran = 0
    for path in sorted((nim / "tests" / "nim").glob("test_*.py")):
        module = importlib.import_module(f"tests.nim.{path.stem}")
        for name in dir(module):
            if name.startswith("test_"):
                getattr(module, name)()
                ran += 1
    assert ran >= 3


def test_the_examples_config_and_difficulty_levels_load(nim) -> None:
    cfg = load_train_config(NAME, path=nim / "configs" / "nim.yaml")
    assert cfg.game == NAME and cfg.rules == {} and cfg.ppo.net_arch == [32, 32]
    loaded = load_difficulty()  # the shipped configs/difficulty.yaml, untouched: Nim's levels are in its package
    assert [lv["agent"] for lv in loaded["nim"].as_list()] == ["random", "heuristic", "mcts"]
    assert "nim" not in yaml.safe_load((Path(ultimata.envs.__file__).parents[1] / "configs" / "difficulty.yaml")
                                       .read_text())


def test_the_scripted_bot_beats_random_play_in_the_arena(nim) -> None:
    result = arena.run(NAME, ["heuristic", "random"], games=40, seed=0)
    rates = {entry.spec: entry.win_rate for entry in result.agents}
    assert rates["heuristic"] >= 0.8 > rates["random"]


def test_the_web_view_is_drawn_by_the_games_name_and_offers_buttons(nim) -> None:
    state = ultimata.envs.game_class(NAME).from_config({}).new_initial_state(Rng(1))
    view = json.loads(json.dumps(seat_view(NAME, state, 0)))
    assert view["kind"] == "nim" and view["heap"] == 15 and view["phase"] == "take stones"
    moves = view_module(NAME).moves(state)
    assert [(m["label"], m["target"]) for m in moves] == [("take 1", "button"), ("take 2", "button"),
                                                         ("take 3", "button")]


def test_the_drawing_draws_the_heap_in_a_browser(nim) -> None:
    state = ultimata.envs.game_class(NAME).from_config({"heap": 3}).new_initial_state(Rng(1))
    view = seat_view(NAME, state, 0)
    with chromium_page() as (page, errors):
        page.set_content('<div id="board"></div>')
        page.add_script_tag(content=(STATIC / "svg.js").read_text())
        page.add_script_tag(content=(nim / "ultimata/web/static/games/nim.js").read_text())
        drawn = page.evaluate(
            """view => {
                const game = window.ULTIMATA_VIEWS[view.kind], board = document.getElementById("board");
                game.render(board, view, [], () => {});
                return [board.textContent, game.identity(view), ULTIMATA_SVG.legend(game.help.legend).textContent];
            }""",
            view,
        )
    assert drawn == ["● ● ● (3 left)", "You are player_0.", "●a stone"] and not errors


def test_the_page_is_linked_from_the_readme_and_the_registry() -> None:
    assert "(docs/adding_a_game.md)" in (DOC.parents[1] / "README.md").read_text()
    assert "docs/adding_a_game.md" in (DOC.parents[1] / "envs" / "core" / "registry.py").read_text()


OWN_PLACES = ("envs/{game}/", "envs/{game}_v", "docs/games/{game}.md", "agents/scripted/{game}.py",
              "configs/{game}.yaml", "tests/golden/{game}_v", "ultimata/web/static/games/{game}.js",
              "tests/{game}/", "agents/pretrained/{game}.")
"""The game's own files: its package, and the new files named after it where each kind of file lives (the
thin module, doc, scripted bot, training config, golden file, web view, tests, shipped bot). PettingZoo
finds a game's module as `ultimata.envs.<game>_vN`, the trainer its config in configs/, the server its
drawing in static/games/ and pytest its tests in tests/: each is a new file there, and edits nothing."""
SHARED_EDITS = {
    "envs/core/registry.py": "the registry line",
    "README.md": "the games table's row: the project's front page, written by people; no code reads it",
}
"""The shared files the page asks a new game to edit, and why each."""


def own_file(path: str, game: str = "nim") -> bool:
    return path.startswith(tuple(place.format(game=game) for place in OWN_PLACES))


def asked_for() -> set[str]:
    """Every path the page asks a new game to write or edit: its pieces table and its files."""
    text = DOC.read_text()
    table = text[text.index("## The pieces, in order"):text.index("### 1. The rules engine")]
    cells = [row.split("|")[3] for row in table.splitlines() if re.match(r"\| \d+ \|", row)]
    named = {p for cell in cells for p in re.findall(r"`([^`]+)`", cell) if "/" in p or p.endswith(".md")}
    paths = {p.replace("<game>", "nim").replace("_vN", "_v0") for p in named} | set(example_files())
    return paths | set(re.findall(r"^```\w+\n(?:#|//) in ([\w./]+)", text, re.M))  # an excerpt of a shared file


def test_a_sixth_game_edits_no_shared_file_but_the_registry_line_and_the_readme_row() -> None:
    asked = asked_for()
    assert {"envs/nim/", "envs/core/registry.py", "configs/nim.yaml", "envs/nim/difficulty.yaml"} <= asked
    shared = {path for path in asked if not own_file(path)}
    assert shared == set(SHARED_EDITS), f"the page asks a new game to edit shared files: {sorted(shared)}"
    registry_edits = re.findall(r'^    "nim_v0": .*$', DOC.read_text(), re.M)
    assert len(registry_edits) == 1, "the registry edit is one line"


def test_the_examples_files_keep_the_shape_of_every_game(nim) -> None:
    assert game_py_lines(nim / "envs" / "nim" / "game.py") <= GAME_PY_MOST_LINES
    assert not raw_env_problems(nim / "envs" / f"{NAME}.py")
    assert not naming_problems(nim / "envs" / "nim", "ultimata.envs.nim")
    assert "info" in vars(ultimata.envs.game_class(NAME))
