"""The ``wordsearch`` command line. A thin layer over the library: parse options, call, print, exit."""
from __future__ import annotations

import sys

import click

from solver.errors import WordSearchError

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
