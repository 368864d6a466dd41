"""Encode annotated images and write them atomically (through solver.files), never over an input file."""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from solver.errors import OutputError
from solver.files import check_not_input, write_bytes_atomic

IMAGE_SUFFIXES = {".png": ".png", ".jpg": ".jpg", ".jpeg": ".jpg", ".webp": ".webp", ".tif": ".tiff",
                  ".tiff": ".tiff", ".bmp": ".bmp"}
JPEG_QUALITY = 92


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
