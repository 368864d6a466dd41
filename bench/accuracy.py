"""End-to-end accuracy of the scanner against ground truth: corpus images, samples/, and random synthetic cases.

Usage: .venv/bin/python bench/accuracy.py [--corpus DIR] [--synthetic N] [--seed S] [--no-corpus] [--no-samples]
                                          [--only SUBSTRING] [--engine tesserocr|pytesseract] [--verbose]

One line per image: grid shape right?, cells right n/N, words found at the right cells n/N, seconds (load to
solve, one run). Then a summary by `kind` and totals, against the targets (shape 100%, cells >= 99.5%,
words >= 99%). The word list given is the truth's list; items whose truth has `words: null` count cells only.
"Words at the right cells": the truth grid is solved with the same list and a word counts when our reported cells
equal one of its occurrences there. Words absent from the truth grid (misprints) are left out of the count, and
reporting one as found counts as a false hit. Known transcription errors of the corpus truth, checked by eye, are
corrected from bench/corpus_errata.json (--no-errata scores against the sidecars as shipped). --verbose prints each wrong cell (row, col: truth -> read) and
each word missed or misplaced, to see whether errors come from detection, OCR or repair.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scanner.engine import get_engine  # noqa: E402
from scanner.load import load_image  # noqa: E402
from scanner.pipeline import solve_image  # noqa: E402
from solver import solve  # noqa: E402
from solver.errors import WordSearchError  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
ERRATA = Path(__file__).with_name("corpus_errata.json")
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
    error: str = ""
    details: list[str] = field(default_factory=list)
    causes: Counter = field(default_factory=Counter)  # words lost, by the stage that lost them


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


def with_errata(name: str, truth: dict, errata: dict) -> tuple[dict, int]:
    """The truth with the rows listed for ``name`` in the errata replaced, and how many cells that changed."""
    rows = errata.get(name, {}).get("rows", {})
    if not rows:
        return truth, 0
    grid = list(truth["grid"])
    changed = 0
    for r, row in rows.items():
        changed += sum(a != b for a, b in zip(grid[int(r)], row))
        grid[int(r)] = row
    return truth | {"grid": grid}, changed


def score(name: str, kind: str, image, truth: dict, engine) -> Score:
    """Run the pipeline on one image (BGR array) and compare with its truth."""
    s = Score(name, kind)
    grid = [row.replace(" ", "").upper() for row in truth["grid"]]
    s.cells = sum(ch != UNREADABLE for row in grid for ch in row)
    words = truth.get("words")
    t0 = time.perf_counter()
    try:
        puzzles = solve_image(image, source=name, words=list(words or []), engine=engine)
    except WordSearchError as err:
        s.seconds = time.perf_counter() - t0
        s.error = str(err)
        s.words = len(truth_hits([row.replace(UNREADABLE, "Q") for row in grid], words or []))
        s.causes["detect"] = s.words
        return s
    s.seconds = time.perf_counter() - t0
    p = puzzles[0]
    s.shape = f"{p.rows}x{p.cols}"
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--no-corpus", action="store_true")
    ap.add_argument("--no-samples", action="store_true")
    ap.add_argument("--synthetic", type=int, default=0, metavar="N", help="also run N random synthetic cases")
    ap.add_argument("--seed", type=int, default=1000, help="first seed of the synthetic cases")
    ap.add_argument("--only", default=None, help="only images whose name contains this")
    ap.add_argument("--engine", default="tesserocr", choices=["tesserocr", "pytesseract"])
    ap.add_argument("--no-errata", action="store_true", help="score against the corpus sidecars as shipped")
    ap.add_argument("--verbose", "-v", action="store_true")
    args = ap.parse_args()
    engine = get_engine(args.engine)

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
    errata = {} if args.no_errata else json.loads(ERRATA.read_text())
    fixed = []
    for label, folder in sources:
        for name, truth, path in sidecar_items(folder):
            if args.only and args.only not in name:
                continue
            kind = truth.get("kind", "sample") if label == "corpus" else "sample"
            if label == "corpus":
                truth, changed = with_errata(name, truth, errata)
                if changed:
                    fixed.append(f"{changed} in {name}")
            try:
                image = load_image(path)
            except WordSearchError as err:
                scores.append(Score(name, kind, error=str(err)))
                print_line(scores[-1], args.verbose)
                continue
            scores.append(score(name, kind, image, truth, engine))
            print_line(scores[-1], args.verbose)
    if args.synthetic:
        from scanner.synth import random_case

        for seed in range(args.seed, args.seed + args.synthetic):
            image, truth = random_case(seed)
            kind = "syn-photo" if "photo" in truth.get("case", {}) else "syn-page"
            scores.append(score(f"synthetic seed {seed}", kind, image, truth, engine))
            print_line(scores[-1], args.verbose)
    if scores:
        summary(scores)
    if fixed:
        print(f"truth errata applied ({ERRATA.name}; --no-errata for the sidecars as shipped): cells "
              + "; ".join(fixed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
