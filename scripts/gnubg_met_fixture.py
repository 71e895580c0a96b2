"""Dump GNU Backgammon's extended match equity tables as JSON fixtures.

This runs *inside* gnubg's embedded Python (it imports gnubg's own `gnubg`
module, which only exists there):

    /usr/games/gnubg -t -q -r -p scripts/gnubg_met_fixture.py

For each table below it does `set matchequitytable FILE`, then reads
`gnubg.met(64)`, which returns gnubg's tables after its own extension to
64 points (MAXSCORE): the 64 x 64 pre-Crawford table (row i, column j: the
match winning chance of the player who needs i+1 points against j+1) and the
post-Crawford row for player 0 and player 1 (entry j: the chance of the
trailer who needs j+1 points against a leader at 1-away). gnubg keeps these
as C floats, so the values are printed with 9 significant digits, which
round-trips a float32 exactly. src/cube/met.rs compares its own tables
with these files.

zadeh.xml is loaded from a copy whose <length> is 64 instead of -1: gnubg
1.07 passes the -1 ("pure calculated table") on to its table extension,
which then overwrites every pre-Crawford cell of the Zadeh table with
Montgomery's normal-distribution estimate. With 64 nothing is extended and
the fixture holds gnubg's Zadeh recursion itself, which is what tavla
reproduces for parametric tables.
"""

import json
import os
import re
import tempfile

import gnubg

MET_DIR = "/usr/share/gnubg/met"
OUT_DIR = os.path.join(os.getcwd(), "tests", "data")
# (file in MET_DIR, fixture name, replacement for its <length> or None)
TABLES = [
    ("Kazaross-XG2.xml", "met_kazaross_xg2_gnubg.json", None),
    ("zadeh.xml", "met_zadeh_gnubg.json", 64),
]
SIZE = 64
# The build the shipped fixtures came from (Debian's gnubg 1.07.001-1+b1); the
# embedded module has no call that returns the version, so update this by hand.
GNUBG_VERSION = "1.07.001"


def float32_text(value):
    return float("%.9g" % value)


def load(xml_name, length):
    """`set matchequitytable` on the file, or on a copy with another <length>."""
    path = os.path.join(MET_DIR, xml_name)
    if length is not None:
        with open(path) as f:
            text = f.read()
        text, count = re.subn(r"<length>\s*-?\d+\s*</length>", "<length>%d</length>" % length, text)
        assert count == 1, "no <length> in " + path
        handle, path = tempfile.mkstemp(suffix="-" + xml_name)
        with os.fdopen(handle, "w") as f:
            f.write(text)
    gnubg.command("set matchequitytable " + path)
    if length is not None:
        os.remove(path)


def dump(xml_name, out_name, length):
    load(xml_name, length)
    source = os.path.join(MET_DIR, xml_name)
    if length is not None:
        source += " with <length>%d</length>" % length
    pre, post0, post1 = gnubg.met(SIZE)
    fixture = {
        "source": "GNU Backgammon %s, `set matchequitytable %s`, gnubg.met(%d)"
        % (GNUBG_VERSION, source, SIZE),
        "precision": "float32 values printed with 9 significant digits",
        "pre": [[float32_text(v) for v in row] for row in pre],
        "post": [[float32_text(v) for v in post0], [float32_text(v) for v in post1]],
    }
    with open(os.path.join(OUT_DIR, out_name), "w") as f:
        json.dump(fixture, f, separators=(",", ":"))
        f.write("\n")


for xml_name, out_name, length in TABLES:
    dump(xml_name, out_name, length)
