"""``python -m tavla.cli``: the same as ``tavla``."""

import sys

from .registry import main

sys.exit(main())
