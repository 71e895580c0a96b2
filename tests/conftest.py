import sys
from pathlib import Path

# The plain reference generator in tests/reference/ is imported as `reference`.
sys.path.insert(0, str(Path(__file__).parent))
