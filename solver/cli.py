"""``wordsearch solve-text`` and ``wordsearch boggle``: the text-only commands (registered in scanner/cli.py)."""
from __future__ import annotations

import sys

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from solver.boggle import boggle, parse_board
from solver.errors import GridFormatError, NoWordsError
from solver.files import json_text, read_text_file, read_word_file, split_words, write_json_atomic
from solver.grid import PHRASES, parse_grid
from solver.search import solve

COORDS = "Coordinates are 0-based (row, col) from the top-left cell of the grid."
EPILOG = f"""{COORDS}

\b
Exit codes: 0 success, 2 bad usage, 3 bad input (unreadable or binary file, ragged/empty grid,
non-letters in the grid), 5 empty word list, 7 output cannot be written."""


def read_puzzle(path: str) -> tuple[list[list[str]], list[str]]:
    """Grid tiles and the word list (possibly empty) of a puzzle text file: rows, a blank line, then words."""
    lines = read_text_file(path).splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    blank = next((i for i, line in enumerate(lines) if not line.strip()), len(lines))
    try:
        tiles = parse_grid(lines[:blank])
    except GridFormatError as err:
        raise GridFormatError(f"{path}: {err}") from None
    words = split_words("\n".join(lines[blank:]))
    return tiles, words


def write_json(target: str, obj: dict, inputs: list[str]) -> None:
    """JSON to stdout ('-') or atomically to a file that is not one of the inputs."""
    if target == "-":
        sys.stdout.write(json_text(obj))
    else:
        write_json_atomic(target, obj, inputs=inputs)


def render_grid(tiles: list[list[str]], highlighted: set[tuple[int, int]]) -> Text:
    """The grid with the found cells in bold colour and the others dimmed."""
    width = max(len(t) for row in tiles for t in row)
    text = Text()
    for r, row in enumerate(tiles):
        for c, tile in enumerate(row):
            text.append(tile.ljust(width) + " ", style="bold green" if (r, c) in highlighted else "dim")
        text.append("\n")
    return text


@click.command("solve-text", epilog=EPILOG)
@click.argument("puzzle", type=click.Path(dir_okay=False))
@click.option("--words", help="Comma-separated words to find (instead of the list in the file).")
@click.option("--words-file", type=click.Path(dir_okay=False), help="Text file of words, one per line.")
@click.option("--json", "json_out", metavar="FILE|-", help="Write the results as JSON to FILE, or to stdout with -.")
@click.option("--directions", help="Allowed directions, e.g. E,S,SE,NE (N NE E SE S SW W NW); default all 8.")
@click.option("--wrap", is_flag=True, help="Words may wrap around the grid's edges.")
@click.option("--max-mismatches", type=click.IntRange(0), default=0, show_default=True,
              help="Also report words found with up to K wrong cells (when no exact occurrence exists).")
def solve_text(puzzle, words, words_file, json_out, directions, wrap, max_mismatches):
    """Find words in a letter grid given as text.

    PUZZLE is a text file: the grid rows (letters with or without spaces; multi-letter tiles space-separated),
    optionally followed by a blank line and the words (one per line or comma-separated).
    """
    if words and words_file:
        raise click.UsageError("give --words or --words-file, not both")
    tiles, listed = read_puzzle(puzzle)
    wanted = split_words(words) if words is not None else read_word_file(words_file) if words_file else listed
    if not wanted:
        raise NoWordsError(f"no words to find in {puzzle}; give them with --words or --words-file")
    results = solve(tiles, wanted, directions=directions, wrap=wrap, max_mismatches=max_mismatches)
    if json_out:
        write_json(json_out, {"grid": [" ".join(row) for row in tiles], "rows": len(tiles), "cols": len(tiles[0]),
                              "coordinates": "0-based [row, col] from the top-left",
                              "results": [r.to_dict() for r in results]},
                   [p for p in (puzzle, words_file) if p])
        if json_out == "-":
            return
    console = Console(highlight=False)
    console.print(render_grid(tiles, {cell for r in results for cell in r.cells}))
    table = Table("word", "start (row, col)", "end", "direction", "note")
    for r in results:
        if not r.found:
            table.add_row(r.word, "-", "-", "-", "not found", style="red")
            continue
        note = [f"{len(r.occurrences)} occurrences"] if len(r.occurrences) > 1 else []
        note += [f"{m.cell} reads {m.read}, needs {m.needed}" for m in r.mismatches]
        table.add_row(r.word, str(r.start), str(r.end), f"{r.direction} ({PHRASES[r.direction]})", "; ".join(note))
    console.print(table)
    console.print(f"{sum(r.found for r in results)} of {len(results)} words found. {COORDS}")


@click.command("boggle", epilog=EPILOG)
@click.argument("board")
@click.option("--dictionary", type=click.Path(dir_okay=False),
              help="Word list file (one word per line); default: the shipped English dictionary.")
@click.option("--min-length", type=click.IntRange(1), default=3, show_default=True, help="Shortest word to list.")
@click.option("--words", help="Comma-separated words to look for instead of listing the dictionary's words.")
@click.option("--json", "json_out", metavar="FILE|-", help="Write the results as JSON to FILE, or to stdout with -.")
def boggle_command(board, dictionary, min_length, words, json_out):
    """Find words on a Boggle/Wordament board: paths through touching cells, each cell used once.

    BOARD is the rows separated by spaces ("ABCD EFGH IJKL MNOP"), with multi-letter and special tiles in
    brackets ("[QU]", "[VE]", prefix "[SUB-]", suffix "[-ER]", either/or "[U/M]"); or rows separated by commas
    with space-separated tiles ("QU A B C, D E F G, ...").
    """
    tiles = parse_board(board)
    results = boggle(tiles, split_words(words) if words is not None else None, dictionary=dictionary,
                     min_length=min_length)
    if json_out:
        write_json(json_out, {"board": [" ".join(row) for row in tiles],
                              "coordinates": "0-based [row, col] from the top-left",
                              "results": [r.to_dict() for r in results]}, [p for p in (dictionary,) if p])
        if json_out == "-":
            return
    console = Console(highlight=False)
    console.print(render_grid(tiles, {cell for r in results for cell in r.path}))
    table = Table("word", "letters", "path (row, col)", "paths")
    for r in results:
        table.add_row(r.word, str(len(r.word)) if r.found else "-",
                      " ".join(f"{a},{b}" for a, b in r.path) or "not found", str(r.paths),
                      style=None if r.found else "red")
    console.print(table)
    console.print(f"{sum(r.found for r in results)} words. {COORDS}")
