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
from collections.abc import Callable
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path

from solver.errors import NoWordsError, OutputError
from solver.files import read_word_file, write_bytes_atomic
from solver.grid import normalize_word
from solver.trie import Trie

FORMAT = 1  # bump when the cached trie layout changes
RULES = 3  # bump when the rules that build the vocabularies change: their cached files are rebuilt


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


HIDDEN_MIN_ZIPF = {5: 3.0, 6: 2.5}
"""Hidden words this short must be at least this common (Zipf frequency: 3 = once per million words), and words
added from wordfreq at least ``HIDDEN_EXTRA_ZIPF``: short rare words are what random letters spell by chance
(bench/hidden_words.py)."""
HIDDEN_EXTRA_ZIPF = 3.0
HIDDEN_LONG = (8, 2.5)
"""Words of 8+ letters that wordfreq rates at least Zipf 2.5 are added whatever web2 says (SEAHORSE, BACKPACK):
random letters almost never spell a word that long."""
HIDDEN_RARE = 2.0
"""A word wordfreq rates under Zipf 2 that is another of the words, of 5+ letters, with a letter more at its start
or end (BALLADE, NEBULAR, BROCKET) is left out: in a puzzle it is mostly that word (a placed BALLAD, NEBULA,
ROCKET) beside a chance letter, and as the longer hit it hid it. So are words wordfreq has never seen (ABACIST,
SCAPPLE round a placed APPLE): about 36,000 of web2's."""
INFLECTIONS = ("S", "ES", "ED", "D")
"""Plural and past endings (PLATED, ECLIPSED: a stem ending in E takes D)."""
_ENDINGS = INFLECTIONS + ("ING",)


def _takes(stem: str, end: str) -> bool:
    """Whether ``stem`` may take the ending ``end``: a D only after an E (PLATED of PLATE; WIND is no form of WIN)."""
    return end != "D" or stem.endswith("E")


def inflected(word: str, stem: str) -> bool:
    """Whether ``word`` is ``stem`` with a plural or past ending (BALLADS of BALLAD, PLATED of PLATE)."""
    return any(word == stem + end and _takes(stem, end) for end in INFLECTIONS)


def uninflected(word: str) -> list[str]:
    """The stems ``word`` is a plural or past form of (see inflected), longest first: SEEDS -> SEED; PLATED ->
    PLATE, PLAT."""
    return [word[:-len(end)] for end in sorted(INFLECTIONS, key=len) if word.endswith(end)
            and _takes(word[:-len(end)], end)]


def _stems(word: str) -> list[str]:
    """The words ``word`` may be a regular inflection of: DRUMS -> DRUM, SKIING -> SKI, DIVING -> DIVE."""
    out = []
    for end in _ENDINGS:
        stem = word[:-len(end)]
        if word.endswith(end) and len(word) > len(end) + 2 and _takes(stem, end):
            out += [stem, stem + "E"] if end in ("ED", "ING") else [stem]
            if end in ("ED", "ING") and len(stem) > 2 and stem[-1] == stem[-2]:
                out.append(stem[:-1])  # doubled consonant: STOPPED -> STOP
    return out


@lru_cache(maxsize=4)
def hidden_vocabulary(path: str | None = None) -> tuple[str, ...]:
    """The words looked for when a puzzle has no list, upper case, commonest first (that order breaks ties).

    Shipped: the dictionary's words, plus everyday words it lacks (plurals and -ing forms of its words, and web2's
    names of planets, places and sports such as SATURN or RUGBY) that the ``wordfreq`` package rates at least
    HIDDEN_EXTRA_ZIPF; words of 5-6 letters must be as common as HIDDEN_MIN_ZIPF says, and rare run-ons of other
    words and words wordfreq has never seen are left out (HIDDEN_RARE). A user's file: all its
    words, ordered by wordfreq frequency.
    """
    if path is not None:
        words = sorted({k for k in (normalize_word(w) for w in read_word_file(path)) if k.isalpha()})
        if not words:
            raise NoWordsError(f"{path} holds no words made of letters")
        freq = _frequencies()
        return tuple(sorted(words, key=lambda w: -freq.get(w, 0.0)))
    key = (f"hidden-r{RULES}-{version('english-words')}-{version('wordfreq')}-{HIDDEN_EXTRA_ZIPF}-{HIDDEN_LONG}-"
           f"{sorted(HIDDEN_MIN_ZIPF.items())}-{HIDDEN_RARE}")
    return _cached_words("hidden", key, _hidden_words)


def _frequencies() -> dict[str, float]:
    """wordfreq's English word frequencies, upper case, letters a-z only."""
    from wordfreq import get_frequency_dict

    return {w.upper(): f for w, f in get_frequency_dict("en", "large").items() if w.isascii() and w.isalpha()}


def _hidden_words() -> tuple[str, ...]:
    """The shipped hidden vocabulary (see hidden_vocabulary)."""
    from english_words import get_english_words_set

    freq = _frequencies()
    base = set(shipped_words())
    web2 = {w.upper() for w in get_english_words_set(["web2"], alpha=True) if w.isascii()}
    names = proper_names()
    extra_min = 10 ** (HIDDEN_EXTRA_ZIPF - 9)
    long_min = 10 ** (HIDDEN_LONG[1] - 9)
    extra = {w for w, f in freq.items() if f >= extra_min and len(w) >= 2 and w not in base
             and (w in web2 or any(s in base for s in _stems(w)))}
    extra |= {w for w, f in freq.items() if f >= long_min and len(w) >= HIDDEN_LONG[0]}
    # A 5-letter plural or past form of a shorter word is mostly that word plus a filler letter (LAWNS, EDGED);
    # a name is not (MARS, a planet a list of space words holds, is no plural of MAR).
    words = {w for w in base | extra if w in names or not (len(w) <= 5 and any(s in base for s in _stems(w)))}
    floors = {n: 10 ** (z - 9) for n, z in HIDDEN_MIN_ZIPF.items()}
    words = {w for w in words if freq.get(w, 0.0) >= floors.get(len(w), 0.0) and freq.get(w, 0.0) > 0.0}
    rare = 10 ** (HIDDEN_RARE - 9)
    words = [w for w in words if freq[w] >= rare or len(w) <= 5 or not ({w[1:], w[:-1]} & words)]
    return tuple(sorted(words, key=lambda w: (-freq.get(w, 0.0), w)))


@lru_cache(maxsize=1)
def proper_names() -> frozenset[str]:
    """web2's proper nouns that have no lower-case twin (JIM, WEI, SATURN), upper case (kept in the cache: loading
    web2 takes a third of a second)."""
    def build() -> tuple[str, ...]:
        from english_words import get_english_words_set

        words = get_english_words_set(["web2"], alpha=True)
        return tuple(sorted({w.upper() for w in words if w.isascii()} - {w.upper() for w in words
                                                                           if not w[0].isupper()}))

    return frozenset(_cached_words("names", f"names-{version('english-words')}", build))


def _cached_words(name: str, key: str, build: Callable[[], tuple[str, ...]]) -> tuple[str, ...]:
    """The words ``build()`` makes, kept in a file of the cache named after ``key``: building reads wordfreq's
    whole table, which takes seconds."""
    cached = cache_dir() / (hashlib.sha1(key.encode()).hexdigest()[:16] + f"-{name}-v{FORMAT}.txt")
    try:
        return tuple(cached.read_text(encoding="ascii").split())
    except (OSError, ValueError):
        pass
    words = build()
    _write_atomic(cached, "\n".join(words).encode("ascii"))
    return words


LIST_MIN_ZIPF = 2.6
"""The dictionary's 5-letter words that the hidden vocabulary leaves out as too rare (random letters spell short
rare words too often) are still words a printed list may hold when wordfreq rates them at least this (LADLE,
SLEET, GUAVA): a listed word is vouched for by its print, not by the grid alone. Rarer ones fit blurred print
by chance (at 2.5, BORER took a night photo's BEAVER)."""
LIST_PLURAL_ZIPF = 3.0
"""Plurals of 4-5 letters, which the hidden vocabulary leaves out as a word and a filler S (LAWNS), are listed
words as often as any (SEEDS, DRUMS: a night photo's list lost them every time): a list's vocabulary has those
wordfreq rates at least this. Past forms stay out; the list reader weighs a plural against its word wherever
the grid spells both (a placed PEAR and a chance S after it are no PEARS)."""


@lru_cache(maxsize=1)
def list_vocabulary() -> tuple[str, ...]:
    """The words a printed word list may hold, upper case: the hidden vocabulary, in its order, then the
    dictionary's 5-letter words of LIST_MIN_ZIPF and the plurals of its words of LIST_PLURAL_ZIPF that it lacks,
    commonest first."""
    hidden = hidden_vocabulary()
    key = (f"list-dictionary-r{RULES}-{version('english-words')}-{version('wordfreq')}-{LIST_MIN_ZIPF}-"
           f"{LIST_PLURAL_ZIPF}-{len(hidden)}")

    def build() -> tuple[str, ...]:
        freq = _frequencies()
        base, have = set(shipped_words()), set(hidden)
        floor, plural_floor = 10 ** (LIST_MIN_ZIPF - 9), 10 ** (LIST_PLURAL_ZIPF - 9)
        more = {w for w in base - have if len(w) == 5 and freq.get(w, 0.0) >= floor}
        more |= {w for w, f in freq.items() if len(w) in (4, 5) and f >= plural_floor and w not in have
                 and any(w.endswith(end) and w[:-len(end)] in base for end in ("S", "ES"))}
        return tuple(sorted(more, key=lambda w: (-freq[w], w)))

    return hidden + _cached_words("list", key, build)
