"""Writing a command's output files: atomically, and never over what it reads.

Every file cfmem writes goes through ``atomic_write_bytes`` (or its text and
npz forms). The rules, checked before anything is written:

- An input may not be a device (``check_input_path``).
- ``-`` is standard output; any other path must name a regular file or a new
  one. A path ending in ``/``, a directory, a FIFO, a device or a socket is
  refused, as is a file that is not writable or a directory that is missing.
- A symbolic link is written through: its target is replaced, the link kept.
- An existing file keeps its permission bits (and owner, where allowed).
- Inside an ``output_session`` (the command line opens one per command), a
  path that is, or links to, a file the command read (``note_input``) is
  refused, and writes are staged as hidden temporary files beside their
  targets and renamed into place together when the command succeeds. If the
  command fails, every staged file is removed: no partial output, no
  companion left behind. Outside a session each write is renamed at once.
"""

from __future__ import annotations

import io
import os
import stat
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from typing import TYPE_CHECKING, BinaryIO
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from cfmem.errors import CfmemError

if TYPE_CHECKING:
    import numpy as np

STDOUT = "-"


class StdoutWriteError(CfmemError):
    """Standard output could not be written (a full disk or device); a broken pipe is not this."""


@contextmanager
def stdout_errors() -> Iterator[None]:
    """Writes to standard output inside: an ``OSError`` but a broken pipe (the reader left:
    the command line's quiet exit) becomes the one-line ``StdoutWriteError``."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as err:
        raise StdoutWriteError(f"cannot write: {err.strerror or err}", "standard output") from None


@dataclass
class _Staged:
    tmp: Path
    target: Path
    shown_as: str


@dataclass
class OutputSession:
    """The files one command reads and the outputs it has staged so far."""

    inputs: dict[tuple[int, int], str] = field(default_factory=dict)
    staged: list[_Staged] = field(default_factory=list)
    stdout_chunks: list[bytes] = field(default_factory=list)
    stdout: BinaryIO = field(default_factory=lambda: sys.stdout.buffer)

    def note_input(self, path: str | os.PathLike) -> None:
        shown = os.fspath(path)
        if shown == STDOUT:
            return
        try:
            st = os.stat(shown)
        except OSError:
            return
        self.inputs[(st.st_dev, st.st_ino)] = shown

    def input_at(self, target: Path) -> str | None:
        """The input that ``target`` (a resolved path) would overwrite, if any."""
        try:
            st = os.stat(target)
        except OSError:
            return None
        return self.inputs.get((st.st_dev, st.st_ino))

    def commit(self) -> None:
        """Rename every staged file into place, then write standard output."""
        while self.staged:
            item = self.staged.pop(0)
            try:
                os.replace(item.tmp, item.target)
            except OSError as err:
                self.staged.insert(0, item)
                raise CfmemError(f"cannot write: {err.strerror or err}", item.shown_as) from None
        with stdout_errors():
            for chunk in self.stdout_chunks:
                self.stdout.write(chunk)
            self.stdout.flush()
        self.stdout_chunks.clear()

    def discard(self) -> None:
        for item in self.staged:
            item.tmp.unlink(missing_ok=True)
        self.staged.clear()
        self.stdout_chunks.clear()


_session: OutputSession | None = None


@contextmanager
def output_session() -> Iterator[OutputSession]:
    """Stage every write of the enclosed command; commit on success, discard on failure."""
    global _session
    outer, _session = _session, OutputSession()
    session = _session
    try:
        yield session
        session.commit()
    finally:
        session.discard()
        _session = outer


def note_input(path: str | os.PathLike) -> None:
    """Record that the current command reads ``path`` (no-op outside a session)."""
    if _session is not None:
        _session.note_input(path)


def check_input_path(path: str | os.PathLike) -> None:
    """Refuse an input that is a device: ``/dev/zero`` would be read for ever. A missing file or
    a directory is left to the reader, which names it; a FIFO (``<(...)``) is read."""
    shown = os.fspath(path)
    try:
        st = os.stat(shown)
    except OSError:
        return
    if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
        raise CfmemError("is a device, not a file: cfmem reads files and pipes", shown)


def check_output_path(path: str | os.PathLike) -> Path | None:
    """The regular file ``path`` resolves to (None for standard output), or CfmemError."""
    shown = os.fspath(path)
    if shown == STDOUT:
        return None
    if shown == "" or shown.endswith(("/", os.sep)) or os.path.basename(shown) in (".", ".."):
        raise CfmemError("an output must be a file name, not a directory", shown or "''")
    target = Path(os.path.realpath(shown))
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as err:
        raise CfmemError(f"cannot write: {err.strerror or err}", shown) from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise CfmemError("is a directory: an output must be a file name", shown)
        if not stat.S_ISREG(st.st_mode):
            raise CfmemError(f"is {_kind(st.st_mode)}, not a regular file: cfmem writes files, or '-' for standard output", shown)
        if not st.st_mode & 0o222 or not os.access(target, os.W_OK):
            raise CfmemError("is read-only: cfmem does not replace a file it may not write", shown)
    directory = target.parent
    if not directory.is_dir():
        raise CfmemError(f"there is no directory {os.path.dirname(shown) or directory}", shown)
    if not os.access(directory, os.W_OK | os.X_OK):
        raise CfmemError(f"the directory {os.path.dirname(shown) or '.'} is not writable", shown)
    if _session is not None:
        read = _session.input_at(target)
        if read is not None:
            which = "it" if os.path.realpath(read) == os.path.realpath(shown) else f"{read}"
            raise CfmemError(f"this command reads {which}: cfmem never writes over its input", shown)
        if any(item.target == target for item in _session.staged):
            raise CfmemError("is written twice by this command", shown)
    return target


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` under the rules above; CfmemError if refused or failed."""
    shown = os.fspath(path)
    target = check_output_path(shown)
    if target is None:
        if _session is not None:
            _session.stdout_chunks.append(data)
        else:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
        return
    tmp = _write_temporary(target, shown, data)
    if _session is not None:
        _session.staged.append(_Staged(tmp, target, shown))
        return
    try:
        os.replace(tmp, target)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise CfmemError(f"cannot write: {err.strerror or err}", shown) from None


def _write_temporary(target: Path, shown: str, data: bytes) -> Path:
    """``data`` in a hidden file beside ``target``, with the mode ``target`` has or would get."""
    try:
        existing = os.stat(target)
    except FileNotFoundError:
        existing = None
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as err:
        raise CfmemError(f"cannot write: {err.strerror or err}", shown) from None
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as f:
            if existing is not None:
                os.fchmod(f.fileno(), stat.S_IMODE(existing.st_mode))
                try:
                    os.fchown(f.fileno(), existing.st_uid, existing.st_gid)
                except OSError:
                    pass  # only root may give a file to another owner
            else:
                umask = os.umask(0)
                os.umask(umask)
                os.fchmod(f.fileno(), 0o666 & ~umask)  # as open() would create it, not mkstemp's 0600
            f.write(data)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise CfmemError(f"cannot write: {err.strerror or err}", shown) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    atomic_write_bytes(path, text.encode())


def npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    """An uncompressed .npz holding ``arrays`` under their names, as ``np.savez`` writes it.

    Written member by member, since ``np.savez(f, **arrays)`` cannot take the names
    ``file`` and ``allow_pickle``, which real models use for tensors.
    """
    import numpy as np  # here, so that a command's start-up does not pay for it

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
        for name, array in arrays.items():
            with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asanyarray(array), allow_pickle=False)
    return buffer.getvalue()


def atomic_save_npz(path: str | os.PathLike, arrays: dict[str, np.ndarray]) -> None:
    atomic_write_bytes(path, npz_bytes(arrays))
