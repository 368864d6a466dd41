"""Text files in, files out: reading word lists and puzzles, and writing outputs atomically, never over an input."""
from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from solver.errors import BadInputError, NoWordsError, OutputError


def read_text_file(path: str | os.PathLike) -> str:
    """The text of a UTF-8 file; BadInputError (one line) when it is missing, binary or not UTF-8."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise BadInputError(f"cannot read {path}: {err.strerror or err}") from None
    if b"\0" in data:
        raise BadInputError(f"{path} is not a text file (it holds binary data)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadInputError(f"{path} is not UTF-8 text") from None


def split_words(text: str | None) -> list[str]:
    """Words from "A, B,C" or one per line; blanks dropped, order and spelling kept."""
    return [w.strip() for line in (text or "").splitlines() for w in line.split(",") if w.strip()]


def read_word_file(path: str | os.PathLike) -> list[str]:
    """The words of a text file (one per line or comma-separated); NoWordsError when it holds none."""
    words = split_words(read_text_file(path))
    if not words:
        raise NoWordsError(f"nothing to search for: {path} holds no words")
    return words


def check_not_input(path: str | Path, inputs: Iterable[str | Path]) -> None:
    """Raise OutputError when `path` names the same file as any of `inputs` (also through links or `..`)."""
    out = Path(path)
    for src in inputs:
        src = Path(src)
        same = out.resolve() == src.resolve()
        if not same and out.exists() and src.exists():
            same = os.path.samefile(out, src)
        if same:
            raise OutputError(f"refusing to overwrite the input file {out}")


def write_bytes_atomic(path: str | Path, data: bytes, *, inputs: Iterable[str | Path] = ()) -> Path:
    """Write `data` to `path` through a temp file in the same directory, so readers never see half a file."""
    path = Path(path)
    check_not_input(path, inputs)
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise OutputError(f"cannot write {path}: directory {directory} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException as exc:  # includes KeyboardInterrupt: never leave the temp file behind
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise
    return path


def json_text(obj: object) -> str:
    """Indented UTF-8 JSON, as every output of the project is written."""
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def write_json_atomic(path: str | Path, obj: object, *, inputs: Iterable[str | Path] = ()) -> Path:
    """Write `obj` as indented UTF-8 JSON atomically; OutputError over an input."""
    return write_bytes_atomic(path, json_text(obj).encode("utf-8"), inputs=inputs)
