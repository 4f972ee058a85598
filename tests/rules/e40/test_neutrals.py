"""Neutral territories in Europe 1940 (digest §6: NT-1..NT-3, FN-1..FN-3, UN-1..UN-5, SN-1,
SN-2, AN-1; CM-3, CM-10, NC-4, NC-5, LI-3; §22.2), with the digest's examples: Germany attacks
Sweden and the other strict neutrals turn pro-Allied; an Axis invasion of Northwest Persia
leaves Persia as it was; a German attack on Yugoslavia makes it Allied."""

from __future__ import annotations

from typing import Any

import pytest

from rules import engine
from rules import orders as od
from rules.errors import InvalidOrder
from rules.mechanisms.neutrals import (
    NeutralInvaded,
    NeutralJoined,
    NeutralStood,
    former_neutral,
    printed,
    seat,
)
from rules.messages import own_rule
from rules.position import state_json
from rules.state import GameState
from tests.rules.helpers import Game, position

E40 = "europe1940"


def _game(power: str, phase: str, units: dict[str, Any], **extra: Any) -> Game:
    return Game(position(power, phase, units, edition=E40, **extra))


def _words(g: Game, e: Any, before: GameState | None = None) -> str:
    from rules.turn import registry as reg

    fn = reg.words_for(type(e))
    assert fn is not None
    s = before or g.state
    return s.edition.cite_text(str(fn(s, e)))  # as players read it (own_rule citations)


# --------------------------------------------------------------------------------------------
# NT-1, NT-2: three kinds, their armies; the position keys


def test_NT_1_three_kinds_and_their_armies_as_printed() -> None:
    g = _game("Germany", "combat_move", {})
    ed = g.state.edition
    assert printed(ed)["Bulgaria"] == ("pro_axis", (("infantry", 4),))
    assert printed(ed)["Yugoslavia"][0] == "pro_allied"
    assert {t for t in ("Sweden", "Turkey", "Switzerland") if printed(ed)[t][0] == "strict"} \
        == {"Sweden", "Turkey", "Switzerland"}
    doc = g.json
    assert doc["neutrals"] == {} and doc["failed_attacks"] == []
    # NT-2: the printed army stands there, owned by no power, written under "neutral".
    assert doc["units"]["Sweden"] == {"neutral": {"infantry": 6}}
    assert doc["units"]["Turkey"] == {"neutral": {"infantry": 8}}
    assert g.owner("Sweden") is None


def test_NT_2_the_text_map_shows_a_neutral_army_as_no_power_s_units() -> None:
    from service.describe import map_lines

    g = _game("Germany", "combat_move", {"Norway": {"Germany": {"infantry": 2}}})
    assert map_lines(g.state, "Sweden")[0] == "Sweden [neutral, 3]: neutral 6 infantry"
    g.move({"infantry": 2}, "Norway", "Sweden")  # placed, run by the United Kingdom (UN-3)
    assert map_lines(g.state, "Sweden")[0] == ("Sweden [neutral, 3]: Germany 2 infantry; "
                                               "neutral 6 infantry")


def test_NT_1_the_position_keys_neutrals_failed_attacks_and_neutral_armies() -> None:
    g = _game("Germany", "combat_move", {"Spain": {"neutral": {"infantry": 2}},
                                         "Sweden": {"neutral": {}}},
              neutrals={"Spain": "pro_allied", "Bulgaria": "pro_axis"},
              failed_attacks=["Yugoslavia"])
    doc = g.json
    assert doc["neutrals"] == {"Spain": "pro_allied"}  # only what differs from the board
    assert doc["failed_attacks"] == ["Yugoslavia"]
    assert doc["units"]["Spain"] == {"neutral": {"infantry": 2}}
    assert doc["units"]["Sweden"] == {"neutral": {}}  # its army gone
    again = Game(doc)
    assert again.json == doc
    for bad, words in (({"neutrals": {"Spain": "friendly"}}, "Spain 'friendly'; the "
                        "alignments are strict, pro_axis, pro_allied."),
                       ({"neutrals": {"France": "strict"}}, "France is not a neutral"),
                       ({"failed_attacks": "Sweden"}, "a list of neutral territories"),
                       ({"units": {"Germany": {"neutral": {"infantry": 1}}}},
                        "only a neutral territory has a neutral army; Germany is none")):
        with pytest.raises(InvalidOrder) as e:
            engine.new_game(E40, (), {**position("Germany", "combat_move", edition=E40),
                                      **bad})
        assert words in str(e.value)


def test_NT_1_no_neutral_keys_in_an_edition_without_aligned_neutrals() -> None:
    doc = Game(position("Germany", "combat_move")).json
    assert "neutrals" not in doc and "failed_attacks" not in doc
    with pytest.raises(InvalidOrder) as e:
        engine.new_game("1941", (), {"neutrals": {"Sweden": "strict"}})
    assert "has no aligned neutral territories; leave 'neutrals' out" in str(e.value)


# --------------------------------------------------------------------------------------------
# Friendly neutrals: FN-1, FN-2, FN-3, CM-3, CM-10, NC-4, NC-5


def test_FN_1_a_friendly_neutral_cannot_be_attacked() -> None:
    g = _game("Germany", "combat_move", {"Romania": {"Germany": {"infantry": 2,
                                                                 "fighter": 1}}})
    g.refuse(od.Move(units={"infantry": 1}, frm="Romania", to="Bulgaria"),
             "Bulgaria is a pro-Axis neutral, friendly to your side: it cannot be attacked "
             "(FN-1, FN-2). Land units move into it in Noncombat Move.")
    g.refuse(od.Move(units={"fighter": 1}, frm="Romania", to="Bulgaria"),
             "Bulgaria is a pro-Axis neutral, friendly to your side: air units may neither "
             "fly over it nor land there (FN-1, CM-10, NC-5).")


def test_CM_10_europe1940_no_overflight_of_any_neutral_unless_attacking_it() -> None:
    g = _game("Germany", "combat_move", {"Romania": {"Germany": {"fighter": 1}},
                                         "Western Germany": {"Germany": {"fighter": 1}},
                                         "France": {"France": {"infantry": 1}}})
    # Over a friendly neutral: never (FN-1).
    g.refuse(od.Move(units={"fighter": 1}, frm="Romania", to="Greece", via=("Bulgaria",)),
             "Bulgaria is a pro-Axis neutral, friendly to your side: air units may neither fly "
             "over it nor land there (FN-1, CM-10, NC-5).")
    # Over a strict neutral on the way to another target: never (UN-2).
    g.refuse(od.Move(units={"fighter": 1}, frm="Western Germany", to="France",
                     via=("Switzerland",)),
             "Switzerland is a strict neutral: air units may not fly over it unless they attack "
             "it (UN-2, CM-10).")
    # Without 'via' the route goes around it.
    evs = g.move({"fighter": 1}, "Western Germany", "France")
    assert "Switzerland" not in evs[0].moves[0].path  # type: ignore[attr-defined]


def test_FN_2_CM_3_NC_4_europe1940_a_friendly_neutral_is_entered_not_passed_through() -> None:
    g = _game("Germany", "noncombat_move", {"Romania": {"Germany": {"tank": 1, "infantry": 1,
                                                                    "aa gun": 1}}})
    g.refuse(od.Move(units={"tank": 1}, frm="Romania", to="Albania", via=("Bulgaria",)),
             "Bulgaria is a friendly neutral: land units may move into it but not through it "
             "(FN-2, CM-3).")
    # FN-3 / LU-2: units that cannot capture do not take it on their own.
    g.refuse(od.Move(units={"aa gun": 1}, frm="Romania", to="Bulgaria"),
             "Only land units that can capture (artillery, infantry, mechanized infantry and "
             "tank) take the friendly neutral Bulgaria (FN-3, LU-2)")


def test_FN_2_a_power_at_war_with_nobody_may_not_enter_a_friendly_neutral() -> None:
    # NW-4: the Soviet Union starts at war with nobody.
    g = _game("Soviet Union", "noncombat_move", {"Caucasus": {"Soviet Union": {"infantry": 1}}})
    g.refuse(od.Move(units={"infantry": 1}, frm="Caucasus", to="Northwest Persia"),
             "Soviet Union is at war with no power: it may not move units into the friendly "
             "neutral Northwest Persia (FN-2, NW-4).")


def test_FN_3_the_first_land_unit_in_takes_it_its_value_and_its_army() -> None:
    g = _game("Germany", "noncombat_move", {"Romania": {"Germany": {"infantry": 2}},
                                            "Slovakia Hungary": {"Germany": {"fighter": 1}}})
    income = g.json["income"]["Germany"]
    evs = g.move({"infantry": 1}, "Romania", "Bulgaria")
    assert g.owner("Bulgaria") == "Germany"
    assert g.json["income"]["Germany"] == income + 1
    assert g.units("Bulgaria", "Germany") == {"infantry": 5}  # its own, and the army of 4
    assert "neutral" not in g.json["units"]["Bulgaria"]
    joined = [e for e in evs if isinstance(e, NeutralJoined)]
    assert joined and joined[0].army == {"infantry": 4}
    assert _words(g, joined[0]) == ("Germany took the friendly neutral Bulgaria; its army "
                                    "(4 infantry) joins Germany, free to move from its next "
                                    "turn (FN-3).")
    # The army moves from Germany's next turn; the infantry that walked in moved already.
    g.refuse(od.Move(units={"infantry": 1}, frm="Bulgaria", to="Romania"), "not 1")
    # NC-5: aircraft never land in a friendly neutral taken this turn.
    g.refuse(od.Move(units={"fighter": 1}, frm="Slovakia Hungary", to="Bulgaria"),
             "Bulgaria is not a territory friendly since the start of the turn")
    # Another unit may follow it in: Bulgaria is Germany's now.
    g.move({"infantry": 1}, "Romania", "Bulgaria")


def test_NC_5_europe1940_no_air_unit_lands_in_a_friendly_neutral() -> None:
    g = _game("Germany", "noncombat_move", {"Romania": {"Germany": {"fighter": 1}}})
    g.refuse(od.Move(units={"fighter": 1}, frm="Romania", to="Bulgaria"),
             "Bulgaria is a pro-Axis neutral, friendly to your side: air units may neither fly "
             "over it nor land there (FN-1, CM-10, NC-5).")


# --------------------------------------------------------------------------------------------
# Unfriendly and strict neutrals: UN-1..UN-5, SN-1, SN-2, NT-3


def test_UN_1_entering_an_unfriendly_neutral_is_an_attack() -> None:
    g = _game("Germany", "noncombat_move",
              {"Greater Southern Germany": {"Germany": {"infantry": 1, "tank": 1}}})
    g.refuse(od.Move(units={"infantry": 1}, frm="Greater Southern Germany", to="Yugoslavia"),
             "Yugoslavia is a pro-Allied neutral, not friendly to your side: entering it is an "
             "attack, made in Combat Move (UN-1, NC-4).")
    g = _game("Germany", "combat_move",
              {"Greater Southern Germany": {"Germany": {"infantry": 1, "tank": 1}}})
    g.refuse(od.Move(units={"tank": 1}, frm="Greater Southern Germany", to="Albania",
                     via=("Yugoslavia",)),
             "Yugoslavia is a pro-Allied neutral: land units that enter it attack it and stop "
             "there; they cannot move on through it (UN-1, CM-3).")


def test_UN_3_a_german_attack_on_yugoslavia_makes_it_allied_its_army_placed_at_once() -> None:
    g = _game("Germany", "combat_move",
              {"Greater Southern Germany": {"Germany": {"tank": 4}}})
    before = g.state
    evs = g.move({"tank": 4}, "Greater Southern Germany", "Yugoslavia")
    (inv,) = [e for e in evs if isinstance(e, NeutralInvaded)]
    # The seat: the first power after Germany at war with it (best reading of UN-3).
    assert inv.seat == seat(before, "Germany") == "United Kingdom"
    assert inv.joins == "pro_allied" and inv.army == {"infantry": 5} and inv.turned == ()
    assert _words(g, inv, before) == (
        "Germany invaded Yugoslavia, which joins the other side as a pro-Allied neutral; its "
        "army (5 infantry) is placed at once, run by United Kingdom (UN-3).")
    # Placed at once, kept apart: written as the neutral's army, not as British units.
    assert g.json["units"]["Yugoslavia"] == {"Germany": {"tank": 4}, "neutral": {"infantry": 5}}
    assert len([u for u in g.state.units_in("Yugoslavia") if u.owner == "United Kingdom"]) == 5
    assert g.owner("Yugoslavia") is None
    # NT-3: no declaration of war on a neutral; the war matrix is unchanged.
    assert g.json["war"] == state_json(before)["war"]
    g.end()
    assert list(g.state.battles) == ["Yugoslavia"]
    assert g.state.battles["Yugoslavia"].defenders == ("United Kingdom",)


def test_UN_4_capture_adds_its_value() -> None:
    g = _game("Germany", "combat_move",
              {"Greater Southern Germany": {"Germany": {"tank": 4}}})
    income = g.json["income"]["Germany"]
    g.move({"tank": 4}, "Greater Southern Germany", "Yugoslavia")
    g.end()
    g.script(1, 1, 1, 1, 6, 6, 6, 6, 6, 1, 6, 6, 6, 6)  # round 1: 4 hits, none back; round 2
    g.fight_out("Yugoslavia")
    assert g.owner("Yugoslavia") == "Germany"
    assert g.json["income"]["Germany"] == income + 2
    g.end()
    assert "Yugoslavia" not in g.json["neutrals"]


def test_UN_5_a_failed_attack_leaves_the_survivors_frozen_and_the_territory_uncontrolled() -> None:
    g = _game("Germany", "combat_move",
              {"Greater Southern Germany": {"Germany": {"infantry": 2}}})
    g.move({"infantry": 2}, "Greater Southern Germany", "Yugoslavia")
    g.end()
    g.script(6, 6, 1, 1, 6, 6, 6)  # Germany misses twice; Yugoslavia hits twice
    g.fight_out("Yugoslavia")
    evs = g.end()
    (stood,) = [e for e in evs if isinstance(e, NeutralStood)]
    assert _words(g, stood) == ("The attack on Yugoslavia failed: it stays uncontrolled, now a "
                                "pro-Allied neutral; its army (5 infantry) stays there and "
                                "cannot move (UN-5).")
    doc = g.json
    assert g.owner("Yugoslavia") is None
    assert doc["units"]["Yugoslavia"] == {"neutral": {"infantry": 5}}
    assert doc["failed_attacks"] == ["Yugoslavia"]
    assert not [u for u in g.state.units_in("Yugoslavia")]  # no power's units


def test_UN_5_the_side_it_joined_may_walk_in_and_take_it_with_its_survivors() -> None:
    g = _game("United Kingdom", "noncombat_move",
              {"Romania": {"United Kingdom": {"infantry": 1}},
               "Yugoslavia": {"neutral": {"infantry": 3}}},
              owners={"Romania": "United Kingdom"}, failed_attacks=["Yugoslavia"])
    evs = g.move({"infantry": 1}, "Romania", "Yugoslavia")
    (joined,) = [e for e in evs if isinstance(e, NeutralJoined)]
    assert joined.rule == own_rule("UN-5, FN-3")
    assert g.owner("Yugoslavia") == "United Kingdom"
    assert g.units("Yugoslavia", "United Kingdom") == {"infantry": 4}
    assert g.json["failed_attacks"] == []


def test_SN_1_a_strict_neutral_is_unfriendly_to_both_sides() -> None:
    for power, frm in (("Germany", "Norway"), ("United Kingdom", "Norway")):
        g = _game(power, "noncombat_move", {frm: {power: {"infantry": 1}}},
                  owners={"Norway": power})
        g.refuse(od.Move(units={"infantry": 1}, frm=frm, to="Sweden"),
                 "Sweden is a strict neutral, not friendly to your side: entering it is an "
                 "attack, made in Combat Move (SN-1, UN-1, NC-4).")


def test_SN_2_germany_attacks_sweden_and_every_other_strict_neutral_turns_pro_allied() -> None:
    g = _game("Germany", "combat_move", {"Norway": {"Germany": {"infantry": 3}}})
    before = g.state
    strict = sorted(t for t, (a, _) in printed(before.edition).items()
                    if a == "strict" and t != "Sweden")
    evs = g.move({"infantry": 3}, "Norway", "Sweden")
    (inv,) = [e for e in evs if isinstance(e, NeutralInvaded)]
    assert sorted(inv.turned) == strict
    assert inv.rule == own_rule("UN-3, SN-2")
    neutrals = g.json["neutrals"]
    assert neutrals["Sweden"] == "pro_allied"
    assert all(neutrals[t] == "pro_allied" for t in ("Turkey", "Switzerland", "Spain"))
    assert "Bulgaria" not in neutrals and "Yugoslavia" not in neutrals
    assert "; the other strict neutrals turn pro-Allied too: " in _words(g, inv, before)
    # Successful or not: a second attack on a now pro-Allied neutral turns nothing.
    g2 = _game("Germany", "combat_move", {"Western Germany": {"Germany": {"infantry": 1}}},
               neutrals=dict(neutrals))
    evs = g2.move({"infantry": 1}, "Western Germany", "Switzerland")
    assert next(e for e in evs if isinstance(e, NeutralInvaded)).turned == ()


def test_SN_2_an_allied_attack_turns_the_strict_neutrals_pro_axis() -> None:
    g = _game("United Kingdom", "combat_move", {"Norway": {"United Kingdom": {"infantry": 1}}},
              owners={"Norway": "United Kingdom"})
    evs = g.move({"infantry": 1}, "Norway", "Sweden")
    (inv,) = [e for e in evs if isinstance(e, NeutralInvaded)]
    assert inv.seat == "Italy" and inv.joins == "pro_axis"  # the first Axis power after the UK
    assert g.json["neutrals"]["Turkey"] == "pro_axis"


def test_NT_3_an_axis_invasion_of_northwest_persia_leaves_persia_alone() -> None:
    g = _game("Germany", "combat_move", {"Caucasus": {"Germany": {"infantry": 1}}},
              owners={"Caucasus": "Germany"})
    before = g.json
    g.move({"infantry": 1}, "Caucasus", "Northwest Persia")
    g.end()  # no army: taken as the battles open (CC-0b)
    assert g.owner("Northwest Persia") == "Germany"
    doc = g.json
    assert "Persia" not in doc["neutrals"]
    assert doc["units"]["Persia"] == before["units"]["Persia"] == {"neutral": {"infantry": 2}}
    assert doc["war"] == before["war"]  # NT-3: war is never declared on a neutral


# --------------------------------------------------------------------------------------------
# After the capture: AN-1, LI-3


def test_AN_1_LI_3_a_former_neutral_has_no_original_owner_is_captured_never_liberated() -> None:
    g = _game("United Kingdom", "combat_move",
              {"Albania": {"United Kingdom": {"infantry": 1}},
               "Sea Zone 93": {"United Kingdom": {"transport": 1, "infantry": 1}}},
              owners={"Yugoslavia": "Germany", "Albania": "United Kingdom",
                      "Southern France": "Germany"})
    assert former_neutral(g.state, "Yugoslavia") and former_neutral(g.state.edition, "Sweden")
    assert not former_neutral(g.state, "Albania")
    assert g.state.edition.spaces["Yugoslavia"].original_owner is None
    g.move({"infantry": 1}, "Albania", "Yugoslavia")
    g.move({"infantry": 1}, "Sea Zone 93", "Southern France")
    g.end()
    # LI-3: the United Kingdom captures Yugoslavia; Southern France is liberated for France.
    assert g.owner("Yugoslavia") == "United Kingdom"
    assert g.owner("Southern France") == "France"


# --------------------------------------------------------------------------------------------
# By sea, by air, from a position


def test_UN_1_an_amphibious_assault_on_a_strict_neutral() -> None:
    g = _game("Italy", "combat_move",
              {"Sea Zone 93": {"Italy": {"transport": 1, "infantry": 2, "cruiser": 1}}})
    evs = g.move({"infantry": 2}, "Sea Zone 93", "Spain")
    (inv,) = [e for e in evs if isinstance(e, NeutralInvaded)]
    assert inv.seat == "France" and inv.joins == "pro_allied"  # the first Allied power after Italy
    assert inv.army == {"infantry": 6}
    g.end()
    b = g.state.battles["Spain"]
    assert b.amphibious and b.defenders == ("France",)


def test_UN_2_air_units_may_attack_an_unfriendly_neutral_alone() -> None:
    g = _game("Germany", "combat_move", {"Western Germany": {"Germany": {"fighter": 2}}})
    g.move({"fighter": 2}, "Western Germany", "Switzerland")
    g.end()
    g.script(1, 1, 6, 6)  # both fighters hit; Switzerland's two infantry miss
    g.fight_out("Switzerland")
    g.end()
    # Air units cannot capture (CO-2): Switzerland stands, empty, now pro-Allied (UN-3, UN-5).
    assert g.owner("Switzerland") is None
    doc = g.json
    assert doc["neutrals"]["Switzerland"] == "pro_allied"
    assert doc["units"]["Switzerland"] == {"Germany": {"fighter": 2}, "neutral": {}}
    assert doc["failed_attacks"] == ["Switzerland"]


def test_UN_2_the_legal_orders_offer_attacks_on_unfriendly_neutrals_only() -> None:
    from rules.legal import legal_orders

    g = _game("Germany", "combat_move", {"Western Germany": {"Germany": {"fighter": 1}},
                                         "Romania": {"Germany": {"infantry": 1}}})
    moves = {(o.frm, o.to) for o in legal_orders(g.state, "Germany") if isinstance(o, od.Move)}
    assert ("Western Germany", "Switzerland") in moves  # a strict neutral, attacked
    assert ("Romania", "Yugoslavia") in moves
    assert ("Romania", "Bulgaria") not in moves  # friendly: never attacked (FN-1)
    assert ("Western Germany", "Turkey") not in moves  # out of reach


def test_UN_3_a_position_in_conduct_combat_places_the_army_of_an_invaded_neutral() -> None:
    g = _game("Germany", "conduct_combat", {"Norway": {"Germany": {"infantry": 1}},
                                            "Sweden": {"Germany": {"infantry": 2}}})
    b = g.state.battles["Sweden"]
    assert b.defenders == ("United Kingdom",) and len(b.defending) == 6
    assert g.json["neutrals"]["Turkey"] == "pro_allied"  # SN-2


def test_UN_3_an_invaded_neutral_goes_through_a_position_unchanged() -> None:
    g = _game("Germany", "combat_move", {"Norway": {"Germany": {"infantry": 3}}})
    g.move({"infantry": 3}, "Norway", "Sweden")
    doc = g.json
    again = Game(doc)
    assert again.json == doc
    assert again.json["units"]["Sweden"] == {"Germany": {"infantry": 3},
                                             "neutral": {"infantry": 6}}
    again.end()
    assert again.state.battles["Sweden"].defenders == ("United Kingdom",)
