"""Where trace data lives: never in the repository, always in a folder the user names.

Resolution order: an explicit folder (``--traces``), then ``$PACKGAP_TRACES``, then
``../shared/traces`` next to the working directory or next to this checkout.
"""

from __future__ import annotations

import os
from pathlib import Path

from packgap.errors import PackgapError

ENV = "PACKGAP_TRACES"
_CHECKOUT = Path(__file__).resolve().parent.parent


def traces_dir(explicit: str | Path | None = None) -> Path:
    """The trace folder to read; a named folder that does not exist is an error, not a fallback."""
    for source, value in (("--traces", explicit), (f"${ENV}", os.environ.get(ENV))):
        if value:
            path = Path(value).expanduser()
            if not path.is_dir():
                raise PackgapError(f"{source}: trace folder {path} does not exist")
            return path
    for candidate in (Path.cwd().parent / "shared" / "traces", _CHECKOUT.parent / "shared" / "traces"):
        if candidate.is_dir():
            return candidate
    raise PackgapError(f"no trace folder: pass --traces DIR or set ${ENV} (../shared/traces was not found)")


def trace_file(relative: str, explicit: str | Path | None = None) -> Path:
    """A file inside the trace folder, with a clear error naming it when it is missing."""
    path = traces_dir(explicit) / relative
    if not path.is_file():
        raise PackgapError(f"trace file {path} does not exist")
    return path


def user_trace_file(path: Path, explicit: str | Path | None = None) -> Path:
    """A trace file the user names: as given when it exists, else relative to the trace folder."""
    if not path.exists() and not path.is_absolute():
        path = traces_dir(explicit) / path
    if not path.is_file():
        raise PackgapError(f"trace file {path} does not exist")
    return path
