"""The ``packgap`` console script. It imports nothing before it can catch Ctrl-C, so an
interrupt while the CLI's own modules still load (about 0.3 s at every start) ends like one
during a command: a line on stderr and exit code 130, never a traceback."""

from __future__ import annotations

import sys

#: Exit code of a command stopped by Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130


def main() -> None:
    try:
        from packgap.analysis.cli import main as cli

        cli()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted: nothing cut short was stored\n")
        sys.exit(INTERRUPTED)
