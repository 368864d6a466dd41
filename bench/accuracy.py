"""End-to-end accuracy of the scanner against ground truth: corpus images, samples/, and random synthetic cases.

Usage: .venv/bin/python bench/accuracy.py [--corpus DIR] [--synthetic N] [--seed S] [--no-corpus] [--no-samples]
                                          [--only SUBSTRING] [--engine tesserocr|pytesseract] [--verbose]
                                          [--conditions [N] [--turned]] [--rotated-corpus]
                                          [--corpus-conditions [dim,small]]

One line per image: grid shape right?, cells right n/N, words found at the right cells n/N, seconds (load to
solve, one run). Then a summary by `kind` and totals, against the targets (shape 100%, cells >= 99.5%,
words >= 99%). The word list given is the truth's list; items whose truth has `words: null` count cells only.
"Words at the right cells": the truth grid is solved with the same list and a word counts when our reported cells
equal one of its occurrences there. Words absent from the truth grid (misprints) are left out of the count, and
reporting one as found counts as a false hit. --verbose prints each wrong cell (row, col: truth -> read) and
each word missed or misplaced, to see whether errors come from detection, OCR or repair.

--conditions [N] (instead of the above) runs N generated cases (seeds 0..N-1, default 10; with --seed S: S..S+N-1,
e.g. unseen pages) of each hard condition of tools.synth.condition_case (with --turned, each page turned 90, 180 or
270 degrees with no EXIF tag: hard photos taken sideways) and prints one row per condition against the targets:
shape, cells and words at the right cells with the list given; with the list read from the image, listed words
recovered, spurious entries per image and words found at the right cells (nolist: placed words of 5+ letters
found with no list, and found words that are not placed); median process CPU seconds per image (list given). --rotated-corpus (instead of the above) turns every corpus word-search image 90, 180 and 270 degrees (EXIF
applied first, then the pixels turned, no tag) and compares each reading with the upright image's reading (same
grid? same words at the same cells?) and with truth. --corpus-conditions [dim,small] (instead of the above) puts
every corpus image into those conditions (tools.synth.in_condition: a night photo with its cells 18-36 px apart,
or a 640-800 px photo with cells 12-16 px apart) and prints a row per condition as --conditions does: real faces
and layouts that the letter models never learnt, where the generated conditions draw on the generator's faces.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scanner.engine import get_engine  # noqa: E402
from scanner.load import load_image  # noqa: E402
from scanner.pipeline import BoardResult, solve_image  # noqa: E402
from solver import solve  # noqa: E402
from solver.errors import NoGridError, WordSearchError  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
SAMPLES = ROOT / "samples"
UNREADABLE = "?"  # a truth cell nobody could read
TARGETS = {"shape": 100.0, "cells": 99.5, "words": 99.0}


@dataclass
class Score:
    name: str
    kind: str
    shape_ok: bool = False
    shape: str = "-"
    cells_ok: int = 0
    cells: int = 0
    words_ok: int = 0
    words: int = 0
    false_hits: int = 0
    corrected: int = 0
    seconds: float = 0.0
    cpu: float = 0.0  # process CPU seconds of the same run (fairer than wall time on a shared machine)
    error: str = ""
    details: list[str] = field(default_factory=list)
    causes: Counter = field(default_factory=Counter)  # words lost, by the stage that lost them
    letters: list[str] = field(default_factory=list)  # the grid as reported
    placed: dict = field(default_factory=dict)  # word -> reported cells, for the words found


def sidecar_items(folder: Path) -> list[tuple[str, dict, Path]]:
    """(name, truth, image path) for every word-search image with a `<image>.json` truth sidecar under folder."""
    items = []
    for sidecar in sorted(folder.rglob("*.json")):
        image = sidecar.with_suffix("")
        if not image.is_file():
            continue
        truth = json.loads(sidecar.read_text())
        if truth.get("puzzle", "wordsearch") == "wordsearch" and truth.get("grid"):
            items.append((str(image.relative_to(folder)), truth, image))
    return items


def score(name: str, kind: str, image, truth: dict, engine) -> Score:
    """Run the pipeline on one image (BGR array) and compare with its truth."""
    s = Score(name, kind)
    grid = [row.replace(" ", "").upper() for row in truth["grid"]]
    s.cells = sum(ch != UNREADABLE for row in grid for ch in row)
    words = truth.get("words")
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        puzzles = solve_image(image, source=name, words=list(words or []), engine=engine)
        if isinstance(puzzles[0], BoardResult):  # a word search taken for a board: none of its grid is read
            raise NoGridError(f"read as a {puzzles[0].rows}x{puzzles[0].cols} board")
    except WordSearchError as err:
        s.seconds, s.cpu = time.perf_counter() - t0, time.process_time() - c0
        s.error = str(err)
        s.words = len(truth_hits([row.replace(UNREADABLE, "Q") for row in grid], words or []))
        s.causes["detect"] = s.words
        return s
    s.seconds, s.cpu = time.perf_counter() - t0, time.process_time() - c0
    p = puzzles[0]
    s.shape = f"{p.rows}x{p.cols}"
    s.letters = ["".join(row).upper() for row in p.letters]
    s.placed = {r.word: [tuple(c) for c in r.cells] for r in p.results if r.found}
    s.shape_ok = (p.rows, p.cols) == (len(grid), len(grid[0]))
    if s.shape_ok:
        for r, (want, got) in enumerate(zip(grid, p.letters)):
            for c, (a, b) in enumerate(zip(want, got)):
                if a == b.upper():
                    s.cells_ok += 1
                elif a != UNREADABLE:
                    s.details.append(f"cell ({r},{c}): {a} -> {b}")
        # a cell the truth could not read counts as whatever we read there
        grid = ["".join(b if a == UNREADABLE else a for a, b in zip(want, got)) for want, got in zip(grid, p.letters)]
    else:
        grid = [row.replace(UNREADABLE, "Q") for row in grid]
    s.corrected = len(p.corrections)
    if words:
        hits = truth_hits(grid, words)
        s.words = len(hits)
        for res in p.results:
            cells = [tuple(c) for c in res.cells]
            if res.word not in hits:
                if res.found:
                    s.false_hits += 1
                    s.details.append(f"false hit {res.word} at {cells[0]}..{cells[-1]}")
                continue
            if res.found and (cells in hits[res.word] or cells[::-1] in hits[res.word]):
                s.words_ok += 1
            else:
                misread = min(sum(grid[r][c] != p.reading.letters[r][c] for r, c in occ) for occ in hits[res.word]) \
                    if s.shape_ok else None  # counted on the OCR's reading, before repair
                s.causes[cause(s.shape_ok, misread)] += 1
                fix = f" corrected {[(m.cell, m.read, m.needed) for m in res.mismatches]}" if res.mismatches else ""
                where = f"at {cells[0]}..{cells[-1]}{fix}" if res.found else "not found"
                s.details.append(f"word {res.word}: {where} ({cause(s.shape_ok, misread)})")
    return s


def cause(shape_ok: bool, misread: int | None) -> str:
    """Which stage lost a word: detection (shape), OCR (2+ of its cells misread), repair (1 misread), solve (0)."""
    if not shape_ok:
        return "detect"
    return {0: "solve", 1: "repair"}.get(misread, "ocr")


def truth_hits(grid: list[str], words: list[str]) -> dict[str, list[list[tuple[int, int]]]]:
    """For each listed word present in the truth grid, the cell lists of all its occurrences."""
    hits = {}
    for res in solve(grid, words) if words else []:
        if res.found:
            hits[res.word] = [[tuple(c) for c in occ.cells] for occ in res.occurrences]
    return hits


def pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:6.2f}%" if d else "     - "


def print_line(s: Score, verbose: bool) -> None:
    shape = "yes" if s.shape_ok else f"NO {s.shape}"
    words = f"{s.words_ok:3d}/{s.words:<3d}" if s.words else "  -    "
    extra = f" false hits {s.false_hits}" if s.false_hits else ""
    extra += f" corrected {s.corrected}" if s.corrected else ""
    extra += f"  ERROR {s.error}" if s.error else ""
    print(f"{s.name[:58]:58s} {s.kind:10s} {shape:10s} {s.cells_ok:4d}/{s.cells:<4d} {words} {s.seconds:6.2f}s{extra}",
          flush=True)
    if verbose:
        for d in s.details:
            print(f"    {d}")


def summary(scores: list[Score]) -> None:
    groups: dict[str, list[Score]] = defaultdict(list)
    for s in scores:
        groups[s.kind].append(s)
    corpus = [s for s in scores if s.kind not in ("sample", "syn-photo", "syn-page")]
    if corpus and len(corpus) < len(scores):
        groups["CORPUS"] = corpus
    groups["TOTAL"] = scores
    print(f"\n{'kind':12s} {'images':>6s} {'shape right':>12s} {'cells right':>12s} {'words right':>12s} "
          f"{'false hits':>10s} {'median s':>9s}")
    for kind, group in groups.items():
        n = len(group)
        times = sorted(s.seconds for s in group)
        print(f"{kind:12s} {n:6d} {pct(sum(s.shape_ok for s in group), n):>12s} "
              f"{pct(sum(s.cells_ok for s in group), sum(s.cells for s in group)):>12s} "
              f"{pct(sum(s.words_ok for s in group), sum(s.words for s in group)):>12s} "
              f"{sum(s.false_hits for s in group):10d} {times[n // 2]:9.2f}")
    lost = sum((s.causes for s in scores), Counter())
    print("words lost, by stage: " + ", ".join(f"{k} {lost[k]}" for k in ("detect", "ocr", "repair", "solve"))
          + "  (OCR misread 2+ of the word's cells / 1 cell, not repaired / none)")
    print(f"targets (corpus): shape {TARGETS['shape']:.0f}%, cells >= {TARGETS['cells']}%, "
          f"words >= {TARGETS['words']}%")


# The targets per condition: (cells %, words at the right cells %), list given; "=" means as upright.
CONDITION_TARGETS = {"rotated": ("=upright", "=upright"), "lowercase": (99.0, 98.0), "dim": (97.0, 95.0),
                     "small": (98.0, 97.0), "handwritten": (97.0, 95.0), "newsprint": (99.5, 99.0),
                     "tiny": ("-", "-"), "nolist": ("-", "-")}
HIDDEN_MIN_LETTERS = 5  # nolist: the placed words of this many letters or more must be found


@dataclass
class ListScore:
    """The list read from the image: listed words recovered, spurious entries, listed words found right."""
    listed: int = 0
    recovered: int = 0
    spurious: int = 0
    hits: int = 0
    found: int = 0


def list_read_score(name: str, image, truth: dict, engine) -> ListScore:
    """Solve with no list given. With a printed list: how much of it is read, and which words are then found at the
    right cells. Without one (nolist): the placed words of HIDDEN_MIN_LETTERS+ letters found at the right cells,
    and found words that were not placed (spurious)."""
    from scanner.wordlist import grid_key
    from wordlist_accuracy import found_right, measure

    if truth.get("list_in_image") == "yes":
        row = measure(name, truth.get("kind", "?"), image, truth, engine, given=False)
        return ListScore(row.listed, row.recovered, row.spurious, row.hits, row.found_read)
    grid = [r.replace(" ", "").upper() for r in truth["grid"]]
    long_words = [w for w in truth["words"] if len(grid_key(w)) >= HIDDEN_MIN_LETTERS]
    hits = truth_hits(grid, long_words)
    placed = {grid_key(w) for w in truth["words"]}
    try:
        puzzles = solve_image(image, source=name, words=None, engine=engine)
    except WordSearchError:
        return ListScore(hits=len(hits))
    false = sum(1 for r in puzzles[0].results if r.found and grid_key(r.word) not in placed)
    return ListScore(spurious=false, hits=len(hits), found=found_right(puzzles, hits))


def condition_line(name: str, cols: tuple[str, ...]) -> str:
    """One row of the conditions table: the list-given and list-read column groups set apart."""
    widths = (6, 8, 8, 8, 10, 9, 8, 7)
    return f"{name:12s} " + " ".join(f"{c:>{w}s}" + (" │" if i in (3, 6) else "")
                                     for i, (c, w) in enumerate(zip(cols, widths)))


def print_condition_table(rows: list[tuple[str, list[Score], list[ListScore]]]) -> None:
    """One row per condition (its scores with the list given, its list reads), each followed by its targets."""
    line = condition_line
    print()
    print(line("condition", ("images", "shape", "cells", "words", "recovered", "spurious", "found", "CPU s")))
    print(line("", ("", "", "list", "given", "list read", "from the", "image", "median")))
    for condition, scores, lists in rows:
        k = len(scores)
        listed, hits = sum(x.listed for x in lists), sum(x.hits for x in lists)
        print(line(condition, (
            str(k), pct(sum(s.shape_ok for s in scores), k).strip(),
            pct(sum(s.cells_ok for s in scores), sum(s.cells for s in scores)).strip(),
            pct(sum(s.words_ok for s in scores), sum(s.words for s in scores)).strip(),
            pct(sum(x.recovered for x in lists), listed).strip(),
            f"{sum(x.spurious for x in lists) / len(lists):.2f}" if lists else "-",
            pct(sum(x.found for x in lists), hits).strip() if lists else "-",
            f"{statistics.median(s.cpu for s in scores):.2f}")))
        if condition in CONDITION_TARGETS:
            cells, words = (f"≥{t:g}%" if isinstance(t, float) else t for t in CONDITION_TARGETS[condition])
            listed_cols = ("-", "≤1", "≥90%") if condition == "nolist" else ("≥95%", "≤1", "-")
            print(line("  target", ("", "100%", cells, words, *listed_cols, "")))


def run_conditions(n: int, engine, only: str | None, verbose: bool, first: int = 0, turned: bool = False) -> int:
    """N cases of each hard condition (seeds first..first+N-1): one row per condition, then its targets. ``turned``:
    each page (but the rotated condition's, turned already) turned 90, 180 or 270 degrees (by its seed)."""
    from tools.synth import CONDITIONS, condition_case, random_case, rotate_quarter

    print(f"{'image':58s} {'kind':10s} {'shape':10s} {'cells':>9s} {'words':>7s} {'seconds':>7s}")
    rows = []
    for condition in [c for c in CONDITIONS if not only or only in c]:
        scores, lists, upright = [], [], []  # rotated: the same pages before they were turned, the baseline
        for seed in range(first, first + n):
            image, truth = condition_case(condition, seed)
            if turned and condition != "rotated":
                image, truth = rotate_quarter(image, truth, 1 + seed % 3)
            scores.append(score(f"{condition} seed {seed}", condition, image, truth, engine))
            print_line(scores[-1], verbose)
            lists.append(list_read_score(f"{condition} seed {seed}", image, truth, engine))
            if verbose:
                got = lists[-1]
                print(f"    list read: {got.recovered}/{got.listed} recovered, {got.spurious} spurious, "
                      f"{got.found}/{got.hits} found at the right cells")
            if condition == "rotated":
                base, base_truth = random_case(truth["case"]["base"]["seed"])
                upright.append(score(f"upright seed {seed}", "upright", base, base_truth, engine))
        rows.append((condition, scores, lists))
        if upright:
            rows.append(("(upright)", upright, []))
    print_condition_table(rows)
    print(f"nolist: 'found' counts placed words of {HIDDEN_MIN_LETTERS}+ letters found with no list, 'spurious' "
          "found words that were not placed; (upright) is the rotated row's pages before they were turned")
    return 0


def run_rotated_corpus(folder: Path, engine, only: str | None, verbose: bool) -> int:
    """Every corpus word-search image read upright and turned 90, 180 and 270 degrees (pixels turned, no EXIF tag):
    the turned readings against truth and against the upright reading."""
    import cv2

    if not folder.is_dir():
        print(f"(corpus {folder} not present: skipped)")
        return 0
    turns = {0: None, 90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_COUNTERCLOCKWISE}
    by_turn: dict[int, list[Score]] = defaultdict(list)
    same_grid: Counter = Counter()
    same_words: Counter = Counter()  # counted over the images whose truth lists words
    listed: Counter = Counter()
    print(f"{'image':58s} {'turned':10s} {'shape':10s} {'cells':>9s} {'words':>7s} {'seconds':>7s} same as upright")
    for name, truth, path in sidecar_items(folder):
        if only and only not in name:
            continue
        upright = load_image(path)  # EXIF orientation applied
        for angle, code in turns.items():
            image = upright if code is None else cv2.rotate(upright, code)
            s = score(name, f"{angle} deg", image, truth, engine)
            by_turn[angle].append(s)
            base = by_turn[0][-1]
            same_grid[angle] += bool(s.letters) and s.letters == base.letters
            if truth.get("words"):
                listed[angle] += 1
                same_words[angle] += bool(s.letters) and s.placed == base.placed
            print_line(s, verbose)
            if angle:
                words = ("yes" if s.placed == base.placed else "NO") if truth.get("words") else "- (no list)"
                print(f"{'':58s} {'':10s} same grid {'yes' if s.letters == base.letters else 'NO'}, same words {words}")
    print(f"\n{'turned':8s} {'images':>6s} {'shape right':>12s} {'cells right':>12s} {'words right':>12s} "
          f"{'same grid':>10s} {'same words':>10s} {'CPU s':>6s}")
    for angle, group in by_turn.items():
        k = len(group)
        print(f"{angle:5d}°   {k:6d} {pct(sum(s.shape_ok for s in group), k):>12s} "
              f"{pct(sum(s.cells_ok for s in group), sum(s.cells for s in group)):>12s} "
              f"{pct(sum(s.words_ok for s in group), sum(s.words for s in group)):>12s} "
              f"{pct(same_grid[angle], k):>10s} {pct(same_words[angle], listed[angle]):>10s} "
              f"{statistics.median(s.cpu for s in group):6.2f}")
    print("target: every turned image reads the same grid and the same words as upright (0° is the baseline)")
    return 0


CORPUS_CONDITIONS = ("dim", "small")  # what a finished picture can be put into (tools.synth.in_condition)


def run_corpus_conditions(folder: Path, conditions: list[str], engine, only: str | None, verbose: bool) -> int:
    """Every corpus word-search image put into each of ``conditions`` (tools.synth.in_condition: the real
    faces and layouts of the corpus, which the letter models never learnt, at night or photographed small), read
    with the list given and, where the whole list is printed, with the list read from the image."""
    import zlib

    import numpy as np

    from scanner.detect import find_grids
    from tools.synth import in_condition

    if not folder.is_dir():
        print(f"(corpus {folder} not present: skipped)")
        return 0
    print(f"{'image':58s} {'kind':10s} {'shape':10s} {'cells':>9s} {'words':>7s} {'seconds':>7s}")
    scores: dict[str, list[Score]] = {condition: [] for condition in conditions}
    lists: dict[str, list[ListScore]] = {condition: [] for condition in conditions}
    for name, truth, path in sidecar_items(folder):
        if only and only not in name:
            continue
        upright = load_image(path)
        grid = find_grids(upright)[0]  # the picture's own pitch (every corpus grid is found at its true shape)
        c = np.asarray(grid.corners)
        pitch = float(np.mean([np.linalg.norm(c[1] - c[0]) / grid.cols, np.linalg.norm(c[3] - c[0]) / grid.rows]))
        for condition in conditions:
            rng = np.random.default_rng([zlib.crc32(name.encode()), zlib.crc32(condition.encode())])
            image, _ = in_condition(upright, condition, pitch, rng)
            scores[condition].append(score(f"{condition}: {name}", condition, image, truth, engine))
            print_line(scores[condition][-1], verbose)
            if truth.get("list_in_image") == "yes" and truth.get("words"):
                lists[condition].append(list_read_score(name, image, truth, engine))
    print_condition_table([(condition, scores[condition], lists[condition]) for condition in conditions])
    print("list read: the images whose whole list is printed")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--no-corpus", action="store_true")
    ap.add_argument("--no-samples", action="store_true")
    ap.add_argument("--synthetic", type=int, default=0, metavar="N", help="also run N random synthetic cases")
    ap.add_argument("--seed", type=int, default=None,
                    help="first seed of the synthetic cases (default 1000) or of the conditions' cases (default 0)")
    ap.add_argument("--only", default=None, help="only images (or conditions) whose name contains this")
    ap.add_argument("--engine", default="tesserocr", choices=["tesserocr", "pytesseract"])
    ap.add_argument("--conditions", type=int, nargs="?", const=10, default=0, metavar="N",
                    help="N generated cases of each hard condition (default 10), one row per condition")
    ap.add_argument("--turned", action="store_true",
                    help="with --conditions: each condition's pages turned 90, 180 or 270 deg (by seed), no EXIF tag")
    ap.add_argument("--rotated-corpus", action="store_true", help="every corpus image turned 90, 180 and 270 deg")
    ap.add_argument("--corpus-conditions", nargs="?", const=",".join(CORPUS_CONDITIONS), default=None,
                    metavar="dim,small", help="every corpus image at night and/or photographed small")
    ap.add_argument("--verbose", "-v", action="store_true")
    args = ap.parse_args()
    engine = get_engine(args.engine)
    if args.conditions:
        return run_conditions(args.conditions, engine, args.only, args.verbose, args.seed or 0, args.turned)
    if args.rotated_corpus:
        return run_rotated_corpus(args.corpus, engine, args.only, args.verbose)
    if args.corpus_conditions:
        conditions = args.corpus_conditions.split(",")
        if unknown := set(conditions) - set(CORPUS_CONDITIONS):
            ap.error(f"--corpus-conditions: no such condition {', '.join(sorted(unknown))}")
        return run_corpus_conditions(args.corpus, conditions, engine, args.only, args.verbose)

    sources = []
    if not args.no_corpus:
        if args.corpus.is_dir():
            sources.append(("corpus", args.corpus))
        else:
            print(f"(corpus {args.corpus} not present: skipped)")
    if not args.no_samples:
        sources.append(("samples", SAMPLES))

    print(f"{'image':58s} {'kind':10s} {'shape':10s} {'cells':>9s} {'words':>7s} {'seconds':>7s}")
    scores = []
    for label, folder in sources:
        for name, truth, path in sidecar_items(folder):
            if args.only and args.only not in name:
                continue
            kind = truth.get("kind", "sample") if label == "corpus" else "sample"
            try:
                image = load_image(path)
            except WordSearchError as err:
                scores.append(Score(name, kind, error=str(err)))
                print_line(scores[-1], args.verbose)
                continue
            scores.append(score(name, kind, image, truth, engine))
            print_line(scores[-1], args.verbose)
    if args.synthetic:
        from tools.synth import random_case

        first = 1000 if args.seed is None else args.seed
        for seed in range(first, first + args.synthetic):
            image, truth = random_case(seed)
            kind = "syn-photo" if "photo" in truth.get("case", {}) else "syn-page"
            scores.append(score(f"synthetic seed {seed}", kind, image, truth, engine))
            print_line(scores[-1], args.verbose)
    if scores:
        summary(scores)
    return 0


if __name__ == "__main__":
    sys.exit(main())
