"""``python -m skynet_jupyter.cli``: ``skynet-check`` without its console script."""

import sys

from . import main

sys.exit(main())
