"""Pictograms told apart at map size (issue 14), and the documentation's images kept current."""

from __future__ import annotations

import itertools

import pytest

from render.icons import has_icon, icon_mask, units_drawn
from rules import engine
from rules.state import GameState
from tools.doc_images import DOCS, differs, images

MAP_SIZE = (21, 12)  # a pictogram on a chip of the whole board, in pixels

# Units a reader tells apart by their pictogram alone: those of one kind.
KINDS = {
    "land": ["infantry", "tank", "artillery", "mechanized infantry", "antiaircraft gun"],
    "air": ["fighter", "tactical bomber", "bomber"],
    "sea": ["submarine", "transport", "destroyer", "cruiser", "aircraft carrier", "battleship"],
    # 'industrial complex' is the older editions' name for the major one: never on one board.
    "facility": ["major industrial complex", "minor industrial complex", "air base",
                 "naval base"],
}


def _apartness(a: str, b: str) -> float:
    """Share of the two silhouettes' pixels that only one of them covers (0: the same)."""
    ma, mb = ([v >= 128 for v in icon_mask(u, MAP_SIZE).get_flattened_data()] for u in (a, b))
    both = sum(x and y for x, y in zip(ma, mb, strict=True))
    either = sum(x or y for x, y in zip(ma, mb, strict=True))
    return 1 - both / either


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_pictograms_of_one_kind_stay_apart_at_map_size(kind: str) -> None:
    for a, b in itertools.combinations(KINDS[kind], 2):
        assert _apartness(a, b) >= 0.25, (a, b, round(_apartness(a, b), 2))


def test_the_antiaircraft_gun_is_not_a_tank() -> None:
    assert _apartness("antiaircraft gun", "tank") >= 0.5


@pytest.mark.parametrize("edition", ["1941", "classic"])
def test_every_unit_of_every_edition_has_a_pictogram(edition: str) -> None:
    ed = engine.resolve_edition(edition)
    assert [u for u in ed.units if not has_icon(u)] == []
    assert all(has_icon(u) for kind in KINDS.values() for u in kind)
    assert set(units_drawn()) >= {u for kind in KINDS.values() for u in kind}


def test_the_documentations_images_are_current(
    a1941_mid_combat: GameState, classic_mid_combat: GameState
) -> None:
    """docs/images/*.png are what ``python -m tools.doc_images`` draws now."""
    stale = {name: why for name, image in images(a1941_mid_combat, classic_mid_combat).items()
             if (why := differs(image, DOCS / name))}
    assert stale == {}, f"{stale}: run python -m tools.doc_images"
