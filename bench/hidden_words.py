"""Hidden words (puzzles without a list): words found and chance words per puzzle, by minimum length, and speed.

Generated puzzles: ``scanner.synth.random_puzzle`` (themed lists, all 8 directions, filler letters uniform, as the
generator makes them) and the same word lists filled with English letter frequencies; random grids: no words placed
at all, uniform or English letters. Sizes 10x10-25x25 (rows and columns drawn separately). A placed word of 5+
letters counts as found when a reported word lies exactly on its cells; every other reported occurrence is a
chance (false) word. Times are process CPU time per grid, medians, with the vocabulary's search table built.

    .venv/bin/python bench/hidden_words.py [--grids 100] [--seed 7]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scanner.synth import ALPHABET, letters_of, make_puzzle, random_puzzle  # noqa: E402
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grids", type=int, default=100, help="grids of each kind (default 100)")
    ap.add_argument("--seed", type=int, default=7)
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


if __name__ == "__main__":
    main()
