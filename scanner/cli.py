"""The ``wordsearch`` command line. A thin layer over the library: parse options, call, print, exit."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click
import numpy as np

from solver.cli import boggle_command, solve_text
from solver.errors import NoWordsError, PartialFailure, WordSearchError
from solver.files import check_not_input, read_word_file, split_words, write_bytes_atomic
from solver.hidden import DEFAULT_MIN_LENGTH

EXIT_CODES_HELP = """\b
Exit codes:
  0  success
  1  unexpected internal error (a bug)
  2  bad command-line usage
  3  bad input (missing/corrupt/non-image file, ragged grid, bad word list)
  4  no letter grid found in the image
  5  nothing to search for (empty word list, no list in a --words-image picture)
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
@click.option("--page", type=click.IntRange(min=1), help="Solve only this page of a PDF (1-based; default: every page).")
@click.option("--words", "words_text", metavar='"A,B,C"', help="The words to find, comma-separated.")
@click.option("--words-file", type=click.Path(path_type=Path), help="The words to find, one per line (or commas).")
@click.option("--words-image", type=click.Path(path_type=Path),
              help="A separate picture of the word list (e.g. printed on another page). With none of --words, "
                   "--words-file and --words-image, the list is read from IMAGE itself.")
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="Write the annotated image (.png .jpg ...; .pdf: one page per solved page). Several pages and an "
                   "image type: OUT-pN.png per page.")
@click.option("--json", "json_out", metavar="OUT.json|-", help="Write the result as JSON to a file, or - for stdout.")
@click.option("--engine", type=click.Choice(["tesserocr", "pytesseract"]), default="tesserocr", show_default=True,
              help="OCR engine: the in-process tesserocr wheel or the system tesseract via pytesseract.")
@click.option("--alphabet", default="ABCDEFGHIJKLMNOPQRSTUVWXYZ", show_default=True,
              help="The letters a grid cell may hold (e.g. add ÀÂÇÉÈÊËÎÏÔÙÛÜ for French).")
@click.option("--puzzle", type=click.Choice(["auto", "wordsearch", "boggle"]), default="auto", show_default=True,
              help="What the picture holds: a word search, a Boggle/Wordament/Ruzzle board, or guess.")
@click.option("--top", type=click.IntRange(min=0), default=10, show_default=True,
              help="Boards: how many of the best words to draw and list (the JSON has all).")
@click.option("--min-length", type=click.IntRange(min=2),
              help="The shortest dictionary word to report when no list is given or printed (default: 3 on a "
                   f"board, {DEFAULT_MIN_LENGTH} in a word search, where shorter ones turn up by chance).")
@click.option("--dictionary", type=click.Path(path_type=Path),
              help="No word list: look for the words of this file (one per line) instead of the shipped "
                   "dictionary.")
def solve_command(image: Path, page: int | None, words_text: str | None, words_file: Path | None,
                  words_image: Path | None, output: Path | None, json_out: str | None, engine: str, alphabet: str,
                  puzzle: str, top: int, min_length: int | None, dictionary: Path | None) -> None:
    """Solve the word search or the Boggle/Wordament board in IMAGE (photo, scan or screenshot) and mark the
    answers.

    Prints a short summary; -o writes the annotated image (same size and orientation as IMAGE, with a legend of
    the words not found), --json writes the grid, the word positions and the timings. IMAGE may be a PDF: every
    page is solved (or --page N). With no list given or printed, the dictionary words hidden in the grid are found.
    A board is solved against the dictionary (or --words), its best words drawn as paths.
    """
    from scanner.export import image_extension
    from scanner.pipeline import annotate, solve_document

    if sum(x is not None for x in (words_text, words_file, words_image)) > 1:
        raise click.UsageError("give only one of --words, --words-file and --words-image")
    inputs = [image] + [p for p in (words_file, words_image, dictionary) if p is not None]
    json_path = None if json_out in (None, "-") else Path(json_out)
    if output is not None:  # fail before any work: output over an input, unsupported image type
        check_not_input(output, inputs)
        if output.suffix.lower() != ".pdf":
            image_extension(output)
    if json_path is not None:
        check_not_input(json_path, inputs)
    words, words_source = chosen_words(words_text, words_file)

    pages = solve_document(image, page=page, words=words, words_source=words_source, words_image=words_image,
                           alphabet=alphabet, engine=engine, puzzle=puzzle, min_length=min_length,
                           dictionary=str(dictionary) if dictionary is not None else None)
    solved = [(number, picture, puzzles) for number, picture, puzzles in pages if puzzles]
    for _, _, puzzles in solved:
        for p in puzzles:
            p.top = top
    encoded = encode_pages([(n, annotate(pic, puzzles)) for n, pic, puzzles in solved], output, inputs) \
        if output is not None else {}
    docs = [({"page": n} if n is not None else {}) | p.to_json() for n, _, puzzles in solved for p in puzzles]
    payload = json.dumps(docs[0] if len(docs) == 1 else docs, indent=2, ensure_ascii=False) + "\n"

    for path, data in encoded.items():
        write_bytes_atomic(path, data, inputs=inputs)
    if json_out == "-":
        click.echo(payload, nl=False)
    elif json_path is not None:
        write_bytes_atomic(json_path, payload.encode("utf-8"), inputs=inputs)
    to_stderr = json_out == "-"
    for number, _, puzzles in pages:
        if not puzzles:
            click.echo(f"{image} page {number}: no letter grid found (skipped)", err=to_stderr)
        for line in solve_summary(puzzles):
            click.echo(line, err=to_stderr)
    for path in [*encoded, json_path]:
        if path is not None:
            click.echo(f"wrote {path}", err=to_stderr)


def encode_pages(pages: list[tuple[int | None, np.ndarray]], output: Path, inputs: list[Path]) -> dict[Path, bytes]:
    """The annotated pages encoded for -o: one file, a PDF with one page each (OUT.pdf), or OUT-pN.png per page
    (the batch mode's naming) when several pages go to an image type."""
    from scanner import pdf
    from scanner.export import encode_image

    if output.suffix.lower() == ".pdf":
        jpegs = [encode_image(picture, "page.jpg") for _, picture in pages]
        return {output: pdf.jpegs_to_pdf(jpegs, [(p.shape[1], p.shape[0]) for _, p in pages])}
    if len(pages) == 1:
        return {output: encode_image(pages[0][1], output)}
    out = {}
    for number, picture in pages:
        path = output.with_name(f"{output.stem}-p{number}{output.suffix}")
        check_not_input(path, inputs)
        out[path] = encode_image(picture, path)
    return out


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
        if p.hidden:
            lines.append(f"{name}: {p.rows}x{p.cols} grid, no word list found: {len(p.results)} dictionary words of "
                         f"{p.min_length}+ letters hidden in it, {len(p.low_confidence())} low-confidence cells")
            if p.results:
                lines.append("  " + ", ".join(r.word for r in p.results))
            continue
        lines.append(f"{name}: {p.rows}x{p.cols} grid, {found}/{len(p.results)} words found, "
                     f"{len(p.corrections)} cells corrected, {len(p.low_confidence())} low-confidence cells")
        if p.word_list is not None:
            fixed = sum(e.corrected for e in p.word_list.entries)
            lines.append(f"  word list read from the image: {len(p.word_list.entries)} entries"
                         + (f", {fixed} corrected against the grid" if fixed else ""))
            if p.word_list.hard_to_read:
                lines.append(f"  the list's print is {p.word_list.print_px:.0f} px tall and blurred over "
                             f"{p.word_list.blur_px:.0f} px: words may be missing; photograph the list closer, "
                             f"or give --words")
        for r in p.results:
            for m in r.mismatches:
                lines.append(f"  corrected {r.word}: cell ({m.cell[0]}, {m.cell[1]}) read {m.read}, "
                             f"needed {m.needed}")
        missing = [r.word for r in p.results if not r.found]
        if missing:
            lines.append("  not found: " + ", ".join(missing))
        if p.unused_letters is not None:
            lines.append(f"  unused letters: {p.unused_letters}")
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
