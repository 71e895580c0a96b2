"""Saved files are never half-written: ``tavla.files.write_atomic`` either replaces a file whole or
leaves the old one as it was (and no temporary file behind)."""

from __future__ import annotations

import io
import json
import os
import stat

import numpy as np
import pytest

import tavla
from tavla import files
from tavla.play import play


def leftovers(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_writes_text_and_bytes(tmp_path):
    path = tmp_path / "record.json"
    files.write_atomic(path, '{"a": "é"}')
    assert path.read_text(encoding="utf-8") == '{"a": "é"}'
    files.write_atomic(str(path), b"\x00\xff")
    assert path.read_bytes() == b"\x00\xff"
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("where", ["write", "fsync", "replace"])
def test_a_failing_write_leaves_the_old_file_intact(tmp_path, monkeypatch, where):
    path = tmp_path / "match.json"
    path.write_text("old record")

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    if where == "write":
        # The data is half out when the disk fills.
        real_fdopen = os.fdopen

        class HalfWriter(io.RawIOBase):
            def __init__(self, fd):
                self.f = real_fdopen(fd, "wb")

            def write(self, data):
                self.f.write(bytes(data[: len(data) // 2]))
                self.f.flush()
                full_disk()

            def fileno(self):
                return self.f.fileno()

            def close(self):
                self.f.close()
                super().close()

        monkeypatch.setattr(files.os, "fdopen", lambda fd, mode: HalfWriter(fd))
    else:
        monkeypatch.setattr(files.os, where, full_disk)
    with pytest.raises(OSError, match="No space left"):
        files.write_atomic(path, "new record " * 1000)
    monkeypatch.undo()
    assert path.read_text() == "old record"
    assert leftovers(tmp_path) == []


def test_an_interrupted_write_leaves_the_old_file_intact(tmp_path, monkeypatch):
    path = tmp_path / "net.tnn"
    path.write_bytes(b"old net")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        files.write_atomic(path, b"new net")
    monkeypatch.undo()
    assert path.read_bytes() == b"old net"
    assert leftovers(tmp_path) == []


def test_text_that_cannot_be_encoded_changes_nothing(tmp_path):
    path = tmp_path / "record.json"
    path.write_text("old")
    with pytest.raises(UnicodeEncodeError):
        files.write_atomic(path, "\ud800")
    assert path.read_text() == "old" and leftovers(tmp_path) == []


def test_keeps_the_old_files_permissions(tmp_path):
    path = tmp_path / "shared.json"
    path.write_text("old")
    path.chmod(0o640)
    files.write_atomic(path, "new")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    fresh = tmp_path / "fresh.json"
    files.write_atomic(fresh, "new")
    umask = os.umask(0o022)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask  # as open() would make it


def test_a_link_is_followed(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    files.write_atomic(link, "new")
    assert link.is_symlink() and real.read_text() == "new"


def test_a_missing_folder_is_an_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        files.write_atomic(tmp_path / "no" / "such" / "file.json", "x")


def test_numpy_arrays_load_back(tmp_path):
    boards = np.arange(100, dtype=np.int8).reshape(2, 2, 25)
    files.save_npy(tmp_path / "boards.npy", boards)
    assert (np.load(tmp_path / "boards.npy") == boards).all()
    files.save_npz(tmp_path / "set.npz", boards=boards, sizes=np.array([1, 2]))
    z = np.load(tmp_path / "set.npz")
    assert (z["boards"] == boards).all() and list(z["sizes"]) == [1, 2]


def test_play_saves_the_record_whole_or_not_at_all(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    out = io.StringIO()
    assert play("backgammon", 0, 3, True, False, {}, out=out, read=lambda prompt: "quit", save=str(path)) == 0
    record = path.read_text()
    assert tavla.Game.from_json(record).variant == "backgammon" and "Record saved" in out.getvalue()

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full_disk)
    # One line for the command line (tavla: error: ...), not a traceback; the earlier record untouched.
    with pytest.raises(ValueError, match="cannot save the record to .*: No space left on device"):
        play("nardy", 0, 4, True, False, {}, out=io.StringIO(), read=lambda prompt: "quit", save=str(path))
    monkeypatch.undo()
    assert path.read_text() == record  # the earlier record, whole
    assert json.loads(record)["rules"] == json.loads(tavla.Game.from_json(record).to_json())["rules"]
    assert leftovers(tmp_path) == []
