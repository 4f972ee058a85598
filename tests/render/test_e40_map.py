"""The Europe 1940 map (issue 16, deliverable 4): facilities and their damage, the state of war,
neutrals by alignment with their armies, victory cities in their holders' colours and convoy
zones, measured on real rendered images; none of it on the 1941 and Classic maps."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import cast

import pytest
from PIL import Image, ImageChops

from render import theme
from render.base import LEGEND_HEIGHT, BaseLayer, _legend_entries, base_layer
from render.chips import NEUTRAL_ARMY, Chip, Marker, map_items, stacks
from render.geo import Geometry, geometry_for
from render.map import at_war_with, render_map
from render.placement import layout
from render.view import focus_view, full_view
from rules import engine
from rules.edition import Edition
from rules.mechanisms import politics
from rules.state import GameState
from rules.turn import hooks

RGB = tuple[int, int, int]


@pytest.fixture(scope="module")
def e40() -> GameState:
    return engine.replay(engine.new_game("europe1940", (), None))


@pytest.fixture(scope="module")
def e40_geometry(e40: GameState) -> Geometry:
    return geometry_for(e40.edition)


@pytest.fixture(scope="module")
def e40_image(e40: GameState, e40_geometry: Geometry) -> Image.Image:
    return render_map(e40, e40_geometry)


def _base(state: GameState, geometry: Geometry) -> BaseLayer:
    return base_layer(state.edition, geometry, full_view(geometry))


def _px(image: Image.Image, x: float, y: float) -> RGB:
    got: RGB = image.convert("RGB").getpixel((round(x), round(y)))  # type: ignore[assignment]
    return got


def _marker(base: BaseLayer, space: str) -> tuple[float, float, float]:
    return next((x, y, r) for name, x, y, r in base.victory if name == space)


def _bare_colours(state: GameState, geometry: Geometry, image: Image.Image,
                  name: str) -> list[RGB]:
    """The colours over the pixels of ``name`` that no label covers, commonest first."""
    base = _base(state, geometry)
    number = base.order.index(name) + 1
    hatch = len(base.order) + 1 + base.hatched.index(name) if name in base.hatched else -1
    box = base.boxes[number][0]
    inside = base.index.crop(box).point(lambda v: 255 if v in (number, hatch) else 0)
    bare = base.overlay.crop(box).getchannel("A").point(lambda v: 255 if v == 0 else 0)
    mask = ImageChops.multiply(inside, bare)
    data = image.crop(box).get_flattened_data()
    pixels = [cast(RGB, px) for px, m in zip(data, mask.get_flattened_data(), strict=True) if m]
    return [c for c, _ in Counter(pixels).most_common()]


# --------------------------------------------------------------------------------------------
# Victory cities


def test_every_victory_city_has_a_marker_in_its_holders_colour(
    e40: GameState, e40_geometry: Geometry, e40_image: Image.Image
) -> None:
    ed = e40.edition
    base = _base(e40, e40_geometry)
    assert {name for name, *_ in base.victory} == set(ed.map.victory_cities)
    colours = theme.power_colours(ed)
    for space in ed.map.victory_cities:
        x, y, r = _marker(base, space)
        holder = e40.owners[space]
        assert holder is not None
        # the disc in the holder's ink beside the white castle, ringed in white
        assert _px(e40_image, x - 0.7 * r, y) == colours[holder].ink, space
        ring = {_px(e40_image, x, y - r + d) for d in (-0.5, 0, 0.5, 1, 1.5, 2)}
        assert (255, 255, 255) in ring, space
    # Warsaw taken by the Soviet Union: its marker turns the Soviet ink, Berlin's stays.
    taken = replace(e40, owners={**e40.owners, "Poland": "Soviet Union"})
    after = render_map(taken, e40_geometry)
    x, y, r = _marker(base, "Poland")
    assert _px(after, x - 0.7 * r, y) == colours["Soviet Union"].ink
    x, y, r = _marker(base, "Germany")
    assert _px(after, x - 0.7 * r, y) == colours["Germany"].ink


def test_victory_city_markers_sit_inside_their_territory_off_the_labels(
    e40: GameState, e40_geometry: Geometry
) -> None:
    """TripleA's places (vc.txt), carried by the geometry; moved only off our own labels."""
    for view in (full_view(e40_geometry), focus_view(e40_geometry, "Germany")):
        base = base_layer(e40.edition, e40_geometry, view)
        plan = layout(base, e40_geometry, e40.edition, map_items(e40))
        width = view.out_size[0]
        for space, x, y, r in base.victory:
            if not (0 <= x < width and base.map_top <= y < base.legend_top):
                continue  # not in this view
            box = (x - r, y - r, x + r, y + r)
            assert base.index.getpixel((round(x), round(y))) == base.order.index(space) + 1
            others = [q for q in base.fixed if q != box]
            assert all(q[2] <= box[0] or box[2] <= q[0] or q[3] <= box[1] or box[3] <= q[1]
                       for q in others), space
            assert not any(p.box[0] < box[2] and box[0] < p.box[2] and p.box[1] < box[3]
                           and box[1] < p.box[3] for p in plan.placed), space


def test_the_geometry_carries_victory_places_only_where_the_edition_has_cities(
    e40: GameState, e40_geometry: Geometry
) -> None:
    assert {n for n, s in e40_geometry.spaces.items() if s.victory} == set(
        e40.edition.map.victory_cities)
    assert e40_geometry.spaces["Germany"].victory == (2646, 786)  # vc.txt (2630,770) + 16
    for edition in ("1941", "classic"):
        geometry = geometry_for(engine.resolve_edition(edition))
        assert not any(s.victory for s in geometry.spaces.values())


# --------------------------------------------------------------------------------------------
# Convoy zones


def test_each_convoy_zone_has_its_symbol(
    e40: GameState, e40_geometry: Geometry, e40_image: Image.Image
) -> None:
    ed = e40.edition
    base = _base(e40, e40_geometry)
    assert {name for name, *_ in base.convoys} == set(ed.map.convoy_zones)
    for space, x, y, r in base.convoys:
        assert _px(e40_image, x + r - 1, y) == theme.CONVOY, space  # its navy ring
        wave = {_px(e40_image, x, y + d * r) for d in (0.25, 0.3, 0.35, 0.4, 0.45, 0.5)}
        assert theme.CONVOY in wave, space
        assert _px(e40_image, x, y - 0.65 * r) == (255, 255, 255), space  # the white disc
        # in its own zone
        assert base.index.getpixel((round(x), round(y))) == base.order.index(space) + 1


# --------------------------------------------------------------------------------------------
# Neutrals by alignment, and their armies


@pytest.mark.parametrize("space, alignment", [("Spain", "strict"), ("Bulgaria", "pro_axis"),
                                              ("Greece", "pro_allied")])
def test_a_neutral_is_tinted_and_hatched_by_its_alignment(
    e40: GameState, e40_geometry: Geometry, e40_image: Image.Image, space: str, alignment: str
) -> None:
    assert e40.edition.map.neutrals[space].alignment == alignment
    tint, hatch = theme.ALIGNED[alignment]
    assert set(_bare_colours(e40, e40_geometry, e40_image, space)[:2]) == {tint, hatch}


def test_the_colours_of_the_alignments_stay_apart() -> None:
    looks = list(theme.ALIGNED.values())
    assert len({hatch for _, hatch in looks}) == len({tint for tint, _ in looks}) == 3


def test_an_alignment_or_army_that_changes_is_what_the_map_shows(
    e40_geometry: Geometry,
) -> None:
    """The neutrals' mechanism tells the map: Spain turned pro-Allied (as a strict neutral
    attacked by the Axis turns the others), Sweden's army down to 3."""
    state = engine.replay(engine.new_game("europe1940", (), {
        "neutrals": {"Spain": "pro_allied"},
        "units": {"Sweden": {"neutral": {"infantry": 3}}}}))
    assert hooks.neutral_looks(state) is not None
    image = render_map(state, e40_geometry)
    assert set(_bare_colours(state, e40_geometry, image, "Spain")[:2]) == set(
        theme.ALIGNED["pro_allied"])
    items = map_items(state)
    assert Chip(NEUTRAL_ARMY, "infantry", 6) in items["Spain"]
    assert Chip(NEUTRAL_ARMY, "infantry", 3) in items["Sweden"]


def test_a_neutral_taken_wears_its_holders_colour(
    e40: GameState, e40_geometry: Geometry
) -> None:
    taken = replace(e40, owners={**e40.owners, "Bulgaria": "Germany"})
    image = render_map(taken, e40_geometry)
    fill = theme.power_colours(e40.edition)["Germany"].fill
    assert _bare_colours(taken, e40_geometry, image, "Bulgaria")[0] == fill
    assert not any(c.power == NEUTRAL_ARMY for c in map_items(taken).get("Bulgaria", []))


def test_a_neutrals_army_is_a_chip_of_no_power(
    e40: GameState, e40_geometry: Geometry, e40_image: Image.Image
) -> None:
    items = map_items(e40)
    ed = e40.edition
    for space, n in ed.map.neutrals.items():
        army = [i for i in items.get(space, []) if isinstance(i, Chip)]
        assert army == ([Chip(NEUTRAL_ARMY, "infantry", n.army)] if n.army else []), space
    base = _base(e40, e40_geometry)
    plan = layout(base, e40_geometry, ed, items)
    box = next(p.box for p in plan.placed if p.space == "Spain")
    chip = e40_image.crop(box).convert("RGB")
    assert Counter(chip.get_flattened_data()).most_common(1)[0][0] == theme.NEUTRAL_ARMY.ink


def test_UN_5_a_neutral_that_repelled_an_attack_wears_the_upside_down_marker(
    e40_geometry: Geometry,
) -> None:
    """UN-5: the territory of a failed attack stays uncontrolled, marked with an upside-down
    control marker: the map draws the 'repelled' marker there (with its army, now friendly to
    the other side) and nowhere else; it goes once the neutral is taken."""
    state = engine.replay(engine.new_game("europe1940", (), {
        "neutrals": {"Spain": "pro_allied"}, "failed_attacks": ["Spain"],
        "units": {"Spain": {"neutral": {"infantry": 2}}}}))
    items = map_items(state)
    assert Marker("repelled") in items["Spain"]
    assert Chip(NEUTRAL_ARMY, "infantry", 2) in items["Spain"]
    assert [s for s, its in items.items() if Marker("repelled") in its] == ["Spain"]
    ed = state.edition
    plan = layout(_base(state, e40_geometry), e40_geometry, ed, items)
    box = next(p.box for p in plan.placed
               if p.space == "Spain" and p.item == Marker("repelled"))
    image = render_map(state, e40_geometry)
    marker = Counter(image.crop(box).convert("RGB").get_flattened_data())
    assert marker[theme.NEUTRAL_ARMY.text] > 20 and marker[(255, 255, 255)] > 20
    taken = replace(state, owners={**state.owners, "Spain": "United Kingdom"})
    assert Marker("repelled") not in map_items(taken).get("Spain", [])


# --------------------------------------------------------------------------------------------
# Facilities and their damage


@pytest.fixture
def bases_hit(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The facilities' mechanism says Western Germany's air base has 2 damage markers and still
    works, its naval base 3 and is out of action (§15.3, §15.4: 3 or more)."""

    def looks(state: GameState) -> list[hooks.FacilityLook]:
        return [hooks.FacilityLook("Western Germany", "air base", 2, True),
                hooks.FacilityLook("Western Germany", "naval base", 3, False)]

    monkeypatch.setattr(hooks, "_FACILITY_LOOK", [looks])
    yield


def test_facilities_are_drawn_with_their_damage(
    e40: GameState, e40_geometry: Geometry, bases_hit: None
) -> None:
    ed = e40.edition
    chips = {c.unit: c for c in stacks(e40)["Western Germany"]}
    for facility in ("major industrial complex", "air base", "naval base"):
        assert ed.units[facility].abilities.facility and facility in chips
    assert (chips["air base"].damage, chips["air base"].out_of_action) == (2, False)
    assert (chips["naval base"].damage, chips["naval base"].out_of_action) == (3, True)
    assert chips["major industrial complex"].damage == 0
    view = focus_view(e40_geometry, "Germany")
    image = render_map(e40, e40_geometry, focus="Germany").convert("RGB")
    plan = layout(base_layer(ed, e40_geometry, view), e40_geometry, ed, map_items(e40))

    def red(unit: str, left: bool) -> int:
        """Damage-red pixels of the chip: over its pictogram (left) or its tab (right)."""
        p = next(p for p in plan.placed if p.space == "Western Germany"
                 and isinstance(p.item, Chip)
                 and p.item.unit == unit)
        x0, y0, x1, y1 = (round(v) for v in p.box)
        mid = x0 + round(20 * 1.2 * p.scale)
        part = image.crop((x0, y0, mid, y1) if left else (mid, y0, x1, y1))
        return sum(1 for c in part.get_flattened_data() if c == theme.DAMAGE)

    assert red("air base", left=False) > 20 and red("naval base", left=False) > 20
    assert red("air base", left=True) == 0  # working: not struck through
    assert red("naval base", left=True) > 20  # out of action: struck through
    assert red("major industrial complex", left=False) == 0


def test_FA_5_a_damaged_complex_shows_in_a_real_game(e40_geometry: Geometry) -> None:
    """No stand-in for the mechanism: a position with damage on Germany's major complex (3,
    still producing) and on Western Germany's air base (4, out of action from 3: §15.3) is
    drawn from the facilities' own look (``rules.mechanisms.facilities``)."""
    state = engine.replay(engine.new_game("europe1940", (), {
        "damage": {"Germany": {"major industrial complex": 3},
                   "Western Germany": {"air base": 4}}}))
    looks = {(f.territory, f.facility): f for f in hooks.facility_looks(state)}
    assert looks == {
        ("Germany", "major industrial complex"): hooks.FacilityLook(
            "Germany", "major industrial complex", 3, True),
        ("Western Germany", "air base"): hooks.FacilityLook("Western Germany", "air base", 4,
                                                            False)}
    major = next(c for c in stacks(state)["Germany"] if c.unit == "major industrial complex")
    assert (major.damage, major.out_of_action) == (3, False)
    base = next(c for c in stacks(state)["Western Germany"] if c.unit == "air base")
    assert (base.damage, base.out_of_action) == (4, True)
    ed = state.edition
    view = focus_view(e40_geometry, "Germany")
    image = render_map(state, e40_geometry, focus="Germany").convert("RGB")
    plan = layout(base_layer(ed, e40_geometry, view), e40_geometry, ed, map_items(state))
    p = next(p for p in plan.placed if p.space == "Germany" and isinstance(p.item, Chip)
             and p.item.unit == "major industrial complex")
    chip = image.crop(tuple(round(v) for v in p.box))  # type: ignore[arg-type]
    assert sum(1 for c in chip.get_flattened_data() if c == theme.DAMAGE) > 20
    undamaged = engine.replay(engine.new_game("europe1940", (), None))
    assert not hooks.facility_looks(undamaged)


# --------------------------------------------------------------------------------------------
# The state of war, and the key


def _war_line(image: Image.Image, state: GameState, power: str) -> Image.Image:
    """The legend's line under ``power``'s name that says whom it is at war with."""
    order = list(state.edition.turn_order)
    slot = (image.width - 24) / len(order)
    x = 12 + order.index(power) * slot
    top = image.height - _legend_height(state.edition, image.width)
    return image.convert("RGB").crop((round(x + 42), top + 43, round(x + slot - 14), top + 59))


def _legend_height(edition: Edition, width: int) -> int:
    from render.base import _legend_height as height
    return height(edition, width)


def test_the_legend_says_whom_each_power_is_at_war_with(
    e40: GameState, e40_geometry: Geometry, e40_image: Image.Image
) -> None:
    """At the start Germany and Italy are at war with the United Kingdom and France, the Soviet
    Union and the United States with nobody: neutral powers."""
    inks = {p: c.ink for p, c in theme.power_colours(e40.edition).items()}
    assert at_war_with(e40, "Germany") == ["United Kingdom", "France"]
    assert at_war_with(e40, "Soviet Union") == at_war_with(e40, "United States") == []

    def tags(image: Image.Image, power: str) -> set[str]:
        seen = set(_war_line(image, e40, power).get_flattened_data())
        return {p for p, ink in inks.items() if ink in seen}

    assert tags(e40_image, "Germany") == {"United Kingdom", "France"}
    assert tags(e40_image, "France") == {"Germany", "Italy"}
    assert tags(e40_image, "Soviet Union") == set()
    # Germany declares war on the Soviet Union: both lines say so.
    war = politics.with_war(e40, "Germany", "Soviet Union")
    image = render_map(war, e40_geometry)
    assert at_war_with(war, "Soviet Union") == ["Germany"]
    assert tags(image, "Soviet Union") == {"Germany"}
    assert tags(image, "Germany") == {"Soviet Union", "United Kingdom", "France"}


E40_KEY = ("victory city (its holder's colour)", "convoy zone", "neutral, strict",
           "neutral that repelled an attack",
           "neutral, pro-Axis", "neutral, pro-Allied", "a neutral's army", "damage markers",
           "out of action", "air base", "naval base", "major ind. complex", "minor ind. complex")


def test_the_key_explains_what_only_this_map_shows(e40: GameState) -> None:
    key, states = _legend_entries(e40.edition)
    texts = [e.text for e in (*key, *states)]
    assert set(E40_KEY) <= set(texts)
    assert "industrial complex upgrade" not in texts  # bought, never on the board
    for edition in ("1941", "classic"):
        ed = engine.resolve_edition(edition)
        key, states = _legend_entries(ed)
        assert not set(E40_KEY) & {e.text for e in (*key, *states)}, edition
        assert _legend_height(ed, 2000) == _legend_height(ed, 1600) == LEGEND_HEIGHT


def test_the_key_wraps_onto_rows_within_the_image(
    e40: GameState, e40_geometry: Geometry
) -> None:
    from render.base import _flow, _powers_height
    for view in (full_view(e40_geometry), focus_view(e40_geometry, "Germany")):
        width = view.out_size[0]
        placed, bottom = _flow(_legend_entries(e40.edition), width,
                               _powers_height(e40.edition))
        assert all(x + e.span <= width - 12 for e, x, _ in placed)
        assert bottom + 16 <= _legend_height(e40.edition, width)
        image = render_map(e40, e40_geometry, focus=None if view.x0 == 0 and view.w == (
            e40_geometry.width) else "Germany")
        assert image.height == 44 + view.out_size[1] + _legend_height(e40.edition, width)


def test_europe_images_stay_under_4_mb(e40: GameState, e40_geometry: Geometry) -> None:
    from render import png_bytes
    for focus in (None, "Germany"):
        assert len(png_bytes(render_map(e40, e40_geometry, focus=focus))) < 4 * 1024 * 1024
