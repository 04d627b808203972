"""The content is schema-validated; a bad file names the file, the entry and the field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from ultimata.envs.ultra_war.content import DATA, ContentError, content, load_content


def test_all_shipped_content_is_valid_and_complete():
    c = content()
    assert len(c.maps) >= 3 and len(c.scenarios) >= 3
    assert {s.objective for s in c.scenarios.values()} == {"defeat_general", "hold", "rescue"}
    for faction in c.factions:
        chars = [x for x in c.characters.values() if x.faction == faction]
        assert len(chars) >= 6 and sum(x.rank == "General" for x in chars) == 2
        deck = c.decks[faction]
        assert sum(card.count for card in deck.values()) == 50 and len(deck) >= 12


def test_book_named_characters_keep_the_books_numbers():
    ch = content().characters
    assert ch["Justice"].offense == 5 and ch["Justice"].general_ability == {"Attack Bonus": 1}
    assert ch["Vigil Droid"].defense == 4 and [a.kind for a in ch["Vigil Droid"].attacks] == ["melee"]
    assert ch["Fogg"].attacks[1].range == 5 and ch["Fogg"].faction == "wolf"
    assert "Flight" in ch["Rayna"].abilities and ch["Rayna"].faction == "legion"
    assert "Magic Transfer" in ch["Skydas"].abilities
    assert any(a.kind == "ranged" for a in ch["David Barrett"].attacks)
    assert ch["Vegron"].faction == "legion" and ch["Edward Blackstone"].faction == "stone_corp"


def broken(tmp_path: Path, file: str, edit) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    data = yaml.safe_load((folder / file).read_text())
    edit(data)
    (folder / file).write_text(yaml.safe_dump(data))
    return folder


def test_a_bad_character_field_names_file_entry_and_field(tmp_path):
    folder = broken(tmp_path, "characters.yaml", lambda d: d["characters"]["Justice"].update(offense="lots"))
    with pytest.raises(ContentError, match=r"characters.yaml: characters entry 'Justice': field 'offense'"):
        load_content(folder)


def test_an_unknown_ability_is_refused(tmp_path):
    folder = broken(tmp_path, "characters.yaml", lambda d: d["characters"]["Fogg"]["abilities"].update(Teleport=1))
    with pytest.raises(ContentError, match=r"entry 'Fogg'.*Teleport"):
        load_content(folder)


def test_a_bad_card_names_its_deck_and_field(tmp_path):
    folder = broken(tmp_path, "cards.yaml", lambda d: d["decks"]["wolf"]["Overload"].update(cost=-1))
    with pytest.raises(ContentError, match=r"cards.yaml: decks.wolf entry 'Overload': field 'cost'"):
        load_content(folder)


def test_a_deck_must_hold_50_cards(tmp_path):
    folder = broken(tmp_path, "cards.yaml", lambda d: d["decks"]["wolf"]["Overload"].update(count=6))
    with pytest.raises(ContentError, match="needs 50 cards"):
        load_content(folder)


def test_a_bad_map_row_is_named(tmp_path):
    folder = broken(tmp_path, "maps.yaml", lambda d: d["skyline"]["terrain"].__setitem__(3, "...x........"))
    with pytest.raises(ContentError, match=r"maps.yaml: maps entry 'skyline'.*terrain row 3"):
        load_content(folder)


def test_an_army_over_the_total_is_refused(tmp_path):
    folder = broken(tmp_path, "scenarios.yaml", lambda d: d["scenarios"]["street_clash"].update(army_total=10))
    with pytest.raises(ContentError, match=r"entry 'street_clash': field 'armies.0': army value exceeds"):
        load_content(folder)


def test_an_army_needs_a_general(tmp_path):
    folder = broken(tmp_path, "scenarios.yaml",
                    lambda d: d["scenarios"]["street_clash"]["armies"].__setitem__(0, ["Skydas", "Squire Wren"]))
    with pytest.raises(ContentError, match="needs at least one General"):
        load_content(folder)


def test_minion_limits_are_kept(tmp_path):
    def edit(d):
        d["scenarios"]["relay_hold"]["armies"][0].extend(["Sentry Droid", "Sentry Droid"])
        d["scenarios"]["relay_hold"]["army_total"] = 60

    folder = broken(tmp_path, "scenarios.yaml", edit)
    with pytest.raises(ContentError, match="limit"):
        load_content(folder)


def test_unit_has_and_param_refuse_an_unknown_ability_name():
    """A misspelt ability must not read as "the character lacks it": Unit.has and Unit.param name it and
    list the known ones."""
    from ultimata.envs.core.errors import UltimataError
    from ultimata.envs.ultra_war.units import Unit

    fogg = Unit("Fogg", 1, 0)
    assert fogg.has("Stealth") and not fogg.has("Breach") and fogg.param("Martial") == 0  # known names answer
    for read in (fogg.has, fogg.param):
        with pytest.raises(UltimataError, match=r"unknown ability 'Charge Atack'.*Charge Attack"):
            read("Charge Atack")


def test_every_name_constant_is_a_known_glossary_name():
    """abilities.py's constants are what the rules read: each must be in one of the lists the loader and
    Unit.has check against."""
    from ultimata.envs.ultra_war import abilities

    known = abilities.ABILITIES | abilities.GENERAL_ABILITIES | abilities.ATTACK_TAGS | abilities.STATUS_TAGS
    names = {k: v for k, v in vars(abilities).items() if k.isupper() and isinstance(v, str)}
    assert len(names) > 60 and set(names.values()) == known
