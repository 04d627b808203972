"""The engine's masks against the independent reference model (reference.py): the step set and every
single-target attack's field set, on random positions (random pieces, flags, tokens and breaches on every
map) and along random games; and line of sight between random spaces. Any disagreement is a bug in the
engine, the reference or the doc.

Sizes: ULTIMATA_FUZZ_POSITIONS random positions per map (default 150) and ULTIMATA_FUZZ_GAMES games per
scenario (default 4); run thousands on demand, e.g. ULTIMATA_FUZZ_POSITIONS=5000 ULTIMATA_FUZZ_GAMES=300."""

from __future__ import annotations

import os
import random

import pytest

from tests.ultra_war.positions import position
from tests.ultra_war.random_play import GAMES, SCENARIOS, lean
from tests.ultra_war.reference import AREA, Reference, may_attack, rc, spec_for
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war.content import content
from ultimata.envs.ultra_war.game import UltraWarGame
from ultimata.envs.ultra_war.geometry import FIELDS
from ultimata.envs.ultra_war.phases import ACTIVE
from ultimata.envs.ultra_war.units import Source

POSITIONS = int(os.environ.get("ULTIMATA_FUZZ_POSITIONS", "150"))


def compare(st) -> int:
    """Assert the engine's legal steps and single-target attacks equal the reference's; return how many
    attack sets were compared."""
    u = st.units[st.active]
    seat = st.current_player
    legal = st.legal_actions()
    ref = Reference(st)
    engine_steps = {A.to_field(a, seat) for a in legal if a < A.ATTACK}
    assert engine_steps == ref.steps(u), ("steps", u.name, rc(u.pos), sorted(map(rc, engine_steps)),
                                          sorted(map(rc, ref.steps(u))))
    compared = 0
    for slot in range(3):
        spec = spec_for(u, slot, st.game.scenario.factions)
        if spec is None or any(t in spec.tags for t in AREA):
            continue
        lo = A.ATTACK + slot * FIELDS
        engine = {A.to_field(a - lo, seat) for a in legal if lo <= a < lo + FIELDS}
        expected = ref.attack_fields(u, spec) if may_attack(ref, u, spec) else set()
        assert engine == expected, ("attack", u.name, slot, spec.name, rc(u.pos), sorted(map(rc, engine)),
                                    sorted(map(rc, expected)))
        compared += 1
    return compared


def random_position(scenario: str, rng: random.Random):
    """Random pieces on a scenario's map with random flags, tokens, crystals and breaches, one of them
    active (sometimes in the middle of passing through another's space)."""
    game = UltraWarGame.from_config({"scenario": scenario})
    chars = content().characters
    factions = game.scenario.factions
    board = game.board
    open_cells = [f for f in range(FIELDS) if not board.wall[f]]
    n = rng.randint(2, 9)
    cells = rng.sample(open_cells, n + 2)
    pawns = []
    for i in range(n):
        side = rng.randint(0, 1)
        name = rng.choice([k for k, c in chars.items() if c.faction == factions[side]])
        pawns.append((name, side, rc(cells[i]), rng.randrange(8)))
    st = position(pawns, scenario=scenario)
    st.breached = {f for f in range(FIELDS) if board.breachable[f] and rng.random() < 0.5}
    for k in range(rng.randint(0, 2)):
        tok = Source(rng.randint(0, 1), rng.choice(["Tripod Entity", "Street Generator"]), 3)
        tok.pos = cells[n + k]
        if not board.solid(tok.pos, st.breached):
            st.sources.append(tok)
    for u in st.units:
        _shuffle_flags(st, u, rng)
        if board.breachable[u.pos] and u.pos not in st.breached:
            st.breached.add(u.pos)
        if u.ch.reserves and rng.random() < 0.3:
            for r in u.ch.reserves:
                u.reserves[r] = rng.randint(0, u.ch.reserves[r])
        if rng.random() < 0.15:
            s = Source(u.side, "Crystal of the Round", rng.randint(0, 3))
            s.bearer = st.units.index(u)
            st.sources.append(s)
    active = rng.choice(st.units)
    st.turn, st.active, st.phase = active.side, st.units.index(active), ACTIVE
    active.turned = rng.random() < 0.05
    if (active.flying or st.ethereal(active)) and rng.random() < 0.3:
        others = [u for u in st.units if u is not active]
        if others:  # in the middle of a pass: sharing a space (the engine allows it only then)
            active.pos = rng.choice(others).pos
    st._mask = None
    return st


def _shuffle_flags(st, u, rng: random.Random) -> None:
    deck = st.game.side_decks[u.side]
    u.flying = st.can_fly(u) and rng.random() < 0.7
    u.ethereal_off = rng.random() < 0.3
    u.steps = rng.choice([0, 0, 0, 1, 2, 3, 5])
    u.backward = rng.random() < 0.25
    u.charging = rng.random() < 0.2
    u.deprived = 1 if rng.random() < 0.1 else 0
    u.attacks_made = rng.choice([0, 0, 0, 0, 1, 2])
    u.stun = 1 if rng.random() < 0.05 else 0
    u.powered_down = u.is_droid and rng.random() < 0.05
    movers = [k for k, c in deck.items() if c.kind == "standard" and c.movement]
    if movers and rng.random() < 0.2:
        u.standard = rng.choice(movers)
    weapons = [k for k, c in deck.items() if c.kind == "weapon" and not (c.attack.tags.keys() & set(AREA))]
    if weapons and rng.random() < 0.3:
        u.weapon = rng.choice(weapons)
    if rng.random() < 0.05:
        u.ch = u.ch.model_copy(update={"tags": [*u.ch.tags, "Gigantic"]})


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_engine_masks_equal_the_reference_on_random_positions(scenario):
    rng = random.Random(hash(scenario) % 1000)
    attacks = stepped = 0
    for _ in range(POSITIONS):
        st = random_position(scenario, rng)
        attacks += compare(st)
        stepped += bool(st.legal_actions()) and any(a < A.ATTACK for a in st.legal_actions())
    assert attacks > POSITIONS and stepped > POSITIONS // 3  # the comparisons were not vacuous


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_engine_masks_equal_the_reference_along_random_games(scenario):
    game = UltraWarGame.from_config({"scenario": scenario})
    checked = 0
    for seed in range(GAMES):
        st = game.new_initial_state(Rng(seed))
        pick, bot = random.Random(seed), Rng(seed)
        while not st.is_terminal():
            if st.phase == ACTIVE:
                compare(st)
                checked += 1
            st.apply(lean(st, seed, pick, bot, 0.7))  # odd seeds mostly bot play: more fighting
    assert checked > 20 * GAMES


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_sight_equals_the_reference_between_random_spaces(scenario):
    rng = random.Random(7)
    for _ in range(POSITIONS):
        st = random_position(scenario, rng)
        ref = Reference(st)
        occ = st.occupied_map()
        for _ in range(20):
            a, b = rng.randrange(FIELDS), rng.randrange(FIELDS)
            if a == b:
                continue
            fa, fb = rng.random() < 0.3, rng.random() < 0.3
            assert st.board.sight_clear(a, b, occ, st.breached, fa, fb) == ref.sight(rc(a), rc(b), fa, fb), (
                rc(a), rc(b), fa, fb)


def test_the_reference_keeps_the_books_worked_examples_too():
    """The reference is checked against the book, not only against the engine."""
    from tests.ultra_war.positions import position

    st = position([("Fogg", 0, (5, 4), E_), ("Rayna", 1, (5, 7), W_)])  # the street's objects at f7, g7
    ref = Reference(st)
    fogg, rayna = st.units
    spec = fogg.ch.attacks[1]
    rayna.flying = False
    assert ref.attack_fields(fogg, spec) == set()  # blocked by the object in the line
    rayna.flying = True
    assert ref.attack_fields(fogg, spec) == {rayna.pos}  # legal again when Rayna flies
    st = position([("Fogg", 0, (3, 2), 4), ("Rayna", 1, (3, 4), 0)], scenario="rooftop_rescue")
    ref = Reference(st)
    assert not ref.sight((3, 2), (3, 4), False, False)  # one space from the right-hand ledge
    assert ref.sight((3, 2), (5, 2), False, False) and not ref.sight((2, 2), (5, 2), False, False)


E_, W_ = 2, 6
