"""docs/adding_a_game.md's Nim runs. The page's files (its code blocks that open with a `# path` line) are
written to a scratch tree; its package `envs/nim/` alone is plugged in as one more game, with the page's
registry line and its one settings file `configs/nim.yaml`. Then PettingZoo's api_test, its training
config, difficulty levels and `hard`, the scripted bot in the arena, the web server and the drawing in a
browser run on it, and the layout checks the shipped games keep; the page's own tests run from the scratch
tree's tests/nim/. So the page cannot drift from the code, and a sixth game written from it needs no file
outside its package but its registry line and its config file (and the rules doc, tests and README row that
the project keeps for every game in its own places)."""

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
import ultimata.configs
import ultimata.envs
from ultimata import arena
from ultimata.envs.core.registry import GAMES
from ultimata.envs.core.rng import Rng
from ultimata.training.config import load_train_config
from ultimata.web.app import create_app
from ultimata.web.difficulty import load_difficulty
from ultimata.web.page import STATIC
from ultimata.web.views import seat_view, view_module

from .test_layout import GAME_PY_MOST_LINES, game_py_lines, naming_problems, raw_env_problems
from .web.browser import chromium_page
from .web.client import local_client

DOC = Path(__file__).parents[1] / "docs" / "adding_a_game.md"
FILE_BLOCK = re.compile(r"^```\w+\n((?:#|//) ([\w./]+\.\w+)\n.*?)^```", re.S | re.M)
"""A code block that is a whole file: its first line names the file's path in a comment."""
NAME = "nim_v0"
PACKAGE = "envs/nim/"
SETTINGS = "configs/nim.yaml"
"""All the game needs, but its registry line."""
PACKAGES = {"envs": ultimata.envs, "configs": ultimata.configs, "tests": tests}
"""Where the scratch tree's folders join the installed packages: `envs/` holds nothing but the package and
`configs/` nothing but its settings file (the first test below checks it), `tests/` the page's tests."""


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
    sys.modules.pop(f"ultimata.envs.{NAME}", None)  # the env name's module, made from the registry line
    for name, module in list(sys.modules.items()):
        if str(getattr(module, "__file__", None) or "").startswith(str(root)):
            parent, _, child = name.rpartition(".")
            del sys.modules[name]
            if hasattr(sys.modules.get(parent), child):
                delattr(sys.modules[parent], child)


def test_the_page_shows_every_piece_as_a_file() -> None:
    files = set(example_files())
    assert {
        f"{PACKAGE}{name}" for name in ("phases.py", "config.py", "actions.py", "observation.py", "words.py",
                                        "text.py", "state.py", "game.py", "view.py", "env.py", "scripted.py",
                                        "view.js")
    } | {SETTINGS, "tests/nim/positions.py", "tests/nim/random_play.py"} <= files
    code = {path for path in files if not path.startswith(("tests/nim/", "docs/"))}
    assert {path for path in code if not path.startswith(PACKAGE)} == {SETTINGS}, "the package and its config"


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


def test_the_examples_config_difficulty_levels_and_hard_load(nim) -> None:
    from ultimata.agents.mcts import MctsAgent
    from ultimata.agents.specs import hard_specs, load_agent

    shipped = Path(ultimata.configs.__file__).parent
    assert not (shipped / "nim.yaml").exists()  # the scratch tree's file, no shipped file edited
    assert not any(yaml.safe_load(p.read_text()).get("nim") for p in shipped.glob("*.yaml")), "no shared rows"
    cfg = load_train_config(NAME)
    assert cfg.game == NAME and cfg.rules == {} and cfg.ppo.net_arch == [32, 32] and cfg.total_timesteps == 50_000
    loaded = load_difficulty()
    assert [lv["agent"] for lv in loaded["nim"].as_list()] == ["random", "heuristic", "hard"]
    hard_specs.cache_clear()
    try:
        assert hard_specs()["nim"] == "mcts:sims=50"
        agent = load_agent("hard", NAME)
        assert isinstance(agent, MctsAgent) and agent.options.sims == 50
    finally:
        hard_specs.cache_clear()


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


def test_the_server_writes_the_games_drawing_into_the_page_and_serves_it(nim) -> None:
    client = local_client(create_app(replays=nim / "replays"))
    assert '<script src="/views/nim.js"></script>' in client.get("/").text
    drawing = client.get("/views/nim.js")
    assert drawing.status_code == 200 and drawing.text == (nim / PACKAGE / "view.js").read_text()
    new_game = {"game": NAME, "seed": 3, "human_seat": 0, "opponents": {"1": "heuristic"}}
    session = client.post("/api/sessions", json=new_game)
    assert session.status_code == 201, session.text
    assert session.json()["view"]["kind"] == "nim"


def test_the_drawing_draws_the_heap_in_a_browser(nim) -> None:
    state = ultimata.envs.game_class(NAME).from_config({"heap": 3}).new_initial_state(Rng(1))
    view = seat_view(NAME, state, 0)
    with chromium_page() as (page, errors):
        page.set_content('<div id="board"></div>')
        page.add_script_tag(content=(STATIC / "svg.js").read_text())
        page.add_script_tag(content=(nim / PACKAGE / "view.js").read_text())
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


KEPT_FOR_EVERY_GAME = {
    "docs/games/{game}.md": "the rules as implemented: the project's fidelity standard keeps every game's there",
    "tests/{game}/": "the game's tests, where pytest looks",
    "tests/golden/{game}_v": "its golden playthrough, which tests/test_golden.py replays",
    "agents/pretrained/{game}.": "a shipped bot (optional): training's output, beside the other shipped bots",
    "configs/{game}.yaml": "its settings: training, difficulty levels, hard and mcts, one file of its own",
}
"""Outside its package, the files the project keeps for every game in one place: prose, tests and a trained
bot, and its one settings file (the project's layout keeps settings in configs/, one file per game, never a
shared row)."""
SHARED_EDITS = {
    "envs/core/registry.py": "the registry line",
    "README.md": "the games table's row: the project's front page, written by people; no code reads it",
}
"""The shared files the page asks a new game to edit, and why each."""


def place(path: str, game: str = "nim") -> str:
    """Where the page's `path` belongs: the game's package, a place kept for every game, or a shared edit."""
    if path.startswith(f"envs/{game}/"):
        return "package"
    if path.startswith(tuple(kept.format(game=game) for kept in KEPT_FOR_EVERY_GAME)):
        return "kept"
    return "shared"


def asked_for() -> set[str]:
    """Every path the page asks a new game to write or edit: its pieces table and its files."""
    text = DOC.read_text()
    table = text[text.index("## The pieces, in order"):text.index("### 1. The rules engine")]
    cells = [row.split("|")[3] for row in table.splitlines() if re.match(r"\| \d+ \|", row)]
    named = {p for cell in cells for p in re.findall(r"`([^`]+)`", cell) if "/" in p or p.endswith(".md")}
    paths = {p.replace("<game>", "nim").replace("_vN", "_v0") for p in named} | set(example_files())
    return paths | set(re.findall(r"^```\w+\n(?:#|//) in ([\w./]+)", text, re.M))  # an excerpt of a shared file


def test_a_sixth_game_needs_no_shared_file_but_its_registry_line() -> None:
    asked = asked_for()
    assert {"envs/nim/", "envs/nim/env.py", "envs/core/registry.py", "configs/nim.yaml", "envs/nim/scripted.py",
            "envs/nim/view.js"} <= asked
    shared = {path for path in asked if place(path) == "shared"}
    assert shared == set(SHARED_EDITS), f"the page asks a new game to edit shared files: {sorted(shared)}"
    registry_edits = re.findall(r'^    "nim_v0": .*$', DOC.read_text(), re.M)
    assert registry_edits == ['    "nim_v0": "ultimata.envs.nim",'], "the registry edit is one line"


def test_the_examples_files_keep_the_shape_of_every_game(nim) -> None:
    assert game_py_lines(nim / "envs" / "nim" / "game.py") <= GAME_PY_MOST_LINES
    assert not raw_env_problems(nim / PACKAGE / "env.py")
    versioned, own = (importlib.import_module(f"ultimata.envs.{m}") for m in (NAME, "nim.env"))
    assert versioned.raw_env is own.raw_env and versioned.env is own.env
    assert not naming_problems(nim / "envs" / "nim", "ultimata.envs.nim")
    assert "info" in vars(ultimata.envs.game_class(NAME))
