"""Which way up: how often orientation finds the turn that brings a grid upright, and what it costs.

Usage: .venv/bin/python bench/orientation.py [--corpus DIR] [--no-corpus] [--seeds 300-303] [--verbose]

Every corpus word search and one generated page per hard condition and seed (tools.synth.condition_case:
lowercase, handwritten, dim, small, newsprint, tiny) is turned 0, 90, 180 and 270 degrees with np.rot90 (no EXIF
tag), its grid found and rectified, and the turn is decided three ways: by Tesseract alone (the cleaned letters
read in each turn), by the grey-level classifier alone (its mean certainty in each turn) and by the rule the
scanner uses (orient.orientation: Tesseract, and the classifier where no turn reads surely and it clearly leads,
turned along the lines of the page's print round the grid where they run across its turn: orient.print_axis).
Prints the wrong turns of each per kind of page, how often print_axis alone has a say and how often it is wrong
(the print runs along the grid's rows upright or upside down, along its columns sideways), and the CPU time
orientation adds to reading the grid on the upright pages (median ms of orient.orientation against
ocr.read_grid on the same rectified grid, and their ratio).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scanner import orient  # noqa: E402
from tools import synth  # noqa: E402
from scanner.detect import find_grids, rectify  # noqa: E402
from scanner.engine import get_engine  # noqa: E402
from scanner.load import load_image  # noqa: E402
from scanner.ocr import DEFAULT_ALPHABET, read_grid  # noqa: E402

CELL = 64
HARD = ("lowercase", "handwritten", "dim", "small", "newsprint", "tiny")


def pages(corpus: Path | None, seeds: range):
    """(kind, name, image) of every page measured."""
    if corpus is not None:
        for sidecar in sorted(corpus.rglob("*.json")):
            image = sidecar.with_suffix("")
            if json.loads(sidecar.read_text()).get("puzzle") == "wordsearch" and image.exists():
                yield "corpus", str(image.relative_to(corpus)), load_image(image)
    for condition in HARD:
        for seed in seeds:
            yield condition, f"{condition} seed {seed}", synth.condition_case(condition, seed)[0]


def cpu_ms(fn):
    t0 = time.process_time()
    out = fn()
    return out, (time.process_time() - t0) * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--no-corpus", action="store_true")
    ap.add_argument("--seeds", default="300-303", help="first-last seed of the generated pages (default 300-303)")
    ap.add_argument("--verbose", "-v", action="store_true", help="print every wrong turn")
    args = ap.parse_args()
    first, last = (int(x) for x in args.seeds.split("-"))
    corpus = None if args.no_corpus or not args.corpus.is_dir() else args.corpus
    engine = get_engine()

    cases, said, wrong = defaultdict(int), defaultdict(int), defaultdict(lambda: defaultdict(int))
    orient_ms, read_ms = [], []
    for kind, name, picture in pages(corpus, range(first, last + 1)):
        for turns in range(4):
            page = np.ascontiguousarray(np.rot90(picture, turns))
            grids = find_grids(page)
            if not grids:
                print(f"{name} turned {90 * turns}: no grid found")
                continue
            loc = grids[0]
            rectified, _ = rectify(page, loc, cell_px=CELL)
            want = (4 - turns) % 4
            found, ms = cpu_ms(lambda: orient.orientation(
                rectified, loc.rows, loc.cols, CELL, engine, DEFAULT_ALPHABET,
                axis=lambda: orient.print_axis(page, loc.corners, loc.rows, loc.cols)))

            def band(count: int) -> orient.Band:
                return orient.middle_band(rectified, loc.rows, loc.cols, CELL, count)

            tesseract, readings, letters = orient._tesseract_turn(rectified, loc.rows, loc.cols, CELL, engine,
                                                                  DEFAULT_ALPHABET, band)
            model = "lower" if orient._lower(readings, letters) else "capitals"
            scores = orient.classifier_turns(band(3 * orient.SAMPLE), CELL, model)
            classifier = max(scores, key=scores.get) if scores else 0
            cases[kind] += 1
            along = orient.print_axis(page, loc.corners, loc.rows, loc.cols)
            if along is not None:
                said[kind] += 1
                if along != turns % 2:
                    wrong[kind]["print"] += 1
                    if args.verbose:
                        print(f"{name} turned {90 * turns}: the print said it runs along axis {along}")
            for judge, turn in (("tesseract", tesseract), ("classifier", classifier), ("scanner", found.turns)):
                if turn != want:
                    wrong[kind][judge] += 1
                    if args.verbose:
                        print(f"{name} turned {90 * turns}: {judge} chose {turn}, not {want}")
            if turns == 0:
                orient_ms.append(ms)
                read_ms.append(cpu_ms(lambda: read_grid(rectified, loc.rows, loc.cols, cell_px=CELL,
                                                        engine=engine, lower=found.lower))[1])

    print(f"\n{'pages':12s} {'cases':>6s} {'Tesseract alone':>16s} {'classifier alone':>17s} {'scanner':>8s} "
          f"{'print: said':>12s} {'wrong':>6s}")
    print("             (wrong turns)")
    for kind in cases:
        print(f"{kind:12s} {cases[kind]:6d} {wrong[kind]['tesseract']:16d} {wrong[kind]['classifier']:17d} "
              f"{wrong[kind]['scanner']:8d} {said[kind]:12d} {wrong[kind]['print']:6d}")
    total = {judge: sum(w[judge] for w in wrong.values())
             for judge in ("tesseract", "classifier", "scanner", "print")}
    print(f"{'TOTAL':12s} {sum(cases.values()):6d} {total['tesseract']:16d} {total['classifier']:17d} "
          f"{total['scanner']:8d} {sum(said.values()):12d} {total['print']:6d}")
    if orient_ms:
        o, r = statistics.median(orient_ms), statistics.median(read_ms)
        print(f"\nupright pages, median CPU ms: orientation {o:.0f}, reading the grid {r:.0f}, "
              f"orientation / reading {o / r:.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
