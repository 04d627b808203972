"""The first weapon choice of a battle is hidden from the other fighter and from everyone else, and
remembered by the one who made it."""

from ultimata.envs.conquest_of_the_world import actions as A

from .position import c, opening


def test_the_first_weapon_choice_is_hidden_from_every_other_seat():
    s = opening(["China", "United States", "U.S.S.R."], first=2)
    s.apply(A.ATTACK + c("Brazil"))
    attacker, defender = s.fighters
    seen = []
    for weapon in range(3):
        t = s.clone()
        t.apply(A.weapon_action(weapon, 1))
        seen.append(t)
    for seat in range(3):
        if seat == attacker:
            assert not (seen[0].observation(seat) == seen[1].observation(seat)).all()
        else:
            assert all((x.observation(seat) == seen[0].observation(seat)).all() for x in seen)
    assert all(x.render_text(defender) == seen[0].render_text(defender) for x in seen)


def test_a_sample_for_search_keeps_what_the_viewer_knows_and_redraws_the_hidden_choice():
    from ultimata.envs.core.rng import Rng

    s = opening(["China", "United States", "U.S.S.R."], first=2)
    s.apply(A.ATTACK + c("Brazil"))
    s.apply(A.weapon_action(2, 2))
    defender = s.fighters[1]
    drawn = set()
    for seed in range(30):
        t = s.sample_consistent(defender, Rng(seed))
        assert (t.observation(defender) == s.observation(defender)).all()
        drawn.add(t.pending)
        t.apply(t.legal_actions()[0])
    assert len(drawn) > 3
    assert s.sample_consistent(s.fighters[0], Rng(0)).pending == s.pending


def test_after_the_battle_both_choices_are_seen_by_everyone():
    from ultimata.envs.conquest_of_the_world.observation import OBS_SIZE

    from .position import fight

    s = opening(["China", "United States", "U.S.S.R."], first=2)
    s.apply(A.ATTACK + c("Brazil"))
    fight(s, [0, 0, 99], (2, 2), (0, 1))  # wooded; the attacker's all-out plane beats a steady tank
    assert s.last_battle == [1, 2, 8, 1, 1]
    for seat in range(3):
        last = s.observation(seat)[OBS_SIZE - 31:]
        assert last[(1 - seat) % 3] == 1 and last[6 + (2 - seat) % 3] == 1
        assert last[12 + 8] == 1 and last[21 + 1] == 1 and last[30] == 1 and last.sum() == 5
