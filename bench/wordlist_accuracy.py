"""Accuracy of reading the word list from the picture, and what it costs the whole pipeline.

Usage: .venv/bin/python bench/wordlist_accuracy.py [--corpus DIR] [--no-corpus] [--synthetic N] [--seed S]
                                                   [--only SUBSTRING] [--verbose] [--conditions [N]]
                                                   [--condition-seed S] [--condition NAME]

Runs the real pipeline (detect, grid OCR, word-list reading, solve) twice per image: once with no word list (it is
read from the image, as `wordsearch solve IMAGE` does) and once with the truth's list given. One line per image:
  listed     words the truth lists (corpus: sidecar `list_in_image` "yes"; "partial" lists are shown apart)
  recovered  listed words among the entries read: the entry's word, or for an entry the grid corrected its read
             text, equals the listed word (case, spaces and hyphens ignored)
  spurious   entries that are not a listed word
  seconds    time spent reading the list (the pipeline's "words" timing, one run)
  recall     listed words present in the truth grid that the pipeline found at the right cells, with the list read
             from the image (ours) and with the list given (baseline)
--conditions [N] adds N cases (seeds S..S+N-1, S from --condition-seed, default 0; N default 5) of each hard
condition of tools.synth.condition_case that prints a list (turned, lower case, dim, small, hand-lettered,
newsprint, tiny), totalled per condition; --condition NAME (repeatable) keeps only the conditions named.
Totals follow, against the targets: recovered >= 95%, spurious <= 1 per image, recall within 3 points; for
generated pages, also apart for lists printed under SMALL_PRINT px tall in the picture and the rest (the median
height of the truth's word boxes): how much of a shortfall is print too small to make out; and apart for the lists
the scanner itself reports hard to read (WordList.hard_to_read) and the rest: how well that warning tells.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from accuracy import truth_hits  # noqa: E402
from tools import synth  # noqa: E402
from scanner.engine import get_engine  # noqa: E402
from scanner.load import load_image  # noqa: E402
from scanner.pipeline import solve_image  # noqa: E402
from scanner.wordlist import grid_key  # noqa: E402
from solver.errors import WordSearchError  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
SMALL_PRINT = 12.0  # px: a listed word's box (a line of the list) under this height, a night photo's list loses words


@dataclass
class Row:
    name: str
    kind: str
    listed: int = 0
    recovered: int = 0
    spurious: int = 0
    seconds: float = 0.0
    hits: int = 0  # listed words in the truth grid
    found_read: int = 0  # ... found at the right cells, list read from the image
    found_given: int = 0  # ... found at the right cells, list given
    print_px: float | None = None  # the median height of the truth's word boxes in the picture
    hard_to_read: bool = False  # the scanner said so of the list it read
    error: str = ""
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)


def found_right(puzzles, hits: dict[str, list]) -> int:
    """Listed words (keys of ``hits``) reported at one of their truth occurrences by the first puzzle (a word
    read from the image and corrected by the grid counts for the listed word it was read as)."""
    if not puzzles:
        return 0
    by_key = {grid_key(r.word): r for r in puzzles[0].results if r.found}
    entries = puzzles[0].word_list.entries if puzzles[0].word_list is not None else []
    alias = {grid_key(e.read): grid_key(e.word) for e in entries if e.corrected}
    n = 0
    for word, occurrences in hits.items():
        r = by_key.get(grid_key(word)) or by_key.get(alias.get(grid_key(word), ""))
        if r is not None:
            cells = [tuple(c) for c in r.cells]
            n += cells in occurrences or cells[::-1] in occurrences
    return n


def measure(name: str, kind: str, image, truth: dict, engine, given: bool = True) -> Row:
    """Read the list from the image and solve with it; also solve with the truth's list unless ``given`` is False."""
    row = Row(name, kind, print_px=print_height(truth))
    grid = [r.replace(" ", "").upper().replace("?", "Q") for r in truth["grid"]]
    listed = {grid_key(w): w for w in truth["words"]}
    row.listed = len(listed)
    hits = truth_hits(grid, list(listed.values()))
    row.hits = len(hits)
    try:
        if given:
            puzzles = solve_image(image, source=name, words=list(truth["words"]), engine=engine)
            row.found_given = found_right(puzzles, hits)
        puzzles = solve_image(image, source=name, words=None, engine=engine)
    except WordSearchError as err:
        row.error = str(err)
        row.missing = sorted(listed)
        return row
    p = puzzles[0]
    row.seconds = p.timings_ms.get("words", 0.0) / 1000
    if p.word_list is None:  # no list found: the puzzle was solved for the dictionary words hidden in it
        row.error = "no word list found"
        row.missing = sorted(listed)
        return row
    entries = p.word_list.entries
    row.hard_to_read = p.word_list.hard_to_read
    got = {grid_key(e.word) for e in entries} | {grid_key(e.read) for e in entries if e.corrected}
    row.recovered = len(set(listed) & got)
    row.missing = sorted(set(listed) - got)
    row.extra = [e.word for e in entries if grid_key(e.word) not in listed and grid_key(e.read) not in listed]
    row.spurious = len(row.extra)
    row.found_read = found_right(puzzles, hits)
    return row


def print_height(truth: dict) -> float | None:
    """The median height in the picture of the truth's listed word boxes (quads, top-left first, clockwise), or
    None where the truth has none (the corpus)."""
    quads = truth.get("word_boxes") or []
    if not quads:
        return None
    return statistics.median(math.dist(q[0], q[3]) for q in quads)


def pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:6.1f}%" if d else "     -"


def print_row(r: Row, verbose: bool) -> None:
    print(f"{r.name[:58]:58} {r.kind:10} {r.listed:6} {r.recovered:9} {r.spurious:8} {r.seconds:7.2f} "
          f"{pct(r.found_read, r.hits)} {pct(r.found_given, r.hits)}" + (f"  ERROR {r.error}" if r.error else ""))
    if verbose and (r.missing or r.extra):
        print(f"{'':60}missing {r.missing}  spurious {r.extra}")


def totals(title: str, rows: list[Row]) -> None:
    if not rows:
        return
    listed = sum(r.listed for r in rows)
    recovered = sum(r.recovered for r in rows)
    spurious = sum(r.spurious for r in rows)
    hits = sum(r.hits for r in rows)
    read, given = sum(r.found_read for r in rows), sum(r.found_given for r in rows)
    secs = [r.seconds for r in rows if not r.error]
    print(f"{title}: {len(rows)} images, listed {listed}, recovered {recovered} ({pct(recovered, listed).strip()}, "
          f"target >= 95%), spurious {spurious} ({spurious / len(rows):.2f}/image, target <= 1), "
          f"median {statistics.median(secs) if secs else 0:.2f} s to read a list")
    pad = " " * (len(title) + 2)
    sized = [r for r in rows if r.print_px is not None]
    if sized:
        small = f"under {SMALL_PRINT:.0f} px"
        print(f"{pad}by the list's print in the picture: " + split(
            sized, small, lambda r: r.print_px < SMALL_PRINT, f"{SMALL_PRINT:.0f} px and taller"))
    print(f"{pad}lists read: " + split([r for r in rows if not r.error], "reported hard to read",
                                       lambda r: r.hard_to_read, "not"))
    if hits:
        gap = 100.0 * (given - read) / hits
        print(f"{pad}pipeline recall: list read {pct(read, hits).strip()} (ours), list given "
              f"{pct(given, hits).strip()} (baseline), ratio {read / max(given, 1):.3f}, gap {gap:.1f} points "
              f"(target <= 3)")


def split(rows: list[Row], label: str, test, other: str) -> str:
    """The words recovered from the ``rows`` that pass ``test`` and from the rest, labelled."""
    parts = []
    for name, part in ((label, [r for r in rows if test(r)]), (other, [r for r in rows if not test(r)])):
        n, got = sum(r.listed for r in part), sum(r.recovered for r in part)
        parts.append(f"{name}: {len(part)} images, {got} of {n} ({pct(got, n).strip()}), "
                     f"{sum(r.spurious for r in part)} spurious")
    return "; ".join(parts)


def corpus_items(folder: Path, only: str | None) -> list[tuple[str, dict, Path]]:
    items = []
    for sidecar in sorted(folder.rglob("*.json")):
        image = sidecar.with_suffix("")
        truth = json.loads(sidecar.read_text())
        if (image.is_file() and truth.get("puzzle") == "wordsearch" and truth.get("words")
                and truth.get("list_in_image") in ("yes", "partial")):
            name = str(image.relative_to(folder))
            if only is None or only in name:
                items.append((name, truth, image))
    return items


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--no-corpus", action="store_true")
    ap.add_argument("--synthetic", type=int, default=12, help="random synthetic pages with a printed list")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--only", help="corpus images whose path contains this")
    ap.add_argument("--verbose", action="store_true", help="print the words missed and the spurious entries")
    ap.add_argument("--conditions", type=int, nargs="?", const=5, default=0, metavar="N",
                    help="also N cases of each hard condition that prints a list")
    ap.add_argument("--condition-seed", type=int, default=0, metavar="S", help="first seed of --conditions")
    ap.add_argument("--condition", action="append", choices=[c for c in synth.CONDITIONS if c != "nolist"],
                    help="only this condition (repeatable)")
    args = ap.parse_args()
    engine = get_engine()
    print(f"{'image':58} {'kind':10} {'listed':>6} {'recovered':>9} {'spurious':>8} {'seconds':>7} "
          f"{'recall(read)':>7} {'recall(given)':>7}")
    groups: dict[str, list[Row]] = {}
    if not args.no_corpus and args.corpus.is_dir():
        for name, truth, path in corpus_items(args.corpus, args.only):
            group = "corpus" if truth["list_in_image"] == "yes" else "corpus, list cut off (not in the target)"
            row = measure(name, truth.get("kind", "?"), load_image(path), truth, engine)
            groups.setdefault(group, []).append(row)
            print_row(row, args.verbose)
    elif not args.no_corpus:
        print(f"(corpus {args.corpus} not present: skipped)")
    seed, done = args.seed, 0
    while done < args.synthetic:
        image, truth = synth.random_case(seed)
        seed += 1
        if not truth.get("word_list_region"):
            continue
        done += 1
        kind = truth.get("kind", "rendered")
        row = measure(f"synthetic seed {seed - 1}", kind, image, truth, engine)
        groups.setdefault("synthetic", []).append(row)
        print_row(row, args.verbose)
    for condition in [c for c in synth.CONDITIONS if c != "nolist"] if args.conditions else []:
        if args.condition and condition not in args.condition:
            continue
        for seed in range(args.condition_seed, args.condition_seed + args.conditions):
            image, truth = synth.condition_case(condition, seed)
            row = measure(f"{condition} seed {seed}", condition, image, truth, engine)
            groups.setdefault(f"condition {condition}", []).append(row)
            print_row(row, args.verbose)
    print()
    for title, rows in groups.items():
        totals(title, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
