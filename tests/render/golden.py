"""Golden images with a tolerance (DESIGN §9): on failure, actual/expected/diff PNGs are written
to a temporary folder whose path the assertion names. ``UMPIRE_UPDATE_GOLDEN=1`` rewrites them."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from PIL import Image, ImageChops

GOLDEN = Path(__file__).parent / "golden"


def compare(actual: Image.Image, name: str, *, mean: float = 1.5, share: float = 0.01) -> None:
    """``actual`` matches ``golden/<name>.png``: mean absolute difference per channel under
    ``mean`` and under ``share`` of the pixels off by more than 48 in any channel."""
    actual = actual.convert("RGB")
    path = GOLDEN / f"{name}.png"
    if os.environ.get("UMPIRE_UPDATE_GOLDEN") == "1" or not path.exists():
        GOLDEN.mkdir(exist_ok=True)
        actual.save(path, optimize=True)
        if os.environ.get("UMPIRE_UPDATE_GOLDEN") != "1":
            raise AssertionError(f"no golden image yet: wrote {path}; check it and commit it")
        return
    expected = Image.open(path).convert("RGB")
    problem = ""
    if expected.size != actual.size:
        problem = f"size {actual.size} != golden {expected.size}"
    else:
        diff = ImageChops.difference(actual, expected)
        hist = diff.histogram()
        n = actual.width * actual.height
        mad = sum(i * c for ch in range(3) for i, c in enumerate(hist[256 * ch: 256 * ch + 256]))
        mad /= 3 * n
        far = sum(1 for px in diff.convert("L").point(lambda v: 255 if v > 16 else 0).get_flattened_data()
                  if px)
        if mad > mean or far / n > share:
            problem = f"mean difference {mad:.2f} (limit {mean}), {far / n:.2%} of pixels far off"
    if problem:
        out = Path(tempfile.mkdtemp(prefix=f"golden-{name}-"))
        actual.save(out / "actual.png")
        expected.save(out / "expected.png")
        if expected.size == actual.size:
            ImageChops.difference(actual, expected).point(lambda v: min(255, v * 4)).save(
                out / "diff.png")
        raise AssertionError(f"{name}: {problem}; see {out}/actual.png, expected.png, diff.png")
