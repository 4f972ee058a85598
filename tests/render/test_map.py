"""The map image: holdings, units, the wrap, sizes, goldens, and the battle board."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from PIL import Image, ImageChops

from odds.ask import odds
from render import png_bytes, theme
from render.base import LEGEND_HEIGHT, base_layer
from render.battle import battle_record, render_battle
from render.geo import Geometry
from render.map import render_map
from render.view import focus_view, full_view
from rules.state import GameState
from tests.render.conftest import UkraineBattle
from tests.render.golden import compare

LIMIT = 4 * 1024 * 1024  # Discord-friendly: every image under 4 MB


def _out(geometry: Geometry, image: Image.Image, point: tuple[int, int]) -> tuple[int, int]:
    """Output pixel of a source point on the whole-board image."""
    view = full_view(geometry)
    x, y = view.xy(*point)
    return round(x), round(y) + (image.height - view.out_size[1] - LEGEND_HEIGHT)


def _fill_near(image: Image.Image, xy: tuple[int, int], r: int = 14) -> tuple[int, int, int]:
    """The most common colour around ``xy`` (names and borders are thin; fills dominate)."""
    x, y = xy
    box = image.crop((x - r, y - r, x + r + 1, y + r + 1)).convert("RGB")
    colour: tuple[int, int, int] = Counter(box.get_flattened_data()).most_common(1)[0][0]
    return colour


def test_territories_take_their_controllers_colour_after_a_capture(
    geometry: Geometry, ukraine: UkraineBattle
) -> None:
    colours = theme.power_colours(ukraine.after.edition)
    assert ukraine.before.owners["Ukraine"] == "Soviet Union"
    assert ukraine.after.owners["Ukraine"] == "Germany"
    before = render_map(ukraine.before, geometry)
    after = render_map(ukraine.after, geometry)
    assert _space_colour(geometry, ukraine.before, before, "Ukraine") == \
        colours["Soviet Union"].fill
    assert _space_colour(geometry, ukraine.after, after, "Ukraine") == colours["Germany"].fill
    # Untouched spaces keep their colours; sea stays water, impassable neutrals their own.
    for name, rgb in (("Germany", colours["Germany"].fill), ("Sea Zone 16", theme.WATER),
                      ("Turkey", theme.IMPASSABLE), ("India", colours["United Kingdom"].fill)):
        assert _space_colour(geometry, ukraine.after, after, name) == rgb, name
    # And at the centre itself, where there is no name or chip, the same colour shows.
    x, y = _out(geometry, after, geometry.spaces["Middle East"].centre)
    assert _fill_near(after, (x, y - 22), 5) == colours["United Kingdom"].fill


def _space_colour(
    geometry: Geometry, state: GameState, image: Image.Image, name: str
) -> tuple[int, int, int]:
    """The most common colour over the pixels of ``name`` that no fixed label covers."""
    base = base_layer(state.edition, geometry, full_view(geometry))
    number = base.order.index(name) + 1
    box = base.boxes[number][0]  # where the space's pixels are: far quicker than the board
    inside = base.index.crop(box).point(lambda v: 255 if v == number else 0)
    bare = base.overlay.crop(box).getchannel("A").point(lambda v: 255 if v == 0 else 0)
    mask = ImageChops.multiply(inside, bare)
    pixels = [px for px, m in zip(image.crop(box).get_flattened_data(), mask.get_flattened_data(),
                                  strict=True) if m]
    colour: tuple[int, int, int] = Counter(pixels).most_common(1)[0][0]
    return colour


def test_unit_chips_are_drawn_at_their_space(
    geometry: Geometry, setup_state: GameState
) -> None:
    """Removing Germany's units in Germany changes pixels only around Germany."""
    without = replace(setup_state, units={
        i: u for i, u in setup_state.units.items()
        if not (u.space == "Germany" and u.type != "industrial complex")})
    a = render_map(setup_state, geometry)
    b = render_map(without, geometry)
    box = ImageChops.difference(a, b).getbbox()
    assert box is not None, "no chip drawn"
    x0, y0, x1, y1 = geometry.spaces["Germany"].bbox
    (gx0, gy0), (gx1, gy1) = _out(geometry, a, (x0, y0)), _out(geometry, a, (x1, y1))
    pad = 30
    assert gx0 - pad <= box[0] and box[2] <= gx1 + pad, (box, (gx0, gx1))
    assert gy0 - pad <= box[1] and box[3] <= gy1 + pad, (box, (gy0, gy1))
    # The chips carry the power's ink: Germany's appears inside that box only with units.
    ink = theme.power_colours(setup_state.edition)["Germany"].ink
    assert ink in set(a.crop(box).get_flattened_data())


def test_a_focused_map_wraps_around_the_board_edge(
    geometry: Geometry, setup_state: GameState
) -> None:
    """Alaska sits at the board's east edge; its neighbours across the wrap are at the west
    edge. A map centred on Western Canada (west edge) shows both edges' spaces."""
    view = focus_view(geometry, "Western Canada")
    base = base_layer(setup_state.edition, geometry, view)
    shown = {base.order[i - 1] for i, n in enumerate(base.index.histogram()[:len(base.order) + 1])
             if i and n > 200}
    centres = {s: geometry.spaces[s].centre[0] for s in shown}
    assert any(x < 500 for x in centres.values()) and any(x > 3000 for x in centres.values())
    assert "Alaska" in shown and "Eastern Canada" in shown
    image = render_map(setup_state, geometry, focus="Western Canada")
    # Alaska's American green is on the image, and so is Western Canada's British tan.
    colours = set(image.get_flattened_data())
    edition = setup_state.edition
    assert theme.power_colours(edition)["United States"].fill in colours
    assert theme.power_colours(edition)["United Kingdom"].fill in colours


def test_images_stay_under_4_mb(
    geometry: Geometry, setup_state: GameState, ukraine: UkraineBattle
) -> None:
    full = png_bytes(render_map(ukraine.before, geometry, moves=ukraine.moves, title="Game 7"))
    near_edge = png_bytes(render_map(setup_state, geometry, focus="Sea Zone 49"))
    rec = battle_record(ukraine.at_open, ukraine.events)
    board = png_bytes(render_battle(rec, ukraine.at_open.edition))
    for data in (full, near_edge, board):
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert len(data) < LIMIT
    assert Image.open(__import__("io").BytesIO(full)).size[0] == 2000


def test_the_base_layer_is_drawn_once_per_view(
    geometry: Geometry, setup_state: GameState
) -> None:
    render_map(setup_state, geometry)
    hits = base_layer.cache_info().hits
    render_map(setup_state, geometry, title="again")
    assert base_layer.cache_info().hits == hits + 1


def test_golden_whole_board_downscaled(geometry: Geometry, ukraine: UkraineBattle) -> None:
    image = render_map(ukraine.before, geometry, moves=ukraine.moves, title="Game 7")
    compare(image.resize((500, round(500 * image.height / image.width)), Image.Resampling.BOX),
            "board-500")


def test_golden_crop_around_ukraine(geometry: Geometry, ukraine: UkraineBattle) -> None:
    image = render_map(ukraine.before, geometry, moves=ukraine.moves, title="Game 7",
                       focus="Ukraine")
    # The middle of the focused view at full size: chips, names, arrows, battle markers.
    w, h = image.size
    compare(image.crop((w // 2 - 200, h // 2 - 150, w // 2 + 200, h // 2 + 150)),
            "ukraine-crop")


def test_battle_board_of_a_scripted_battle(ukraine: UkraineBattle) -> None:
    rec = battle_record(ukraine.at_open, ukraine.events)
    assert rec.space == "Ukraine" and not rec.sea
    assert rec.attacker.start == {"tank": 2, "infantry": 3, "fighter": 1}
    assert rec.defender.start == {"tank": 1, "infantry": 3}
    assert [len(r.fire) for r in rec.rounds] == [2, 2, 2]
    assert [sum(f.hits for f in r.fire if f.side == "attacker") for r in rec.rounds] == [2, 1, 1]
    assert rec.attacker.lost == {"infantry": 3, "tank": 1}
    assert rec.defender.lost == {"infantry": 3, "tank": 1}
    assert (rec.result, rec.captured_by) == ("attacker", "Germany")
    ed = ukraine.at_open.edition
    result = odds(ed, rec.attacker.start, rec.defender.start, space="Ukraine")
    board = render_battle(rec, ed, odds=result, title="Game 7")
    assert board.width == 1200
    compare(board.resize((600, round(600 * board.height / board.width)), Image.Resampling.BOX),
            "battle-ukraine")


def test_repainting_only_the_captured_space_equals_a_full_paint(
    geometry: Geometry, ukraine: UkraineBattle
) -> None:
    from render import map as rm

    render_map(ukraine.before, geometry)  # the cached holdings: Ukraine Soviet
    partial = render_map(ukraine.after, geometry)  # only Ukraine repainted
    rm._HOLDINGS.clear()
    full = render_map(ukraine.after, geometry)
    assert ImageChops.difference(partial, full).getbbox() is None
