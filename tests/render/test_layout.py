"""Every chip inside its own space (issue 14), measured: the layout's own boxes against the
space polygons and the fixed labels, for the start and for crowded positions of each edition,
on the whole board and in an enlarged view."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import pytest

from render.base import BaseLayer, base_layer
from render.chips import Chip, Marker, map_items, stacks
from render.geo import Geometry, geometry_for
from render.layout import Rect, apart, inside_polygons
from render.map import render_map
from render.placement import Layout, layout
from render.view import View, focus_view, full_view
from rules.state import GameState, Unit


@dataclass
class Findings:
    chips: int
    outside: list[str]
    overlapping: list[str]
    over_labels: list[str]
    leaders: list[str]  # spaces drawn outside with a leader line
    stacked: set[str]

    def __str__(self) -> str:
        return (f"{self.chips} chips: outside {self.outside}, overlapping {self.overlapping}, "
                f"over labels {self.over_labels}; leaders {self.leaders}")


def _space_test(geometry: Geometry, view: View, top: int, state: GameState,
                name: str, k: int) -> Callable[[float, float], bool]:
    """Whether an output point is in the space as drawn: in its polygons and, for a sea
    zone, on none of the land drawn over the water."""
    edition = state.edition

    def rings(space: str) -> list[list[tuple[float, float]]]:
        out = []
        for ring in geometry.spaces[space].polygons:
            pts = [view.xy(x, y, k) for x, y in ring]
            out.append([(x, y + top) for x, y in pts])
        return out

    own = inside_polygons(rings(name))
    if not edition.is_sea(name):
        return own
    shape = geometry.spaces[name]
    lands = [inside_polygons(rings(s)) for s, sh in geometry.spaces.items()
             if not edition.is_sea(s) and not apart(sh.bbox, shape.bbox)]
    return lambda x, y: own(x, y) and not any(t(x, y) for t in lands)


def _border(box: Rect, step: float = 2.0) -> list[tuple[float, float]]:
    x0, y0, x1, y1 = box
    pts = []
    nx, ny = max(1, round((x1 - x0) / step)), max(1, round((y1 - y0) / step))
    for i in range(nx + 1):
        x = x0 + (x1 - x0) * i / nx
        pts += [(x, y0), (x, y1)]
    for j in range(ny + 1):
        y = y0 + (y1 - y0) * j / ny
        pts += [(x0, y), (x1, y)]
    return pts


def measure(state: GameState, geometry: Geometry, view: View) -> tuple[Findings, Layout]:
    """Lay out ``state`` in ``view`` and count what the issue forbids."""
    base: BaseLayer = base_layer(state.edition, geometry, view)
    plan = layout(base, geometry, state.edition, map_items(state))
    top = base.map_top
    lead = {(d.space, d.k) for d in plan.leaders}
    tests: dict[tuple[str, int], Callable[[float, float], bool]] = {}
    outside, overlapping, over = [], [], []
    ow = view.out_size[0]
    shown = [p for p in plan.placed if p.box[2] > 0 and p.box[0] < ow]
    for p in shown:
        key = (p.space, p.k)
        if key not in tests:
            tests[key] = _space_test(geometry, view, top, state, p.space, p.k)
        if key not in lead and not all(tests[key](x, y) for x, y in _border(p.box)):
            outside.append(p.space)
        if any(not apart(p.box, q) for q in base.fixed):
            over.append(p.space)
    for i, p in enumerate(shown):
        for q in shown[i + 1:]:
            if not apart(p.box, q.box):
                overlapping.append(f"{p.space}/{q.space}")
    for d in plan.leaders:
        key = (d.space, d.k)
        t = tests.get(key) or _space_test(geometry, view, top, state, d.space, d.k)
        if not t(*d.end):
            outside.append(f"{d.space} (leader's end)")
    return Findings(len(shown), outside, overlapping, over, sorted(s for s, _ in lead),
                    set(plan.stacked)), plan


def _crowded(state: GameState, spaces: list[str]) -> GameState:
    """``state`` with every unit type of two powers in each of ``spaces`` (sea units at sea)."""
    ed = state.edition
    units = dict(state.units)
    nid = state.next_id
    powers = list(ed.turn_order)
    for i, space in enumerate(spaces):
        sea = ed.is_sea(space)
        for power in (powers[i % len(powers)], powers[(i + 2) % len(powers)]):
            for t, info in ed.units.items():
                if info.abilities.factory or (info.domain == "sea") != sea:
                    continue
                for _ in range(1 + (nid % 3)):
                    units[nid] = Unit(nid, t, power, space)
                    nid += 1
    return replace(state, units=units, next_id=nid)


EUROPE = {
    "1941": ["Germany", "Western Europe", "Southern Europe", "Eastern Europe", "Sea Zone 5",
             "Sea Zone 15", "Sea Zone 16", "Sea Zone 32", "Sea Zone 33", "Sea Zone 39",
             "Sea Zone 40", "United Kingdom"],
    "classic": ["Germany", "Western Europe", "Southern Europe", "Eastern Europe",
                "Baltic Sea Zone", "Finland Norway", "United Kingdom", "North Sea Zone"],
}


@pytest.fixture(scope="module", params=["1941", "classic"])
def positions(request: pytest.FixtureRequest) -> tuple[str, Geometry, dict[str, GameState]]:
    ed = request.param
    start = request.getfixturevalue("setup_state" if ed == "1941" else "classic_state")
    three = request.getfixturevalue(f"{'a1941' if ed == '1941' else 'classic'}_three_rounds")
    mid = request.getfixturevalue(f"{'a1941' if ed == '1941' else 'classic'}_mid_combat")
    return ed, geometry_for(start.edition), {
        "start": start, "three random rounds": three, "mid-combat": mid,
        "crowded Europe": _crowded(start, EUROPE[ed]),
    }


@pytest.mark.parametrize("where", ["whole board", "Germany enlarged", "sea zone enlarged"])
def test_every_chip_inside_its_own_space_off_labels_and_other_chips(
    positions: tuple[str, Geometry, dict[str, GameState]], where: str
) -> None:
    ed, geometry, states = positions
    for label, state in states.items():
        if where == "whole board":
            view = full_view(geometry)
        elif where == "Germany enlarged":
            view = focus_view(geometry, "Germany")
        else:
            view = focus_view(geometry, "Sea Zone 16" if ed == "1941" else "Baltic Sea Zone")
        found, _ = measure(state, geometry, view)
        assert found.chips > 20, (label, found)
        assert found.outside == [], f"{ed} {label} {where}: {found}"
        assert found.overlapping == [], f"{ed} {label} {where}: {found}"
        assert found.over_labels == [], f"{ed} {label} {where}: {found}"


def test_chips_keep_their_detail_where_there_is_room(
    positions: tuple[str, Geometry, dict[str, GameState]]
) -> None:
    """Stacking and leader lines are for crowded spaces: at the start most spaces keep one
    chip per unit type, in their space."""
    _, geometry, states = positions
    found, _ = measure(states["start"], geometry, full_view(geometry))
    spaces = {s for s in stacks(states["start"])}
    assert len(found.stacked) <= len(spaces) // 10, found
    assert len(found.leaders) <= len(spaces) // 4, found


def test_markers_and_state_are_laid_out_with_the_chips(
    positions: tuple[str, Geometry, dict[str, GameState]]
) -> None:
    _, geometry, states = positions
    mid = states["mid-combat"]
    items = map_items(mid)
    battles = [s for s, b in mid.battles.items() if b.step != "done"]
    assert battles
    for s in battles:
        assert Marker("battle") in items[s]
    _, plan = measure(mid, geometry, full_view(geometry))
    drawn = {(p.space, p.item) for p in plan.placed if isinstance(p.item, Marker)}
    assert {(s, Marker("battle")) for s in battles} <= drawn


def test_the_whole_board_draws_every_position(
    positions: tuple[str, Geometry, dict[str, GameState]]
) -> None:
    _, geometry, states = positions
    for state in states.values():
        image = render_map(state, geometry)
        assert image.width == 2000
    assert all(isinstance(c, Chip) for cs in stacks(states["start"]).values() for c in cs)
