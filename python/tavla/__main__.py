import sys

from tavla.cli import main

sys.exit(main())
