"""Game-master edits, rules side: the `edit` grammar, the checks that keep the state consistent,
and the fold of ``EditApplied`` (replay equals live; no die is touched)."""

from __future__ import annotations

from typing import Any

import pytest

from rules import events as ev
from rules.edits import EditChange, edit_event, format_edit
from rules.engine import evolve, new_game, replay
from rules.errors import IllegalOrder, InvalidOrder
from rules.state import GameState
from service import language as ps

NAMES = ps.names_for("a1941")


def start(position: dict[str, Any] | None = None) -> tuple[list[ev.Event], GameState]:
    events: list[ev.Event] = list(new_game("1941", (), position))
    return events, replay(events)


def change(text: str) -> EditChange:
    cmd = ps.parse(text, NAMES)
    assert isinstance(cmd, ps.EditPropose), cmd
    return cmd.change


def apply(state: GameState, text: str) -> tuple[ev.EditApplied, GameState]:
    e = edit_event(state, change(text), proposal=1, proposer="alice", agreed="bob",
                   agreed_for=("Soviet Union",))
    return e, evolve(state, e)


def units(state: GameState, space: str, power: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in state.units_in(space):
        if u.owner == power:
            out[u.type] = out.get(u.type, 0) + 1
    return out


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        ("edit add 2 inf, 1 arm in Germany", "edit add 2 infantry, 1 tank in Germany"),
        ("edit add 2 infantry in sz5 for germans",
         "edit add 2 infantry in Sea Zone 5 for Germany"),
        ("edit remove 1 tank from Ukraine of ussr",
         "edit remove 1 tank from Ukraine of Soviet Union"),
        ("edit move 2 inf from Germany to e europe",
         "edit move 2 infantry from Germany to Eastern Europe"),
        ("edit owner ukraine to germany", "edit owner Ukraine Germany"),
        ("edit owner Ukraine Germany", "edit owner Ukraine Germany"),
        ("edit money Soviet Union 12", "edit money Soviet Union 12"),
        ("edit ipcs germany to 0", "edit money Germany 0"),
        ("edit add 1 infantry in Union of South Africa",
         "edit add 1 infantry in Union of South Africa"),
    ],
)
def test_edit_grammar_is_forgiving_and_canonical(line: str, canonical: str) -> None:
    c = change(line)
    assert format_edit(c) == canonical
    assert change(canonical) == c  # the stored text parses back to the same edit


def test_confirm_reject_list_parse() -> None:
    assert ps.parse("edit confirm 3", NAMES) == ps.EditConfirm(number=3)
    assert ps.parse("edit reject #2", NAMES) == ps.EditReject(number=2)
    assert ps.parse("edit list", NAMES) == ps.EditList()
    cmd = ps.parse("edit money Germany 5", NAMES)
    assert ps.CommandAdapter.validate_json(ps.CommandAdapter.dump_json(cmd)) == cmd


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("edit", "Edits: 'edit add <units> in <space> [for <power>]'"),
        ("edit ad 1 inf in Germany", "Did you mean: edit add?"),
        ("edit add 2 infantry in Germny", "Did you mean: Germany?"),
        ("edit add 2 infantry in Germany for Germny", "Did you mean: Germany?"),
        ("edit remove 1 tnk from Ukraine", "Did you mean: tank"),
        ("edit money Germany -3", "whole number from 0 to 9999"),
        ("edit confirm", "Expected 'edit confirm <n>'"),
        ("edit move 2 infantry Germany Ukraine", "Expected 'edit move <units> from <space>"),
        ("edit list now", "'edit list' takes nothing after it"),
    ],
)
def test_bad_edits_say_what_to_write(line: str, needle: str) -> None:
    with pytest.raises(InvalidOrder) as e:
        ps.parse(line, NAMES)
    assert needle in str(e.value)


def test_usage_lists_edit() -> None:
    assert "edit confirm <n>" in ps.usage_for(None)["edit"]


def test_add_defaults_to_the_owner_and_replays() -> None:
    events, s = start()
    before = units(s, "Germany", "Germany").get("infantry", 0)
    e, after = apply(s, "edit add 2 infantry in Germany")
    assert e.text == "edit add 2 infantry in Germany for Germany"
    assert units(after, "Germany", "Germany")["infantry"] == before + 2
    assert after.next_id == s.next_id + 2
    assert replay([*events, e]).units == after.units  # replay equals live
    assert not any(hasattr(e, f) for f in ("rolls", "groups", "faces"))  # never a die


def test_money_owner_and_remove() -> None:
    _, s = start()
    _, s2 = apply(s, "edit money Germany 50")
    assert s2.treasury["Germany"] == 50 and s2.treasury["Japan"] == s.treasury["Japan"]
    # The Caucasus' Soviet units must go before Germany may hold it; its complex changes hands.
    with pytest.raises(IllegalOrder, match="enemies of Germany"):
        apply(s, "edit owner Caucasus Germany")
    s3 = s
    for utype, n in units(s, "Caucasus", "Soviet Union").items():
        if utype != "industrial complex":
            _, s3 = apply(s3, f"edit remove {n} {utype} from Caucasus")
    assert units(s3, "Caucasus", "Soviet Union") == {"industrial complex": 1}
    e, s4 = apply(s3, "edit owner Caucasus Germany")
    assert s4.owners["Caucasus"] == "Germany" and len(e.reowned) == 1
    assert units(s4, "Caucasus", "Germany") == {"industrial complex": 1}
    assert s4.income()["Germany"] > s3.income()["Germany"]


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("edit add 1 battleship in Germany", "is a ship"),
        ("edit add 1 infantry in Caucasus for Germany", "held by Soviet Union, an enemy"),
        ("edit add 1 infantry in Sea Zone 5 for Germany", "needs a friendly transport"),
        ("edit add 1 fighter in Sea Zone 5 for Germany", "aircraft carrier"),
        ("edit add 1 industrial complex in Germany", "one industrial complex"),
        ("edit add 1 industrial complex in Eastern Europe for Japan",
         "belongs to its territory's owner"),
        ("edit remove 9 infantry from Germany", "cannot remove 9"),
        ("edit move 1 infantry from Germany to Germany", "already in Germany"),
        ("edit remove 1 tank from Germany", "No tank in Germany to remove"),
        ("edit money Germany 10000", "9999"),
        ("edit owner Sea Zone 5 Germany", "sea zone"),
        ("edit owner Germany Germany", "already held by Germany"),
    ],
)
def test_inconsistent_edits_are_refused_with_the_reason(line: str, why: str) -> None:
    _, s = start()
    try:
        c = change(line)
    except InvalidOrder as e:
        assert why in str(e)
        return
    with pytest.raises((IllegalOrder, InvalidOrder)) as e:
        edit_event(s, c, proposal=1, proposer="alice", agreed="bob")
    assert why in str(e.value)


def test_cargo_boards_moves_with_its_transport_and_blocks_its_removal() -> None:
    pos = {"edition": "1941", "power": "Soviet Union", "phase": "purchase",
           "units": {"Sea Zone 5": {"Germany": {"transport": 1}},
                     "Germany": {"Germany": {"infantry": 3, "tank": 1}}},
           "clear_all_units": True}
    events, s = start(pos)
    e1, s = apply(s, "edit move 1 tank, 1 infantry from Germany to Sea Zone 5")
    (tt,) = [u for u in s.units_in("Sea Zone 5") if u.type == "transport"]
    assert all(u.carried_by == tt.id for u in s.units_in("Sea Zone 5") if u.type != "transport")
    with pytest.raises(IllegalOrder, match="No room"):  # the transport is full (UT-7)
        apply(s, "edit add 1 infantry in Sea Zone 5 for Germany")
    with pytest.raises(IllegalOrder, match="carries 1 tank, 1 infantry"):
        apply(s, "edit remove 1 transport from Sea Zone 5")
    e2, s = apply(s, "edit move 1 transport from Sea Zone 5 to Sea Zone 4")
    assert units(s, "Sea Zone 4", "Germany") == {"transport": 1, "tank": 1, "infantry": 1}
    assert units(s, "Sea Zone 5", "Germany") == {}
    e3, s = apply(s, "edit move 1 infantry from Sea Zone 4 to Germany")
    assert all(u.carried_by is None for u in s.units_in("Germany"))
    e4, s = apply(s, "edit remove 1 tank, 1 transport from Sea Zone 4")
    assert units(s, "Sea Zone 4", "Germany") == {}
    assert replay([*events, e1, e2, e3, e4]).units == s.units


def test_no_edit_inside_a_battle_or_after_the_end() -> None:
    from dataclasses import replace

    from rules.state import BattleState

    _, s = start()
    fighting = replace(s, battles={"Ukraine": BattleState("Ukraine", "Germany", ("Soviet Union",),
                                                          False)})
    with pytest.raises(IllegalOrder, match="battle is in progress in Ukraine"):
        apply(fighting, "edit add 1 infantry in Ukraine for Soviet Union")
    with pytest.raises(IllegalOrder, match="game is over"):
        apply(replace(s, winner="Axis"), "edit money Germany 1")


def test_remove_or_move_names_the_power_when_several_could_be_meant() -> None:
    pos = {"edition": "1941", "power": "Soviet Union", "phase": "purchase",
           "units": {"Sea Zone 5": {"Germany": {"submarine": 1},
                                    "United Kingdom": {"submarine": 1}}},
           "clear_all_units": True}
    _, s = start(pos)
    with pytest.raises(InvalidOrder, match=r"Several powers.*Germany, United Kingdom.*of <power>"):
        apply(s, "edit remove 1 submarine from Sea Zone 5")
    _, s2 = apply(s, "edit remove 1 submarine from Sea Zone 5 of United Kingdom")
    assert units(s2, "Sea Zone 5", "Germany") == {"submarine": 1}
