"""The project's exceptions. Each class carries the process exit code the CLI returns for it.

Exit codes (also listed in the README and in ``wordsearch --help``):

====  ==========================================================
0     success
1     unexpected internal error (a bug: please report it)
2     bad command-line usage (click's own code)
3     bad input: missing, unreadable, corrupt, huge or non-image file; ragged or empty grid; bad word list file
4     no puzzle (no letter grid) found in the image
5     nothing to search for: empty word list, or no word list in a separate list picture
6     the OCR engine (Tesseract) is missing or unusable
7     output problem: would overwrite an input, or cannot write the output
8     batch: some inputs failed (the others were processed; see summary.csv)
====  ==========================================================
"""
from __future__ import annotations


class WordSearchError(Exception):
    """Base class: a user-facing error with a one-line message and an exit code."""

    exit_code = 1


class BadInputError(WordSearchError):
    """An input file, grid or word list cannot be used."""

    exit_code = 3


class NotAnImageError(BadInputError):
    """An input file is not an image (or PDF) of a type we read."""


class TooLargeError(BadInputError):
    """An input is over a size limit (bytes, or pixels: the decompression-bomb guard)."""


class GridFormatError(BadInputError):
    """A text grid is ragged, empty or holds characters that are not letters."""


class NoGridError(WordSearchError):
    """No letter grid was found in an image."""

    exit_code = 4


class NoWordsError(WordSearchError):
    """There is nothing to search for."""

    exit_code = 5


class EngineError(WordSearchError):
    """The OCR engine is missing, too old or failed to start."""

    exit_code = 6


class OutputError(WordSearchError):
    """An output cannot be written (or would overwrite an input)."""

    exit_code = 7


class PartialFailure(WordSearchError):
    """A batch finished, but some inputs failed."""

    exit_code = 8
