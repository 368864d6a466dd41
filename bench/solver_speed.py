"""Solver speed: ours vs the classic recursive trie solver (bench/baseline_trie.py), side by side in one run.

Cases (random A-Z grids from a fixed seed; words from the shipped dictionary with a fixed seed):
  * 1000x1000 grid, the 7 words python, code, algorithm, dfs, bfs, loop, recursion   (target >= 50x)
  * 1000x1000 grid, 10,000 dictionary words of 3+ letters                              (target >= 25x)
  * Boggle 4x4 boards rolled from the classic 16 dice, shipped dictionary: time per board (target <= 0.5 ms)
    and the time to prepare the dictionary (load the cached trie; target <= 150 ms), plus the cold build.
  * Boggle path search, 4x4 to 100x100 boards of random letters, English letter frequencies (target >= 3x) and
    uniform letters: every dictionary word of 3+ letters, ours (find_paths: each word with its first path and
    its number of paths) vs the classic recursive solver (bench/baseline_boggle.py: 26-way trie, visited matrix,
    one call per tile), both with the dictionary prepared once; per board, and the two must find the same words.
Times are medians of several runs of process CPU time (time.process_time: the machine is shared, and CPU time
is what a busy neighbour does not inflate); peak memory is tracemalloc's peak for one run of ours.
Every baseline answer (first occurrence of each word) is checked to be among ours.

    .venv/bin/python bench/solver_speed.py [--quick] [--boggle]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import baseline_boggle  # noqa: E402
from baseline_trie import find_words  # noqa: E402

from solver import solve  # noqa: E402
from solver.boggle import find_paths  # noqa: E402
from solver.dictionary import load_dictionary, shipped_words  # noqa: E402
from solver.trie import Trie  # noqa: E402

SEVEN = ["python", "code", "algorithm", "dfs", "bfs", "loop", "recursion"]
DICE = ("AAEEGN ABBJOO ACHOPS AFFKPS AOOTTW CIMOTU DEILRX DELRVY "
        "DISTTY EEGHNW EEINSU EHRTVW EIOSST ELRTTY HIMNQU HLNRZU").split()


def median_time(fn, runs: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(runs):
        t = time.process_time()
        out = fn()
        times.append(time.process_time() - t)
    return statistics.median(times), out


def peak_mb(fn) -> float:
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def grid_case(name: str, rows: list[str], words: list[str], runs: int, base_runs: int) -> list[str]:
    board = [list(row.lower()) for row in rows]
    ours, results = median_time(lambda: solve(rows, words), runs)
    base, answers = median_time(lambda: find_words(board, [w.lower() for w in words]), base_runs)
    by_word = {r.word.lower(): {(o.start, o.end) for o in r.occurrences} for r in results}
    assert all(tuple(ends) in by_word[w] for w, ends in answers.items()), "baseline found what we missed"
    found = sum(r.found for r in results)
    return [name, f"{ours * 1000:.1f} ms", f"{base * 1000:.0f} ms", f"{base / ours:.0f}x",
            f"{found}/{len(words)} words, {sum(len(r.occurrences) for r in results)} occurrences; "
            f"peak {peak_mb(lambda: solve(rows, words)):.0f} MB"]


def boggle_boards(n: int, rng: random.Random) -> list[list[list[str]]]:
    boards = []
    for _ in range(n):
        dice = rng.sample(DICE, len(DICE))
        letters = ["QU" if ch == "Q" else ch for ch in (rng.choice(d) for d in dice)]
        boards.append([letters[i:i + 4] for i in range(0, 16, 4)])
    return boards


def boggle_case(label: str, trie: Trie, boards, runs: int) -> list[str]:
    per_board, _ = median_time(lambda: [find_paths(b, trie, 3) for b in boards], runs)
    per_board /= len(boards)
    words = statistics.mean(len(find_paths(b, trie, 3)) for b in boards)
    return [label, f"{per_board * 1000:.3f} ms/board", "-", "-", f"{words:.0f} words of 3+ letters per board, "
            f"{len(boards)} boards from the 16 classic dice"]


# relative letter frequencies of English text (per cent)
ENGLISH = {"E": 12.7, "T": 9.1, "A": 8.2, "O": 7.5, "I": 7.0, "N": 6.7, "S": 6.3, "H": 6.1, "R": 6.0, "D": 4.3,
           "L": 4.0, "C": 2.8, "U": 2.8, "M": 2.4, "W": 2.4, "F": 2.2, "G": 2.0, "Y": 2.0, "P": 1.9, "B": 1.5,
           "V": 1.0, "K": 0.8, "J": 0.15, "X": 0.15, "Q": 0.1, "Z": 0.07}
SIZES = (4, 5, 10, 25, 50, 100)


def path_search_case(size: int, english: bool, trie: Trie, base_root, runs: int) -> list[str]:
    """Ours vs the recursive baseline on random boards of one size; runs alternate so load hits both alike."""
    rng = random.Random(size * 2 + english)
    weights = list(ENGLISH.values()) if english else None
    count = max(1, 1600 // size ** 2)
    boards = [["".join(rng.choices(list(ENGLISH), weights, k=size)) for _ in range(size)] for _ in range(count)]
    tiles = [[list(row) for row in board] for board in boards]
    lower = [[row.lower() for row in board] for board in boards]
    ours, base = [], []
    for _ in range(runs):
        ours.append(median_time(lambda: [find_paths(t, trie, 3) for t in tiles], 1)[0] / count)
        base.append(median_time(lambda: [baseline_boggle.solve(base_root, b) for b in lower], 1)[0] / count)
    found = [find_paths(t, trie, 3) for t in tiles]
    assert all(set(f) == {w.upper() for w in baseline_boggle.solve(base_root, b)} for f, b in zip(found, lower))
    ours_ms, base_ms = statistics.median(ours) * 1000, statistics.median(base) * 1000
    words = statistics.mean(map(len, found))
    return [f"Boggle {size}x{size}, {'English' if english else 'uniform'} letters", f"{ours_ms:.3f} ms",
            f"{base_ms:.3f} ms", f"{base_ms / ours_ms:.1f}x",
            f"per board, {count} board{'s' * (count > 1)}; {words:.0f} words, same as the baseline's"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (about a minute less)")
    parser.add_argument("--boggle", action="store_true", help="only the Boggle rows")
    args = parser.parse_args()
    runs, base_runs = (3, 1) if args.quick else (9, 3)
    dictionary = shipped_words()
    table = []
    if not args.boggle:
        rng = np.random.default_rng(2024)
        rows = ["".join(map(chr, r)) for r in rng.integers(ord("A"), ord("Z") + 1, size=(1000, 1000))]
        ten_k = random.Random(7).sample([w for w in dictionary if len(w) >= 3], 10_000)
        table += [grid_case("1000x1000, 7 words", rows, SEVEN, runs, base_runs),
                  grid_case("1000x1000, 10,000 words", rows, ten_k, max(3, runs // 3), base_runs)]

    load_dictionary()  # make sure the on-disk cache exists

    def prepare():
        load_dictionary.cache_clear()
        return load_dictionary()

    warm, trie = median_time(prepare, runs)
    cold, _ = median_time(lambda: Trie.build(dictionary), 1 if args.quick else 3)
    boards = boggle_boards(200, random.Random(11))
    table.append(boggle_case(f"Boggle 4x4, {len(dictionary):,}-word dictionary", trie, boards, runs))
    table.append([f"Boggle dictionary prepare ({len(trie.mask):,} trie nodes)", f"{warm * 1000:.0f} ms", "-", "-",
                  f"from the cache; cold build {cold * 1000:.0f} ms"])
    base_root = baseline_boggle.build(dictionary)
    for english in (True, False):
        for size in SIZES:
            table.append(path_search_case(size, english, trie, base_root, base_runs if size >= 50 else runs))

    head = ["case", "ours", "baseline", "ratio", "notes"]
    widths = [max(len(str(r[i])) for r in table + [head]) for i in range(len(head))]
    for row in [head, ["-" * w for w in widths]] + table:
        print("| " + " | ".join(str(c).ljust(w) for c, w in zip(row, widths)) + " |")


if __name__ == "__main__":
    main()
