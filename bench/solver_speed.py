"""Solver speed: ours vs the classic recursive trie solver (bench/baseline_trie.py), side by side in one run.

Cases (random A-Z grids from a fixed seed; words from the shipped dictionary with a fixed seed):
  * 1000x1000 grid, the 7 words python, code, algorithm, dfs, bfs, loop, recursion   (target >= 50x)
  * 1000x1000 grid, 10,000 dictionary words of 3+ letters                              (target >= 25x)
  * Boggle 4x4 boards rolled from the classic 16 dice, shipped dictionary: time per board (target <= 0.5 ms)
    and the time to prepare the dictionary (load the cached trie; target <= 150 ms), plus the cold build.
Times are medians of several runs of process CPU time (time.process_time: the machine is shared, and CPU time
is what a busy neighbour does not inflate); peak memory is tracemalloc's peak for one run of ours.
Every baseline answer (first occurrence of each word) is checked to be among ours.

    .venv/bin/python bench/solver_speed.py [--quick]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (about a minute less)")
    args = parser.parse_args()
    runs, base_runs = (3, 1) if args.quick else (9, 3)
    rng = np.random.default_rng(2024)
    rows = ["".join(map(chr, r)) for r in rng.integers(ord("A"), ord("Z") + 1, size=(1000, 1000))]
    dictionary = shipped_words()
    ten_k = random.Random(7).sample([w for w in dictionary if len(w) >= 3], 10_000)

    table = [grid_case("1000x1000, 7 words", rows, SEVEN, runs, base_runs),
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

    head = ["case", "ours", "baseline", "ratio", "notes"]
    widths = [max(len(str(r[i])) for r in table + [head]) for i in range(len(head))]
    for row in [head, ["-" * w for w in widths]] + table:
        print("| " + " | ".join(str(c).ljust(w) for c, w in zip(row, widths)) + " |")


if __name__ == "__main__":
    main()
