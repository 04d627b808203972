"""Which modules change the position: the state and its rule mixins, never combat.py (dice in, result out).
Read from the source (what combat.py writes and calls) and checked in play (a position is the same after every
call of a combat.py function as before it)."""

from __future__ import annotations

import ast
import inspect
import json
import random
from pathlib import Path

import pytest

from ultimata.envs.core.engine import State
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war import combat
from ultimata.envs.ultra_war.game import UltraWarGame
from ultimata.envs.ultra_war.scripted import choose_action
from ultimata.envs.ultra_war.state import UltraWarState
from ultimata.envs.ultra_war.units import Unit

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("envs", "agents", "training", "ultimata", "examples")
"""The project's own code (not a virtual environment or a build folder beside it, whatever its name)."""
COMBAT = Path(combat.__file__)
IN_PLACE = {"append", "extend", "insert", "pop", "remove", "clear", "add", "discard", "update", "sort", "reverse",
            "setdefault", "popitem"}


def _combat_tree() -> ast.Module:
    return ast.parse(COMBAT.read_text())


def _stored(target: ast.expr) -> list[ast.expr]:
    """The attribute and item targets of an assignment (through tuples)."""
    if isinstance(target, (ast.Tuple, ast.List)):
        return [x for t in target.elts for x in _stored(t)]
    return [target] if isinstance(target, (ast.Attribute, ast.Subscript)) else []


def test_combat_assigns_no_attribute_or_item():
    writes = []
    for node in ast.walk(_combat_tree()):
        targets = (node.targets if isinstance(node, (ast.Assign, ast.Delete))
                   else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
        writes += [f"line {t.lineno}: {ast.unparse(t)}" for x in targets for t in _stored(x)]
    assert writes == [], f"combat.py changes what it was given: {writes}"


def test_combat_calls_no_private_method_no_setter_no_in_place_change_and_rolls_no_die():
    bad = []
    for node in ast.walk(_combat_tree()):
        if isinstance(node, ast.Attribute) and node.attr == "rng":
            bad.append(f"line {node.lineno}: {ast.unparse(node)} (the rules roll; combat.py is given the dice)")
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id in ("setattr", "delattr"):
            bad.append(f"line {node.lineno}: {f.id}")
        if isinstance(f, ast.Attribute) and (f.attr.startswith("_") or f.attr in ("log", "damage", "defeat")
                                             or f.attr in IN_PLACE and not isinstance(f.value, ast.Name)):
            bad.append(f"line {node.lineno}: {ast.unparse(f)}")
    assert bad == [], f"combat.py changes the position: {bad}"


def _private_state_methods() -> tuple[set[str], set[Path]]:
    """The private methods Ultra War's state and rule mixins define (not the engine's hooks, which the engine
    calls), and the files they live in: the only ones that may call them."""
    names, homes = set(), set()
    for cls in UltraWarState.__mro__:
        if cls.__module__.startswith("ultimata.envs.ultra_war."):
            homes.add(Path(inspect.getfile(cls)).resolve())
            names |= {k for k, v in vars(cls).items() if k.startswith("_") and not k.startswith("__") and callable(v)}
    return names - set(dir(State)), homes


def test_no_private_state_method_is_called_from_outside_the_state_and_its_mixins():
    names, homes = _private_state_methods()
    assert {"_lose_flight", "_take_hit", "_retreat"} <= names
    code = [p for package in PACKAGES for p in (REPO / package).rglob("*.py")]
    calls = []
    for path in code:
        if path.resolve() in homes:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in names
                    and ast.unparse(node.func.value) != "self"):
                calls.append(f"{path.relative_to(REPO)}:{node.lineno} {ast.unparse(node.func)}")
    assert calls == [], f"private state methods called from outside the state: {calls}"


def _snapshot(args: tuple) -> str:
    """Everything the arguments hold of the position: a state's whole saved dict (dice included), a unit's."""
    return json.dumps([a.state_dict() if isinstance(a, UltraWarState) else Unit.FIELDS.save(a) if isinstance(a, Unit)
                       else None for a in args], sort_keys=True)


@pytest.mark.parametrize("scenario", ["street_clash", "relay_hold", "rooftop_rescue"])
def test_no_combat_function_changes_the_position_in_play(scenario, monkeypatch):
    """Every public function of combat.py, wrapped: each call during a game (the scripted bot fights, so
    attacks, criticals and effects come up) leaves its state and units as they were."""
    calls: dict[str, int] = {}

    def pure(name, fn):
        def wrapped(*args, **kwargs):
            before = _snapshot(args)
            out = fn(*args, **kwargs)
            assert _snapshot(args) == before, f"combat.{name} changed the position"
            calls[name] = calls.get(name, 0) + 1
            return out
        return wrapped

    for name, fn in vars(combat).items():
        if inspect.isfunction(fn) and fn.__module__ == combat.__name__ and not name.startswith("_"):
            monkeypatch.setattr(combat, name, pure(name, fn))
    for seed in range(2):
        st = UltraWarGame.from_config({"scenario": scenario}).new_initial_state(Rng(seed))
        pick, bot = random.Random(seed), Rng(seed + 100)
        while not st.is_terminal():
            st.apply(choose_action(st, bot) if pick.random() < 0.7 else pick.choice(st.legal_actions()))
    assert calls.get("attack_score", 0) > 0 and calls.get("kept_dice", 0) > 0  # attacks were rolled
