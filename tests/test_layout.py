"""Every registered game has each piece docs/adding_a_game.md lists, in its place, so training, the arena,
the browser and a newcomer find every game the same way. One test per piece, so a failure names it."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from ultimata.agents.scripted_agent import scripted_policy
from ultimata.envs.core.registry import GAMES, RETIRED, game_base_name, game_class
from ultimata.training.config import load_train_config
from ultimata.web.difficulty import load_difficulty
from ultimata.web.page import STATIC

REPO = Path(__file__).parents[1]
NAMES = sorted(GAMES)
MAX_LINES = 700
"""No module under envs/ is longer: past this, a module owns more than one thing."""


def base(name: str) -> str:
    return game_base_name(name)


@pytest.mark.parametrize("name", NAMES)
def test_phases_py_names_every_phase_and_imports_nothing(name: str) -> None:
    path = REPO / "envs" / base(name) / "phases.py"
    assert path.is_file(), f"{name} has no envs/{base(name)}/phases.py"
    tree = ast.parse(path.read_text())
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))], "phases.py imports nothing"
    phases = importlib.import_module(f"ultimata.envs.{base(name)}.phases")
    names = phases.PHASES
    assert isinstance(names, tuple) and len(names) >= 2 and len(set(names)) == len(names)
    assert all(isinstance(n, str) and n for n in names)
    numbers = {v for k, v in vars(phases).items() if k.isupper() and type(v) is int}
    assert set(range(len(names))) <= numbers, "each phase's number has a constant"
    readers = [p.name for p in path.parent.glob("*.py") if f"{base(name)}.phases import" in p.read_text()]
    assert readers, "the rules read their phases from phases.py"


@pytest.mark.parametrize("name", NAMES)
def test_the_registry_line_names_the_games_package(name: str) -> None:
    assert GAMES[name] == f"ultimata.envs.{base(name)}" and (REPO / "envs" / base(name) / "env.py").is_file()
    module = importlib.import_module(f"{GAMES[name]}.env")
    assert callable(module.env) and module.raw_env.game_class is game_class(name)
    game = game_class(name)
    assert game.name == name and name == f"{base(name)}_v{game.version}", "the env name carries the version"


@pytest.mark.parametrize("name", NAMES)
def test_the_env_name_is_a_module_as_in_pettingzoo(name: str) -> None:
    """`from ultimata.envs import <name>` and `import ultimata.envs.<name>` re-export the package's env.py, as
    PettingZoo's versioned modules re-export theirs; the names are those of the registry, with no file."""
    source = importlib.import_module(f"{GAMES[name]}.env")
    namespace: dict = {}
    exec(f"from ultimata.envs import {name}\nimport ultimata.envs.{name} as dotted", namespace)  # noqa: S102
    assert namespace[name] is namespace["dotted"] is importlib.import_module(f"ultimata.envs.{name}")
    assert (namespace[name].env, namespace[name].raw_env) == (source.env, source.raw_env)
    assert not (REPO / "envs" / f"{name}.py").exists()


@pytest.mark.parametrize("retired", sorted(RETIRED))
def test_a_retired_env_names_its_replacement_when_imported(retired: str) -> None:
    with pytest.raises(ModuleNotFoundError, match=f"{retired} was replaced by {RETIRED[retired][0]}"):
        importlib.import_module(f"ultimata.envs.{retired}")


@pytest.mark.parametrize("name", NAMES)
def test_the_rules_are_told_in_docs_games(name: str) -> None:
    path = REPO / "docs" / "games" / f"{base(name)}.md"
    assert path.is_file() and name in path.read_text(), f"docs/games/{base(name)}.md names {name}"


@pytest.mark.parametrize("name", NAMES)
def test_the_scripted_bot_resolves(name: str) -> None:
    assert (REPO / "envs" / base(name) / "scripted.py").is_file()
    assert scripted_policy(name).__module__ == f"{GAMES[name]}.scripted"


@pytest.mark.parametrize("name", NAMES)
def test_the_training_config_and_difficulty_levels_load(name: str) -> None:
    own = [REPO / "configs" / f"{base(name)}.yaml", REPO / "envs" / base(name) / "training.yaml"]
    assert sum(path.is_file() for path in own) == 1, "one training config: configs/<game>.yaml or the package's"
    assert load_train_config(name).game == name
    assert base(name) in load_difficulty()


@pytest.mark.parametrize("name", NAMES)
def test_the_golden_playthrough_exists(name: str) -> None:
    assert (REPO / "tests" / "golden" / f"{name}.json").is_file()


@pytest.mark.parametrize("name", NAMES)
def test_the_web_view_is_registered_under_the_games_own_name(name: str) -> None:
    views = importlib.import_module(f"ultimata.envs.{base(name)}.view")
    assert callable(views.view) and callable(views.moves)
    script = REPO / "envs" / base(name) / "view.js"
    assert script.is_file(), f"no envs/{base(name)}/view.js"
    registers = rf"ULTIMATA_VIEWS(?: = window\.ULTIMATA_VIEWS \|\| \{{\}}\))?\.{base(name)} = \{{"
    assert re.search(registers, script.read_text()), f"{script.name} registers ULTIMATA_VIEWS.{base(name)}"


def test_the_web_folder_holds_no_game() -> None:
    games = {base(name) for name in GAMES}
    named = sorted(str(p.relative_to(REPO)) for p in (REPO / "ultimata" / "web").rglob("*")
                   if p.stem in games or p.name in ("games", "scripted"))
    assert not named, f"a game's files live in its package, not in ultimata/web: {named}"
    assert "/views/" not in (STATIC / "index.html").read_text(), "the server writes the game scripts"


@pytest.mark.parametrize("name", NAMES)
def test_the_tests_keep_their_set_ups_in_positions_py_and_their_fuzz_in_random_play_py(name: str) -> None:
    folder = REPO / "tests" / base(name)
    missing = [f for f in ("__init__.py", "positions.py", "random_play.py") if not (folder / f).is_file()]
    assert not missing, f"tests/{base(name)}/ lacks {', '.join(missing)}"


@pytest.mark.parametrize("name", NAMES)
def test_the_readme_lists_the_game(name: str) -> None:
    readme = (REPO / "README.md").read_text()
    assert f"`{name}`" in readme and f"(docs/games/{base(name)}.md)" in readme


@pytest.mark.parametrize("path", sorted(str(p.relative_to(REPO)) for p in (REPO / "envs").rglob("*.py")))
def test_no_module_under_envs_is_over_700_lines(path: str) -> None:
    lines = len((REPO / path).read_text().splitlines())
    assert lines <= MAX_LINES, f"{path} has {lines} lines; split it by rule concept"


HOUSE = (
    ("envs", "configs", "provided"),
    ("agents",),
    ("training",),
    ("arena", "report", "bench", "inference", "record", "openspiel", "openspiel_chance"),
    ("benchmark", "exploit", "exploit_plot", "leaderboard", "train_bench", "train_seeds", "train_command"),
    ("web", "play", "replay_view"),
    ("cli", "__main__", "__init__"),
)
"""The house drawing: every room of `ultimata` (a folder, or a module of ultimata/) on its floor, lowest first.
A module may import its own floor and those below it, never one above. The rules and their config files,
and the table through which the envs hand out what a higher floor makes (`envs.single_agent`);
the agents that play them; training; evaluation and the stores it fills (the arena, the result tables,
random-play speed, the record of games, OpenSpiel's view); the studies built on training and the arena
(benchmark, exploitability, the leaderboard, the train command); the front ends (browser, terminal play,
replays); and the command, with the package root that wires the floors (ultimata/__init__.py)."""
FLOOR = {room: floor for floor, rooms in enumerate(HOUSE) for room in rooms}
ROOTS = ("envs", "configs", "agents", "training", "ultimata")
NAMED_MODULE = re.compile(r"ultimata(\.\w+)+(:\w+)?")
"""A string that names a module, as an entry point or `importlib.import_module` takes it: an import too."""


def room_of(module: str) -> str | None:
    """The room a dotted module name is in: 'ultimata.web.app' -> 'web', 'ultimata' -> '__init__'."""
    parts = module.split(":")[0].split(".")
    if parts[0] != "ultimata":
        return None
    return parts[1] if len(parts) > 1 else "__init__"


def room_of_file(path: Path) -> str:
    parts = path.relative_to(REPO).parts
    if parts[0] != "ultimata":
        return parts[0]
    return parts[1] if len(parts) > 2 else parts[1].removesuffix(".py")


def imported_modules(tree: ast.AST) -> list[str]:
    """Every module a file imports, at module level or inside a function (a lazy import is an arrow too),
    under TYPE_CHECKING too, and every module a string names whole ('ultimata.training.x:name')."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module == "ultimata":  # `from ultimata import arena`
            found += [f"ultimata.{a.name}" for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and NAMED_MODULE.fullmatch(node.value):
            found.append(node.value)
    return found


def python_files() -> list[Path]:
    return sorted(p for root in ROOTS for p in (REPO / root).rglob("*.py"))


def test_every_room_is_on_a_floor_of_the_house() -> None:
    rooms = {room_of_file(path) for path in python_files()}
    assert not rooms - set(FLOOR), f"rooms missing from HOUSE: {sorted(rooms - set(FLOOR))}"
    assert not set(FLOOR) - rooms, f"HOUSE names rooms that are gone: {sorted(set(FLOOR) - rooms)}"


def test_no_import_runs_up_a_floor() -> None:
    upward = []
    for path in python_files():
        own = room_of_file(path)
        for module in imported_modules(ast.parse(path.read_text())):
            room = room_of(module)
            if room in FLOOR and FLOOR[room] > FLOOR[own]:
                upward.append(f"{path.relative_to(REPO)} ({own}) imports {module} ({room})")
    assert not upward, "imports that run up a floor: " + "; ".join(upward)


@pytest.mark.parametrize("source", [
    "def later():\n    from ultimata.web.app import create_app\n",
    "import ultimata.training.trainer\n",
    "from ultimata import arena\n",
    "ENTRY = 'ultimata.training.single_agent:single_agent'\n",
])
def test_the_scan_sees_an_import_up_a_floor_wherever_it_is_written(source: str) -> None:
    rooms = {room_of(m) for m in imported_modules(ast.parse(source))}
    assert any(FLOOR[room] > FLOOR["agents"] for room in rooms if room in FLOOR)


GAME_PY_MOST_LINES = 29
"""A game's game.py is under 30 lines, every line counted (blank lines and docstrings too): its `GameInfo`
and what one rule variant computes once; `Game` derives the rest (envs/core/game_info.py)."""


def game_py_lines(path: Path) -> int:
    return len(path.read_text().splitlines())


def raw_env_problems(path: Path) -> list[str]:
    """What keeps an env module from PettingZoo's shape: `class raw_env` written out, an `env` function."""
    tree = ast.parse(path.read_text())
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    problems = [] if "raw_env" in classes else ["no literal `class raw_env`"]
    if "raw_env" in classes and not any(isinstance(b, ast.Name) and b.id in ("UltimataEnv", "AECEnv")
                                        for b in classes["raw_env"].bases):
        problems.append("raw_env is no AECEnv (UltimataEnv) subclass")
    return problems + ([] if "env" in functions else ["no `def env`"])


@pytest.mark.parametrize("name", NAMES)
def test_game_py_holds_only_what_is_particular_to_its_game(name: str) -> None:
    path = REPO / "envs" / base(name) / "game.py"
    assert game_py_lines(path) <= GAME_PY_MOST_LINES, f"{path.relative_to(REPO)}: {game_py_lines(path)} lines"
    assert "info" in vars(game_class(name)), f"{name}'s Game declares its facts as `info = GameInfo(...)`"


@pytest.mark.parametrize("name", NAMES)
def test_each_env_module_writes_its_raw_env_class_out(name: str) -> None:
    assert not raw_env_problems(REPO / "envs" / base(name) / "env.py")
    module = importlib.import_module(f"{GAMES[name]}.env")
    assert (module.raw_env.__module__, module.raw_env.__qualname__) == (module.__name__, "raw_env"), "pickles by name"
    assert module.env.__module__ == module.__name__


def test_no_code_inspects_its_callers_frame() -> None:
    found = [str(p.relative_to(REPO)) for folder in ("envs", "agents", "training", "ultimata", "configs")
             for p in (REPO / folder).rglob("*.py") if "_getframe" in p.read_text()]
    assert not found, f"sys._getframe in {found}"


MOVE_WORDS = ("_action_to_string", "_narrate")
"""The state's hooks that put a move in words: they read words.py (or the state itself), never text.py."""


def _from_text(tree: ast.AST, package: str) -> tuple[set[str], set[str]]:
    """The names `tree` imports from the package's text.py, and the names it binds text.py itself to."""
    names, modules = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == f"{package}.text":
            names |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module == package:
            modules |= {a.asname or a.name for a in node.names if a.name == "text"}
        elif isinstance(node, ast.Import):
            modules |= {a.asname for a in node.names if a.name == f"{package}.text" and a.asname}
    return names, modules


def naming_problems(folder: Path, package: str) -> list[str]:
    """Where a game package breaks the naming scheme of docs/adding_a_game.md: words.py is a move in words,
    text.py the ansi table, combat.py a fight's outcome, and cards.py a rule mixin (the rules of playing
    cards), never card data."""
    problems = [f"no {f}" for f in ("words.py", "text.py") if not (folder / f).is_file()]
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text())
        names, modules = _from_text(tree, package)
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef) and fn.name in MOVE_WORDS:
                used = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}
                if path.name == "text.py" or used & (names | modules):
                    problems.append(f"{path.name}'s {fn.name} takes its words from text.py, not words.py")
    if (folder / "battle.py").is_file():
        problems.append("battle.py: how a fight comes out is combat.py")
    cards = folder / "cards.py"
    if cards.is_file() and not any(isinstance(n, ast.ClassDef) and n.name.endswith("Rules")
                                   for n in ast.parse(cards.read_text()).body):
        problems.append("cards.py holds no rules mixin (`<Concept>Rules`): card data belongs in deck.py")
    return problems


@pytest.mark.parametrize("name", NAMES)
def test_each_game_package_keeps_the_naming_scheme(name: str) -> None:
    problems = naming_problems(REPO / "envs" / base(name), f"ultimata.envs.{base(name)}")
    assert not problems, f"envs/{base(name)}/: " + "; ".join(problems)


SAVING_HOOKS = ("_to_dict", "_from_dict", "clone", "to_dict", "from_dict", "copy")
OWN_SAVING = {}
"""Modules allowed their own saving hook, and why: none. One would be a game whose saved form of a field is not
a function of that field's value alone (a field saved only while another is set, say), which a kind in
envs/core/fields.py cannot express; it would override the hook, say why in its docstring, and be listed here."""


@pytest.mark.parametrize("name", NAMES)
def test_the_position_is_declared_once_in_fields(name: str) -> None:
    """Saving, loading, the field types and clone all come from the state's FIELDS (envs/core/fields.py): no
    module of the game defines its own, and no attribute a played state has is left out of the declaration
    (a clone would not know whether to copy it)."""
    import random

    from ultimata.envs.core.engine import State
    from ultimata.envs.core.fields import Fields
    from ultimata.envs.core.rng import Rng

    own = []
    for path in sorted((REPO / "envs" / base(name)).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name in SAVING_HOOKS and path.name not in OWN_SAVING:
                own.append(f"{path.name}: {node.name}")
    assert not own, f"{base(name)} saves, loads or copies by hand: {', '.join(own)}"
    state = game_class(name).from_config({}).new_initial_state(Rng(0))
    fields = type(state).FIELDS
    assert isinstance(fields, Fields) and fields.keys, "the state class declares no FIELDS"
    pick = random.Random(0)
    for _ in range(200):
        if state.is_terminal():
            break
        state.observation(state.current_player)
        state.apply(pick.choice(state.legal_actions()))
    assert not fields.undeclared(state, State.ENGINE_ATTRS), "attributes outside the declaration"


NAMED_FILE = re.compile(r"(?<![\w/.])((?:envs|agents|training|configs|ultimata|tests|examples)/[\w/.-]+"
                        r"\.(?:py|yaml|js|json))")
EXAMPLE_GAME = ("envs/nim/", "tests/nim/", "configs/nim.yaml")
"""The files of adding_a_game.md's own example game, which the page shows rather than the tree holds."""


@pytest.mark.parametrize("doc", ["docs/adding_a_game.md", "docs/training.md", "README.md"])
def test_every_file_the_layout_docs_name_is_where_they_say(doc: str) -> None:
    named = set(NAMED_FILE.findall((REPO / doc).read_text()))
    missing = sorted(p for p in named if not p.startswith(EXAMPLE_GAME) and not (REPO / p).is_file())
    assert named and not missing, f"{doc} names files that are not there: {missing}"
