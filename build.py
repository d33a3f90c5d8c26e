"""Build the default site into ``_site/``: ``python build.py`` (options as for ``klabsite build``)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from klabsite.commands.site import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["build", *sys.argv[1:]], root=Path(__file__).resolve().parent))
