"""The hash of a ``snapshot`` row's document.

A snapshot is the state's full document (``rules.codec.state_to_json``: every field, derived
from the state's model), written while loading a long game (``SqlStore.load_state``). It is
trusted only as far as it can be checked: its ``content_hash`` (sha256 of the canonical JSON
below) and the log's hash at its ``seq`` must both match, else it is ignored, the state is
replayed from the events, and the mismatch is reported. A document the codec cannot read as a
state of this version (``rules.codec.CodecError``: written before a field was added, say) is
replayed too.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def content_hash(doc: dict[str, Any]) -> str:
    """sha256 (hex) of the snapshot document's canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


__all__ = ["content_hash"]
