import sys
from pathlib import Path

import pytest

# The plain reference generator (tests/reference/) is imported as `reference`,
# and the differential scripts in scripts/ share their helpers with the tests.
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))


@pytest.fixture
def gnubg_nn():
    """GNU Backgammon's evaluator (gnubg-nn, in the test extra), for the tests that compare with it;
    they skip where it is not installed, and the rest of their module still runs."""
    return pytest.importorskip("gnubg_nn")


@pytest.fixture(scope="module")
def openapi(client):
    """The service's published schema, from the module's ``client`` (the service tests' answers are
    checked against it)."""
    return client.get("/v1/openapi.json").json()
