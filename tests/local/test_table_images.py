"""Map images and battle boards at the local table: written under --out, listed in "files"."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any

from PIL import Image

import bot
from local.table import run_table

POSITION = {
    "edition": "1941", "power": "Germany", "phase": "combat_move",
    "owners": {"Ukraine": "Soviet Union"},
    "units": {"Eastern Europe": {"Germany": {"infantry": 3, "tank": 2}},
              "Ukraine": {"Soviet Union": {"infantry": 1}}},
}
SCRIPT = """\
Germany: game map
game map ukraine
move 3 infantry, 2 tanks from Eastern Europe to Ukraine
end
battle Ukraine all
"""


def table(tmp_path: Path, *flags: str) -> list[dict[str, Any]]:
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(POSITION))
    args = bot.build_parser().parse_args(
        ["--local", "--position", str(pos), "--script", "-", "--json", "--dice", "1,1,1,1,1,6",
         *flags])
    out = io.StringIO()
    code = asyncio.run(run_table(args, io.StringIO(SCRIPT), out, io.StringIO(),
                                 out_dir=tmp_path / "out"))
    assert code == 0, out.getvalue()
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_game_map_writes_a_png_and_phase_ends_and_battles_add_theirs(tmp_path: Path) -> None:
    whole, near, moved, ended, fought = table(tmp_path)
    (path,) = whole["files"]
    assert Path(path).parent == tmp_path / "out" / "maps"
    with Image.open(path) as im:
        assert im.format == "PNG" and im.width == 2000
    (around,) = near["files"]
    assert "ukraine" in Path(around).name and Path(around).stat().st_size < 4 * 1024 * 1024
    assert "files" not in moved  # a move within the phase: no picture
    (after_move,) = ended["files"]  # Combat Move ended: the map with its arrows
    assert "conduct_combat" in Path(after_move).name
    files = [Path(f) for f in fought["files"]]
    assert [f.parent.name for f in files] == ["battles"]  # the board (the phase goes on)
    assert "battle-ukraine" in files[0].name
    for f in files:
        assert f.read_bytes()[:4] == b"\x89PNG"


def test_no_images_writes_none(tmp_path: Path) -> None:
    answers = table(tmp_path, "--no-images")
    assert all("files" not in a for a in answers)
    assert not (tmp_path / "out").exists()
