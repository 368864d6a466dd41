"""The word lists for Boggle discovery: the shipped English dictionary, or a user's file; prepared once, cached.

Shipped dictionary: the common words of the ``web2`` list (Webster's Second New International Dictionary, 1934,
public domain; FreeBSD's ``share/dict/web2``), i.e. its lower-case entries (web2 capitalises proper nouns) of 2+
letters a-z that are also headwords of GCIDE (the GNU Collaborative International Dictionary of English, GPL-3.0+),
which drops most of web2's archaic and technical rarities: about 85,000 words. Both lists come from the PyPI package
``english-words`` (MIT licence), read at run time; nothing is copied into this repository.
Prepared tries are pickled under ``$XDG_CACHE_HOME/wordsearch`` (default ``~/.cache/wordsearch``) and kept in memory.
"""
from __future__ import annotations

import hashlib
import os
import pickle
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path

from solver.errors import NoWordsError, OutputError
from solver.files import read_word_file, write_bytes_atomic
from solver.grid import normalize_word
from solver.trie import Trie

FORMAT = 1  # bump when the cached trie layout changes


def cache_dir() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "wordsearch"


def shipped_words() -> list[str]:
    """The shipped English dictionary, upper case."""
    from english_words import get_english_words_set

    common = get_english_words_set(["gcide"], alpha=True, lower=True)
    words = get_english_words_set(["web2"], alpha=True)
    return sorted(w.upper() for w in words if w.islower() and w.isascii() and len(w) >= 2 and w in common)


@lru_cache(maxsize=4)
def load_dictionary(path: str | None = None) -> Trie:
    """The prepared trie of the shipped dictionary (``path=None``) or of a word file; cached on disk and in memory."""
    if path is None:
        words, key = None, f"web2-gcide-{version('english-words')}"
    else:
        words = sorted({k for k in (normalize_word(w) for w in read_word_file(path)) if k.isalpha()})
        if not words:
            raise NoWordsError(f"{path} holds no words made of letters")
        key = "file-" + hashlib.sha1("\n".join(words).encode()).hexdigest()[:16]
    cached = cache_dir() / f"{key}-v{FORMAT}.pickle"
    try:
        with open(cached, "rb") as f:
            return pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError):
        pass
    if words is None:
        words = shipped_words()
    trie = Trie.build(words)
    _write_atomic(cached, pickle.dumps(trie, protocol=pickle.HIGHEST_PROTOCOL))
    return trie


def _write_atomic(path: Path, data: bytes) -> None:
    """Best effort: a cache that cannot be written only costs time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_bytes_atomic(path, data)
    except (OSError, OutputError):
        pass
