"""scanner.load: every readable format comes out as an upright BGR uint8 array; bad files give one-line errors."""
from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from scanner.load import MAX_PIXELS, load_image
from solver.errors import BadInputError

from conftest import corpus_items


def _marked(w: int = 120, h: int = 80) -> np.ndarray:
    """An RGB image with a black block at the top-left, so orientation and channel order can be checked."""
    rgb = np.full((h, w, 3), 255, np.uint8)
    rgb[: h // 4, : w // 4] = 0
    rgb[h // 2:, w // 2:] = (255, 0, 0)  # red bottom-right
    return rgb


def _check_marked(bgr: np.ndarray, w: int = 120, h: int = 80) -> None:
    assert bgr.dtype == np.uint8 and bgr.shape == (h, w, 3)
    assert bgr[2, 2].tolist() == [0, 0, 0]
    assert bgr[-3, -3].tolist() == [0, 0, 255]  # red, in BGR order
    assert bgr[2, -3].tolist() == [255, 255, 255]


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".webp", ".tif", ".bmp"])
def test_formats_load_as_bgr(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"img{suffix}"
    opts = {"quality": 100} if suffix in (".jpg", ".webp") else {}
    if suffix == ".webp":
        opts["lossless"] = True
    Image.fromarray(_marked()).save(path, **opts)
    out = load_image(path)
    if suffix == ".jpg":  # lossy: compare loosely
        assert out.shape == (80, 120, 3) and out[2, 2].max() < 30 and out[-3, -3, 2] > 220
    else:
        _check_marked(out)


def test_heif_loads(tmp_path: Path) -> None:
    pillow_heif = pytest.importorskip("pillow_heif")
    path = tmp_path / "photo.heic"
    try:
        pillow_heif.from_pillow(Image.fromarray(_marked())).save(path, quality=-1)
    except Exception as exc:  # the wheel may lack an encoder on some platforms
        pytest.skip(f"cannot write HEIF here: {exc}")
    out = load_image(path)
    assert out.shape == (80, 120, 3) and out[2, 2].max() < 40 and out[-3, -3, 2] > 200


def test_exif_orientation_6_comes_out_upright(tmp_path: Path) -> None:
    upright = _marked()
    stored = np.rot90(upright, k=1)  # what a phone stores: pixels rotated 90 degrees counter-clockwise
    exif = Image.Exif()
    exif[0x0112] = 6
    path = tmp_path / "phone.jpg"
    Image.fromarray(np.ascontiguousarray(stored)).save(path, quality=100, exif=exif.tobytes())
    out = load_image(path)
    assert out.shape == (80, 120, 3)
    assert out[2, 2].max() < 30 and out[-3, -3, 2] > 220 and out[-3, -3, 0] < 40


@pytest.mark.parametrize("orientation", [1, 3, 6, 8])
def test_jpeg_pixels_match_pillow_upright(tmp_path: Path, orientation: int) -> None:
    """Complete JPEGs are decoded by OpenCV for speed: the pixels must be Pillow's, EXIF orientation applied."""
    from PIL import ImageOps

    rng = np.random.default_rng(orientation)
    path = tmp_path / "photo.jpg"
    exif = Image.Exif()
    exif[0x0112] = orientation
    Image.fromarray(rng.integers(0, 256, (90, 140, 3), dtype=np.uint8)).save(path, quality=85, exif=exif.tobytes())
    with Image.open(path) as im:
        expected = np.asarray(ImageOps.exif_transpose(im).convert("RGB"))[:, :, ::-1]
    assert np.array_equal(load_image(path), expected)


def test_corpus_exif_6_photo_is_upright() -> None:
    rotated = [(p, t) for p, t in corpus_items() if t.get("exif_orientation") == 6]
    if not rotated:
        pytest.skip("../shared/corpus is not present")
    path, truth = rotated[0]
    with Image.open(path) as im:
        raw_w, raw_h = im.size
    out = load_image(path)
    assert out.shape[:2] == (raw_w, raw_h)  # width and height swapped by the rotation


@pytest.mark.parametrize("mode", ["L", "LA", "P", "RGBA", "I;16", "CMYK", "1"])
def test_modes_convert_to_bgr(tmp_path: Path, mode: str) -> None:
    rgb = Image.fromarray(_marked())
    if mode == "I;16":
        gray = (np.asarray(rgb.convert("L"), dtype=np.uint16) * 257)
        im = Image.fromarray(gray)
        assert im.mode.startswith("I;16")
    else:
        im = rgb.convert(mode)
    path = tmp_path / ("img.tif" if mode == "CMYK" else "img.png")
    im.save(path)
    out = load_image(path)
    assert out.dtype == np.uint8 and out.shape == (80, 120, 3)
    assert out[2, 2].max() < 40 and out[2, -3].min() > 215  # black stays black, white stays white


def test_transparent_pixels_become_white(tmp_path: Path) -> None:
    rgba = np.zeros((40, 60, 4), np.uint8)  # fully transparent black...
    rgba[10:20, 10:20] = (0, 0, 0, 255)  # ...except an opaque black square
    path = tmp_path / "alpha.png"
    Image.fromarray(rgba, "RGBA").save(path)
    out = load_image(path)
    assert out[0, 0].tolist() == [255, 255, 255] and out[15, 15].tolist() == [0, 0, 0]


def _expect_bad(path: Path, reason: str) -> None:
    with pytest.raises(BadInputError) as info:
        load_image(path)
    msg = str(info.value)
    assert msg.startswith(f"cannot read {path}: ") and reason in msg and "\n" not in msg
    assert info.value.exit_code == 3


def test_missing_file(tmp_path: Path) -> None:
    _expect_bad(tmp_path / "nope.jpg", "no such file")


def test_zero_byte_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.jpg"
    path.write_bytes(b"")
    _expect_bad(path, "empty")


def test_truncated_jpeg(tmp_path: Path) -> None:
    path = tmp_path / "cut.jpg"
    noise = np.random.default_rng(0).integers(0, 256, (300, 400, 3), dtype=np.uint8)
    Image.fromarray(noise).save(path, quality=90)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    _expect_bad(path, "truncated")


def test_text_file_named_jpg(tmp_path: Path) -> None:
    path = tmp_path / "notes.jpg"
    path.write_text("APPLE, BANANA, CHERRY\n")
    _expect_bad(path, "not an image")


def test_one_pixel_image(tmp_path: Path) -> None:
    path = tmp_path / "dot.png"
    Image.new("RGB", (1, 1), "white").save(path)
    _expect_bad(path, "too small")


def _png_header_only(path: Path, w: int, h: int) -> None:
    """A PNG whose header claims w x h pixels (no pixel data): a decompression bomb's calling card."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IEND", b""))


@pytest.mark.parametrize("w,h", [(10_000, 8_000), (40_000, 40_000)])
def test_huge_or_bomb_header_is_refused(tmp_path: Path, w: int, h: int) -> None:
    assert w * h > MAX_PIXELS
    path = tmp_path / "bomb.png"
    _png_header_only(path, w, h)
    _expect_bad(path, "too large")
