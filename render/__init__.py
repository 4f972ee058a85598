"""Map and battle images (DESIGN §8): pure drawing with Pillow from state and map geometry.

No I/O beyond the bundled assets (``render/geometry/*.json``, ``render/fonts/``); callers get
``PIL.Image`` objects and turn them into PNG bytes with ``png_bytes``. Pillow is CPU-bound: the
service calls these through ``asyncio.to_thread``.
"""

from __future__ import annotations

import io

from PIL import Image

# PNG with zlib level 1: about half the time of the default level for a few per cent more bytes
# (bench/render.py); a map stays far under Discord's limits either way.
PNG_OPTIONS: dict[str, int | bool] = {"compress_level": 1, "optimize": False}


def png_bytes(image: Image.Image) -> bytes:
    """The image encoded as PNG with the project's options."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", **PNG_OPTIONS)
    return buf.getvalue()
