"""The README as a tested document.

Convention (also stated in the README's "How it is checked"):

- Every ```python block runs, in README order, each in a fresh namespace (one test per
  block), so every block starts with its own imports.
- A top-level line (a whole statement, not inside a loop or a function) whose comment starts
  with ``-> `` is asserted: ``EXPR  # -> VALUE`` checks that ``repr(EXPR)`` is VALUE, or, when
  the line prints, that what it prints (stripped) is VALUE. ``...`` in VALUE stands for any
  text. A further ``  # note`` after the value is a plain comment. A ``# ->`` anywhere else
  (an assignment, an indented line) is an error, so that no claimed output goes unchecked.
- Every ```sh block's commands (``\\`` continuations joined, ``&&`` parts split): the cheap
  ``tavla`` sub-commands (CHEAP) run through ``python -m tavla`` and must exit 0 without a
  warning; the commands in NOT_RUN are reported as skipped with their reason; any other
  command fails the test, so a new kind of command has to be placed in one or the other.
- A block whose last non-blank line before the fence is
  ``<!-- readme-test: skip: REASON -->`` is reported as skipped with REASON (a reason is
  required).
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import shlex
import subprocess
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

CHEAP = {"moves", "show", "cube", "hint", "eval", "rollout"}
NOT_RUN = {
    ("pip", "install"): "installs the package (the test runs against the installed one)",
    ("./scripts/test",): "is the whole test suite, of which this test is part",
}
SKIP_MARK = re.compile(r"^<!--\s*readme-test:\s*skip\b:?\s*(?P<reason>.*?)\s*-->$")
FENCE = re.compile(r"^```(?P<lang>[A-Za-z0-9_+-]*)\s*$")


@dataclass
class Block:
    lang: str
    code: str
    line: int  # 1-based line of the opening fence
    heading: str
    skip: Optional[str]

    @property
    def name(self) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", self.heading.lower()).strip("-") or "top"
        return f"L{self.line}-{self.lang}-{slug}"


def extract_blocks(text: str) -> list[Block]:
    """The fenced code blocks of a Markdown text, with their section and skip marker."""
    blocks: list[Block] = []
    lines = text.splitlines()
    heading = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#") and not line.startswith("#!"):
            heading = line.lstrip("#").strip()
        m = FENCE.match(line)
        if m and m.group("lang"):
            skip = None
            k = i - 1
            while k >= 0 and not lines[k].strip():
                k -= 1
            if k >= 0:
                mark = SKIP_MARK.match(lines[k].strip())
                if mark:
                    skip = mark.group("reason").strip()
                    if not skip:
                        raise ValueError(f"README line {k + 1}: a readme-test skip marker needs a reason")
            body = []
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                body.append(lines[j])
                j += 1
            if j == len(lines):
                raise ValueError(f"README line {i + 1}: the code block is never closed")
            blocks.append(Block(m.group("lang"), "\n".join(body) + "\n", i + 1, heading, skip))
            i = j
        i += 1
    return blocks


def expectations(code: str) -> dict[int, str]:
    """line number -> expected VALUE of every ``# -> VALUE`` comment."""
    out = {}
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        if tok.type == tokenize.COMMENT:
            body = tok.string[1:].strip()
            if body.startswith("->"):
                value = body[2:].strip().split("  #")[0].strip()
                out[tok.start[0]] = value
    return out


def matches(expected: str, actual: str) -> bool:
    if "..." not in expected:
        return actual == expected
    pattern = ".*?".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual, flags=re.DOTALL) is not None


def run_python_block(code: str, where: str = "block") -> int:
    """Runs a block statement by statement in a fresh namespace, asserting its ``# ->`` lines.
    Returns how many lines were asserted."""
    tree = ast.parse(code)
    expected = expectations(code)
    last_on_line: dict[int, ast.stmt] = {}
    for node in tree.body:
        last_on_line[node.end_lineno] = node  # with ``a; b`` the comment belongs to b
    for line in expected:
        node = last_on_line.get(line)
        if not isinstance(node, ast.Expr):
            raise AssertionError(f"{where}, line {line}: '# ->' must end a top-level expression line")
    namespace: dict = {"__name__": "__readme__"}
    checked = 0
    for node in tree.body:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            if isinstance(node, ast.Expr):
                value = eval(compile(ast.Expression(node.value), where, "eval"), namespace)
            else:
                exec(compile(ast.Module([node], []), where, "exec"), namespace)
                value = None
        if node.end_lineno in expected and last_on_line[node.end_lineno] is node:
            want = expected[node.end_lineno]
            printed = out.getvalue().strip()
            got = printed if printed and value is None else repr(value)
            source = ast.get_source_segment(code, node)
            assert matches(want, got), f"{where}, line {node.end_lineno}: {source}\n  README says: {want}\n  it gives:    {got}"
            checked += 1
    return checked


def shell_commands(code: str) -> list[list[str]]:
    """The commands of a shell block: continuations joined, comments dropped, ``&&`` split."""
    joined = re.sub(r"\\\n", " ", code)
    commands = []
    for line in joined.splitlines():
        tokens = shlex.split(line, comments=True)
        part: list[str] = []
        for tok in tokens + ["&&"]:
            if tok in ("&&", "||", ";"):
                if part:
                    commands.append(part)
                part = []
            else:
                part.append(tok)
    return commands


def not_run_reason(cmd: list[str]) -> Optional[str]:
    for prefix, reason in NOT_RUN.items():
        if tuple(cmd[: len(prefix)]) == prefix:
            return reason
    return None


BLOCKS = extract_blocks(README.read_text(encoding="utf-8"))
PYTHON = [b for b in BLOCKS if b.lang == "python"]
SHELL = [(b, cmd) for b in BLOCKS if b.lang in ("sh", "bash", "shell", "console") for cmd in shell_commands(b.code)]


def test_the_readme_has_examples():
    assert len(PYTHON) >= 4 and len(SHELL) >= 10
    assert sum(expectations(b.code).__len__() for b in PYTHON) >= 15


@pytest.mark.parametrize("block", PYTHON, ids=[b.name for b in PYTHON])
def test_python_block(block: Block):
    if block.skip:
        pytest.skip(f"README marks it: {block.skip}")
    run_python_block(block.code, f"README {block.name}")


@pytest.mark.parametrize("block,cmd", SHELL, ids=[f"{b.name}-{' '.join(c)[:40]}" for b, c in SHELL])
def test_shell_command(block: Block, cmd: list[str]):
    if block.skip:
        pytest.skip(f"README marks the block: {block.skip}")
    reason = not_run_reason(cmd)
    if reason:
        pytest.skip(f"{' '.join(cmd)!r} is not run: it {reason}")
    assert cmd[0] == "tavla" and len(cmd) > 1 and cmd[1] in CHEAP, (
        f"README line {block.line}: {' '.join(cmd)!r} is neither a cheap tavla command nor in NOT_RUN; "
        "mark its block with <!-- readme-test: skip: REASON --> or add it to the test")
    done = subprocess.run([sys.executable, "-m", "tavla", *cmd[1:]], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{' '.join(cmd)} exited {done.returncode}: {done.stderr}"
    assert done.stdout.strip(), f"{' '.join(cmd)} printed nothing"
    assert "warning" not in done.stderr.lower(), f"{' '.join(cmd)} warns: {done.stderr}"


def test_readme_links_stay_inside_the_repository():
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#\s]+)\)", text)
    assert "docs/rules.md" in links
    for link in links:
        if re.match(r"[a-z]+://", link):
            continue
        target = (ROOT / link).resolve()
        assert ROOT in target.parents or target == ROOT, f"README links {link}, outside the repository"
        assert target.exists(), f"README links {link}, which does not exist"


# ----- the checker itself can fail -----

def test_a_wrong_output_comment_fails():
    with pytest.raises(AssertionError, match="README says: 5"):
        run_python_block("x = 2\nx + 2   # -> 5\n")
    with pytest.raises(AssertionError, match="README says: 'b'"):
        run_python_block("print('a')   # -> 'b'\n")
    assert run_python_block("x = 2\nx + 2   # -> 4   # a note\nprint('a b')  # -> a b\n'xyz'  # -> 'x...'\n") == 3


def test_an_unchecked_output_claim_fails():
    with pytest.raises(AssertionError, match="top-level expression"):
        run_python_block("x = 2   # -> 2\n")
    with pytest.raises(AssertionError, match="top-level expression"):
        run_python_block("for i in range(2):\n    i   # -> 1\n")


def test_an_error_in_a_block_fails():
    with pytest.raises(AttributeError):
        run_python_block("import tavla\ntavla.no_such_thing\n")


def test_skip_markers_need_a_reason_and_are_found():
    text = "## A\n<!-- readme-test: skip: needs a server -->\n```sh\ncurl x\n```\n\n```python\n1\n```\n"
    a, b = extract_blocks(text)
    assert (a.skip, a.heading, a.lang) == ("needs a server", "A", "sh")
    assert b.skip is None
    with pytest.raises(ValueError, match="reason"):
        extract_blocks("<!-- readme-test: skip -->\n```sh\ncurl x\n```\n")


def test_shell_commands_are_split_and_unknown_ones_are_not_silent():
    cmds = shell_commands('pip install . && tavla moves --dice 3 1   # note\ntavla show "a b" \\\n  --x 1\n')
    assert cmds == [["pip", "install", "."], ["tavla", "moves", "--dice", "3", "1"], ["tavla", "show", "a b", "--x", "1"]]
    assert not_run_reason(cmds[0]) and not not_run_reason(cmds[1])
    assert not_run_reason(["curl", "-s", "x"]) is None  # would fail test_shell_command
