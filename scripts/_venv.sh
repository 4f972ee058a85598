# shellcheck shell=bash
# Sourced by scripts/test and scripts/run: make sure .venv exists and holds this checkout,
# installed editable with the dev extras. Reinstalls only when pyproject.toml or the set of
# top-level packages changed since the last install (an editable install maps packages by name).

UMPIRE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$UMPIRE_ROOT/.venv"
PY="$VENV/bin/python"

# Top-level packages Umpire may have; the ones that exist are installed, type-checked and linted.
UMPIRE_PACKAGES=(rules odds local service tools cogs db render orders mail web)

umpire_existing_packages() {
    local pkg
    for pkg in "${UMPIRE_PACKAGES[@]}"; do
        if [[ -f "$UMPIRE_ROOT/$pkg/__init__.py" ]]; then
            printf '%s\n' "$pkg"
        fi
    done
}

umpire_find_python() {
    if [[ -n "${PYTHON:-}" ]]; then
        printf '%s\n' "$PYTHON"
        return
    fi
    local candidate
    for candidate in python3.11 python3 python; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            printf '%s\n' "$candidate"
            return
        fi
    done
    echo "error: Python 3.11 or newer is needed (set PYTHON=/path/to/python3.11)" >&2
    return 1
}

umpire_ensure_venv() {
    if [[ ! -x "$PY" ]]; then
        local python
        python="$(umpire_find_python)"
        echo "==> creating .venv with $python"
        "$python" -m venv "$VENV"
    fi
    local stamp="$VENV/.umpire-install-stamp"
    local want
    want="$( { cat "$UMPIRE_ROOT/pyproject.toml"; umpire_existing_packages; } | sha256sum | cut -d' ' -f1)"
    if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
        echo "==> installing Umpire and its dev tools into .venv (pip install -e '.[dev]')"
        "$PY" -m pip install --quiet --disable-pip-version-check -e "$UMPIRE_ROOT[dev]"
        printf '%s\n' "$want" >"$stamp"
    fi
}
