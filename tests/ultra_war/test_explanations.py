"""What a person is told (issue 42): dice in words, why a flying neighbour cannot be meleed, what a source's
ability does, what caused damage, why an activation ended, and the text board's key."""

from __future__ import annotations

from tests.ultra_war.positions import E, N, S, W, at, crystal, force, legal, position, select
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war import view
from ultimata.envs.ultra_war.game import UltraWarGame
from ultimata.envs.ultra_war.geometry import field


def test_an_attack_is_told_as_dice_plus_attack_against_dice_plus_defence_then_its_outcome():
    st = position([("Justice", 0, (6, 3), E), ("Maxian Trooper", 1, (6, 4), W), ("Vegron", 1, (0, 0), S)])
    select(st, 6, 3)
    force(st, 3, 4, 1, 2)
    st.apply(A.ATTACK + field(6, 4))
    assert st.events[:4] == [
        "Justice attacks Maxian Trooper with Sword: rolls 4+3 + attack 6 = 13 against Maxian Trooper's 2+1 "
        "+ defence 4 = 7",
        "Maxian Trooper takes 6 damage from Justice's Sword (0 left)",
        "Maxian Trooper is defeated",
        "Justice's activation ends: its attack turns it, facing its target",
    ]


def test_criticals_and_misses_are_named():
    st = position([("Justice", 0, (6, 3), E), ("Maxian Trooper", 1, (6, 4), W), ("Vegron", 1, (0, 0), S)])
    select(st, 6, 3)
    force(st, 1, 1, 1, 2)
    st.apply(A.ATTACK + field(6, 4))
    assert "Justice rolls double one: a critical miss, no damage" in st.events
    st = position([("Justice", 0, (6, 3), E), ("Maxian Trooper", 1, (6, 4), W), ("Vegron", 1, (0, 0), S)])
    select(st, 6, 3)
    force(st, 1, 2, 6, 6, 3)
    st.apply(A.ATTACK + field(6, 4))
    assert "Maxian Trooper rolls double six (a critical): the attack fails" in st.events
    assert "Justice takes 3 damage from Maxian Trooper's critical (5 left)" in st.events


def test_a_flying_neighbour_is_explained_where_the_melee_attack_is_missing():
    st = position([("Justice", 0, (6, 3), N), ("Rayna", 1, (5, 3), S), ("Vegron", 1, (0, 0), S)])
    select(st, 6, 3)
    assert not any(A.ATTACK <= a < A.TARGET for a in legal(st))
    note = ("Rayna (d7) is flying: a melee attack cannot reach it; only ranged attacks and flying characters "
            "hit a flying character")
    assert view.view(st, 0)["notes"] == [note] and view.view(st, 1)["notes"] == []
    assert f"note: {note}" in st.render_text(0)
    rayna = next(p for p in view.view(st, 0)["pawns"] if p["name"] == "Rayna")
    assert "flying (only ranged attacks and flyers hit it)" in rayna["status"]


def test_the_crystals_mend_says_what_it_does():
    st = position([("Sir Gareth", 0, (6, 3), N), ("Justice", 0, (11, 0), N), ("Vegron", 1, (0, 0), S)])
    st.units[0].life = 3
    crystal(st, 0, 4)
    use = next(a for a in legal(st) if A.USE <= a < A.TRANSFER)
    text = "Mend (2 points of this crystal, used at any time of your turn): its bearer regains 2 life"
    assert st.action_to_string(use) == f"use Crystal of the Round's {text}"
    gareth = next(p for p in view.view(st, 0)["pawns"] if p["name"] == "Sir Gareth")
    assert gareth["crystal"]["ability"] == text


def test_damage_names_its_cause_burning_too():
    st = position([("Sir Gareth", 0, (6, 3), N), ("Justice", 0, (11, 0), N), ("Vegron", 1, (0, 0), S)])
    at(st, 6, 3).burning = True
    st.apply(A.END_TURN)
    force(st, 3)
    st.apply(A.END_TURN)
    assert "Sir Gareth takes 2 damage from burning (a Fire Attack last turn) (4 left)" in st.events


def test_the_text_board_has_a_key_for_every_letter():
    text = UltraWarGame.from_config({"scenario": "relay_hold"}).new_initial_state(Rng(0)).render_text(0)
    for part in ("T power token", "* objective", "e escape", "# wall", "D door", "o obstruction", "s stairs",
                 "^ upper level", ". floor", "A-H player_0's characters"):
        assert part in text
