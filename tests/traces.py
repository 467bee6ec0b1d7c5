"""Where the tests find the trace data: the folder packgap itself reads.

:func:`packgap.instances.traces.traces_dir` looks at ``$PACKGAP_TRACES``, then
``../shared/traces``; a clone without traces has neither. With ``PACKGAP_TRACES`` pointing at
an empty folder every test marked ``traces`` skips, naming why (``tests/conftest.py``), as it
does on such a clone: CI runs them so once (``.ci/run``).
"""

from __future__ import annotations

import os
from pathlib import Path

from packgap.errors import PackgapError
from packgap.instances.traces import ENV, traces_dir

#: Why a ``traces`` test skips when there is no trace data.
NO_TRACES = f"no trace data: ../shared/traces is absent and ${ENV} names no folder with traces"
#: A file, so no path below it exists: where :func:`trace_path` points without a trace folder.
ABSENT = Path(os.devnull)


def root() -> Path | None:
    """The trace folder, None when there is none or it is empty."""
    try:
        folder = traces_dir()
    except PackgapError:
        return None
    return folder if any(folder.iterdir()) else None


def trace_path(*parts: str) -> Path:
    """``parts`` inside the trace folder; a path that does not exist when there is none."""
    return (root() or ABSENT).joinpath(*parts)
