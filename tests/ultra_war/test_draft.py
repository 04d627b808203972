"""Army drafting as decisions (config `army: draft`; book: The Game Setup, Step 2 "Choose your Army")."""

from __future__ import annotations

import json
import random

import pytest

from ultimata.envs.core.errors import IllegalActionError, UltimataError
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war.content import content
from ultimata.envs.ultra_war.game import UltraWarGame
from ultimata.envs.ultra_war.phases import DRAFT, SETUP


def draft_game(scenario: str = "street_clash", seed: int = 1):
    game = UltraWarGame.from_config({"scenario": scenario, "army": "draft", "first_player": "player_1"})
    return game.new_initial_state(Rng(seed))


def pick(st, name: str) -> None:
    st.apply(A.SELECT + st.roster(st.current_player).index(name))


def test_the_draft_comes_first_player_0_then_player_1_from_the_factions_roster():
    st = draft_game()
    assert st.phase == DRAFT and st.current_player == 0 and st.units == []
    assert st.roster(0) == tuple(n for n, c in content().characters.items() if c.faction == "order")
    assert A.END_TURN not in st.legal_actions()  # no General yet
    pick(st, "Justice")
    assert A.END_TURN in st.legal_actions()
    st.apply(A.END_TURN)
    assert st.phase == DRAFT and st.current_player == 1
    pick(st, "Vegron")
    st.apply(A.END_TURN)
    assert st.phase == SETUP and st.current_player == 1  # the first player (fixed here) pays first
    assert [u.name for u in st.units] == ["Justice", "Vegron"]


def test_a_pick_must_fit_the_army_total_and_leave_a_general_affordable():
    st = draft_game()  # army total 28
    chars = content().characters
    pick(st, "Sir Gareth")  # 5: a General (7 or 8) still fits
    pick(st, "Tristan the Bowman")  # 9
    pick(st, "Squire Wren")  # 12
    pick(st, "Skydas")  # 16; 12 left, so Justice (8) still fits
    legal = {st.roster(0)[a - A.SELECT] for a in st.legal_actions() if A.SELECT <= a < A.FACE}
    assert legal == {"Justice", "Lady Aurelia"}  # every troop is taken; only Generals remain
    pick(st, "Justice")  # 24
    legal = {st.roster(0)[a - A.SELECT] for a in st.legal_actions() if A.SELECT <= a < A.FACE}
    assert legal == set()  # Lady Aurelia (7) would make 31
    assert sum(chars[u.name].value for u in st.units) == 24


def test_a_troop_is_refused_when_it_would_leave_no_general_affordable():
    st = draft_game("relay_hold")  # Stone Corp., army total 25; Generals cost 7
    for _ in range(4):
        pick(st, "Vigil Droid")  # 8
    pick(st, "Demolisher Droid")  # 13
    pick(st, "Sentry Droid")  # 16
    legal = {st.roster(0)[a - A.SELECT] for a in st.legal_actions() if A.SELECT <= a < A.FACE}
    assert "Shock Trooper" not in legal  # 20 + a General of 7 = 27 > 25
    assert {"Edward Blackstone", "Commander Kessler"} <= legal
    with pytest.raises(IllegalActionError):
        pick(st, "Shock Trooper")


def test_minion_limits_and_one_of_each_other_character_hold_in_the_draft():
    st = draft_game("relay_hold")
    for _ in range(4):
        pick(st, "Vigil Droid")
    assert A.SELECT + st.roster(0).index("Vigil Droid") not in st.legal_actions()  # its limit is 4
    pick(st, "Edward Blackstone")
    assert A.SELECT + st.roster(0).index("Edward Blackstone") not in st.legal_actions()


def test_drafted_pawns_stand_in_the_start_area_and_the_first_picks_bear_the_crystals():
    st = draft_game()
    pick(st, "Squire Wren")
    pick(st, "Justice")
    st.apply(A.END_TURN)
    assert all(st.board.start[0][u.pos] for u in st.units)
    crystals = [s for s in st.sources if s.side == 0]
    assert [st.units[s.bearer].name for s in crystals] == ["Squire Wren", "Justice"]


def test_the_prisoner_is_not_drafted_and_joins_after_the_draft():
    st = draft_game("rooftop_rescue")
    assert "Brick" not in st.roster(0)
    pick(st, "Kane")
    st.apply(A.END_TURN)
    pick(st, "Warlord Kragg")
    st.apply(A.END_TURN)
    assert [u.name for u in st.units] == ["Kane", "Warlord Kragg", "Brick"] and st.units[-1].imprisoned
    assert st.units[-1].slot == 1 and st.units[-1].side == 0


@pytest.mark.parametrize("scenario", ["street_clash", "relay_hold", "rooftop_rescue"])
def test_random_drafts_always_end_with_an_army_that_keeps_the_books_rule(scenario):
    game = UltraWarGame.from_config({"scenario": scenario, "army": "draft"})
    sc = game.scenario
    for seed in range(40):
        st = game.new_initial_state(Rng(seed))
        rng = random.Random(seed)
        while st.phase == DRAFT:
            st._check_consistency()
            st.apply(rng.choice(st.legal_actions()))
        for side in (0, 1):
            army = [u for u in st.side_units(side) if not u.imprisoned]
            assert sum(u.ch.value for u in army) <= sc.army_total
            assert any(u.ch.rank == "General" for u in army)


def test_a_loaded_draft_is_checked_against_the_roster_and_the_limits():
    st = draft_game()
    for name in ("Justice", "Sir Gareth", "Squire Wren"):
        pick(st, name)
    d = json.loads(json.dumps(st.state_dict()))
    other = draft_game()
    other.load_state_dict(d)
    assert other.legal_actions() == st.legal_actions()
    twice = json.loads(json.dumps(d))
    twice["state"]["units"][2]["name"] = "Sir Gareth"  # Squire Wren's pawn (life 4, no reserves) renamed
    with pytest.raises(UltimataError, match="more often"):
        other.load_state_dict(twice)
    foreign = json.loads(json.dumps(d))
    foreign["state"]["units"][2]["name"] = "Rayna"
    with pytest.raises(UltimataError, match="roster"):
        other.load_state_dict(foreign)
