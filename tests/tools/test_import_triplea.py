"""tools/import_triplea.py: the shipped map.json files are what the converter writes today.

The sources (``../shared/maps``, ``../shared/rules``) live outside the repository; where they
are missing (a bare clone) these tests are skipped, not failed.
"""

from __future__ import annotations

import pytest

from tools.import_triplea import CLASSIC, EDITIONS, convert, main, render


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
