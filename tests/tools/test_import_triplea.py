"""tools/import_triplea.py: the shipped map.json files are what the converter writes today.

The sources (``../shared/maps``, ``../shared/rules``) live outside the repository; where they
are missing (a bare clone) these tests are skipped, not failed.
"""

from __future__ import annotations

import pytest

from tools.import_triplea import A1941, CLASSIC, EDITIONS, EUROPE1940, convert, main, render


def _sources_or_skip(edition: str) -> None:
    cfg = EDITIONS[edition]
    if not (cfg.default_xml.exists() and cfg.default_digest.exists()):
        pytest.skip(f"sources of {edition} not found next to the repository")


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_map_json_is_up_to_date(edition: str) -> None:
    _sources_or_skip(edition)
    assert main([edition, "--check", "--quiet"]) == 0, (
        f"rules/editions/{edition}/map.json is stale: run `python -m tools.import_triplea "
        f"{edition}`"
    )


def test_classic_conversion_is_deterministic_and_reports_every_check() -> None:
    _sources_or_skip("classic")
    board, rep = convert(CLASSIC, CLASSIC.default_xml, CLASSIC.default_digest)
    again, _ = convert(CLASSIC, CLASSIC.default_xml, CLASSIC.default_digest)
    assert render(board) == render(again)
    notes = "\n".join(board.source.notes)
    for needle in (
        "R-MAP-02: 10 wrap pairs",
        "33 adjacency facts of the digest hold",
        "6 distances",
        "Suez Canal joins East Mediterranean Sea Zone and Red Sea Zone",
        "14 land territories unowned",
        "Russia 24, Germany 32, United Kingdom 30, Japan 25, United States 36",
    ):
        assert needle in notes
    assert rep.differences == []


def test_europe1940_conversion_is_deterministic_and_reports_every_check() -> None:
    _sources_or_skip("europe1940")
    board, rep = convert(EUROPE1940, EUROPE1940.default_xml, EUROPE1940.default_digest)
    again, _ = convert(EUROPE1940, EUROPE1940.default_xml, EUROPE1940.default_digest)
    assert render(board) == render(again)
    notes = "\n".join(board.source.notes)
    for needle in (
        "M-6: the Caspian Sea is the XML's Sea Zone 128",
        "13 adjacency facts of the text hold in the XML",
        "United Kingdom borders exactly Scotland, Sea Zone 109, Sea Zone 110",
        "Strait of Gibraltar (strait) joins Sea Zone 91 and Sea Zone 92, controlled via "
        "Gibraltar; the XML agrees; CS-6",
        "Suez Canal (canal) joins Sea Zone 81 and Sea Zone 98, controlled via Egypt + "
        "Trans-Jordan; the XML agrees",
        "Germany 30, Soviet Union 28, United States 35, United Kingdom 29, Italy 10, France 17",
        "agree with the rulebook's for all 18 units and facilities",
        "the 11 victory cities are the XML's victoryCity territories",
        "17 convoy zones",
        "34 neutral territories",
        "puts exactly the rulebook's pairs at war",
    ):
        assert needle in notes, needle
    assert [d.split(":")[0] for d in rep.differences] == [
        "India", "Kansu", "Sikang", "Timguska", "Tsinghai"]


def test_later_map_fields_are_left_out_where_unset() -> None:
    """victory_cities, convoy_zones, neutrals and a canal's submarines_always_pass are written
    only where an edition has them, so the older editions' map.json stay as they were."""
    _sources_or_skip("a1941")
    board, _ = convert(A1941, A1941.default_xml, A1941.default_digest)
    text = render(board)
    for key in ("victory_cities", "convoy_zones", "neutrals", "submarines_always_pass"):
        assert f'"{key}"' not in text
