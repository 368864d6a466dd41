"""Load an image file as a BGR uint8 array, upright (EXIF orientation applied), with guards against bad input."""
from __future__ import annotations

import io
import warnings
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from solver.errors import BadInputError, NotAnImageError, TooLargeError

try:  # HEIC/HEIF (iPhone photos); optional at import time so the rest still works without it
    from pillow_heif import register_heif_opener

    register_heif_opener()
except ImportError:  # pragma: no cover - pillow-heif is a declared dependency
    pass

MAX_PIXELS = 60_000_000
"""Largest image accepted (decompression-bomb guard); phone photos reach ~50 MP."""
MIN_SIDE = 16
"""Smallest width/height that could hold a puzzle at all."""


def load_image(path: str | Path) -> np.ndarray:
    """Read `path` as an upright BGR uint8 HxWx3 array.

    Raises BadInputError("cannot read <path>: <reason>") for a missing, empty, truncated, non-image, tiny or huge
    file.
    """
    path = Path(path)

    def bad(reason: str, kind: type[BadInputError] = BadInputError) -> BadInputError:
        return kind(f"cannot read {path}: {reason}")

    if not path.exists():
        raise bad("no such file")
    if path.is_dir():
        raise bad("it is a directory")
    if path.stat().st_size == 0:
        raise bad("the file is empty")
    return _decode(path, bad)


def decode_image(data: bytes, name: str) -> np.ndarray:
    """Like load_image, for a file's bytes held in memory (an upload); `name` is only used in messages."""
    if not data:
        raise BadInputError(f"cannot read {name}: the file is empty")
    return _decode(io.BytesIO(data), lambda reason, kind=BadInputError: kind(f"cannot read {name}: {reason}"))


def _decode(source, bad: Callable[..., BadInputError]) -> np.ndarray:
    """Decode a path or file object with Pillow: upright BGR, with the size guards; `bad(reason, kind)` makes
    the error."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(source) as im:
                w, h = im.size
                if w * h > MAX_PIXELS:
                    raise bad(f"image is too large ({w}x{h}, over {MAX_PIXELS // 1_000_000} megapixels)",
                              TooLargeError)
                if min(w, h) < MIN_SIDE:
                    raise bad(f"image is too small ({w}x{h})")
                if im.format == "JPEG" and im.mode in ("RGB", "L"):
                    fast = _decode_jpeg(source)
                    if fast is not None:
                        return fast
                im.load()
                return _to_bgr(_upright(im))
    except BadInputError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise bad("image is too large (decompression bomb guard)", TooLargeError) from None
    except UnidentifiedImageError:
        raise bad("not an image file (or an unsupported format)", NotAnImageError) from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise bad(f"corrupt or truncated image ({reason})") from None


def _decode_jpeg(source) -> np.ndarray | None:
    """A complete JPEG decoded by OpenCV straight to upright BGR (it applies the EXIF orientation), or None.

    A phone photo decodes in about half the CPU time of Pillow plus the RGB -> BGR copy. OpenCV fills a
    truncated file with grey instead of failing, so a file that does not end with the end-of-image marker is
    left to Pillow, which names the damage.
    """
    data = source.getvalue() if isinstance(source, io.BytesIO) else Path(source).read_bytes()
    if data.rstrip(b"\0")[-2:] != b"\xff\xd9":
        return None
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


def _upright(im: Image.Image) -> Image.Image:
    """Apply the EXIF orientation; a damaged EXIF block leaves the image as stored rather than failing."""
    try:
        return ImageOps.exif_transpose(im)
    except Exception:  # noqa: BLE001 - Pillow raises assorted errors on malformed EXIF
        return im


def _to_bgr(im: Image.Image) -> np.ndarray:
    """Any Pillow mode -> BGR uint8; transparency is composited on white (printables often have it)."""
    if im.mode == "P" or im.mode == "PA":
        im = im.convert("RGBA")
    if im.mode in ("I;16", "I;16B", "I;16L", "I;16N", "I"):
        a = np.asarray(im, dtype=np.float64)
        top = 65535.0 if a.max() > 255 else 255.0
        gray = np.clip(a * (255.0 / top), 0, 255).astype(np.uint8)
        return np.repeat(gray[:, :, None], 3, axis=2)
    if im.mode == "F":
        a = np.asarray(im, dtype=np.float64)
        top = 1.0 if a.max() <= 1.0 else 255.0
        gray = np.clip(a * (255.0 / top), 0, 255).astype(np.uint8)
        return np.repeat(gray[:, :, None], 3, axis=2)
    if im.mode in ("RGBA", "LA", "La", "RGBa"):
        rgba = np.asarray(im.convert("RGBA"), dtype=np.float32)
        alpha = rgba[:, :, 3:4] / 255.0
        rgb = rgba[:, :, :3] * alpha + 255.0 * (1.0 - alpha)
        rgb = np.clip(rgb + 0.5, 0, 255).astype(np.uint8)
    else:
        if im.mode != "RGB":
            im = im.convert("RGB")  # L, 1, CMYK, YCbCr, LAB, HSV, RGBX ...
        rgb = np.asarray(im, dtype=np.uint8)
    if rgb.ndim != 3 or rgb.shape[2] != 3:
        raise ValueError(f"unexpected pixel layout {rgb.shape}")
    return np.ascontiguousarray(rgb[:, :, ::-1])
