"""``python -m klabsite``: the same as the ``klabsite`` command."""

import sys

from klabsite.cli import main

sys.exit(main())
