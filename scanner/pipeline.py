"""The image pipeline as a library: load -> detect -> rectify + read -> (word list) -> solve + repair -> annotate.

`solve_image` returns one PuzzleResult per letter grid on the page (largest first); `PuzzleResult.to_json()` is
the JSON contract documented in the README ("The JSON contract", "word_list" included).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from scanner.annotate import annotate as draw_answers
from scanner import board as boards
from scanner.detect import GridLocation, find_grids, moved, quarter_turn, rectify, shared_area, turned
from scanner.engine import get_engine
from scanner.load import load_image
from scanner.ocr import DEFAULT_ALPHABET, GridReading, read_grid
from scanner.orient import orientation, print_axis
from scanner.repair import Repaired, solve_and_repair
from scanner.wordlist import UNSURE_BELOW, read_word_list
from solver.boggle import boggle
from solver.dictionary import hidden_vocabulary
from solver.errors import BadInputError, GridFormatError, NoGridError, NoWordsError
from solver.hidden import DEFAULT_MIN_LENGTH, find_hidden, unused_letters

LIST_SECONDS = (4.0, 2.0)
"""Tesseract's time for the word list: at least the first, or the second times what the grid took. A clean
list reads in about a second; a page of fabric or noise read as text could take 10-20 s for nothing."""
BUSY = 3.0
"""When the machine is busy (the grid took longer on the clock than in CPU time), the list's least time is
stretched by as much, up to this many times: a loaded server reads the same list as an idle one (a night
page's list of 20 lost its last lines to the clock with two other jobs running), and stays bounded."""
BOARD_MIN_LENGTH = 3
"""Shortest dictionary word reported on a board (word searches: solver.hidden.DEFAULT_MIN_LENGTH)."""
SAME_GRID = 0.5
"""A grid found again on a page turned upright is the one found before if they share more than this share of the
larger one's area."""
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

    puzzle_type = "wordsearch"

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
    edited: frozenset = frozenset()  # (row, col) cells a user corrected (see resolve): certain, never repaired
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
            "puzzle_type": "wordsearch",
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
                           ("load", "detect", "orient", "ocr", "words", "solve", "annotate")},
        }
        out["word_list"] = word_list_json(self.words_source, self.word_list, [r.word for r in self.results])
        if self.edited:
            out["grid"]["edited"] = [_rc(cell) for cell in sorted(self.edited)]
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
    """The JSON's "word_list": where the words came from, each entry as read and as used, and for a list read from
    the image, its region and its print (see wordlist.WordList.hard_to_read)."""
    if word_list is None:  # given, or no list
        return {"source": source, "entries": [{"read": w, "word": w, "corrected": False} for w in words],
                "region": None}
    return word_list.to_dict()


def _cut_upright(image: np.ndarray, loc: GridLocation, turns: int,
                 upright_grids: dict[int, list[GridLocation]]) -> tuple[GridLocation, np.ndarray, np.ndarray]:
    """The grid ``loc`` (its corners named in reading order, see detect.turned) of a page that ``turns`` quarter
    turns bring upright, cut from the page turned upright: (its location in the page's own pixels, the rectified
    grid, the homography from the page's pixels to it).

    The grid is found again on the upright page (``upright_grids`` keeps each turn's grids for the page's other
    grids) and cut from there: detection measures letters by their height, and a corner a fraction of a pixel off
    changes how some fonts read, so this way a turned photo reads exactly like the upright one. The grid found
    upright is the one that shares most of its area with ``loc`` (over SAME_GRID), whatever its shape: found
    sideways, a blurred line of instructions beside a night photo's grid passed for one more column of it.
    """
    page = np.ascontiguousarray(np.rot90(image, turns))
    to_page = quarter_turn(image.shape, turns)
    if turns not in upright_grids:
        upright_grids[turns] = find_grids(page)
    wanted = moved(loc, to_page)
    found = max(upright_grids[turns], key=lambda grid: shared_area(grid, wanted), default=wanted)
    if found is not wanted and shared_area(found, wanted) <= SAME_GRID:
        found = wanted
    rectified, homography = rectify(page, found, cell_px=CELL_PX)
    on_pixels = np.array([[1.0, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])  # pixel i: at i for OpenCV, i + 0.5 for to_page
    return moved(found, np.linalg.inv(to_page)), rectified, \
        homography @ np.linalg.inv(on_pixels) @ to_page @ on_pixels


def solve_image(image: np.ndarray, *, source: str, words: list[str] | None = None, words_source: str = "argument",
                words_image: np.ndarray | None = None, alphabet: str = DEFAULT_ALPHABET,
                engine=None, puzzle: str = "auto", min_length: int | None = None,
                dictionary: str | None = None, progress: Callable[[str], None] | None = None) -> list[PuzzleResult]:
    """Find, read and solve every letter grid in a BGR image (largest first), or the Boggle/Wordament board.

    `words`: the word list ([] reads the grid only); None reads the list from the page (or from `words_image`, a
    separate picture of the list); on a board, None finds every `dictionary` word of `min_length` letters or more.
    When no list is found on a word search's page (or none of what was read is in the grid: instructions, a
    caption), the grid's dictionary words of `min_length`+ letters are found instead (`dictionary`: a word file;
    None: the shipped one) and the puzzle's words_source is "none". `min_length` None: 3 on a board, 5 in a word
    search (where shorter words turn up by chance in the random letters).
    `engine`: an Engine from scanner.engine.get_engine, an engine name, or None for the default.
    `puzzle`: "auto" (a board when the picture holds one), "wordsearch" or "boggle".
    `progress`: called with the stage about to run ("detect", "ocr", "words", "solve"), e.g. to show it to a user.
    Raises NoGridError when the image holds no letter grid (no board, with puzzle="boggle").
    """
    if engine is None or isinstance(engine, str):
        engine = get_engine(engine or "tesserocr")
    report = progress or (lambda stage: None)
    report("detect")
    t0 = time.perf_counter()
    if puzzle != "wordsearch":
        board = boards.find_board(image)
        if board is not None and puzzle == "auto" and boards.in_a_grid(board, image):
            board = None
        if board is not None:
            result = solve_board(image, board, source=source, words=words, words_source=words_source,
                                 engine=engine, min_length=min_length or BOARD_MIN_LENGTH, dictionary=dictionary,
                                 t0=t0)
            read = sum(bool(tile) for row in result.letters for tile in row)
            if puzzle == "boggle" or read >= result.rows * result.cols / 2:  # else: squares without letters
                return [result]
        if puzzle == "boggle":
            raise NoGridError(f"no Boggle/Wordament board found in {source}: no square lattice of 4x4 to 6x6 tiles")
    locations = find_grids(image)
    if not locations:
        raise NoGridError(f"no letter grid found in {source}")
    detect_ms = _ms(t0)
    min_length = min_length or DEFAULT_MIN_LENGTH

    puzzles, upright_grids = [], {}
    for index, loc in enumerate(locations):
        timings = {"detect": detect_ms}
        t0 = time.perf_counter()
        rectified, homography = rectify(image, loc, cell_px=CELL_PX)
        timings["detect"] = round(detect_ms + _ms(t0), 1)
        report("ocr")
        t0 = time.perf_counter()
        printed = orientation(rectified, loc.rows, loc.cols, CELL_PX, engine, alphabet,
                              axis=lambda: print_axis(image, loc.corners, loc.rows, loc.cols))
        if printed.turns:
            loc, rectified, homography = _cut_upright(image, turned(loc, printed.turns), printed.turns, upright_grids)
        timings["orient"] = _ms(t0)
        t0, cpu = time.perf_counter(), time.process_time()
        reading = read_grid(rectified, loc.rows, loc.cols, cell_px=CELL_PX, alphabet=alphabet, engine=engine,
                            lower=printed.lower)
        timings["ocr"] = _ms(t0)
        busy = min(BUSY, max(1.0, timings["ocr"] / 1000 / max(time.process_time() - cpu, 1e-3)))

        word_list, puzzle_words, puzzle_words_source = None, words, words_source
        if words is None:
            report("words")
            t0 = time.perf_counter()
            rows_read = ["".join(row) for row in reading.letters]
            seconds = max(LIST_SECONDS[0] * busy, LIST_SECONDS[1] * timings["ocr"] / 1000)
            if words_image is not None:  # a separate picture of the list: all of it is the list
                word_list = read_word_list(words_image, None, rows_read, source=source, engine=engine,
                                           seconds=seconds)
            else:
                others = [other for j, other in enumerate(locations) if j != index]
                try:
                    word_list = read_word_list(image, loc, rows_read, source=source, engine=engine,
                                               other_grids=others, seconds=seconds,
                                               unsure=reading.unsure(UNSURE_BELOW),
                                               alternatives=reading.unsure(1.0), busy=busy)
                except NoWordsError:
                    puzzle_words_source = "none"
            timings["words"] = _ms(t0)
            if word_list is not None:
                puzzle_words, puzzle_words_source = word_list.words, "image"

        report("solve")
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


@dataclass
class BoardResult(PuzzleResult):
    """A Boggle/Wordament/Ruzzle board: `reading` is a scanner.board.BoardReading, `results` PathResults (found
    words best first), `letters` the tiles; words are scored by the Wordament rule when tile points were read."""

    unsure: list = field(default_factory=list)  # scanner.board.unsure_tiles
    top: int = 10  # words drawn on the annotated picture
    puzzle_type = "boggle"

    def low_confidence(self, threshold: float = boards.UNSURE) -> list[tuple[int, int]]:
        return self.reading.unsure(threshold)

    def score(self, result) -> int | None:
        return boards.word_score(result.word, result.path, self.reading.points) if result.found else None

    def to_json(self) -> dict:
        """The JSON contract for a board: grid.tiles (board notation), points, and each word's path and score."""
        reading = self.reading
        words = [res.to_dict() | {"points": self.score(res)} for res in self.results]
        return {
            "source": self.source,
            "puzzle": self.index,
            "puzzle_type": "boggle",
            "grid": {
                "rows": self.rows,
                "cols": self.cols,
                "tiles": [list(row) for row in reading.tiles],
                "letters": [" ".join(tile or "?" for tile in row) for row in reading.tiles],
                "points": reading.points,
                "confidence": np.round(np.asarray(reading.confidence, float), 3).tolist(),
                "turns": reading.turns,
                "corners": np.round(np.asarray(self.location.corners, float), 1).tolist(),
                "low_confidence": [_rc(cell) for cell in self.low_confidence()],
                "unsure": self.unsure,
            },
            "scoring": "wordament" if all(p is not None for row in reading.points for p in row) else "length",
            "words": words,
            "timings_ms": {stage: self.timings_ms.get(stage) for stage in
                           ("load", "detect", "ocr", "words", "solve", "annotate")},
            "word_list": word_list_json(self.words_source, None, [] if self.words_source == "dictionary" else
                                        [r.word for r in self.results]),
        }


def solve_board(image: np.ndarray, loc, *, source: str, words: list[str] | None, words_source: str, engine,
                min_length: int = BOARD_MIN_LENGTH, dictionary: str | None = None, t0: float | None = None) -> BoardResult:
    """Read the board at `loc` (from scanner.board.find_board) and solve it in path mode."""
    timings = {"detect": _ms(t0) if t0 is not None else None}
    t0 = time.perf_counter()
    reading, homography = boards.read_board(image, loc, engine)
    timings["ocr"] = _ms(t0)
    t0 = time.perf_counter()

    def solve(tiles):
        return boggle(tiles, words, dictionary=dictionary, min_length=min_length)

    results = boards.ranked(solve(boards.solvable(reading.tiles)), reading.points)
    unsure = boards.unsure_tiles(reading, {r.word for r in results if r.found}, solve)
    timings["solve"] = _ms(t0)
    return BoardResult(source=source, location=loc, reading=reading, results=results, letters=reading.tiles,
                       corrections=[], homography=homography, cell_px=reading.cell_px,
                       words_source="dictionary" if words is None else words_source, timings_ms=timings,
                       unsure=unsure)


def solve_file(path: str | Path, *, words: list[str] | None = None, words_source: str = "argument",
               words_image: str | Path | None = None, alphabet: str = DEFAULT_ALPHABET,
               engine=None, **options) -> tuple[np.ndarray, list[PuzzleResult]]:
    """Load an image file (EXIF orientation applied) and solve it: (the upright image, its puzzles)."""
    t0 = time.perf_counter()
    image = load_image(path)
    load_ms = _ms(t0)
    list_image = load_image(words_image) if words_image is not None else None
    puzzles = solve_image(image, source=str(path), words=words, words_source=words_source,
                          words_image=list_image, alphabet=alphabet, engine=engine, **options)
    for puzzle in puzzles:
        puzzle.timings_ms["load"] = load_ms
    return image, puzzles


def annotate(image: np.ndarray, puzzles: list[PuzzleResult], *, only: str | None = None) -> np.ndarray:
    """Draw the answers (or `only` that word's) on the original image (see scanner.annotate) and record the time
    in each puzzle."""
    t0 = time.perf_counter()
    out = draw_answers(image, puzzles, only=only)
    for puzzle in puzzles:
        puzzle.timings_ms["annotate"] = _ms(t0)
    return out


def resolve(puzzle: PuzzleResult, *, letters=None, words: list[str] | None = None) -> PuzzleResult:
    """Solve a puzzle again after a person corrected its letters and/or its word list, without reading the image.

    `letters`: the whole grid as it should read (rows as strings or lists of letters); each cell that differs from
    `puzzle.letters` is a correction, taken as certain (confidence 1, never repaired away), and stays so in later
    calls. `words`: the new word list (None keeps it). Location, homography and the OCR's reading of the other
    cells are kept, so `annotate` draws the new answers on the original image. Raises GridFormatError for a grid
    of the wrong shape or a cell that is not one letter.
    """
    t0 = time.perf_counter()
    read = [list(row) for row in puzzle.reading.letters]
    confidence = np.array(puzzle.reading.confidence, dtype=float)
    alternatives = [[dict(cell) for cell in row] for row in puzzle.reading.alternatives]
    edited = set(puzzle.edited)
    if letters is not None:
        grid = [list(row) for row in letters]
        if len(grid) != puzzle.rows or any(len(row) != puzzle.cols for row in grid):
            raise GridFormatError(f"the grid must stay {puzzle.rows}x{puzzle.cols}")
        for r, row in enumerate(grid):
            for c, letter in enumerate(row):
                letter = str(letter).upper()
                if letter == puzzle.letters[r][c]:
                    continue
                if len(letter) != 1 or not letter.isalpha():
                    raise GridFormatError(f"cell ({r}, {c}) must be one letter, not {letter!r}")
                read[r][c], confidence[r, c], alternatives[r][c] = letter, 1.0, {letter: 1.0}
                edited.add((r, c))
    changes = {}
    if words is not None:
        changes = {"word_list": None, "words_source": "argument", "list_on_page": False}
    else:
        words = [res.word for res in puzzle.results]
    repaired = solve_and_repair(read, words, confidence, alternatives, keep=edited)
    timings = dict(puzzle.timings_ms, solve=_ms(t0), annotate=None)
    return replace(puzzle, reading=GridReading(read, confidence, alternatives), results=repaired.results,
                   letters=repaired.letters, corrections=repaired.corrections, edited=frozenset(edited),
                   timings_ms=timings, **changes)


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
