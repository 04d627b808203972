"""The fast observation (cached map planes, precomputed indices) equals a plain, field-by-field encoding
of the documented layout on random states of every scenario, for both seats."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import numpy as np
import pytest

from tests.ultra_war.random_play import SCENARIOS, lean
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war import combat
from ultimata.envs.ultra_war.content import HAND_SLOTS, MAX_ARMY, content
from ultimata.envs.ultra_war.game import UltraWarGame
from ultimata.envs.ultra_war.geometry import DIRS, FIELDS
from ultimata.envs.ultra_war.observation import OBS_SIZE, PLANES, UNIT_BLOCK, observe
from ultimata.envs.ultra_war.phases import QUICK
from ultimata.envs.ultra_war.windows import ATTACK


def card_code(card: str) -> float:
    """An attached card as which card it is: its place in whichever faction's deck lists it, plus one, /16."""
    for deck in content().decks.values():
        if card in deck:
            return (list(deck).index(card) + 1) / 16
    return 0.0


def reference(state, seat: int) -> np.ndarray:
    """The layout of observation.py's docstring, written out the slow, obvious way."""
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    planes = obs[: PLANES * FIELDS].reshape(PLANES, FIELDS)
    b = state.board
    for f in range(FIELDS):
        o = f if seat == 0 else FIELDS - 1 - f
        layers = (
            b.wall[f],
            b.door[f],
            b.breachable[f] and f not in state.breached,
            b.obstruction[f],
            b.level[f],
            b.stairs[f],
            b.objective[f],
            b.escape[f],
            b.start[seat][f],
            b.start[1 - seat][f],
        )
        for i, value in enumerate(layers):
            planes[i, o] = value
    o = (lambda f: f) if seat == 0 else (lambda f: FIELDS - 1 - f)
    for s in state.sources:
        if s.pos >= 0 and (s.kind == "crystal" or s.life > 0):
            planes[10 if s.kind == "crystal" else 11 if s.side == seat else 12, o(s.pos)] = 1
    if state.active >= 0:
        planes[13, o(state.units[state.active].pos)] = 1
    if state.attack:
        ui, slot, f, mode = state.attack
        planes[14, o(state.units[ui].pos)] = 1
        aimed = [f]
        if mode == ATTACK and state.phase == QUICK:  # an attack's window: every field it rolls against
            aimed = state.attacked_fields(state.units[ui], combat.attack_spec(state.units[ui], slot), f)
        for g in aimed:
            planes[15, o(g)] = 1
    sign = 1 if seat == 0 else -1
    borne = [sum(1 for s in state.sources if s.bearer == i) for i in range(len(state.units))]
    for i, u in enumerate(state.units):
        if u.pos < 0:
            continue
        base = 16 if u.side == seat else 26
        dr, dc = DIRS[u.facing]
        general = u is state.active_general(u.side)
        values = (
            1,
            u.life / u.ch.life,
            u.flying,
            u.turned,
            general,
            (sign * dc + 1) / 2,
            (sign * -dr + 1) / 2,
            u.disabled,
            u.acted,
            borne[i] > 0,
        )
        for k, value in enumerate(values):
            planes[base + k, o(u.pos)] = value
    at = PLANES * FIELDS
    for i, u in enumerate(state.units):
        slot = (0 if u.side == seat else MAX_ARMY) + u.slot
        if slot >= 2 * MAX_ARMY:
            continue
        ch = u.ch
        ranges = [a.range / 12 for a in ch.attacks] + [0.0] * (2 - len(ch.attacks))
        if u.weapon2:
            ranges[1] = content().decks[ch.faction][u.weapon2].attack.range / 12
        block = (
            u.pos >= 0,
            u.life / 20,
            ch.offense / 10,
            ch.defense / 10,
            ch.movement / 8,
            *ranges,
            ch.magic / 10,
            ch.energy / 10,
            min(1.0, sum(u.reserves.values()) / 20),
            card_code(u.weapon),
            card_code(u.armor),
            card_code(u.standard),
            len(u.upgrades) / 5,
            min(1.0, u.enh_off / 5),
            min(1.0, u.enh_def / 5),
            u.void > 0,
            min(1.0, borne[i] / 4),
            min(1.0, state.equipped_crystal(u).points / 10) if borne[i] else 0.0,
            state.can_fly(u),
        )
        assert len(block) == UNIT_BLOCK
        obs[at + slot * UNIT_BLOCK : at + (slot + 1) * UNIT_BLOCK] = block
    at += 2 * MAX_ARMY * UNIT_BLOCK
    names = list(content().decks[state.game.scenario.factions[seat]])
    for card in state.hands[seat]:
        obs[at + names.index(card)] += 1 / HAND_SLOTS
    at += 16
    if state.pending >= 0 and state.current_player == seat:
        obs[at + state.pending] = 1
    at += HAND_SLOTS
    for side, name, src in state.stack:
        if src >= 0:
            obs[at + 32 + (side != seat)] += 0.25
        else:
            cards = list(content().decks[state.game.scenario.factions[side]])
            obs[at + (0 if side == seat else 16) + cards.index(name)] += 0.25
    at += 34
    sc, cfg = state.game.scenario, state.game.config
    cap = cfg.rounds or sc.rounds

    def budget(side):
        if cfg.army != "draft":
            return 0.0
        left = sc.army_total - sum(u.ch.value for u in state.units if u.side == side and not u.imprisoned)
        return max(0, left) / sc.army_total

    g = (
        min(1.0, state.pool(seat) / 20),
        min(1.0, state.pool(1 - seat) / 20),
        len(state.decks[seat]) / 50,
        len(state.decks[1 - seat]) / 50,
        len(state.hands[seat]) / HAND_SLOTS,
        len(state.hands[1 - seat]) / HAND_SLOTS,
        min(1.0, state.round / cap),
        0.5 if state.choosing else state.first == seat,  # (undecided while the roll's winner chooses)
        state.turn == seat,
        min(1.0, state.hold[seat] / 10),
        min(1.0, state.hold[1 - seat] / 10),
        min(1.0, len(state.stack) / 4),
        budget(seat),
        budget(1 - seat),
        bool(state.attack) and state.units[state.attack[0]].side == seat,
        state.attack[3] / 3 if state.attack else 0.0,
    )
    obs[at : at + len(g)] = g
    obs[at + 16 + state.phase] = 1
    rules = (cfg.initiative_mode == "sum", cfg.hand_limit / 8, cap / 50, cfg.army == "draft", state.passes,
             min(1.0, len(state.strikes) / 4))
    obs[at + 27 : at + 33] = rules
    if state.active >= 0:  # the activation so far
        u = state.units[state.active]
        charge = (0, 1, 0.5)[u.charging]
        obs[at + 33 : at + 38] = (min(1.0, u.steps / 12), charge, min(1.0, u.attacks_made / 2), u.flew, u.paused)
    return obs


@pytest.mark.parametrize("army", ["scripted", "draft"])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_observation_equals_the_reference_encoding(scenario, army):
    game = UltraWarGame.from_config({"scenario": scenario, "army": army})
    checked = 0
    for seed in range(8):
        st = game.new_initial_state(Rng(seed))
        pick, bot_rng = random.Random(seed), Rng(seed)
        while True:
            for seat in (0, 1):
                fast = observe(st, seat)
                assert fast.dtype == np.float32 and fast.shape == (OBS_SIZE,)
                assert np.array_equal(fast, reference(st, seat)), (scenario, seed, st.decisions, seat)
                checked += 1
            if st.is_terminal():
                break
            st.apply(lean(st, seed, pick, bot_rng, 0.8))  # odd seeds: mostly the heuristic bot (it fights more)
    assert checked > 500


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_patched_observation_equals_a_fresh_one(scenario):
    """After a decision that only starts, turns or ends an activation or picks a card (the dispatch says so:
    `state.changed`), the state patches its last observation of the seat (observation.LastView): it must
    equal a whole new encoding, after every decision of random and scripted games, and a caller changing
    the array it got must not reach it."""
    game = UltraWarGame.from_config({"scenario": scenario})
    patched = {True: 0, False: 0}  # (with the pawn, without)
    for seed in range(10):
        st = game.new_initial_state(Rng(seed))
        pick, bot_rng = random.Random(seed), Rng(seed)
        while not st.is_terminal():
            seat = st.current_player
            will_patch = st.last_view.patches(st, seat)
            got = st.observation(seat)
            assert np.array_equal(got, observe(st, seat)), (scenario, seed, st.decisions)
            if will_patch:
                patched[st.changed >= 0] += 1
            got[:] = 0.5  # the caller's copy: the next patch must not start from it
            st.apply(lean(st, seed, pick, bot_rng, 0.8))
    assert patched[True] > 100 and patched[False] > 100


def test_what_a_decision_changed_is_said_only_by_the_dispatch():
    """`state.changed`, the observation's hint, is set in state._apply alone (and reset to ANYTHING where a
    state is made or loaded): no rule module returns or names it, so the rules do not know the observation."""
    package = Path(observe.__code__.co_filename).parent
    for path in sorted(package.glob("*.py")):
        if path.name in ("state.py", "observation.py"):
            continue
        tree = ast.parse(path.read_text())
        named = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {
            a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
        assert not {"ANYTHING", "CHOICE"} & named, f"{path.name} names the observation's hint"
        assert not [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "changed"], path.name
    hints = {}  # function -> the values it stores in `changed`
    for f in ast.walk(ast.parse((package / "state.py").read_text())):
        if isinstance(f, ast.FunctionDef):
            for n in ast.walk(f):
                if isinstance(n, ast.Assign):
                    pairs = [(t, n.value) for t in n.targets]
                    if isinstance(n.targets[0], ast.Tuple) and isinstance(n.value, ast.Tuple):
                        pairs = list(zip(n.targets[0].elts, n.value.elts))
                    hints.setdefault(f.name, set()).update(
                        ast.unparse(v) for t, v in pairs if isinstance(t, ast.Attribute) and t.attr == "changed")
    assert {"CHOICE", "self.active"} <= hints.pop("_apply")
    assert all(values <= {"ANYTHING"} for values in hints.values()), hints  # elsewhere only reset


def test_observation_is_a_fresh_array_each_call():
    """Callers may keep or change an observation: it must not be a shared buffer."""
    game = UltraWarGame.from_config({})
    st = game.new_initial_state(Rng(1))
    a = observe(st, 0)
    a[:] = 0.5
    assert np.array_equal(observe(st, 0), reference(st, 0))


def test_pools_count_each_usable_source_once_and_a_sideless_one_for_neither():
    """pools() (one pass, used by the observation and the legal set) agrees with pool(side) per side;
    a source whose side is neither 0 nor 1 (a bad state dict) is counted for no one, not wrapped."""
    game = UltraWarGame.from_config({"scenario": "relay_hold"})
    st = game.new_initial_state(Rng(3))
    expected = [sum(s.points for s in st.sources if s.side == side and st.source_usable(s)) for side in (0, 1)]
    assert st.pools() == expected == [st.pool(0), st.pool(1)]
    st.sources[0].side = 2
    st.sources[-1].side = -1
    assert st.pools() == [
        sum(s.points for s in st.sources if s.side == side and st.source_usable(s)) for side in (0, 1)
    ]


def test_static_planes_are_cached_per_map_not_per_board_object():
    """The map-plane template is keyed by the map itself: boards of one map share it (clones share their
    board), and a board of another map never gets it (keying by id() did both wrong: copies added entries,
    and a freed board's id, reused by a new board of another map, served the old map's planes)."""
    from ultimata.envs.ultra_war.observation import _TEMPLATE

    clash = UltraWarGame.from_config({"scenario": "street_clash"}).new_initial_state(Rng(0))
    relay = UltraWarGame.from_config({"scenario": "relay_hold"}).new_initial_state(Rng(0))
    clash.observation(0)
    entries = len(_TEMPLATE)
    for _ in range(3):
        copy = clash.clone()
        assert copy.board is clash.board  # the map never changes: clones share it
        other = UltraWarGame.from_config({"scenario": "street_clash"}).new_initial_state(Rng(0))
        assert other.board is not clash.board
        assert np.array_equal(copy.observation(0), reference(copy, 0))
        assert np.array_equal(other.observation(0), reference(other, 0))
    assert len(_TEMPLATE) == entries
    assert np.array_equal(relay.observation(0), reference(relay, 0))
