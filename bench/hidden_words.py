"""Hidden words (puzzles without a list): words found and chance words per puzzle, by minimum length, and speed.

Generated puzzles: ``tools.synth.random_puzzle`` (themed lists, all 8 directions, filler letters uniform, as the
generator makes them) and the same word lists filled with English letter frequencies; random grids: no words placed
at all, uniform or English letters. Sizes 10x10-25x25 (rows and columns drawn separately). A placed word of 5+
letters counts as found when a reported word lies exactly on its cells; every other reported occurrence is a
chance (false) word. Times are process CPU time per grid, medians, with the vocabulary's search table built.

    .venv/bin/python bench/hidden_words.py [--grids 100] [--seed 7] [--pages 10]

--pages N also runs the whole image pipeline (detect, OCR, list reading, hidden words) on the first N
``random_case`` pages (seeds 1000 on) printed without a list, and scores them the same way.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tools.synth import ALPHABET, letters_of, make_puzzle, random_puzzle  # noqa: E402
from solver.dictionary import hidden_vocabulary  # noqa: E402
from solver.grid import DIRECTIONS  # noqa: E402
from solver.hidden import find_hidden  # noqa: E402

# Letters per 1000 in English text (the usual table), so filler letters look like English.
ENGLISH_PER_MILLE = dict(zip(ALPHABET, (82, 15, 28, 43, 127, 22, 20, 61, 70, 2, 8, 40, 24, 67, 75, 19, 1, 60, 63, 91,
                                        28, 10, 24, 2, 20, 1)))
ENGLISH = "".join(ch * max(1, round(n / 5)) for ch, n in ENGLISH_PER_MILLE.items())


def cases(n: int, seed: int) -> dict[str, list[tuple[list[str], list[frozenset]]]]:
    """n grids of each kind: (rows, the cell sets of placed words of 5+ letters)."""
    rng = np.random.default_rng(seed)
    out: dict[str, list] = {"puzzle": [], "puzzle, English fill": [], "random": [], "random, English": []}
    for _ in range(n):
        rows, cols = (int(v) for v in rng.integers(10, 26, 2))
        _, puzzle = random_puzzle(rng, rows, cols)
        for kind, p in (("puzzle", puzzle), ("puzzle, English fill",
                                              make_puzzle(rng, rows, cols, puzzle.words, alphabet=ENGLISH))):
            placed = [frozenset(pl.cells) for pl in p.placements if len(letters_of(pl.word)) >= 5]
            out[kind].append((p.grid, placed))
        for kind, letters in (("random", ALPHABET), ("random, English", ENGLISH)):
            out[kind].append((["".join(rng.choice(list(letters), cols)) for _ in range(rows)], []))
    return out


def score(rows: list[str], placed: list[frozenset], vocabulary, min_length: int) -> tuple[int, int, float]:
    """(placed words found, chance words, CPU seconds) for one grid."""
    t0 = time.process_time()
    found = find_hidden(rows, vocabulary, min_length=min_length)
    seconds = time.process_time() - t0
    cells = [frozenset(occ.cells) for res in found for occ in res.occurrences]
    return sum(p in cells for p in placed), sum(c not in placed for c in cells), seconds


def substrings_baseline(rows: list[str], words: set[str], min_length: int) -> int:
    """The plain way: every straight run of min_length+ letters looked up in a set (hits counted)."""
    n, m = len(rows), len(rows[0])
    hits = 0
    for dr, dc in DIRECTIONS.values():
        for r in range(n):
            for c in range(m):
                text, rr, cc = "", r, c
                while 0 <= rr < n and 0 <= cc < m:
                    text += rows[rr][cc]
                    if len(text) >= min_length and text in words:
                        hits += 1
                    rr, cc = rr + dr, cc + dc
    return hits


def pages(n: int) -> None:
    """End to end: random_case pages without a printed list, through scanner.pipeline.solve_image."""
    from scanner.pipeline import solve_image
    from tools.synth import random_case

    print()
    print("| seed | kind | list | placed 5+ found | chance words | seconds |")
    print("|---:|---|---|---:|---:|---:|")
    found = total = chance = done = 0
    seed = 1000
    while done < n:
        image, truth = random_case(seed)
        seed += 1
        if truth["case"]["page"]["word_list_layout"] != "none":
            continue
        placed = [frozenset(map(tuple, p["cells"])) for p in truth["placements"]
                  if len(letters_of(p["word"])) >= 5]
        t0 = time.perf_counter()
        puzzle = solve_image(image, source=str(seed - 1))[0]
        seconds = time.perf_counter() - t0
        cells = [frozenset(map(tuple, o.cells)) for r in puzzle.results for o in r.occurrences]
        hit, extra = sum(p in cells for p in placed), sum(c not in placed for c in cells)
        kind = "photo" if "photo" in truth["case"] else "scan" if "scan" in truth["case"] else "page"
        listed = "none found" if puzzle.hidden else "one read (wrongly)"
        print(f"| {seed - 1} | {kind} | {listed} | {hit}/{len(placed)} | {extra} | {seconds:.1f} |")
        found, total, chance, done = found + hit, total + len(placed), chance + extra, done + 1
    print(f"| all | | | {found}/{total} ({100 * found / total:.1f}%) | {chance / n:.2f} per page | |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grids", type=int, default=100, help="grids of each kind (default 100)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--pages", type=int, default=0, help="also run the image pipeline on N generated pages")
    args = ap.parse_args()
    vocabulary = hidden_vocabulary()
    data = cases(args.grids, args.seed)
    placed_total = sum(len(p) for _, p in data["puzzle"])
    print(f"vocabulary: {len(vocabulary):,} words; {args.grids} grids of each kind, 10x10-25x25; "
          f"{placed_total} placed words of 5+ letters in the generated puzzles")
    print()
    print("| min length | found (puzzles) | chance words / puzzle | found (English fill) | chance / puzzle "
          "(English fill) | chance / random grid | chance / random grid (English) | ms per grid |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for min_length in range(4, 9):
        line, times = [], []
        for kind, grids in data.items():
            got = [score(rows, placed, vocabulary, min_length) for rows, placed in grids]
            times += [t for *_, t in got]
            false = sum(f for _, f, _ in got) / len(got)
            if kind.startswith("puzzle"):
                total = sum(len(p) for _, p in grids)
                line.append(f"{100 * sum(h for h, _, _ in got) / total:.1f}%")
            line.append(f"{false:.2f}")
        print(f"| {min_length} | " + " | ".join(line) + f" | {1000 * statistics.median(times):.0f} |")

    print()
    print("Speed of one search, 8 directions, the whole vocabulary (medians of 5 grids, uniform letters):")
    print()
    print("| grid | ours: find_hidden | baseline: every substring in a set | ratio |")
    print("|---|---:|---:|---:|")
    rng = np.random.default_rng(args.seed)
    words = set(vocabulary)
    for size in (15, 40):
        ours, base = [], []
        for _ in range(5):
            rows = ["".join(rng.choice(list(ALPHABET), size)) for _ in range(size)]
            t0 = time.process_time()
            find_hidden(rows, vocabulary)
            ours.append(time.process_time() - t0)
            t0 = time.process_time()
            substrings_baseline(rows, words, 5)
            base.append(time.process_time() - t0)
        o, b = statistics.median(ours) * 1000, statistics.median(base) * 1000
        print(f"| {size}x{size} | {o:.0f} ms | {b:.0f} ms | {b / o:.1f}x |")
    if args.pages:
        pages(args.pages)


if __name__ == "__main__":
    main()
