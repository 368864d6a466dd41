"""Write outputs atomically (temp file in the same directory + os.replace), never over an input file."""
from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from solver.errors import OutputError

IMAGE_SUFFIXES = {".png": ".png", ".jpg": ".jpg", ".jpeg": ".jpg", ".webp": ".webp", ".tif": ".tiff",
                  ".tiff": ".tiff", ".bmp": ".bmp"}
JPEG_QUALITY = 92


def check_not_input(path: str | Path, inputs: Iterable[str | Path]) -> None:
    """Raise OutputError when `path` names the same file as any of `inputs` (also through links or `..`)."""
    out = Path(path)
    for src in inputs:
        src = Path(src)
        same = out.resolve() == src.resolve()
        if not same and out.exists() and src.exists():
            same = os.path.samefile(out, src)
        if same:
            raise OutputError(f"refusing to write {out}: it is an input file")


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


def image_extension(path: str | Path) -> str:
    """The encoder extension for an output path; OutputError for a type we cannot write."""
    path = Path(path)
    ext = IMAGE_SUFFIXES.get(path.suffix.lower())
    if ext is None:
        raise OutputError(f"cannot write {path}: the image type must be one of {', '.join(sorted(IMAGE_SUFFIXES))}")
    return ext


def encode_image(image: np.ndarray, path: str | Path) -> bytes:
    """Encode a BGR image as the type `path`'s suffix names (.png .jpg .jpeg .webp .tif .tiff .bmp)."""
    ext = image_extension(path)
    params = [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY] if ext == ".jpg" else []
    ok, buf = cv2.imencode(ext, image, params)
    if not ok:
        raise OutputError(f"cannot encode the image as {ext}")
    return buf.tobytes()


def write_image_atomic(path: str | Path, image: np.ndarray, *, inputs: Iterable[str | Path] = ()) -> Path:
    """Encode `image` (BGR) by the path's suffix and write it atomically; OutputError over an input."""
    path = Path(path)
    check_not_input(path, inputs)
    return write_bytes_atomic(path, encode_image(image, path), inputs=inputs)


def write_json_atomic(path: str | Path, obj: object, *, inputs: Iterable[str | Path] = ()) -> Path:
    """Write `obj` as indented UTF-8 JSON atomically; OutputError over an input."""
    text = json.dumps(obj, indent=2, ensure_ascii=False) + "\n"
    return write_bytes_atomic(path, text.encode("utf-8"), inputs=inputs)
