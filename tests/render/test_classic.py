"""Classic drawn from its own geometry: holdings in the edition's colours, neutrals hatched until
taken, AA gun chips, the edges that meet, sizes, goldens, and a battle board."""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import replace

from PIL import Image, ImageChops

from odds.ask import odds
from render import png_bytes, theme
from render.base import LEGEND_HEIGHT, base_layer, sea_label
from render.battle import battle_record, render_battle
from render.geo import Geometry
from render.icons import has_icon
from render.map import render_map
from render.view import focus_view, full_view
from rules.state import GameState
from tests.render.conftest import UkraineBattle
from tests.render.golden import compare

LIMIT = 4 * 1024 * 1024
AA = "antiaircraft gun"


def _pixels(state: GameState, geometry: Geometry, image: Image.Image,
            name: str) -> Counter[tuple[int, int, int]]:
    """Colours over the pixels of ``name`` that no fixed label or line covers (whole board)."""
    base = base_layer(state.edition, geometry, full_view(geometry))
    number = base.order.index(name) + 1
    hatch = (len(base.order) + 1 + base.hatched.index(name)) if name in base.hatched else -1
    box = base.boxes[number][0]
    inside = base.index.crop(box).point(lambda v: 255 if v in (number, hatch) else 0)
    bare = base.overlay.crop(box).getchannel("A").point(lambda v: 255 if v == 0 else 0)
    mask = ImageChops.multiply(inside, bare)
    return Counter(px for px, m in zip(image.crop(box).get_flattened_data(),
                                       mask.get_flattened_data(), strict=True) if m)


def test_power_colours_come_from_the_edition(classic_state: GameState) -> None:
    ed = classic_state.edition
    colours = theme.power_colours(ed)
    assert list(colours) == ["Russia", "Germany", "United Kingdom", "Japan", "United States"]
    named = {p: ed.powers[p].colour.casefold() for p in colours}
    assert named == {"Russia": "brown", "Germany": "gray", "United Kingdom": "tan",
                     "Japan": "yellow", "United States": "green"}
    fills = {c.fill for c in colours.values()}
    assert len(fills) == 5 and theme.NEUTRAL not in fills and theme.WATER not in fills


def test_who_holds_what_at_the_start(classic_geometry: Geometry,
                                     classic_state: GameState) -> None:
    colours = theme.power_colours(classic_state.edition)
    image = render_map(classic_state, classic_geometry)
    for name, power in (("Russia", "Russia"), ("Germany", "Germany"),
                        ("United Kingdom", "United Kingdom"), ("Japan", "Japan"),
                        ("Eastern United States", "United States"), ("India", "United Kingdom"),
                        ("Manchuria", "Japan"), ("Libya", "Germany")):
        assert classic_state.owners[name] == power
        top = _pixels(classic_state, classic_geometry, image, name).most_common(1)[0][0]
        assert top == colours[power].fill, name
    sea = _pixels(classic_state, classic_geometry, image, "North Atlantic Sea Zone")
    assert sea.most_common(1)[0][0] == theme.WATER


def test_neutrals_are_hatched_until_someone_takes_one(
    classic_geometry: Geometry, classic_state: GameState
) -> None:
    """Classic's neutrals can be entered (R-NEU-02): hatched while nobody holds them, in the
    holder's colour, unhatched, once taken."""
    ed = classic_state.edition
    turkey = ed.spaces["Turkey"]
    assert turkey.original_owner is None and not turkey.impassable
    assert classic_state.owners.get("Turkey") is None
    image = render_map(classic_state, classic_geometry)
    px = _pixels(classic_state, classic_geometry, image, "Turkey")
    assert px[theme.NEUTRAL] > 0 and px[theme.NEUTRAL_HATCH] > px.total() / 10
    taken = replace(classic_state, owners={**classic_state.owners, "Turkey": "Germany"})
    after = render_map(taken, classic_geometry)
    px = _pixels(taken, classic_geometry, after, "Turkey")
    assert set(px) == {theme.power_colours(ed)["Germany"].fill}
    # Only Turkey was repainted: Persia next door is as it was.
    assert _pixels(taken, classic_geometry, after, "Persia") == \
        _pixels(classic_state, classic_geometry, image, "Persia")


def test_aa_gun_chips_are_drawn(classic_geometry: Geometry, classic_state: GameState) -> None:
    """Every AA gun of the setup has a chip with its own pictogram, where its space is."""
    assert has_icon(AA) and has_icon("industrial complex")
    spaces = {u.space for u in classic_state.units.values() if u.type == AA}
    assert {"Germany", "Russia", "United Kingdom", "Japan",
            "Eastern United States"} <= spaces
    without = replace(classic_state, units={
        i: u for i, u in classic_state.units.items() if not (u.type == AA and u.space == "Japan")
    })
    a = render_map(classic_state, classic_geometry)
    b = render_map(without, classic_geometry)
    box = ImageChops.difference(a, b).getbbox()
    assert box is not None, "no AA gun chip drawn"
    view = full_view(classic_geometry)
    top = a.height - view.out_size[1] - LEGEND_HEIGHT
    x0, y0, x1, y1 = classic_geometry.spaces["Japan"].bbox
    (jx0, jy0), (jx1, jy1) = view.xy(x0, y0), view.xy(x1, y1)
    pad = 40
    assert jx0 - pad <= box[0] and box[2] <= jx1 + pad
    assert jy0 + top - pad <= box[1] and box[3] <= jy1 + top + pad
    ink = theme.power_colours(classic_state.edition)["Japan"].ink
    assert ink in set(a.crop(box).get_flattened_data())


def test_sea_zones_are_labelled_by_a_name_players_can_write(classic_state: GameState) -> None:
    assert sea_label("Sea Zone 5") == "5"  # 1941's numbered zones
    assert sea_label("Sea Zone") == "Sea Zone"
    ed = classic_state.edition
    assert sea_label("Japan Sea Zone", ed.spaces["Japan Sea Zone"].aliases) == "Japan Sea"
    assert sea_label("Indian Ocean Sea Zone", ()) == "Indian Ocean"
    for name, space in ed.spaces.items():
        if space.kind == "sea":
            label = sea_label(name, space.aliases)
            assert label in space.aliases or label == name.removesuffix(" Sea Zone"), name
            assert label not in ed.spaces, name  # 'Japan Sea', not the land 'Japan'


def test_a_focused_view_continues_across_the_meeting_edges(
    classic_geometry: Geometry, classic_state: GameState
) -> None:
    """Western US is at the east edge, Eastern US at the west edge; the rules join them
    (R-MAP-02), so the view around Western US shows Eastern US beyond the edge. Were the edges
    not to meet, the view would stop at the board's edge instead."""
    view = focus_view(classic_geometry, "Western United States")
    assert view.wrap_w == 3500 and view.x0 + view.w > 3500
    base = base_layer(classic_state.edition, classic_geometry, view)
    shown = {base.order[i - 1] for i, n in enumerate(base.index.histogram()[:len(base.order) + 1])
             if i and n > 200}
    assert {"Western United States", "Eastern United States", "Eastern Canada"} <= shown
    image = render_map(classic_state, classic_geometry, focus="Western United States")
    assert image.size == (1600, 1000 + 44 + LEGEND_HEIGHT)

    apart = replace(classic_geometry, edges_meet=False)
    flat = focus_view(apart, "Western United States")
    assert flat.wrap_w == 0 and flat.x0 + flat.w == 3500
    base = base_layer(classic_state.edition, apart, flat)
    shown = {base.order[i - 1] for i, n in enumerate(base.index.histogram()[:len(base.order) + 1])
             if i and n > 200}
    assert "Western United States" in shown and "Eastern United States" not in shown
    edge = render_map(classic_state, apart, focus="Eastern United States")
    assert edge.size == image.size


def test_classic_images_stay_under_4_mb(
    classic_geometry: Geometry, classic_state: GameState, classic_ukraine: UkraineBattle
) -> None:
    full = png_bytes(render_map(classic_ukraine.before, classic_geometry,
                                moves=classic_ukraine.moves, title="Game 7"))
    focused = png_bytes(render_map(classic_state, classic_geometry, focus="Germany"))
    rec = battle_record(classic_ukraine.at_open, classic_ukraine.events)
    board = png_bytes(render_battle(rec, classic_ukraine.at_open.edition))
    for data in (full, focused, board):
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert len(data) < LIMIT
    assert Image.open(io.BytesIO(full)).size[0] == 2000


def test_golden_classic_start(classic_geometry: Geometry, classic_state: GameState) -> None:
    image = render_map(classic_state, classic_geometry, title="Game 1")
    compare(image.resize((700, round(700 * image.height / image.width)), Image.Resampling.BOX),
            "classic-start-700")


def test_golden_classic_europe_at_full_size(
    classic_geometry: Geometry, classic_state: GameState
) -> None:
    """Europe at the start, the board's most crowded corner, as the whole board draws it."""
    image = render_map(classic_state, classic_geometry, title="Game 1")
    compare(image.crop((380, 140, 1000, 560)), "classic-europe")


def test_classic_battle_board(classic_ukraine: UkraineBattle) -> None:
    """The board draws what the rules decide. Russia's AA gun in Ukraine S.S.R. never defends:
    it is taken with the territory (R-AAG-04, A-05), so it is on neither side of the board."""
    rec = battle_record(classic_ukraine.at_open, classic_ukraine.events)
    assert rec.space == "Ukraine S.S.R." and not rec.sea
    assert rec.attacker.start == {"tank": 2, "infantry": 3, "fighter": 1}
    assert rec.defender.start == {"tank": 1, "infantry": 3}
    assert (rec.result, rec.captured_by) == ("attacker", "Germany")
    taken = [u for u in classic_ukraine.after.units.values()
             if u.space == "Ukraine S.S.R." and u.type == AA]
    assert [u.owner for u in taken] == ["Germany"]
    ed = classic_ukraine.at_open.edition
    result = odds(ed, rec.attacker.start, rec.defender.start, space="Ukraine S.S.R.")
    board = render_battle(rec, ed, odds=result, title="Game 7")
    assert board.width == 1200
    compare(board.resize((600, round(600 * board.height / board.width)), Image.Resampling.BOX),
            "classic-battle-ukraine")


def test_the_service_draws_a_classic_game_with_classic_geometry() -> None:
    """service/images.py picks the geometry by data too (``geometry_for``)."""
    from rules import engine
    from service.images import map_image

    log = engine.new_game("classic", (), None)
    image = map_image(engine.replay(log), log, "c1")
    assert image.png[:8] == b"\x89PNG\r\n\x1a\n" and len(image.png) < LIMIT
    assert Image.open(io.BytesIO(image.png)).size == (2000, 1283 - 96 + LEGEND_HEIGHT)
