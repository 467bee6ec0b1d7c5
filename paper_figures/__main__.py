"""``python -m packgap.paper_figures NAME ... [--quick] [--out DIR] [--workers N]``: the same as
``packgap figures NAME ...``."""

import sys

from packgap.analysis.console import main

if __name__ == "__main__":
    sys.argv = ["packgap", "figures", *sys.argv[1:]]
    main()
