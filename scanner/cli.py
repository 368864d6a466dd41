"""The ``wordsearch`` command line. A thin layer over the library: parse options, call, print, exit."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from solver.cli import boggle_command, solve_text
from solver.errors import NoWordsError, PartialFailure, WordSearchError
from solver.files import check_not_input, read_word_file, split_words, write_bytes_atomic

EXIT_CODES_HELP = """\b
Exit codes:
  0  success
  1  unexpected internal error (a bug)
  2  bad command-line usage
  3  bad input (missing/corrupt/non-image file, ragged grid, bad word list)
  4  no letter grid found in the image
  5  nothing to search for (empty word list, no list found in the image)
  6  OCR engine (Tesseract) missing or unusable
  7  output cannot be written (or would overwrite an input)
  8  batch finished but some inputs failed
"""


@click.group(epilog=EXIT_CODES_HELP)
@click.version_option(package_name="wordsearch")
def cli() -> None:
    """Solve word-search puzzles and Boggle/Wordament boards from a picture or from text.

    Coordinates are 0-based (row, col) from the top-left of the grid.
    """


@cli.command("solve", epilog=EXIT_CODES_HELP)
@click.argument("image", type=click.Path(path_type=Path))
@click.option("--words", "words_text", metavar='"A,B,C"', help="The words to find, comma-separated.")
@click.option("--words-file", type=click.Path(path_type=Path), help="The words to find, one per line (or commas).")
@click.option("--words-image", type=click.Path(path_type=Path),
              help="A separate picture of the word list (e.g. printed on another page). With none of --words, "
                   "--words-file and --words-image, the list is read from IMAGE itself.")
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Write the annotated image (.png or .jpg).")
@click.option("--json", "json_out", metavar="OUT.json|-", help="Write the result as JSON to a file, or - for stdout.")
@click.option("--engine", type=click.Choice(["tesserocr", "pytesseract"]), default="tesserocr", show_default=True,
              help="OCR engine: the in-process tesserocr wheel or the system tesseract via pytesseract.")
@click.option("--alphabet", default="ABCDEFGHIJKLMNOPQRSTUVWXYZ", show_default=True,
              help="The letters a grid cell may hold (e.g. add ÀÂÇÉÈÊËÎÏÔÙÛÜ for French).")
@click.option("--puzzle", type=click.Choice(["auto", "wordsearch", "boggle"]), default="auto", show_default=True,
              help="What the picture holds: a word search, a Boggle/Wordament/Ruzzle board, or guess.")
@click.option("--top", type=click.IntRange(min=0), default=10, show_default=True,
              help="Boards: how many of the best words to draw and list (the JSON has all).")
@click.option("--min-length", type=click.IntRange(min=1), default=3, show_default=True,
              help="Boards: the shortest dictionary word to report.")
def solve_command(image: Path, words_text: str | None, words_file: Path | None, words_image: Path | None,
                  output: Path | None, json_out: str | None, engine: str, alphabet: str, puzzle: str, top: int,
                  min_length: int) -> None:
    """Solve the word search or the Boggle/Wordament board in IMAGE (photo, scan or screenshot) and mark the answers.

    A board is solved against the dictionary (or --words), its best words drawn as paths. Prints a short summary; -o writes the annotated image (same size and orientation as IMAGE, with a legend of
    the words not found), --json writes the grid, the word positions and the timings.
    """
    from scanner.export import encode_image, image_extension
    from scanner.pipeline import annotate, solve_file

    if sum(x is not None for x in (words_text, words_file, words_image)) > 1:
        raise click.UsageError("give only one of --words, --words-file and --words-image")
    inputs = [image] + [p for p in (words_file, words_image) if p is not None]
    json_path = None if json_out in (None, "-") else Path(json_out)
    if output is not None:  # fail before any work: output over an input, unsupported image type
        check_not_input(output, inputs)
        image_extension(output)
    if json_path is not None:
        check_not_input(json_path, inputs)
    words, words_source = chosen_words(words_text, words_file)

    picture, puzzles = solve_file(image, words=words, words_source=words_source, words_image=words_image,
                                  alphabet=alphabet, engine=engine, puzzle=puzzle, min_length=min_length)
    for p in puzzles:
        p.top = top
    encoded = encode_image(annotate(picture, puzzles), output) if output is not None else None
    docs = [p.to_json() for p in puzzles]
    payload = json.dumps(docs[0] if len(docs) == 1 else docs, indent=2, ensure_ascii=False) + "\n"

    if encoded is not None:
        write_bytes_atomic(output, encoded, inputs=inputs)
    if json_out == "-":
        click.echo(payload, nl=False)
    elif json_path is not None:
        write_bytes_atomic(json_path, payload.encode("utf-8"), inputs=inputs)
    to_stderr = json_out == "-"
    for line in solve_summary(puzzles):
        click.echo(line, err=to_stderr)
    for path in (output, json_path):
        if path is not None:
            click.echo(f"wrote {path}", err=to_stderr)


def chosen_words(words_text: str | None, words_file: Path | None) -> tuple[list[str] | None, str]:
    """The words to find and where they came from: --words-file, --words, or (neither) the image itself."""
    if words_file is not None:
        return read_word_file(words_file), "file"
    if words_text is not None:
        words = split_words(words_text)
        if not words:
            raise NoWordsError("nothing to search for: --words holds no words")
        return words, "argument"
    return None, "image"


def solve_summary(puzzles: list) -> list[str]:
    """Human summary lines: grid shape, found/total, corrected cells, words not found."""
    lines = []
    for p in puzzles:
        if p.puzzle_type == "boggle":
            lines.extend(board_summary(p))
            continue
        found = sum(r.found for r in p.results)
        name = p.source if len(puzzles) == 1 else f"{p.source} (puzzle {p.index + 1})"
        lines.append(f"{name}: {p.rows}x{p.cols} grid, {found}/{len(p.results)} words found, "
                     f"{len(p.corrections)} cells corrected, {len(p.low_confidence())} low-confidence cells")
        if p.word_list is not None:
            fixed = sum(e.corrected for e in p.word_list.entries)
            lines.append(f"  word list read from the image: {len(p.word_list.entries)} entries"
                         + (f", {fixed} corrected against the grid" if fixed else ""))
        for r in p.results:
            for m in r.mismatches:
                lines.append(f"  corrected {r.word}: cell ({m.cell[0]}, {m.cell[1]}) read {m.read}, "
                             f"needed {m.needed}")
        missing = [r.word for r in p.results if not r.found]
        if missing:
            lines.append("  not found: " + ", ".join(missing))
    return lines


def board_summary(p) -> list[str]:
    """Human summary of a board: its tiles (points in brackets), unsure tiles, and the best words with paths."""
    found = [r for r in p.results if r.found]
    lines = [f"{p.source}: {p.rows}x{p.cols} board, {len(found)} words found"
             + (f" of {len(p.results)} given" if p.words_source != "dictionary" else "")
             + f", {len(p.unsure)} unsure tiles"]
    for row, points in zip(p.reading.tiles, p.reading.points):
        lines.append("  " + " ".join(f"{tile or '?':>4}" + (f"[{pt}]" if pt is not None else "")
                                     for tile, pt in zip(row, points)))
    for u in p.unsure:
        needs = "; ".join(f"as {alt}: " + (", ".join(w[:6]) + (f" and {len(w) - 6} more" if len(w) > 6 else "")
                                           if w else "no new words") for alt, w in u["words_needing"].items())
        lines.append(f"  unsure tile ({u['cell'][0]}, {u['cell'][1]}) read {u['read'] or 'nothing'}"
                     + (f", could be {'/'.join(u['alternatives'])} ({needs})" if u["alternatives"] else ""))
    for k, r in enumerate(found[:p.top], 1):
        score = p.score(r)
        path = " ".join(f"({a},{b})" for a, b in r.path)
        lines.append(f"  {k:>2}. {r.word:<12}" + (f" {score:>4} pts" if score is not None else "") + f"  {path}")
    if len(found) > p.top:
        lines.append(f"  ... {len(found) - p.top} more in the JSON")
    missing = [r.word for r in p.results if not r.found]
    if missing:
        lines.append("  not found: " + ", ".join(missing))
    return lines


cli.add_command(solve_text)
cli.add_command(boggle_command)


@cli.command("batch", epilog=EXIT_CODES_HELP)
@click.argument("inputs", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("-o", "--outdir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder for the answer keys, summary.csv and answer-keys.pdf (created if needed).")
@click.option("--words", "words_text", metavar='"A,B,C"', help="Words to find on every page (default: each page's list).")
@click.option("--words-file", type=click.Path(path_type=Path), help="Words to find on every page, one per line.")
@click.option("--workers", type=click.IntRange(min=1), help="Worker processes (default: one per CPU).")
@click.option("--format", "fmt", type=click.Choice(["png", "jpg", "pdf"]), default="png", show_default=True,
              help="File type of the annotated pages.")
@click.option("--engine", type=click.Choice(["tesserocr", "pytesseract"]), default="tesserocr", show_default=True,
              help="OCR engine (see solve).")
@click.option("--alphabet", default="ABCDEFGHIJKLMNOPQRSTUVWXYZ", show_default=True,
              help="The letters a grid cell may hold.")
@click.option("--force", is_flag=True, help="Redo pages that an earlier run finished.")
@click.option("--json", "as_json", is_flag=True, help="Print the run summary as JSON on stdout.")
@click.option("--dask", "dask_address", metavar="ADDRESS",
              help="Run the pages on a Dask cluster (e.g. tcp://host:8786) instead of local processes.")
def batch_command(inputs: tuple[Path, ...], outdir: Path, words_text: str | None, words_file: Path | None,
                  workers: int | None, fmt: str, engine: str, alphabet: str, force: bool, as_json: bool,
                  dask_address: str | None) -> None:
    """Solve every puzzle in INPUT... (images; folders, searched recursively; PDFs, one page per puzzle sheet).

    Writes, per puzzle, the annotated page and its JSON (NAME[-pPAGE]-K.png/.json), then summary.csv and
    answer-keys.pdf. A bad file is recorded in summary.csv and the rest goes on (exit code 8 if any failed).
    A re-run skips the pages already done unless --force; Ctrl-C leaves no partial files.
    """
    from scanner.batch import run_batch

    if words_text is not None and words_file is not None:
        raise click.UsageError("give either --words or --words-file, not both")
    words, words_source = chosen_words(words_text, words_file)
    try:
        report = run_batch(inputs, outdir, words=words, words_source=words_source, fmt=fmt, engine=engine,
                           alphabet=alphabet, workers=workers, force=force, dask_address=dask_address,
                           progress=sys.stderr.isatty())
    except KeyboardInterrupt:
        click.echo(f"finished pages are kept in {outdir}; run the same command again to do the rest", err=True)
        raise
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        click.echo(report.counts_line())
    if report.failed:
        raise PartialFailure(f"{report.failed} of {report.pages} pages failed; see {report.summary_csv}")


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets other devices on your network (a phone) open the page.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="TCP port.")
@click.option("--workers", type=click.IntRange(min=1), help="OCR worker processes (default: one per CPU).")
@click.option("--max-upload-mb", type=click.FloatRange(min=0.1), default=25, show_default=True,
              help="Largest upload accepted, in megabytes.")
def serve_command(host: str, port: int, workers: int | None, max_upload_mb: float) -> None:
    """Serve the web app: open http://HOST:PORT/ on a phone or a desktop, photograph a puzzle, see the answers."""
    from scanner.serve import run

    run(host, port, workers, max_upload_mb)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; user errors become one line on stderr and their documented exit code."""
    try:
        cli.main(args=argv, prog_name="wordsearch", standalone_mode=False)
    except WordSearchError as err:
        click.echo(f"wordsearch: error: {err}", err=True)
        return err.exit_code
    except click.exceptions.Abort:
        click.echo("wordsearch: interrupted", err=True)
        return 130
    except click.ClickException as err:
        err.show()
        return err.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())
