"""Europe 1940 combat with its own units (digest §10.3-§10.5, §16, §22.5/6/10/11/12).

Dice are scripted. Each side's units roll in groups of one type and value, the highest value
first (then by unit name), so the faces below are given in that order.
"""

from __future__ import annotations

from rules import orders as od
from rules.events import DiceRolled, Event
from tests.rules.e40._battles import FR, GER, LAND, land_attack


def rolls(evs: list[Event], side: str = "attacker") -> list[DiceRolled]:
    return [e for e in evs if isinstance(e, DiceRolled) and e.side == side]


# --------------------------------------------------------------------------------------------
# Combined arms (§10.5)


def test_CA_4_two_artillery_five_infantry_two_at_2_three_at_1() -> None:
    """CA-4 (the digest's example): 2 artillery and 5 infantry attack; two infantry attack at 2
    and the other three at 1 (CA-1: 1:1)."""
    g = land_attack({"artillery": 2, "infantry": 5}, {"infantry": 6})
    g.script(6, 6, 2, 2, 2, 2, 2, *[6] * 6)
    fire = rolls(g.do(od.Battle(space=LAND)))[0]
    assert fire.groups == (("artillery", 2, (6, 6)), ("infantry", 2, (2, 2)),
                           ("infantry", 1, (2, 2, 2)))
    assert fire.hits == 2


def test_CA_1_artillery_raises_mechanized_infantry_too() -> None:
    """CA-1: artillery raises one mechanized infantry to attack 2."""
    g = land_attack({"artillery": 1, "mechanized infantry": 2}, {"infantry": 3})
    g.script(6, 2, 2, *[6] * 3)
    fire = rolls(g.do(od.Battle(space=LAND)))[0]
    assert fire.groups == (("artillery", 2, (6,)), ("mechanized infantry", 2, (2,)),
                           ("mechanized infantry", 1, (2,)))
    assert fire.hits == 1


def test_CA_2_one_artillery_boosts_one_unit_not_two() -> None:
    """CA-2: an artillery cannot boost both an infantry and a mechanized infantry in the same
    battle: one of them attacks at 2, the other at 1."""
    g = land_attack({"artillery": 1, "infantry": 1, "mechanized infantry": 1}, {"infantry": 3})
    g.script(6, 6, 6, *[6] * 3)
    fire = rolls(g.do(od.Battle(space=LAND)))[0]
    assert fire.groups == (("artillery", 2, (6,)), ("infantry", 2, (6,)),
                           ("mechanized infantry", 1, (6,)))


def test_CA_1_tactical_bomber_at_4_with_a_tank_or_a_fighter() -> None:
    """CA-1: a tactical bomber attacks at 4 paired 1:1 with a tank or a fighter; a third
    tactical bomber without a partner attacks at 3 (CA-4)."""
    g = land_attack({"tank": 1, "fighter": 1, "tactical bomber": 3}, {"infantry": 6})
    g.script(6, 4, 3, 3, 3, *[6] * 6)
    fire = rolls(g.do(od.Battle(space=LAND)))[0]
    assert fire.groups == (("tactical bomber", 4, (6, 4)), ("fighter", 3, (3,)),
                           ("tactical bomber", 3, (3,)), ("tank", 3, (3,)))
    assert fire.hits == 4


def test_CA_3_no_support_on_defence() -> None:
    """CA-3: the bonuses apply only when attacking: defending infantry beside artillery defend
    at 2, a defending tactical bomber beside a fighter and a tank at 3."""
    g = land_attack({"infantry": 1}, {"artillery": 1, "infantry": 2, "tank": 1, "fighter": 1,
                                      "tactical bomber": 1})
    g.script(6, *[6] * 6)
    evs = g.do(od.Battle(space=LAND))
    assert rolls(evs, "defender")[0].groups == (
        ("fighter", 4, (6,)), ("tactical bomber", 3, (6,)), ("tank", 3, (6,)),
        ("artillery", 2, (6,)), ("infantry", 2, (6, 6)))


def test_CA_2_GC_7_pairs_made_again_each_round_with_the_units_left() -> None:
    """GC-7 / §22.11: pairings are re-evaluated each round after casualties: an artillery lost in
    round 1 raises one infantry fewer in round 2."""
    g = land_attack({"artillery": 2, "infantry": 2}, {"infantry": 6}, standing={GER: ["artillery"]})
    g.script(6, 6, 6, 6, 1, *[6] * 5)  # attack misses; the defence hits once
    g.do(od.Battle(space=LAND))  # the standing order loses an artillery
    assert g.units(LAND, GER) == {"artillery": 1, "infantry": 2}
    g.script(6, 6, 6, *[6] * 6)
    fire = rolls(g.do(od.Press(space=LAND)))[0]
    assert fire.groups == (("artillery", 2, (6,)), ("infantry", 2, (6,)), ("infantry", 1, (6,)))
    assert g.units(LAND, FR)["infantry"] == 6
