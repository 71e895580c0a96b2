import sys
from pathlib import Path

# The plain reference generator (tests/reference/) is imported as `reference`,
# and the differential scripts in scripts/ share their helpers with the tests.
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))
