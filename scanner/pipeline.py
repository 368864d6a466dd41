"""The image pipeline as a library: load -> detect -> rectify + read -> (word list) -> solve + repair -> annotate.

`solve_image` returns one PuzzleResult per letter grid on the page (largest first); `PuzzleResult.to_json()` is
the JSON contract documented in the README (issue 3, plus issue 4's "word_list").
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from scanner.annotate import annotate as draw_answers
from scanner.detect import find_grids, rectify
from scanner.engine import get_engine
from scanner.load import load_image
from scanner.ocr import read_grid
from scanner.repair import Repaired, solve_and_repair
from scanner.wordlist import read_word_list
from solver.dictionary import hidden_vocabulary
from solver.errors import BadInputError, NoGridError, NoWordsError
from solver.hidden import DEFAULT_MIN_LENGTH, find_hidden, unused_letters

DEFAULT_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
CELL_PX = 64
"""Rectified cell size handed to the OCR stage."""
LOW_CONFIDENCE = 0.5
"""Cells read with a confidence under this are reported in grid.low_confidence."""


def _rc(cell) -> list[int]:
    """A (row, col) as a JSON-ready [int, int] (cells may hold NumPy integers)."""
    return [int(cell[0]), int(cell[1])]


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 1)


@dataclass
class PuzzleResult:
    """Everything known about one puzzle on a page. Coordinates are 0-based [row, col] in reading orientation."""

    source: str
    location: object  # scanner.detect.GridLocation
    reading: object  # scanner.ocr.GridReading (as read, before repair)
    results: list  # list[solver.WordResult], one per distinct word
    letters: list[list[str]]  # the grid after repair (corrected letters put in)
    corrections: list  # list[solver.Mismatch]
    homography: np.ndarray  # input-image pixels -> rectified pixels
    cell_px: int
    word_list: object | None = None  # scanner.wordlist.WordList when the list was read from an image
    words_source: str = "argument"  # "argument" | "file" | "image" | "none" (no list: dictionary words found)
    list_on_page: bool = False  # the word list was read from this page (not from a separate --words-image)
    index: int = 0  # 0 = the largest grid on the page
    timings_ms: dict = field(default_factory=dict)
    dictionary: str | None = None  # no list: the word file searched instead (None: the shipped dictionary)
    min_length: int = DEFAULT_MIN_LENGTH

    @property
    def hidden(self) -> bool:
        """No list was given or found: the results are the dictionary words hidden in the grid."""
        return self.words_source == "none"

    @property
    def unused_letters(self) -> str | None:
        """The letters no found word uses, in reading order (a hidden message); None without a list."""
        return None if self.hidden or not self.results else unused_letters(self.letters, self.results)

    @property
    def rows(self) -> int:
        return self.location.rows

    @property
    def cols(self) -> int:
        return self.location.cols

    def low_confidence(self, threshold: float = LOW_CONFIDENCE) -> list[tuple[int, int]]:
        """Cells the OCR was unsure of, (row, col) in reading order."""
        return [tuple(cell) for cell in self.reading.low_confidence(threshold)]

    def to_json(self) -> dict:
        """The JSON contract: source, puzzle, grid, words, timings_ms (and word_list when there is one)."""
        out = {
            "source": self.source,
            "puzzle": self.index,
            "grid": {
                "rows": self.rows,
                "cols": self.cols,
                "letters": ["".join(row) for row in self.letters],
                "confidence": np.round(np.asarray(self.reading.confidence, float), 3).tolist(),
                "corners": np.round(np.asarray(self.location.corners, float), 1).tolist(),
                "inverted": bool(self.location.inverted),
                "low_confidence": [_rc(cell) for cell in self.low_confidence()],
            },
            "words": [word_json(res) | {"source": "dictionary" if self.hidden else "list"} for res in self.results],
            "unused_letters": self.unused_letters,
            "timings_ms": {stage: self.timings_ms.get(stage) for stage in
                           ("load", "detect", "ocr", "words", "solve", "annotate")},
        }
        out["word_list"] = word_list_json(self.words_source, self.word_list, [r.word for r in self.results])
        if self.hidden:
            out["word_list"] = {"source": "none", "entries": [], "region": None,
                                "dictionary": self.dictionary or "shipped", "min_length": self.min_length}
        return out


def word_json(result) -> dict:
    """A solver WordResult in the scanner's JSON: the solver's own fields, its mismatches named "corrected"."""
    d = result.to_dict()
    return {key: d[key] for key in ("word", "found", "start", "end", "direction", "cells")} | {
        "corrected": d["mismatches"]}


def word_list_json(source: str, word_list, words: list[str]) -> dict:
    """Issue 4's "word_list": where the words came from, each entry as read and as used, and the image region."""
    if word_list is None:
        entries = [{"read": w, "word": w, "corrected": False} for w in words]
        region = None
    else:
        entries = [{"read": e.read, "word": e.word, "corrected": bool(e.corrected)} for e in word_list.entries]
        region = np.round(np.asarray(word_list.region, float), 1).tolist() if source == "image" else None
    return {"source": source, "entries": entries, "region": region}


def solve_image(image: np.ndarray, *, source: str, words: list[str] | None = None, words_source: str = "argument",
                words_image: np.ndarray | None = None, alphabet: str = DEFAULT_ALPHABET,
                engine=None, min_length: int = DEFAULT_MIN_LENGTH, dictionary: str | None = None) -> list[PuzzleResult]:
    """Find, read and solve every letter grid in a BGR image (largest first).

    `words`: the word list ([] reads the grid only); None reads the list from the page (or from `words_image`, a
    separate picture of the list).
    When no list is found on the page (or none of what was read is in the grid: instructions, a caption), the
    grid's dictionary words of `min_length`+ letters are found instead
    (`dictionary`: a word file; None: the shipped one) and the puzzle's words_source is "none".
    `engine`: an Engine from scanner.engine.get_engine, an engine name, or None for the default.
    Raises NoGridError when the image holds no letter grid.
    """
    t0 = time.perf_counter()
    locations = find_grids(image)
    if not locations:
        raise NoGridError(f"no letter grid found in {source}")
    detect_ms = _ms(t0)
    if engine is None or isinstance(engine, str):
        engine = get_engine(engine or "tesserocr")

    puzzles = []
    for index, loc in enumerate(locations):
        timings = {"detect": detect_ms}
        t0 = time.perf_counter()
        rectified, homography = rectify(image, loc, cell_px=CELL_PX)
        timings["detect"] = round(detect_ms + _ms(t0), 1)
        t0 = time.perf_counter()
        reading = read_grid(rectified, loc.rows, loc.cols, cell_px=CELL_PX, alphabet=alphabet, engine=engine)
        timings["ocr"] = _ms(t0)

        word_list, puzzle_words, puzzle_words_source = None, words, words_source
        if words is None:
            t0 = time.perf_counter()
            rows_read = ["".join(row) for row in reading.letters]
            if words_image is not None:  # a separate picture of the list: all of it is the list
                word_list = read_word_list(words_image, None, rows_read, source=source, engine=engine)
            else:
                others = [other for other in locations if other is not loc]
                try:
                    word_list = read_word_list(image, loc, rows_read, source=source, engine=engine,
                                               other_grids=others)
                except NoWordsError:
                    puzzle_words_source = "none"
            timings["words"] = _ms(t0)
            if word_list is not None:
                puzzle_words, puzzle_words_source = word_list.words, "image"

        t0 = time.perf_counter()
        if puzzle_words_source != "none":
            repaired = solve_and_repair(reading.letters, puzzle_words, reading.confidence, reading.alternatives)
            if word_list is not None and words_image is None and not any(r.found for r in repaired.results):
                word_list, puzzle_words_source = None, "none"  # text read on the page that this grid holds none of
        if puzzle_words_source == "none":
            repaired = Repaired(find_hidden(reading.letters, hidden_vocabulary(dictionary), min_length=min_length),
                                [list(row) for row in reading.letters], [])
        timings["solve"] = _ms(t0)
        puzzles.append(PuzzleResult(
            source=source, location=loc, reading=reading, results=repaired.results, letters=repaired.letters,
            corrections=repaired.corrections, homography=homography, cell_px=CELL_PX, word_list=word_list,
            words_source=puzzle_words_source, list_on_page=word_list is not None and words_image is None,
            index=index, timings_ms=timings, dictionary=dictionary, min_length=min_length))
    return puzzles


def solve_file(path: str | Path, *, words: list[str] | None = None, words_source: str = "argument",
               words_image: str | Path | None = None, alphabet: str = DEFAULT_ALPHABET,
               engine=None, **hidden) -> tuple[np.ndarray, list[PuzzleResult]]:
    """Load an image file (EXIF orientation applied) and solve it: (the upright image, its puzzles).

    `hidden`: min_length and dictionary for a puzzle without a list (see solve_image)."""
    t0 = time.perf_counter()
    image = load_image(path)
    load_ms = _ms(t0)
    list_image = load_image(words_image) if words_image is not None else None
    puzzles = solve_image(image, source=str(path), words=words, words_source=words_source,
                          words_image=list_image, alphabet=alphabet, engine=engine, **hidden)
    for puzzle in puzzles:
        puzzle.timings_ms["load"] = load_ms
    return image, puzzles


def annotate(image: np.ndarray, puzzles: list[PuzzleResult]) -> np.ndarray:
    """Draw the answers on the original image (see scanner.annotate) and record the time in each puzzle."""
    t0 = time.perf_counter()
    out = draw_answers(image, puzzles)
    for puzzle in puzzles:
        puzzle.timings_ms["annotate"] = _ms(t0)
    return out


def solve_document(path: str | Path, *, page: int | None = None, words_image: str | Path | None = None,
                   **options) -> list[tuple[int | None, np.ndarray | None, list[PuzzleResult]]]:
    """Solve an image file, or every page of a PDF (only page `page`, 1-based, when given).

    Returns (page number or None for an image, the page's image, its puzzles) per page; a PDF page without a
    grid comes back as (page, None, []) unless it was asked for by number. `options`: as solve_image.
    Raises BadInputError for a page number the document does not have, NoGridError when no page holds a grid.
    """
    from scanner import pdf

    if not pdf.is_pdf(path):
        if page not in (None, 1):
            raise BadInputError(f"cannot read {path}: no page {page} (an image has one page)")
        image, puzzles = solve_file(path, words_image=words_image, **options)
        return [(None, image, puzzles)]
    count = pdf.page_count(path)
    if page is not None and not 1 <= page <= count:
        raise BadInputError(f"cannot read {path}: no page {page} (the PDF has {count})")
    list_image = load_image(words_image) if words_image is not None else None
    out = []
    for number in [page] if page is not None else range(1, count + 1):
        t0 = time.perf_counter()
        image = pdf.render_page(path, number)
        load_ms = _ms(t0)
        try:
            puzzles = solve_image(image, source=f"{path} page {number}", words_image=list_image, **options)
        except NoGridError:
            if page is not None or count == 1:
                raise
            out.append((number, None, []))
            continue
        for puzzle in puzzles:
            puzzle.timings_ms["load"] = load_ms
        out.append((number, image, puzzles))
    if not any(puzzles for _, _, puzzles in out):
        raise NoGridError(f"no letter grid found in {path} (on any of its {count} pages)")
    return out
