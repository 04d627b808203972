"""Loading a saved position (issue 40): a dict that is not a position the rules allow is refused with one
clear error naming the field; nothing is accepted and then crashes."""

from __future__ import annotations

import copy

import pytest

from ultimata.envs.core.errors import UltimataError
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war.game import UltraWarGame


def saved(seed: int = 4, moves: int = 60, **config) -> tuple[UltraWarGame, dict]:
    game = UltraWarGame.from_config(config)
    st = game.new_initial_state(Rng(seed))
    pick = Rng(seed)
    while st.decisions < moves:
        legal = st.legal_actions()
        st.apply(legal[pick.below(len(legal))])
    return game, st.state_dict()


def refused(game: UltraWarGame, d: dict, *words: str) -> None:
    with pytest.raises(UltimataError) as err:
        game.new_initial_state(Rng(0)).load_state_dict(d)
    assert all(w in str(err.value) for w in words), str(err.value)


def test_a_saved_position_loads_and_saves_again_unchanged():
    game, d = saved()
    st = game.new_initial_state(Rng(0))
    st.load_state_dict(copy.deepcopy(d))
    assert st.state_dict() == d


@pytest.mark.parametrize("bad", [1.5, True, None, "0", [], {}])
def test_every_number_is_a_true_whole_number(bad):
    game, d = saved()
    for path, words in ((("units", 3, "enh_def"), ("units[3].enh_def", "whole number")),
                        (("units", 0, "facing"), ("units[0].facing",)),
                        (("discards", 0), ("discards",)),
                        (("round",), ("round",)),
                        (("sources", 0, "points"), ("sources[0].points",))):
        mutant = copy.deepcopy(d)
        node = mutant["state"]
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = bad
        refused(game, mutant, *words)


@pytest.mark.parametrize(("key", "value", "words"), [
    ("discards", [], ("discards", "list of 2")),
    ("hold", [], ("hold", "list of 2")),
    ("lift", 0, ("lift", "true or false")),
    ("unexpected", 1, ("unknown: ['unexpected']",)),
    ("hands", [[]], ("hands", "a list of 2")),
])
def test_lists_have_their_lengths_and_no_key_is_added(key, value, words):
    game, d = saved()
    d["state"][key] = value
    refused(game, d, *words)


@pytest.mark.parametrize(("change", "words"), [
    (lambda s: s["units"][0].update(stun=3), ("units[0].stun", "0..2")),
    (lambda s: s["units"][0].update(facing=8), ("units[0].facing", "0..7")),
    (lambda s: s["units"][0].update(pos=144), ("units[0].pos", "-1..143")),
    (lambda s: s["units"][0].update(side=2), ("units[0].side", "0..1")),
    (lambda s: s["units"][0].update(steps=31), ("units[0].steps", "0..30")),
    (lambda s: s["sources"][0].update(bearer=-2), ("sources[0].bearer",)),
    (lambda s: s.update(phase=99), ("phase", "whole number 0..")),
    (lambda s: s.update(winner=3), ("winner", "-1..2")),
    (lambda s: s.update(turn=2), ("turn", "0..1")),
    (lambda s: s.update(breached=[144]), ("breached", "0..143")),
    (lambda s: s["units"][0].update(charging=2), ("charging",)),  # Justice has no Charge Attack
    (lambda s: s["units"][0].update(enh_off=-1), ("units[0].enh_off", "0..")),
    (lambda s: s["units"][0].update(enh_off=99), ("enhancement offense",)),
    (lambda s: s["units"][0].update(reserves={}), ("reserves",)),
    (lambda s: s["units"][1].update(imprisoned=True), ("imprisoned",)),
    (lambda s: s["units"][1].update(powered_down=True), ("powered down",)),
    (lambda s: s["units"][1].update(void_from=5), ("Void",)),
    (lambda s: s["hold"].__setitem__(0, -1), ("hold[0]", "0..0")),  # street_clash is no hold scenario
    (lambda s: s["discards"].__setitem__(1, -5), ("discards",)),
    (lambda s: s["decks"][0].extend(["Excalibur", "Excalibur"]), ("Excalibur cards, the deck holds 1",)),
    (lambda s: s["sources"].append(copy.deepcopy(s["sources"][0])), ("sources; the scenario gives 2",)),
    (lambda s: s.update(round=99), ("round", "1..8")),
])
def test_impossible_positions_are_refused_naming_what_is_wrong(change, words):
    game, d = saved()
    change(d["state"])
    refused(game, d, *words)
