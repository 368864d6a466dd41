"""Read a puzzle's word list from the page around its grid and correct it with the grid as the judge.

The grid (and any other grid on the page) is masked out of an upright, background-flattened view of the page,
Tesseract reads the rest as sparse text, the words are grouped into lines and split into entries at wide gaps
(columns). Sentences (instructions), page furniture and text far larger or smaller than the list are dropped;
clusters of entries that do not match the grid (titles, captions) are dropped too. An entry that is not in the
grid but is one or two edits from exactly one straight-line string of the grid is corrected to it.
"""
from __future__ import annotations

import functools
import re
import statistics
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from scanner import imaging, wordread, wordspot
from solver.dictionary import inflected, list_vocabulary, proper_names, uninflected
from solver.errors import NoWordsError

TARGET_INK_PX = 24.0
"""Height the page's letter blobs are scaled to (LSTM Tesseract reads print well at about this size)."""
WORK_PIXELS = 3_000_000
"""The page around the grid is first resampled to at most this size (upright view, before any upscaling)."""
INK_LEVEL, MIN_INK_PX = 128, 16
"""A part of the prepared page (see _stretch: its darkest print is near black) with fewer than MIN_INK_PX pixels
darker than INK_LEVEL holds no print and is not read (beside a list, the sharpened grain of bare paper that
Tesseract's own threshold turns into 20 junk entries)."""
INK_QUANTILE = 0.5
"""TARGET_INK_PX is aimed at this quantile of the (height-weighted) blob heights."""
MAX_OCR_PIXELS = 6_000_000
"""Cap on the size of the image handed to Tesseract (speed)."""
REACH, WIDE_REACH = 1.0, 2.0
"""The list is looked for within REACH grid sizes (the grid's longer side) of the grid, and within WIDE_REACH
when it comes within EDGE_LINES of its lines of the edge of that part of the page (a long column of entries)."""
EDGE_LINES = 2.0
LOOK_SECONDS = 2.0
"""Tesseract's time, even when reading the page took all the list's, for the reads of a list's block and the page
round it as blocks of text once a list is found, and for those of the grid's sides when none was (see _read_list):
a big page of newsprint show-through took 5.1 s of a 5.6 s limit to read, and its block, never read, left 9 of
its 20 words as junk; a page on a light, blotchy ground was read as 800 scraps of it."""
SPOT_STEPS = 12_000
"""The word spotter's work for a list (see wordspot.spot), in the word reader's steps: a bound for pages of
hundreds of blobs, counted in work so that a list reads the same on any machine and under any load. A blob of a
word takes 20-40 steps; this machine reads 2,400-4,000 steps a CPU second (busy to idle) with 200 candidate
words weighed. It is the list's, however often its page is read (see read_word_list): a night photo's list that
runs on to the edge of the part read has its page read again, wider, and its blobs read again."""
BLOCK_LINES, RUN_ON_READS = 6.0, 2
"""The list's block is read again as one block of text grown by BLOCK_LINES of its lines; where its entries then
come within half that of the edge of the part read, the page beyond that edge is read too, up to RUN_ON_READS
times (a long column of small print that the page's reading took only the top of; see _run_on)."""
END_LINES = 2
"""A column of the list is read again alone this many lines past its first and last entries, where there is ink:
its 3-letter words on a night photo (PIG above GOAT, DOG and CAT under COW) were read by no look at the page."""
LIST_LEAST, COLUMN_EDGE = 3, 1.5
"""The fewest entries of a list: fewer different words spotted in its columns (see _columned) are chance, and a
list read with fewer is looked for again round the grid (see _read_list): the title of a newsprint page, read
"Space Word Sea", gave two entries the grid holds while the layout analysis took the list below for a picture."""
ROW_LEVEL = (0.3, 40.0)  # see _columned
CHANCE = (4, 50.0)  # see _chance
SPOT_REACH = 1.0
"""With no list read by Tesseract, words are spotted within this many grid sizes of the grid, times the reach of
the part of the page read (REACH, or WIDE_REACH when the list ran on to its edge)."""
SPOT_HEIGHTS = (0.67, 1.5)
"""Letter heights, as factors of the list's, of the places worth spotting words in (lower-case words measure
from their x-height to well above it, by their ascenders and descenders)."""
SMALLER_CUT = 0.5
"""With no entry read and too few words spotted to make a list (see _columned), the page's blobs are cut again at
this fraction of the letter height Tesseract's page is scaled for, and what spots more words kept (see _spotted)."""
LARGER_PRINT, LARGER_BOXES = 1.25, 3
"""With no entry read and no word spotted in the commonest print, words are spotted in the commonest print larger
than it by this factor, found in at least this many boxes as wide as a word (see _larger_print)."""
READ_IN_COLUMN, READ_SURE = (5, -0.5), 0.5
"""Down a column of the list, a blob the word reader reads as a vocabulary word of this many letters or more, at
this fit a letter or better, is that word though the grid does not spell it (see _read_in_columns), and how sure
it counts as: a white-on-dark lower-case grid in URW Gothic, its t and r read as f, spelt 8 of the 20 words of the
clear list beside it, which the reader read VIOLET, HEDGE, BUTTERFLY, SUNFLOWER, GREENHOUSE."""
MEASURED_WIDTH = 2.0
"""Letter heights: with no entry read, the list's print size is measured again on the blobs this wide at the
first measure (a narrower one is as often an entry's number, a bullet or a piece of a frame; one more or less
moved the measure a pixel, and blurred print fits otherwise at that scale)."""
RECUT = 1.33
"""With no entry read, the page's blobs are cut at the letter height Tesseract's page is scaled for; where the print
measured in them is larger by this factor, they are cut again at the print's own (a night photo's list of 35 px
typewriter letters, cut at 24 px, fell apart into pieces of words: 5 of 20 words, 7 cut again). Not where it is
smaller: cut at its own size, the blurred 16 px print of another fell apart instead (8 of 12 words, 3 cut again)."""
TAIL_AFTER, TAIL_LETTERS = 6, (3, 4)  # see _grid_spellings
UNSURE_LETTERS, UNSURE_BELOW, UNSURE_LEAST = (5, 12), 0.7, 1.5
"""Lengths of the words spotting also looks for where the grid spells them with an unsure cell read as one of
its alternatives (see _unsure_words), the confidence under which a cell is unsure for this, and the least
cost, in nats, of such a word (see wordspot.spot): it costs the odds against its cell's letter, but no less
than that, since the grid's reader chose the letter it read, and the confidences it gives its choices are not
weighed against each other (an alternative often scores above the letter read: at no cost, the 65 such words
of a hand-lettered page were rivals as strong as its own and took its list). At a flat 3 nats words of 5
letters made more spurious entries than they gained; at 1.5-3, a night photo's list none of whose words was
found (HEDGE's cell read otherwise, its letter the second choice) is read. Words of 4 letters (GLAM for a
hand-lettered "clam") and cells read surer than 0.7 (a newsprint page's 540 candidate words became 740, and
ALLIE took a speck) add chance words more than listed ones."""
KEEP_ODDS = 1.0  # nats: see _kept_as_read
NEAR_LETTERS, BLANK = (5, 12), 27
"""Lengths of the words spotting also looks for where the grid as read spells them but for one cell (shorter
words match so by chance in any grid); the code of that cell's letter in the keys that find them (A is 1)."""
SHEET_LEVEL = 0.5
"""Photo background whose paper level is under this share of the paper's around the grid is not the sheet."""
RING_PAPER = 75
"""The percentile of the level round a white-on-dark grid that is the paper's: the level (a median a few cells
wide) round the dark panel takes it in (half the ring round a panel on a light wooden table was under 106 of the
paper's 195, and the table, at 61, passed for the sheet)."""
LIST_INK_PITCHES = (0.2, 1.5)
"""List letters are this many grid pitches tall at least and at most (titles and artwork are larger)."""
BLOB_LEVEL = 170
"""A flattened page's pixels darker than this make its blobs of ink (letters, words, a dark frame round it)."""
WORD_BLOB = 8
"""Blobs up to this many times as wide as tall count when no letter stands alone (blurred print: a blob a word)."""
SMALL_PRINT = (0.6, 5)
"""Where no list is read, words of print under SMALL_PRINT[0] of the page's letter height, at least SMALL_PRINT[1]
of them, are read again at their own size (see _small_print)."""
FRAME_INK = 0.5
"""Dark ground at least this many letter heights thick near the sheet's edge is blanked on soft pages
(``_frame``): 0 of 20 words of a newsprint list read before, 17 after."""
FRAME_PITCH = 0.3
"""... and on a page where no print is seen, ground this many grid pitches thick, before the print is measured
again: taken for the darkest print, it left a sideways photo's grey typewriter list unstretched and unmeasured,
and none of it was read."""
SOFT_EDGE = 1 / 3
"""Print whose edges take more than this share of the letter height to go from paper to ink (imaging.edge_width)
is soft: a blurred photo of small print. Only soft print has its frame blanked, its grain smoothed and its strokes
sharpened; crisp print (renders, scans, screenshots, sharp photos) is read as it is, which suits it best."""
SHARPEN_INK, SHARPEN_AMOUNT = 1 / 8, 3.0
"""Soft print handed to Tesseract is unsharp-masked at this share of the letter height, this strongly: its
strokes run together, and Tesseract drops whole words of them (a boxed list of 14 words: 9 read before, 13
after). On crisp print the same mask costs words."""
GRAIN_LEVEL, GRAIN_SMOOTH = 2.0, 1 / 10
"""Soft print on paper whose grain (imaging.grain, after flattening) reaches GRAIN_LEVEL is first smoothed by a
Gaussian of GRAIN_SMOOTH letter heights: a dim photo's faint print, stretched to full contrast, brings its noise
up too, which the sharpening would turn into specks (kitchen list at night: 0 of 20 words read, 10 after)."""
GREY_PAPER = 224
"""Paper whose median level after stretching is under this is grey, and the grid and frame blanked on it are
blanked at its level (see _prepare); on paper near white they stay white, as Tesseract reads a white page's
lines best (a hand-lettered list: ITINERARY read as CINERARY beside a grid blanked at 244)."""
NOISE_LEVEL = 6.0
"""Mean absolute difference (grey levels) between a page and its 3x3 median above which it is denoised."""
THIN_INK = 10.0
"""Print whose letters are fewer pixels tall than this is not median-filtered however grainy the paper: its strokes
are a pixel wide, and the median erases them (a newsprint list of 8 px capitals: 2 of 20 words read, 19 without
it); on soft print its grain is smoothed at the letters' scale anyway (GRAIN_SMOOTH)."""
LIST_HEIGHTS = (0.55, 1.6)
"""Entries whose text height is within these factors of the list's are at the list's size."""
SINGLE_WORD, SINGLE_LINE = 8, 7
"""Tesseract's page segmentation modes for an image of one word, of one line of text."""
READS_ALONE = ((SINGLE_WORD, 1.0), (SINGLE_LINE, 1.0), (SINGLE_LINE, 0.5))
"""How the places of a list worth a second look are read alone (``_unread``), in turn: (page segmentation mode,
scale). Halved, small print blown up to TARGET_INK_PX is less blurred, and Tesseract reads some of its words
better."""
BACKING = ("near", "corrected", "exact")
"""correct()'s verdicts that vouch for an entry (``_confirmed``), from the one the grid backs least to the one it
backs most."""
INFLATED = 0.75
"""A word box whose main run of inked rows is under this share of its height took in marks beside the word
(``_tighten``)."""
ENTRY_GAP = 1.1
"""A gap wider than this many text heights between two words on a line separates two entries (columns)."""
SENTENCE_WORDS = 4
"""A run of this many words at normal spacing is a sentence (instructions, captions), not a list entry."""
MAX_ENTRY_WORDS = 3
FAINT_ENTRY = 0.5  # see _printed_alike
MARKED_WORD = 4
"""An entry read as one letter and a word of this many letters or more that the grid holds is that word, even where
the grid holds the letter before it too: a bullet read as J before CLAM and PEAR, where by chance the grid's J
touches each word (night and hand-lettered photos, seeds 1302 and 1315), or a misread entry corrected to such a
string (a small photo's "6. ARCHERY" read A ARCHLRY, the grid's AARCHERY). Shorter words keep it (X RAY, T REX)."""
MIN_CONF = 40.0
"""Entries read less confidently than this are dropped unless the grid vouches for them (``_confirmed``)."""
TRUSTED_CONF = 90.0
"""An entry read this confidently is not corrected to a grid string that is not a word (the grid was misread)."""
WORDLIKE_CONF = 80.0
"""When the grid vouches for nothing, entries read this confidently that are dictionary words make a list."""
SHARE_CONF = 60.0
"""Dictionary words read this confidently help make up the share of a block that must back it (see _select): a night
photo's grid misread five of its list's eight words, three more were vouched for, and Diving, read at 65 to 70,
was the fourth entry of nine that made it a list (at WORDLIKE_CONF none was found)."""
GUESS_ZIPF = 3.2
"""The rarer 4-letter words an entry may be guessed as are at least this common (Zipf; see _guess_words): at any
frequency, rare chance words (KINO, NOME, SLAT) took the places of listed ones."""
RARE_ZIPF = 2.5
"""The rarer 4-letter words the spotter tries down a list's columns are at least this common (Zipf; see
_rare_fours): KELP and TUBA are 2.8; NESE, 1.9, was taken for a blurred entry of a small photo's list."""
LONGER_ZIPF = 2.0
"""A word rarer than this Zipf frequency is not taken for an entry it holds (see _lengthened)."""
SURE_LONGER_ZIPF = 0.5
"""An entry read surely is taken for a word that holds it only where that word is this much commoner (Zipf): a
hand-lettered "harmony" read "HARMON" at 87."""
LONGER = 0.3
"""How much better (wordspot.word_fits) an unsure entry's print must fit a grid word a letter or two longer that
holds it, to be read as that word (see _lengthened)."""
INSIDE_FIT = 0.5
"""An entry the grid spells only as part of one longer, commoner word that is not listed is that word where its
print fits the word at most this much worse than what was read (see _lengthened): a letter dropped by Tesseract
leaves a string the grid holds only because it holds the word (RABBI of a night photo's "Rabbit", read at 88)."""
AROUND = 3
"""The most letters a word may hold beside an entry's print for the box widened to fit them (see _lengthened)."""
REPRINT_CONF, REPRINT_FIT, REPRINT_MARGIN, REPRINT_LONG = 70.0, -1.0, 0.5, 1.6
"""An entry of four letters or fewer the grid holds as read but read under REPRINT_CONF, or one it holds nowhere,
is the grid word of about as many letters as its box holds (within a factor of REPRINT_LONG) whose print fits it
at least REPRINT_FIT and by REPRINT_MARGIN better than the reading and any other word (see _reprinted)."""
WIDE = 1.3
"""An entry's box is wide for what was read in it at this many times the list's median width per character
(see _lengthened: the box of "watering can" read as "watering" is 1.47 times as wide for each letter)."""
BESIDE_FIT = -1.0
"""An entry read as one word of a two-word grid entry (see _lengthened) is that entry where it fits its box joined
to the print beside it (see _beside) this well (a small photo's HIGH JUMP read JUMP)."""
ABSENT_CONF = 70.0
"""An entry the grid does not have at all must be read at least this confidently to be kept (a misprint), and at
TRUSTED_CONF when it is no word: a hand-lettered SURFING, its IN written as one stroke, read SURTWG at 77 (139
lists of seeds 2740-2759, 2900-2914 and 3600-3611: 2 spurious entries fewer, no word lost)."""
GUESS_SHARE = 0.4
"""An entry of a list the grid vouches for that the grid does not hold as read (nor one or two edits away) is taken
for the grid's word nearest to it when that word is the only one within this share of its length in edits: small
blurred print is misread by several letters (SOWENR for SOUVENIR, PLAREY for PLANET), and the listed words are
the grid's words. Nor may it take more edits than half the letters read (a night photo's ROR became ARBOR)."""
FURNITURE = re.compile(r"www|https?|\.com|\.org|\.net|@|©|copyright|page\s*\d", re.IGNORECASE)
LEADER = re.compile(r"^(?:\(?\d{1,3}\s*[.):]\s*|\d{1,3}\s+"  # 1. 2) (3) 4:
                    r"|[\dIlOoTJASZBGPgq&¢$§|!]{1,2}[.,]\s*(?=\w\w)"  # a number misread: Il. (11.) T.RABBIT (2.) P, (9.)
                    r"|[\u2022\u25cf\u25cb\u25a1\u2610\u25a0\u25aa\u2013\u2014*·>\-]+\s*"  # bullets, boxes, dashes
                    r"|[oO0\u25a1]\s+(?=\w\w))")  # a tick circle or box read as a letter
TITLE = re.compile(r"\b(?:w?o)?r[dl]s?\s*(?:search|find|seek)", re.IGNORECASE)
"""A puzzle's title ("Space Word Search", read "Space ord Search" where a hand-lettered list's W was dropped, or in
pieces, "rd Search"): no word of its line is a list entry, though the grid may hold one."""
NUMBER = re.compile(r"^\(?\d{1,3}[.):,]$")
"""An entry's number on its own (``7.``, ``12)``): where an entry starts."""
GLYPHS = (("d", "cl"), ("m", "rn"), ("u", "li"), ("U", "LI"))
"""Letters that two blurred ones make in print, as Tesseract reads them: "clam" read "dam", "corn" "com", "lime"
and LIME "ume" and UME, where an L's foot runs into the I (see _unjoined)."""
RARE_THREE_ZIPF = 3.0
"""An entry of three letters the grid holds as read, rarer than this (Zipf), may still be two blurred letters read
as one (GLYPHS): any grid holds three letters by chance, and UME (2.3), read for LIME in the lists of four small
and tiny photos, was found beside it; DAM (4.2) stays."""
DIGIT_AS_LETTER = str.maketrans({"0": "O", "1": "I", "5": "S", "8": "B", "6": "G", "|": "I", "$": "S"})
INSTRUCTION_WORDS = frozenset(
    "a an and any are at be below above by can circle diagonally direction directions down find for forwards "
    "backwards from go hidden in is list listed look may of on or puzzle search the them these to up with word "
    "words bank key clues vocabulary answers".split())
"""Words of instructions ("Search for the words listed below the puzzle") and list headers ("WORD BANK",
"KEY WORDS"): an entry made only of these is a fragment of a sentence or a heading, unless the grid vouches
for it."""
LEGIBLE = 2.2
"""A list's print this many times as tall as its edges' blur (see WordList.hard_to_read) is read well. Set on 60
night photos (seeds 19000-31011: lists under it gave 117 of 183 words, the others 619 of 648); on 217 other
generated pages in six conditions (bench/wordlist_accuracy.py, seeds 40000), lists under it gave 250 of 382 words,
the others 2,707 of 2,775."""
NO_LIST = "no word list found in {source}; give the words with --words or --words-file"


@dataclass(frozen=True)
class WordEntry:
    """One list entry: the text as Tesseract read it, the word searched for, and whether the grid corrected it."""

    read: str
    word: str
    corrected: bool = False

    def to_dict(self) -> dict:
        return {"read": self.read, "word": self.word, "corrected": bool(self.corrected)}


@dataclass
class WordList:
    """The entries read from an image and the region (polygon, image px) they were read from; for a list read, how
    tall its print stands in the image and over how many image px its edges blur (see hard_to_read)."""

    entries: list[WordEntry]
    region: list[list[float]] = field(default_factory=list)
    source: str = "image"
    print_px: float | None = None
    blur_px: float | None = None

    @property
    def hard_to_read(self) -> bool:
        """Whether the list's print stands less than LEGIBLE times as tall as its blur: words may be missing."""
        return bool(self.print_px and self.blur_px and self.print_px < LEGIBLE * self.blur_px)

    @property
    def words(self) -> list[str]:
        return [e.word for e in self.entries]

    def to_dict(self) -> dict:
        """The JSON's "word_list" (see pipeline.word_list_json); the print only where it was measured."""
        out = {"source": self.source, "entries": [e.to_dict() for e in self.entries],
               "region": [[round(float(x), 1), round(float(y), 1)] for x, y in self.region]}
        if self.print_px is not None:
            out |= {"print_px": round(self.print_px, 1), "blur_px": round(self.blur_px or 0.0, 1),
                    "hard_to_read": self.hard_to_read}
        return out


@dataclass
class _Allowance:
    """The spotter's work left for a list spotted in several goes: the word reader's steps (see SPOT_STEPS)."""

    steps: int

    def spend(self, steps: int) -> None:
        self.steps = max(0, self.steps - steps)


@dataclass
class _Entry:
    """A candidate entry on the OCR image: raw text, cleaned text, box (x0, y0, x1, y1), text height, confidence."""

    raw: str
    text: str
    box: tuple[float, float, float, float]
    height: float
    conf: float
    boxes: list = field(default_factory=list)  # the Tesseract word boxes it was read from

    @property
    def advance(self) -> float:
        """Box width per letter read: the print size, whatever specks or rules stretched the box's height."""
        return (self.box[2] - self.box[0]) / max(len(grid_key(self.text)), 1)


# -----------------------------------------------------------------------------------------------------------------
# Text side: cleaning entries, grid keys, correction


def clean_entry(raw: str) -> str | None:
    """The list entry in ``raw`` with numbering, bullets and stray marks removed; None when it holds no word.

    Keeps letters (accented too), inner spaces, hyphens and apostrophes; digits inside a word are read as the
    letters they resemble (``P1G`` -> ``PIG``), an entry mostly in capitals is put all in capitals (``KIwI``); a
    bare number (page number) is not an entry, nor a word of one or two small letters before capitals (a mark).
    """
    text = unicodedata.normalize("NFC", raw).strip()
    text = LEADER.sub("", text, count=1)
    text = text.strip(" .,;:!?'\"`()[]{}_~=+*<>/\\")
    tokens = []
    for token in text.split():
        if any(ch.isalpha() for ch in token):
            token = token.translate(DIGIT_AS_LETTER)
        token = "".join(ch for ch in token if ch.isalpha() or ch in "-'")
        token = token.strip("-'")
        if token:
            tokens.append(token)
    if len(tokens) > 1 and len(tokens[0]) <= 2 and tokens[0].islower() and all(t.isupper() for t in tokens[1:]):
        tokens = tokens[1:]  # a mark read as a small letter or two before an entry in capitals: a FLUTE (8. FLUTE)
    out = " ".join(tokens)
    letters = [ch for ch in out if ch.isalpha()]
    if sum(ch.isupper() for ch in letters) >= 0.75 * len(letters):
        out = out.upper()  # printed in capitals, one letter read in lower case: KIwI
    return out if len(letters) >= 2 else None


def grid_key(word: str, ascii_only: bool = True) -> str:
    """The letters a word occupies in the grid: upper case, marks and spaces dropped, accents folded if asked."""
    if ascii_only:
        word = "".join(ch for ch in unicodedata.normalize("NFD", word) if not unicodedata.combining(ch))
    return "".join(ch for ch in word.upper() if ch.isalpha())


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (insertions, deletions, substitutions) between two short strings."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def edit_budget(key: str) -> int:
    """How many edits a read entry may be from the grid string it is corrected to (short words: fewer)."""
    return 0 if len(key) < 3 else 1 if len(key) < 7 else 2


def _variants(key: str, budget: int) -> list[tuple[str, int]]:
    """(pattern, mismatches allowed) pairs whose mismatch search covers every string within ``budget`` edits
    of ``key`` that the straight-line solver can express: substitutions, one dropped letter (OCR read an extra
    one) and one inserted filler letter (OCR missed one; the filler counts as a mismatch)."""
    out = [(key, budget)]
    if budget >= 1 and len(key) > 3:
        out += [(key[:i] + key[i + 1:], budget - 1) for i in range(len(key))]
    if budget >= 1:
        out += [(key[:i] + "E" + key[i:], budget) for i in range(len(key) + 1)]
    return out


def grid_matches(keys: list[str], letters: list[str]) -> dict[str, set[str]]:
    """For each key: the distinct straight-line grid strings within its edit budget ({key} when exact)."""
    keys = tuple(dict.fromkeys(k for k in keys if k))
    return {k: set(v) for k, v in _grid_matches(keys, tuple(letters)).items()} if keys else {}


@functools.lru_cache(maxsize=256)
def _grid_matches(keys: tuple[str, ...], letters: tuple[str, ...]) -> dict[str, frozenset[str]]:
    """``grid_matches``, remembered: the two readings of a page (page and crop) ask about the same entries, and a
    fuzzy search for a long entry costs tens of milliseconds."""
    from solver import solve

    spelt = _spelt(keys, letters)
    letters = list(letters)
    out: dict[str, frozenset[str]] = {}
    fuzzy: dict[str, list[tuple[str, int]]] = {}
    for key in keys:
        if key in spelt:
            out[key] = frozenset({key})
        else:
            fuzzy[key] = _variants(key, edit_budget(key))
    by_budget: dict[int, set[str]] = {}
    for variants in fuzzy.values():
        for pattern, k in variants:
            by_budget.setdefault(k, set()).add(pattern)
    strings: dict[str, set[str]] = {}
    for k, patterns in by_budget.items():
        for r in solve(letters, sorted(patterns), max_mismatches=k):
            strings[r.word] = {"".join(letters[rr][cc] for rr, cc in occ.cells) for occ in r.occurrences}
    for key, variants in fuzzy.items():
        found = set().union(*(strings.get(p, set()) for p, _ in variants))
        out[key] = frozenset(s for s in found if edit_distance(key, s) <= edit_budget(key))
    return out


@functools.lru_cache(maxsize=256)
def _spelt(keys: tuple[str, ...], letters: tuple[str, ...]) -> frozenset[str]:
    """Those of ``keys`` that the grid rows ``letters`` spell exactly in a straight line."""
    from solver import solve

    return frozenset(r.word for r in solve(list(letters), list(keys)) if r.found and not r.mismatches) if keys \
        else frozenset()


def correct(text: str, matches: set[str], ascii_only: bool = True, conf: float = 0.0) -> tuple[str, str]:
    """(word to search for, status) for a cleaned entry read with confidence ``conf`` (0..100), given the grid
    strings within its edit budget.

    status: "exact" (in the grid as read), "corrected" (one grid string is nearer than any other: the word
    becomes that string), "near" (one grid string is near, but the entry is a confidently read dictionary word,
    or that string is not a word while the entry is one or was read confidently: the grid was probably misread
    or the puzzle misprinted, so the entry is kept as read and the pipeline's repair finds it; also a word one
    edit from the entry where the grid string is two and no word, or the one word one edit from a grid string
    that is no word: the entry becomes that word, "corrected" where the string holds it), "ambiguous" (several
    equally near) or "absent".
    """
    key = grid_key(text, ascii_only)
    if key in matches:
        return text, "exact"
    if not matches:
        return text, "absent"
    best = min(edit_distance(key, m) for m in matches)
    nearest = [m for m in matches if edit_distance(key, m) == best]
    if len(nearest) > 1:
        # Strings on one grid line nest (TOASTER, OASTER, XTOASTER): prefer the one that is an English word,
        # then the one as long as the entry read (OCR substitutes letters more often than it adds or drops them).
        nearest = [m for m in nearest if _is_word(m)] or [m for m in nearest if len(m) == len(key)]
        if len(nearest) != 1:
            return text, "ambiguous"
    target = nearest[0]
    if len(key) == 3 and _common(key) and not _common(target):
        # A common word of three letters read is no misreading of a rare string the grid spells by chance
        # (a caption's "was" and "you" beside a night photo's list were listed as WUS and SOU).
        return text, "absent"
    read_is_word = all(_is_word(t) for t in text.split())
    if (read_is_word and conf >= TRUSTED_CONF) or (not _is_word(target) and (read_is_word or conf >= TRUSTED_CONF)):
        # kept as read, but singular where that is nearer the grid's string: a chance S after a word a misread
        # cell hid (ITINERARYS beside the grid's ITINERLRY) made a plural of it, and lists are mostly singular
        single = text[:-1]
        nearer = key.endswith("S") and edit_distance(key[:-1], target) < best and _is_word(single)
        return (single if nearer else text), "near"
    if not _is_word(target) and len(key) >= 5:
        # A word one letter from the reading beats a string two from it that is no word: a misread cell made the
        # grid's GREENHUUSE, and (Jreenhouse is GREENHOUSE (the repair then finds it, mending the cell); of several
        # such words, the one a letter from that string too (Salling, beside the grid's SAILINC, is SAILING, not
        # FALLING or CALLING).
        word = (_one_off(key) or _one_off(key, target)) if best > 1 else None
        if word is not None:
            return word, "near"
        # And the one word a letter from that string is the entry where the reading is no nearer to anything else:
        # the grid's cell misread as the print was (BALOPHONE, the grid's BAXOPHONE: SAXOPHONE), or the word's
        # end cell misread (EANORSE, the grid's EAHORSE: SEAHORSE).
        whole = _one_off(target)
        if whole is not None and edit_distance(key, whole) <= best + 1:
            return whole, "corrected" if whole in target else "near"  # in it: the grid holds the word as well
    if len(target) == len(key):  # substitutions only: keep the entry's spaces and hyphens
        it = iter(target)
        return "".join(next(it) if ch.isalpha() else ch for ch in text if ch.isalpha() or ch in " -'"), "corrected"
    return target, "corrected"


def _one_off(key: str, also: str = "") -> str | None:
    """The one vocabulary word (see _vocabulary) one edit from ``key`` (and from ``also``, if given), if exactly
    one."""
    found = _edits(key) & _vocabulary_set()
    if also:
        found &= _edits(also)
    return found.pop() if len(found) == 1 else None


def _edits(key: str) -> set[str]:
    """The strings one edit (a letter substituted, added or dropped) from ``key``."""
    from string import ascii_uppercase

    edits = {key[:i] + c + key[i + 1:] for i in range(len(key)) for c in ascii_uppercase}
    edits |= {key[:i] + c + key[i:] for i in range(len(key) + 1) for c in ascii_uppercase}
    edits |= {key[:i] + key[i + 1:] for i in range(len(key))}
    return edits - {key}


@functools.cache
def _vocabulary_set() -> frozenset[str]:
    """The vocabulary's words of 4+ letters (see _vocabulary) as a set, for lookups."""
    return frozenset(_vocabulary()[0])


@functools.cache
def _vocabulary() -> tuple[tuple[str, ...], frozenset[str], frozenset[str]]:
    """(the list vocabulary's words of 4+ letters, upper case (solver.dictionary.list_vocabulary: the hidden
    words and the dictionary's rarer 5-letter ones, LADLE); its commonest ones of the lengths that make
    compounds, solver.hidden's parts; its commonest ones of TAIL_LETTERS, which end a compound after a long
    word)."""
    from solver.hidden import PART_LENGTHS, PART_MAX_RANK

    words = list_vocabulary()
    return (tuple(w for w in words if len(w) >= 4),
            frozenset(w for w in words[:PART_MAX_RANK] if len(w) in PART_LENGTHS),
            frozenset(w for w in words[:PART_MAX_RANK] if len(w) in TAIL_LETTERS))


def _grid_words(letters: tuple[str, ...]) -> tuple[str, ...]:
    """The words a list may hold that the grid spells in straight lines, as grid keys (see _grid_spellings)."""
    return tuple(sorted(_grid_spellings(letters)))


@functools.lru_cache(maxsize=8)
def _vocabulary_hits(letters: tuple[str, ...]) -> dict:
    """{word: its occurrences} of the vocabulary's words (see _vocabulary) that the grid spells in straight lines."""
    from solver.grid import make_grid
    from solver.search import parse_directions
    from solver.straight import find_exact

    words, _, tails = _vocabulary()
    return find_exact(make_grid(list(letters)), list(words) + sorted(tails), parse_directions(None))  # each once


@functools.lru_cache(maxsize=8)
def _grid_spellings(letters: tuple[str, ...]) -> dict[str, str]:
    """{grid key: the word as a list prints it} of the words a list may hold that the grid spells in straight
    lines: vocabulary words of 5+ letters, common 4-letter words, two common 4-5 letter words end to end
    (BLACKHOLE, printed BLACK HOLE; a vocabulary word spelt so stays whole), and a word of TAIL_AFTER+ letters
    and a common one of TAIL_LETTERS (GRIZZLY BEAR, WATERING CAN: listed so, spotted as WATERING alone)."""
    from solver.hidden import compounds

    _, parts, tails = _vocabulary()
    hits = _vocabulary_hits(letters)
    joined = compounds({w: o for w, o in hits.items() if w in parts or w in tails or len(w) >= TAIL_AFTER})
    found = {w.replace(" ", ""): w for w in joined
             if set(w.split()) <= parts or len(w.split()[0]) >= TAIL_AFTER and w.split()[1] in tails}
    return found | {w: w for w in hits if len(w) >= 5 or w in parts}


@functools.lru_cache(maxsize=8)
def _rare_fours(letters: tuple[str, ...]) -> tuple[str, ...]:
    """The vocabulary's 4-letter words of RARE_ZIPF or more that the grid spells in straight lines but that are not
    among its words (see _grid_spellings): too rare for a list to be guessed to hold them anywhere."""
    from wordfreq import zipf_frequency

    spelt = _grid_spellings(letters)
    return tuple(sorted(w for w in _vocabulary_hits(letters) if len(w) == 4 and w not in spelt
                        and zipf_frequency(w.lower(), "en") >= RARE_ZIPF))


@functools.lru_cache(maxsize=8)
def _common_threes(letters: tuple[str, ...]) -> tuple[str, ...]:
    """The list vocabulary's 3-letter words of RARE_THREE_ZIPF or more that the grid spells in straight lines, but
    proper names (WEI, JIM: common in wordfreq's counts, rare in a printed list; a hand-lettered "Wolf" read WEI)."""
    return tuple(sorted(_spelt(tuple(w for w in list_vocabulary() if len(w) == 3 and _common(w)
                                     and w not in proper_names()), letters)))


@functools.cache
def _common_fours() -> frozenset[str]:
    """The vocabulary's 4-letter words of GUESS_ZIPF or more (see _guess_words)."""
    from wordfreq import zipf_frequency

    return frozenset(w for w in _vocabulary()[0] if len(w) == 4 and zipf_frequency(w.lower(), "en") >= GUESS_ZIPF)


@functools.lru_cache(maxsize=8)
def _guess_words(letters: tuple[str, ...]) -> tuple[str, ...]:
    """The grid's words (see _grid_words) and the rarer 4-letter words of GUESS_ZIPF it spells (RAKE, PEAR, KIWI,
    JUDO: the grid's 4-letter words are the vocabulary's commonest, and lists lost these most): an entry
    Tesseract read is judged and guessed among them (RANE is RAKE, not DRAKE; FAKE, kept as read, is RAKE), while
    the spotter, which has no reading to go by, keeps to the commoner ones (all of them: more spurious entries
    than words gained)."""
    return tuple(sorted(set(_grid_words(letters)) | (_vocabulary_hits(letters).keys() & _common_fours())))


@functools.lru_cache(maxsize=8)
def _near_grid_words(letters: tuple[str, ...]) -> tuple[str, ...]:
    """Vocabulary words of NEAR_LETTERS letters that the grid spells in a straight line but for one cell, as grid
    keys: a misread cell must not hide a listed word from spotting. Not those one letter from a word the grid
    spells whole or from part of one (CROCKET where it spells CRICKET, OARFISH where it spells STARFISH): that
    is the same line read again."""
    from solver.grid import DIRECTIONS

    grid = _codes([row[:min(map(len, letters))] for row in letters])
    grid[(grid < 1) | (grid > 26)] = BLANK + 1  # a cell read as no letter spells none
    rows, cols = grid.shape
    shortest, longest = NEAR_LETTERS
    r0, c0 = np.indices(grid.shape).reshape(2, -1)
    spelt = [np.zeros(0, np.int64)]
    for n in range(shortest, min(longest, max(rows, cols)) + 1):
        for dr, dc in DIRECTIONS.values():
            r, c = r0[:, None] + dr * np.arange(n), c0[:, None] + dc * np.arange(n)
            inside = ((r >= 0) & (r < rows) & (c >= 0) & (c < cols)).all(axis=1)
            spelt.append(_blanked(grid[r[inside], c[inside]]).ravel())
    whole = set(_grid_words(letters))
    beside = [np.zeros(0, np.int64)] + [_blanked(_codes([w[a:a + n] for a in range(len(w) - n + 1)])).ravel()
                                        for w in whole for n in range(shortest, min(len(w), longest) + 1)]
    near = _keyed(np.concatenate(spelt)) - _keyed(np.concatenate(beside))
    return tuple(sorted(w for w in near if w not in whole))


@functools.lru_cache(maxsize=8)
def _unsure_words(letters: tuple[str, ...], unsure: tuple[tuple[int, int, str, float], ...]) -> dict[str, float]:
    """{word: odds} of the vocabulary words of UNSURE_LETTERS letters that the grid spells in a straight line with
    one of its ``unsure`` cells ((row, column, letter, odds): a cell read unsurely, what else it may be and how
    much likelier, in nats, the letter read is) read as that letter, as grid keys, not those it spells as read,
    each at its least odds: a dim photo's grid misread 24 of 225 cells, hiding TENNIS, RUGBY, BOXING from the
    spotter, while 18 of those cells held the right letter among their alternatives."""
    shortest, longest = UNSURE_LETTERS
    vocabulary = _unsure_vocabulary()
    rows, cols = len(letters), min(map(len, letters))
    found: dict[str, float] = {}
    for r, c, letter, odds in unsure:
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):  # each line through the cell, read both ways below
            back = 0  # the cell's place on the line: the steps back to the grid's edge
            while 0 <= r - (back + 1) * dr < rows and 0 <= c - (back + 1) * dc < cols:
                back += 1
            r0, c0, line = r - back * dr, c - back * dc, []
            while 0 <= r0 < rows and 0 <= c0 < cols:
                line.append(letters[r0][c0])
                r0, c0 = r0 + dr, c0 + dc
            line[back] = letter
            for text, at in (("".join(line), back), ("".join(reversed(line)), len(line) - 1 - back)):
                for n in range(shortest, min(longest, len(text)) + 1):
                    for start in range(max(0, at - n + 1), min(at, len(text) - n) + 1):
                        spelt = text[start:start + n]
                        if spelt in vocabulary:
                            found[spelt] = min(odds, found.get(spelt, odds))
    whole = set(_grid_words(letters))
    return {w: odds for w, odds in sorted(found.items()) if w not in whole}


@functools.cache
def _unsure_vocabulary() -> frozenset[str]:
    """The vocabulary's words of UNSURE_LETTERS letters (see _unsure_words)."""
    shortest, longest = UNSURE_LETTERS
    return frozenset(w for w in _vocabulary()[0] if shortest <= len(w) <= longest)


def _keyed(keys: np.ndarray) -> set[str]:
    """The vocabulary's words of NEAR_LETTERS letters that have any of ``keys`` (see _blanked)."""
    words, order, ordered = _near_keys()
    keys = np.unique(keys)
    lo, hi = np.searchsorted(ordered, keys, "left"), np.searchsorted(ordered, keys, "right")
    counts = hi - lo
    at = np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
    return set(words[np.unique(order[at])].tolist())


def _codes(words: list[str]) -> np.ndarray:
    """(len(words), their length) letter codes, A = 1 (words of one length)."""
    return np.array([[ord(ch) - 64 for ch in w] for w in words], np.int64).reshape(len(words), -1)


def _blanked(codes: np.ndarray) -> np.ndarray:
    """(n, L) int64 keys of each row of letter codes ``codes`` (n, L) with one letter blanked in turn: equal keys,
    equal words but for that letter."""
    place = 32 ** np.arange(codes.shape[1], dtype=np.int64)
    return (codes @ place)[:, None] + (BLANK - codes) * place


@functools.cache
def _near_keys() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the vocabulary's words of NEAR_LETTERS letters; for each of their keys (see _blanked) in sorted order, its
    word's index; those keys)."""
    words = [w for w in _vocabulary()[0]
             if NEAR_LETTERS[0] <= len(w) <= NEAR_LETTERS[1] and w.isascii() and w.isalpha()]
    words.sort(key=len)
    keys = np.concatenate([_blanked(_codes(of_n)).ravel() for n in range(NEAR_LETTERS[0], NEAR_LETTERS[1] + 1)
                           if (of_n := [w for w in words if len(w) == n])])
    word_of = np.repeat(np.arange(len(words)), [len(w) for w in words])
    order = np.argsort(keys, kind="stable")
    return np.array(words, object), word_of[order], keys[order]


def guess(key: str, words: tuple[str, ...]) -> str | None:
    """The one word of ``words`` nearest ``key`` within GUESS_SHARE of its length in edits, if there is one; of
    equally near words, not one held in another (the grid spells AILING because it spells SAILING: BALING is
    SAILING), then the one as long as ``key`` (OCR substitutes letters more often than it adds or drops them:
    PLAREY is PLANET, not PLANE)."""
    near: dict[int, list[str]] = {}
    for w in words:
        budget = int(GUESS_SHARE * len(w))
        if abs(len(w) - len(key)) <= budget:
            d = edit_distance(key, w)
            if d <= min(budget, len(key) / 2):  # nor more than half the letters read: ROR is too little for ARBOR
                near.setdefault(d, []).append(w)
    if not near:
        return None
    least = min(near)

    def plain(w: str) -> str:
        """``w``'s word where ``w`` is a plural or past form of one of ``words`` as near as it: lists are mostly
        singular, and a chance S after a placed FORK spells FORKS ("FORIC", a hand-lettered K read as IC, is
        FORK)."""
        return next((s for s in uninflected(w) if s in words and edit_distance(key, s) <= least), w)

    nearest = list(dict.fromkeys(map(plain, near[least])))
    whole = [w for w in nearest if not any(w != v and w in v for v in nearest)]
    length = min(abs(len(w) - len(key)) for w in whole)
    best = [w for w in whole if abs(len(w) - len(key)) == length]
    return best[0] if len(best) == 1 else None


@functools.cache
def _english() -> frozenset[str]:
    from english_words import get_english_words_set

    return frozenset(get_english_words_set(["web2"], lower=True, alpha=True))


def correct_entries(texts: list[tuple[str, str]], letters: list[str],
                    confs: list[float] | None = None) -> list[tuple[WordEntry, str]]:
    """[(WordEntry, status)] for (read, cleaned) pairs read with confidences ``confs`` (0..100), corrected
    against the grid rows ``letters``. status is that of ``correct``."""
    ascii_only = all(ch.isascii() for row in letters for ch in row)
    rests = [_after_mark(t) for _, t in texts]
    matches = grid_matches([grid_key(t, ascii_only) for _, t in texts] + [grid_key(r, ascii_only) for r in rests],
                           letters)
    apart = [_unjoined(t) for _, t in texts]  # looked up exactly: searched fuzzily, 13 entries took 45 ms, not 6
    spelt = _spelt(tuple(dict.fromkeys(grid_key(v, ascii_only) for vs in apart for v in vs)), tuple(letters))
    out = []
    for (read, text), rest, variants, conf in zip(texts, rests, apart, confs or [0.0] * len(texts)):
        key, rest_key = grid_key(text, ascii_only), grid_key(rest, ascii_only)
        word, status = correct(text, matches.get(key, set()), ascii_only, conf)
        if status != "exact" or (len(key) <= 3 and not _common(key)):
            joined = [v for v in variants if grid_key(v, ascii_only) in spelt and all(_is_word(t) for t in v.split())]
            if len(joined) == 1:
                word, status = joined[0], "corrected"  # two blurred letters read as one that they look like
        if status != "exact" and rest and rest_key in matches.get(rest_key, ()) and \
                all(_is_word(t) for t in rest.split()):
            word, status = rest, "corrected"  # a mark read as a letter or two before a word the grid holds
        marked = _after_mark(word)  # a grid string: so is its rest
        mark_key = grid_key(marked, ascii_only)
        if status in ("exact", "corrected") and len(grid_key(word, ascii_only)) == len(mark_key) + 1 and \
                len(mark_key) >= MARKED_WORD and all(_is_word(t) for t in marked.split()):
            word, status = marked, "corrected"
        if status == "exact" and len(key) >= 4 and not all(_is_word(t) for t in text.split()):
            whole = _whole_word(key, letters) or _unmarked(key)
            if whole is not None:
                word, status = whole, "corrected"
        out.append((WordEntry(read=read, word=word, corrected=status == "corrected"), status))
    return out


def _unjoined(text: str) -> list[str]:
    """``text`` with one of its lower-case letters that two blurred ones make (see GLYPHS) read as those two,
    each such way."""
    return [text[:i] + two + text[i + 1:] for i, ch in enumerate(text) for one, two in GLYPHS if ch == one]


def _after_mark(text: str) -> str:
    """The entry after a first word of one or two letters (a bullet, box or number misread: KR BASEBALL), or ''."""
    first, _, rest = text.partition(" ")
    return rest if rest and len(grid_key(first)) <= 2 else ""


def _whole_word(fragment: str, letters: list[str]) -> str | None:
    """The one dictionary word the grid spells with ``fragment`` plus one more cell at either end, if exactly one:
    Tesseract drops a first or last letter that touches a mark (IGER for TIGER), and the fragment, being part of
    the word in the grid, is found there as read. Its caller asks only of fragments of 4 letters or more: any grid
    spells pairs and triples many times (LL made ELL of a speck's reading, VER made OVER)."""
    from solver import DIRECTIONS, solve

    rows, cols = len(letters), len(letters[0])
    found = set()
    for occ in solve(letters, [fragment])[0].occurrences:
        dr, dc = DIRECTIONS[occ.direction]
        (r0, c0), (r1, c1) = occ.cells[0], occ.cells[-1]
        for (r, c), before in (((r0 - dr, c0 - dc), True), ((r1 + dr, c1 + dc), False)):
            if 0 <= r < rows and 0 <= c < cols:
                candidate = letters[r][c] + fragment if before else fragment + letters[r][c]
                if _is_word(candidate):
                    found.add(candidate)
    return found.pop() if len(found) == 1 else None


def _unmarked(key: str) -> str | None:
    """The one vocabulary word ``key`` is with a letter more at either end, if exactly one: a bullet or dash
    touching the word is read as a letter (a night photo's "• lily" read eLILY, which the grid spells, LILY and a
    chance E before it)."""
    found = {key[1:], key[:-1]} & _vocabulary_set()
    return found.pop() if len(found) == 1 else None


# -----------------------------------------------------------------------------------------------------------------
# Image side: upright view, mask, OCR, lines, entries


def _page_transform(image_shape: tuple[int, ...], corners: np.ndarray | None) -> np.ndarray:
    """3x3 map from image px to an upright view of the page in which the grid is an axis-aligned rectangle.

    A full homography (undoes photo perspective) unless that blows the page up; then rotation only.
    """
    h, w = image_shape[:2]
    if corners is None:
        return np.eye(3)
    c = np.asarray(corners, np.float64)
    gw = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2
    gh = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2
    rect = np.array([[0, 0], [gw, 0], [gw, gh], [0, gh]], np.float64)
    page = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    H = cv2.getPerspectiveTransform(c.astype(np.float32), rect.astype(np.float32))
    den = (np.c_[page, np.ones(4)] @ H.T)[:, 2]
    if np.all(den > 0.2):
        warped = cv2.perspectiveTransform(page[None], H)[0]
        if cv2.contourArea(warped.astype(np.float32)) < 3.0 * w * h:
            return H
    top = (c[1] - c[0]) + (c[2] - c[3])
    angle = np.arctan2(top[1], top[0])
    cos, sin = np.cos(-angle), np.sin(-angle)
    return np.array([[cos, -sin, 0], [sin, cos, 0], [0, 0, 1]])


def _fit(H: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, tuple[int, int]]:
    """``H`` followed by the translation that puts the whole transformed page at the origin, and its size."""
    h, w = shape[:2]
    page = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64)
    warped = cv2.perspectiveTransform(page, H)[0]
    x0, y0 = warped.min(axis=0)
    x1, y1 = warped.max(axis=0)
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]]) @ H
    return T, (int(np.ceil(x1 - x0)), int(np.ceil(y1 - y0)))


def _denoise(gray: np.ndarray) -> tuple[np.ndarray, bool]:
    """(the page median-filtered if grainy or speckled, whether it was): mean deviation from the 3x3 median over
    NOISE_LEVEL grey levels, up to three passes; clean pages (fine text also deviates, but less) are left as
    they are."""
    level, grainy = NOISE_LEVEL, False
    for _ in range(3):
        smooth = cv2.medianBlur(gray, 3)
        if float(np.mean(cv2.absdiff(gray, smooth))) < level:
            break
        gray, level, grainy = smooth, NOISE_LEVEL / 2, True  # once known to be grainy, clean it harder
    return gray, grainy


def _window(T: np.ndarray, size: tuple[int, int], corners: np.ndarray,
            reach: float = REACH) -> tuple[np.ndarray, tuple[int, int]]:
    """Restrict the upright view to the part of the page within ``reach`` grid sizes of the grid (where lists are
    printed), so a big photo or a two-page spread costs no more to read than the grid's surroundings."""
    q = cv2.perspectiveTransform(np.asarray(corners, np.float64)[None], T)[0]
    lo, hi = q.min(axis=0), q.max(axis=0)
    reach = reach * float(max(hi - lo))
    x0, y0 = np.maximum(lo - reach, 0)
    x1, y1 = np.minimum(hi + reach, size)
    shift = np.array([[1, 0, -np.floor(x0)], [0, 1, -np.floor(y0)], [0, 0, 1]])
    return shift @ T, (int(np.ceil(x1 - np.floor(x0))), int(np.ceil(y1 - np.floor(y0))))


def _flatten(gray: np.ndarray, text_px: float | None = None) -> np.ndarray:
    """Dark text on white whatever the paper: each pixel divided by its local background.

    The background is a max filter (right for any text size on clean paper), or, given the text height, the
    median of a window three text heights wide: on grainy pages that sees through the grain and evens out a
    tinted box behind the list, where a max filter picks up the brightest grains.
    """
    if text_px is None:
        return imaging.flatten(gray, imaging.paper(gray, max(15, (min(gray.shape) // 30) | 1), box=True))
    k = max(15, int(3 * text_px))
    shrink = 4 if k >= 40 else 1  # a large median filter is cheap on a quarter-size image
    level = imaging.paper(gray, k // shrink, method="median", shrink=shrink)
    return imaging.flatten(gray, np.maximum(level, cv2.GaussianBlur(gray, (0, 0), 3)))


def _stretch(flat: np.ndarray) -> np.ndarray:
    """Faint print (grey or pastel text) stretched to full contrast: the darkest 0.5% of the page is mapped to
    near black. Pages that already hold dark ink are left alone (stretching them only darkens grain)."""
    dark = float(np.percentile(flat, 0.5))
    if dark < 120:
        return flat
    scale = 215.0 / max(255.0 - dark, 1.0)
    return np.clip(255.0 - (255.0 - flat.astype(np.float32)) * scale, 0, 255).astype(np.uint8)


def _ink_height(flat: np.ndarray, pitch: float | None = None) -> float | None:
    """Height of the smaller letter-like ink blobs of a flattened page (INK_QUANTILE of them, height-weighted;
    specks, rules and artwork fail the size or fill tests); None when there are none. Given the grid's cell
    ``pitch``, only blobs within LIST_INK_PITCHES of it count: a big title or the shadow of the sheet's edge
    would otherwise outweigh the small print of a list (and small print may be under 6 px)."""
    h, w, area = _ink_blobs(flat)
    low, high = (6, flat.shape[0] / 6) if not pitch else (max(3.0, LIST_INK_PITCHES[0] * pitch),
                                                          LIST_INK_PITCHES[1] * pitch)
    sized = (h >= low) & (h <= high) & (area >= 0.3 * low * low) & (area <= 0.9 * h * w) & (area >= 0.1 * h * w)
    keep = sized & (w <= 2 * h)
    if keep.sum() < 3:  # blurred small print: each word one blob, as tall as its letters
        keep = sized & (w <= WORD_BLOB * h)
    if keep.sum() < 3:
        return None
    h = np.sort(h[keep]).astype(np.float64)
    cum = np.cumsum(h)  # height-weighted: a letter outweighs a speck that just passed the tests
    return float(h[np.searchsorted(cum, INK_QUANTILE * cum[-1])])


def _ink_blobs(flat: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(heights, widths, areas) of the blobs of ink of a flattened page (see _ink_height, _small_print)."""
    _, _, stats, _ = cv2.connectedComponentsWithStats((flat < BLOB_LEVEL).astype(np.uint8), connectivity=8)
    return stats[1:, cv2.CC_STAT_HEIGHT], stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_AREA]


def _small_print(flat: np.ndarray, ink: float | None) -> float | None:
    """The height of the page's word-shaped blobs of ink (a word of blurred print is one blob) under SMALL_PRINT[0]
    of its letter height ``ink``, when there are at least SMALL_PRINT[1] of them; else None. The letter height is
    the larger letters' (specks pass for small ones): on a worksheet photographed at night, a title's 24 px
    capitals set the scale for a list of 8 px words that Tesseract then could not read."""
    if not ink:
        return None
    h, w, area = _ink_blobs(flat)
    words = ((h >= 3) & (h < SMALL_PRINT[0] * ink) & (w > 2 * h) & (w <= WORD_BLOB * h)
             & (area >= 0.1 * h * w) & (area <= 0.9 * h * w))
    return float(np.median(h[words])) if words.sum() >= SMALL_PRINT[1] else None


def _sheet(gray: np.ndarray, grid: np.ndarray, pitch: float) -> np.ndarray | None:
    """Boolean mask of the sheet the grid is printed on when it lies on a darker ground (a table, a cloth at
    night): where the paper level, a median a few cells wide, is at least SHEET_LEVEL of the paper's, connected to
    the grid (``grid``: a polygon), holes (dark panels) filled, grown by half a cell. The paper's level is the
    brighter of the level under the grid and a cell round it: a white-on-dark grid is a dark panel, and the level
    under it let a dark table pass for the sheet; round such a panel, it is the ring's brighter part (RING_PAPER).
    None when no such ground is in view (a scan, a page filling the photo). Photo background turns to noise when
    flattened: Tesseract reads it slowly, as junk."""
    shrink = max(1, int(pitch // 3))
    h, w = gray.shape[:2]
    small = cv2.resize(gray, (max(1, w // shrink), max(1, h // shrink)), interpolation=cv2.INTER_AREA)
    level = imaging.paper(small, 3 * pitch / shrink, method="median")
    inside = cv2.fillPoly(np.zeros(small.shape, np.uint8), [np.round(grid / shrink).astype(np.int32)], 1) > 0
    if not inside.any():
        return None
    cell = max(1, round(pitch / shrink))
    ring = cv2.dilate(inside.astype(np.uint8), np.ones((2 * cell + 1, 2 * cell + 1), np.uint8)) > 0
    ring &= ~inside
    under = float(np.median(level[inside]))
    paper = max(under, float(np.median(level[ring])) if ring.any() else 0.0)
    if under < SHEET_LEVEL * paper:  # a dark panel (so a ring there), which darkens the level of the ring round it
        paper = float(np.percentile(level[ring], RING_PAPER))
    page = (level >= SHEET_LEVEL * paper) | inside
    _, labels = cv2.connectedComponents(page.astype(np.uint8), connectivity=4)
    page = np.isin(labels, np.unique(labels[inside]))
    _, labels = cv2.connectedComponents((~page).astype(np.uint8), connectivity=4)
    edge = np.unique(np.r_[labels[0], labels[-1], labels[:, 0], labels[:, -1]])
    page = ~np.isin(labels, edge[edge > 0])  # holes in the sheet are part of it
    grow = max(1, round(0.5 * pitch / shrink))
    page = cv2.dilate(page.astype(np.uint8), np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    if page.mean() > 0.98:
        return None
    return cv2.resize(page, (w, h), interpolation=cv2.INTER_NEAREST) > 0


def _prepare(image: np.ndarray, grids: list[np.ndarray], main: np.ndarray | None,
             pitch: float | None, reach: float = REACH,
             small: bool = False) -> tuple[np.ndarray, np.ndarray, bool] | None:
    """(OCR-ready gray image with the grids blanked, 3x3 map image px -> that image's px, whether the print is
    soft). ``main``: the corners of the grid the list belongs to (None: the whole image is the list); ``pitch``:
    its cell size in image px; ``reach``: the page is cut to this many grid sizes round it (see _window).
    ``small``: scaled for the page's small print (see _small_print) instead of its letters; None when it has
    none."""
    if image.ndim == 3:  # the darkest channel: coloured print (orange, pink, red) turns dark like black print
        gray = imaging.extremes(image)[1]
    else:
        gray = image
    if imaging.blockiness(gray) >= imaging.BLOCKY:
        # Smoothed where JPEG's squares are still square: flattening and sharpening a night photo's list would
        # make each block a letter-sized patch of ink. (Not the grid's cells: the letter models learnt them.)
        gray = imaging.deblock(gray)
    T, size = _fit(_page_transform(image.shape, main), image.shape)
    if main is not None:
        T, size = _window(T, size, main, reach)
    shrink = min(1.0, float(np.sqrt(WORK_PIXELS / max(size[0] * size[1], 1))))
    if shrink < 1.0:  # big photos: their print is large, and flattening 12 MP would cost seconds
        T = np.diag([shrink, shrink, 1.0]) @ T
        size = (max(1, int(size[0] * shrink)), max(1, int(size[1] * shrink)))
    gray = cv2.warpPerspective(gray, T, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                               borderValue=float(np.median(gray[::4, ::4])))
    if main is not None and pitch:  # the cell pitch in the upright view's pixels
        c = np.asarray(main, np.float64)
        q = cv2.perspectiveTransform(c[None], T)[0]
        pitch *= float(np.linalg.norm(q[1] - q[0]) / max(np.linalg.norm(c[1] - c[0]), 1e-6))
    masks = []
    for quad in grids:
        q = cv2.perspectiveTransform(np.asarray(quad, np.float64)[None], T)[0]
        centre = q.mean(axis=0)
        margin = 0.3 * (pitch or 0.0) + 3.0
        grown = centre + (q - centre) * (1 + margin / np.maximum(np.linalg.norm(q - centre, axis=1, keepdims=True),
                                                                 1))
        masks.append(np.round(grown).astype(np.int32))
    keep = np.ones(gray.shape, np.uint8)  # 0: blanked (the grids, the ground around the sheet)
    cv2.fillPoly(keep, masks, 0)
    sheet = _sheet(gray, masks[0], pitch) if main is not None and pitch else None
    if _light_on_dark(gray, masks, keep == 0, pitch, sheet):
        gray = 255 - gray
    if sheet is not None:
        keep[~sheet] = 0
        ys, xs = np.nonzero(sheet)
        x0, y0 = int(xs.min()), int(ys.min())
        gray, keep = gray[y0:ys.max() + 1, x0:xs.max() + 1], keep[y0:ys.max() + 1, x0:xs.max() + 1]
        sheet = sheet[y0:ys.max() + 1, x0:xs.max() + 1]
        T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]]) @ T
    smooth, grainy = _denoise(gray)
    flat = _flatten(gray)
    flat[keep == 0] = 255
    ink = _ink_height(_stretch(flat), pitch)
    if ink is None and sheet is not None:  # no print seen: the frame of ground round the sheet may be the darkest
        keep[_frame(flat, ~sheet, FRAME_PITCH * pitch)] = 0
        flat[keep == 0] = 255
        ink = _ink_height(_stretch(flat), pitch)
    if grainy and (ink is None or ink >= THIN_INK):
        gray = smooth
        flat = _flatten(gray)
        flat[keep == 0] = 255
        ink = _ink_height(_stretch(flat), pitch)
    if grainy and ink:
        flat = _flatten(gray, ink)
        flat[keep == 0] = 255
    flat = _stretch(flat)
    ink = _ink_height(flat, pitch) or ink
    if small:
        ink = _small_print(flat, ink)
        if ink is None:
            return None
    soft = bool(ink) and imaging.edge_width(flat) > SOFT_EDGE * ink
    blank = keep == 0
    if soft:
        blank |= _frame(flat, ~sheet if sheet is not None else np.zeros(flat.shape, bool), FRAME_INK * ink)
    if not blank.all():
        paper = float(np.median(flat[~blank]))
        if paper < GREY_PAPER or soft:
            # Blanked at the paper's own level, not white: Tesseract thresholds the page globally, and a white
            # expanse beside grey grainy paper puts the whole paper on the ink side.
            flat[blank] = paper
    if soft:
        if imaging.grain(flat) >= GRAIN_LEVEL:  # smoothed at a stroke's scale before the sharpening below
            flat = cv2.GaussianBlur(flat, (0, 0), GRAIN_SMOOTH * ink)
    scale = float(np.clip(TARGET_INK_PX / ink, 0.4, 4.0)) if ink else 1.0
    scale = min(scale, np.sqrt(MAX_OCR_PIXELS / flat.size))
    if abs(scale - 1.0) > 0.1:
        flat = cv2.resize(flat, None, fx=scale, fy=scale,
                          interpolation=cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA)
        T = np.diag([scale, scale, 1.0]) @ T
    if soft:
        flat = imaging.sharpen(flat, SHARPEN_INK * ink * scale, SHARPEN_AMOUNT)
    return flat, T, soft


def _frame(flat: np.ndarray, ground: np.ndarray, width: float) -> np.ndarray:
    """Boolean mask of the dark strip of table and shadow left round a sheet (``ground``: the blanked
    surroundings, see _sheet; none when the page fills the picture): ink too thick for print strokes (it holds
    a square ``width`` px wide) that comes within that width of the ground or touches the picture's edge, grown
    over its soft edge. Such a frame makes Tesseract's layout analysis take the page for a picture and lose the
    list. The grid masks do not count as ground: bold title letters touch them."""
    k = max(3, int(width))
    dark = (flat < BLOB_LEVEL).astype(np.uint8)
    thick = cv2.morphologyEx(dark, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    _, labels = cv2.connectedComponents(thick, connectivity=8)
    edge = cv2.dilate(ground.astype(np.uint8), np.ones((2 * k + 1, 2 * k + 1), np.uint8)) > 0
    edge[[0, -1], :] = True
    edge[:, [0, -1]] = True
    touching = np.unique(labels[edge & (thick > 0)])
    frame = np.isin(labels, touching[touching > 0]).astype(np.uint8)
    return cv2.dilate(frame, np.ones((k, k), np.uint8)) > 0


def _light_on_dark(gray: np.ndarray, masks: list[np.ndarray], grids: np.ndarray, pitch: float | None,
                   sheet: np.ndarray | None = None) -> bool:
    """Whether the print around the main grid (the first of ``masks``, the grids' polygons; ``grids``: the pixels
    they cover) is light on a dark ground. Given the ``sheet`` it is printed on (see
    _sheet), judged on the sheet a cell clear of its edge (the step from a dark table to the paper would outweigh
    faint print); else on a ring two cells wide outside the grid, not on the whole photo, whose background
    (a table, a wall) may be darker than the page. Either way half a cell clear of the grid: a white-on-dark
    grid's panel reaches past its letters, and the paper along the panel's edge stands out from it like light
    print (a list printed dark on light above or below such a grid was read inverted, as nothing). With no grid,
    on the whole picture."""
    window = round(pitch) if pitch else max(gray.shape) // 20
    if not masks:
        return imaging.light_on_dark(gray, window)
    cell = max(3.0, pitch or 10.0)
    clear = cv2.dilate(grids.astype(np.uint8), np.ones((int(cell) | 1,) * 2, np.uint8)) == 0
    if sheet is not None:
        inner = cv2.erode(sheet.astype(np.uint8), np.ones((2 * window + 1, 2 * window + 1), np.uint8)) > 0
        if np.count_nonzero(inner & clear) >= 0.25 * np.count_nonzero(sheet & ~grids):
            return imaging.light_on_dark(gray, window, inner & clear)
    grid = cv2.fillPoly(np.zeros(gray.shape, np.uint8), masks[:1], 1)
    ring = cv2.dilate(grid, np.ones((int(5 * cell) | 1,) * 2, np.uint8))
    return imaging.light_on_dark(gray, window, (ring > 0) & clear)


def _lines(boxes: list) -> list[list]:
    """Group Tesseract word boxes into text lines (same baseline band), each sorted left to right."""
    lines: list[list] = []
    middles: list[float] = []  # each line's median centre and height, kept as it grows (noisy photos
    heights: list[float] = []  # give hundreds of boxes: recomputing them per box cost seconds)
    for b in sorted(boxes, key=lambda b: b.top + b.height / 2):
        cy = b.top + b.height / 2
        for i, line in enumerate(lines):
            if abs(cy - middles[i]) < 0.45 * min(heights[i], b.height) and 0.5 < b.height / heights[i] < 2.0:
                line.append(b)
                middles[i] = statistics.median(x.top + x.height / 2 for x in line)
                heights[i] = statistics.median(x.height for x in line)
                break
        else:
            lines.append([b])
            middles.append(cy)
            heights.append(float(b.height))
    return [sorted(line, key=lambda b: b.left) for line in lines]


def _split_line(line: list) -> list[list]:
    """Split a line's words into runs separated by gaps wider than ENTRY_GAP text heights (list columns)."""
    h = float(np.median([b.height for b in line]))
    runs, run = [], [line[0]]
    for prev, b in zip(line, line[1:]):
        if b.left - (prev.left + prev.width) > ENTRY_GAP * h:
            runs.append(run)
            run = []
        run.append(b)
    runs.append(run)
    return runs


def _split_at_columns(run: list, starts: np.ndarray) -> list[list]:
    """Split a run of words where a word starts at a list column (two other runs start there too) or is an entry's
    number: list columns set close together read as one line ("summer robot", "2. Oven 7. Mug")."""
    h = float(np.median([b.height for b in run]))
    parts, part = [], [run[0]]
    for prev, b in zip(run, run[1:]):
        gap = b.left - (prev.left + prev.width)
        column = np.count_nonzero(np.abs(starts - b.left) < 0.5 * h) >= 2
        if (gap > 0.5 * h and column) or (gap > 0 and NUMBER.match(b.text.strip())):
            parts.append(part)
            part = []
        part.append(b)
    parts.append(part)
    return parts


def _runs(boxes: list) -> list[tuple[list, bool]]:
    """(run, whether it is a title's line) for Tesseract's word ``boxes`` that hold text: each line of a title
    whole, the other lines split into runs at wide gaps (see _split_line)."""
    out = []
    for line in _lines([b for b in boxes if b.text and b.text.strip()]):
        title = bool(TITLE.search(" ".join(b.text for b in line)))
        out += [(line, True)] if title else [(run, False) for run in _split_line(line)]
    return out


def _candidates(boxes: list) -> list[_Entry]:
    """Candidate list entries from word boxes: titles, sentences and page furniture dropped, text cleaned."""
    runs = [run for run, title in _runs(boxes) if not title]
    starts = np.array([run[0].left for run in runs], np.float64)
    out = []
    for run in runs:
        raw = " ".join(b.text.strip() for b in run)
        if len(run) >= SENTENCE_WORDS or FURNITURE.search(raw) or re.search(r"[?!:]\s*$|[?!]", raw):
            continue
        for part in _split_at_columns(run, starts):
            entry = _entry(part)
            if entry is not None and len(entry.text.split()) <= MAX_ENTRY_WORDS and len(grid_key(entry.text)) >= 3:
                out.append(entry)
    return out


def _sentences(boxes: list[tuple[int, int, int, int]], h: float) -> list[tuple[int, int, int, int]]:
    """The blobs of ink (``boxes``, x0, y0, x1, y1) that stand in a run of SENTENCE_WORDS or more along a line, each
    within a word gap (ENTRY_GAP text heights ``h``) of the next: a sentence, though Tesseract made out too little
    of it to tell (a night photo's instructions, read "TAS TAIT ... IT AR", fitted RUTTER and BOONE); a list's
    columns stand further apart."""
    after = wordspot.next_on_line(boxes, ENTRY_GAP * h, overlap=False)
    out: set[int] = set()
    for first in set(range(len(boxes))) - set(after.values()):
        run = [first]
        while run[-1] in after and after[run[-1]] not in run:
            run.append(after[run[-1]])
        if len(run) >= SENTENCE_WORDS:
            out.update(run)
    return [boxes[i] for i in sorted(out)]


def _prose(boxes: list) -> list:
    """Tesseract's word ``boxes`` that stand in a title's line or in a sentence (see _candidates), however unsurely
    read."""
    return [b for run, title in _runs(boxes) if title or len(run) >= SENTENCE_WORDS for b in run]


def _entry(run: list) -> _Entry | None:
    """The entry read from a run of word boxes, None when it holds no word."""
    raw = " ".join(b.text.strip() for b in run)
    text = clean_entry(raw)
    if text is None:
        return None
    box = (min(b.left for b in run), min(b.top for b in run),
           max(b.left + b.width for b in run), max(b.top + b.height for b in run))
    return _Entry(raw=raw, text=text, box=box, height=float(np.median([b.height for b in run])),
                  conf=float(min(b.conf for b in run)), boxes=list(run))


def _level(a: _Entry, b: _Entry) -> bool:
    """Whether two entries stand on one line: their boxes overlap by half the smaller one's text height."""
    return min(a.box[3], b.box[3]) - max(a.box[1], b.box[1]) >= 0.5 * min(a.height, b.height)


def _join_split(entries: list[_Entry], judged: list, letters: list[str]) -> tuple[list[_Entry], list]:
    """Join neighbours on a line that the grid holds as one run (a monospace space is as wide as a column gap:
    "GRIZZLY" + "BEAR" is the entry "GRIZZLY BEAR" when GRIZZLYBEAR is in the grid, or near a grid string), unless
    the second is numbered or bulleted, or both are grid words as read and the grid holds them joined only nearly
    (a lower-case list's "passport" and, a column on, "visa": the grid's PASSPORT runs on into ASSA, two off)."""
    order = sorted(range(len(entries)), key=lambda i: (entries[i].box[1], entries[i].box[0]))
    out_entries, out_judged, skip = [], [], set()
    for n, i in enumerate(order):
        if i in skip:
            continue
        for j in order[n + 1:]:
            # left and right by position: a lower-case word's box may start higher than the word before it (trip
            # after road, its t taller than the d), so the one read first need not be the first
            a, b = sorted((entries[i], entries[j]), key=lambda e: e.box[0])
            gap = b.box[0] - a.box[2]
            if (j not in skip and 0 < gap < 3 * a.height and _level(a, b)
                    and {judged[i][1], judged[j][1]} <= {"exact", "near", "corrected"}
                    and not LEADER.match(b.raw)):  # a numbered or bulleted word starts an entry of its own
                joined = _entry(a.boxes + b.boxes)
                verdict = correct_entries([(joined.raw, joined.text)], letters, [joined.conf])[0]
                apart = judged[i][1] == judged[j][1] == "exact"  # each a grid word as read: joined, no nearer
                if _confirmed(verdict) and len(grid_key(joined.text)) >= 6 and (verdict[1] == "exact" or not apart):
                    out_entries.append(joined)
                    out_judged.append(verdict)
                    skip.add(j)
                    break
        else:
            out_entries.append(entries[i])
            out_judged.append(judged[i])
    return out_entries, out_judged


def _rejoined(reading: tuple, letters: list[str]) -> tuple:
    """``reading`` (see _choose) with two listed entries side by side, a word gap apart or less, whose words joined
    the grid spells as read, 6 letters or more, made one entry, where not both were read as the grid holds them:
    Tesseract splits a word at a hyphen, and the parts become grid words only once judged on their print (a night
    photo's "Space-Time", read `Sgacy` and `Tim`, then SPACE and TIME)."""
    entries, judged, chosen, trusted = reading
    judged, chosen = list(judged), list(chosen)
    for i in list(chosen):
        for j in list(chosen):
            a, b = entries[i], entries[j]
            if i == j or i not in chosen or j not in chosen or {judged[i][1], judged[j][1]} == {"exact"}:
                continue
            if not (_level(a, b) and 0 <= b.box[0] - a.box[2] < ENTRY_GAP * min(a.height, b.height)):
                continue
            words = f"{judged[i][0].word} {judged[j][0].word}"
            verdict = correct_entries([(f"{a.raw} {b.raw}", words)], letters, [min(a.conf, b.conf)])[0]
            if verdict[1] == "exact" and len(grid_key(words)) >= 6:
                judged[i] = (WordEntry(read=verdict[0].read, word=verdict[0].word, corrected=True), "corrected")
                chosen.remove(j)
    return entries, judged, chosen, trusted


def _split_unmatched(entries: list[_Entry], judged: list, letters: list[str]) -> tuple[list[_Entry], list]:
    """Split multi-word entries the grid does not know (list columns read as one line: "summer robot") into
    their words when all of them, or all but one, are in the grid. Words of under three letters go (a list's
    number 17 read as "Ar" before TUNA): a grid holds any pair by chance."""
    out_entries, out_judged = [], []
    for entry, verdict in zip(entries, judged):
        if len(entry.boxes) > 1 and verdict[1] in ("absent", "ambiguous"):
            parts = [e for e in (_entry([b]) for b in entry.boxes) if e is not None]
            verdicts = correct_entries([(e.raw, e.text) for e in parts], letters, [e.conf for e in parts])
            known = sum(v[1] in ("exact", "corrected") and len(grid_key(v[0].word)) >= 3 for v in verdicts)
            if len(parts) > 1 and known >= max(1, len(parts) - 1):
                kept = [k for k, e in enumerate(parts) if len(grid_key(e.text)) >= 3]  # as _candidates keeps
                out_entries += [parts[k] for k in kept]
                out_judged += [verdicts[k] for k in kept]
                continue
        out_entries.append(entry)
        out_judged.append(verdict)
    return out_entries, out_judged


def _clusters(entries: list[_Entry]) -> list[list[int]]:
    """Indices of entries grouped into blocks: entries whose boxes come within ~2 text heights of each other, and
    entries on one baseline (the columns of one list, however far apart)."""
    parent = list(range(len(entries)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(entries):
        for j in range(i + 1, len(entries)):
            b = entries[j]
            h = max(a.height, b.height)
            dx = max(a.box[0], b.box[0]) - min(a.box[2], b.box[2])
            dy = max(a.box[1], b.box[1]) - min(a.box[3], b.box[3])
            same_line = abs(a.box[1] + a.box[3] - b.box[1] - b.box[3]) < 0.6 * h and 0.7 < a.height / b.height < 1.4
            if (dx < 3.0 * h and dy < 1.6 * h) or (same_line and dx < 15 * h):
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(len(entries)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _select(entries: list[_Entry], judged: list[tuple[WordEntry, str]],
            words: Callable[[], tuple[str, ...]] | None = None, soft: bool = False) -> tuple[list[int], list, bool]:
    """(indices of the entries that form the word list in reading order, their verdicts, whether the grid vouched for
    them).

    A block of entries is the list when enough of them are confirmed by the grid (found as read with 4+ letters, or
    near a grid string with 5+; these are kept however unsure the OCR was): three, or one found as read and another,
    or one found as read of 5+ letters. When the grid confirms no block (a badly read grid), the block with the most
    confidently read dictionary words is taken if it has at least three and they make half of it. Within a block,
    entries far off the list's text height or read with low confidence are dropped unless the grid vouches for them;
    an entry the grid does not have at all (a misprint, a misread grid, or a stray caption) is kept only when it is
    short, read confidently and lines up with a column of confirmed entries (or, when it is a dictionary word, with
    another confidently read dictionary word: a list column where the grid misread every word). Before that, an
    entry of a block the grid vouches for that is not a grid word as read (nor as corrected) is taken for the one
    grid word near it, if any (``guess``, ``_guessable``; ``words``: the grid's words, asked for only then); it is
    kept, status "guessed", but does not vouch for its block. On ``soft`` print the grid is trusted over confidently
    read dictionary words too. Entries of fewer than three letters never get here (``_candidates``): grids hold any
    pair by chance.
    """
    if not entries:
        return [], judged, True
    groups = _clusters(entries)
    backing = {id(g): [i for i in g if _confirmed(judged[i])] for g in groups}

    free = _unshadowed(words, judged) if words is not None else None

    @functools.cache  # asked for the evidence, the share and the entry itself
    def guessed(i: int) -> str | None:
        return _guess(entries[i], judged[i], free, soft) if free is not None else None

    # A lone 4-letter word is no evidence: a grid of random letters spells several (junk read off a photo's
    # texture found BARE in a puzzle printed without a list, and its hidden words were never looked for); nor are
    # two readings the grid could only correct (of hundreds of specks read off a cloth, CEWRS and Sonr¥ came
    # within two letters of CEWSS and SPORT), unless two more entries of their block guess grid words (a
    # hand-lettered list of six read PPLE, PRIEOT, LINE and NELON). Of small or hand-lettered print Tesseract reads
    # most words a letter or two off: entries that guess a grid word count towards the share, and alone are no
    # evidence.
    def guesses(group: list[int]) -> int:
        return sum(guessed(i) is not None for i in group if i not in backing[id(group)])

    def evidence(group: list[int]) -> bool:
        confirmed = backing[id(group)]
        exact = [i for i in confirmed if judged[i][1] == "exact"]
        return len(confirmed) >= 3 or (bool(exact) and (len(confirmed) > 1 or
                                                        len(grid_key(judged[exact[0]][0].word)) >= 5)) or (
            len(confirmed) == 2 and guesses(group) >= 2)

    wordy = {id(g): [i for i in g if _wordlike(entries[i], judged[i][0])] for g in groups}
    words_read = {id(g): [i for i in g if _wordlike(entries[i], judged[i][0], SHARE_CONF)] for g in groups}

    def share(group: list[int]) -> int:
        """Entries of a block that back it: vouched for, guessing a grid word, or words read at SHARE_CONF (a
        night photo's grid misread TUNA and WAVE; read surely, they still show the block is a list)."""
        return len(backing[id(group)]) + guesses(group) + sum(
            i not in backing[id(group)] and guessed(i) is None for i in words_read[id(group)])

    chosen = [g for g in groups if evidence(g) and share(g) >= 0.4 * len(g)]
    trusted = bool(chosen)
    if not chosen:  # the grid vouches for nothing (misread grid?): the block that reads best as a list of words
        best = max(groups, key=lambda g: len(wordy[id(g)]))
        if len(wordy[id(best)]) >= 3 and len(wordy[id(best)]) >= 0.5 * len(best):
            chosen, backing[id(best)] = [best], wordy[id(best)]
    keep: list[int] = []
    judged = list(judged)
    for group in chosen:
        confirmed = backing[id(group)]
        med = float(np.median([entries[i].height for i in confirmed]))  # the list's own text height
        advance = float(np.median([entries[i].advance for i in confirmed]))
        for i in group:
            e, (entry, status) = entries[i], judged[i]
            # A box taller than the list's text is still list print when its letters are as wide: a speck, a rule
            # or the sharpened grain above or below stretched it (a title's letters are wider too).
            if not (LIST_HEIGHTS[0] < e.height / med < LIST_HEIGHTS[1]
                    or (e.height > med and 0.75 < e.advance / advance < 1.33)):
                continue
            if trusted:
                target = guessed(i)
                if target is not None:
                    judged[i] = (WordEntry(read=entry.read, word=target, corrected=True), "guessed")
                    keep.append(i)
                    continue
            if not _confirmed(judged[i]) and (e.conf < MIN_CONF or all(
                    t.lower() in INSTRUCTION_WORDS for t in entry.word.split())):
                continue
            # A 3-letter entry the grid holds only as several near strings says as little as one it does not
            # hold at all: any 3 letters are one edit from many grid strings.
            absent = status == "absent" or (status == "ambiguous" and len(grid_key(entry.word)) <= 3)
            if absent and not (len(grid_key(entry.word)) >= 3 and len(entry.word.split()) <= 2
                                           and e.conf >= (ABSENT_CONF if _words(entry.word) else TRUSTED_CONF)
                                           and 0.75 < e.height / med < 1.33
                                           and _aligned(e, [entries[j] for j in confirmed + wordy[id(group)]
                                                            if j in confirmed or _wordlike(e, entry)])):
                continue
            keep.append(i)
    seen: set[str] = set()
    ordered = []
    for i in _reading_order(keep, entries):
        key = grid_key(judged[i][0].word)
        if key not in seen:
            seen.add(key)
            ordered.append(i)
    return ordered, judged, trusted


def _in_marked_columns(keep: list[int], entries: list[_Entry], judged: list[tuple[WordEntry, str]]) -> list[int]:
    """``keep`` (the list as read, every reading merged) less, in a numbered or bulleted list (at least a third of
    its entries, and LIST_LEAST, read with their number or bullet: LEADER), the entries read without one that
    start in none of its columns and that the grid does not hold as read, or but for a letter, with 5+ letters:
    grain beside a night photo's numbered list read SLE, Tire, LENE and Apa, which the grid spells or nearly (a
    hand-lettered list's "recipe", read recpe, stands in a column none of whose numbers was read). A column starts
    where an entry read with its mark does, with the mark or with its words, or where two more entries read
    without one do, each within COLUMN_EDGE of the list's text heights and at most COLUMN_LINES lines off: entries
    whose numbers went unread stand where the numbered ones do, or in a column of their own, and the grid holds
    the words of those in a column of which only two were read (SPATULA and TEAPOT, in a night photo's list of
    17)."""
    marked = [i for i in keep if LEADER.match(entries[i].raw)]
    if len(marked) < max(LIST_LEAST, len(keep) / 3):
        return keep
    h = float(np.median([entries[i].height for i in marked]))
    starts = [x for i in marked for x in (entries[i].box[0], _word_box(entries[i])[0])]
    plain = [entries[i] for i in keep if i not in marked]

    def vouched(i: int) -> bool:
        (entry, status), read = judged[i], grid_key(entries[i].text)
        return len(read) >= 5 and status in ("exact", "corrected") and edit_distance(read, grid_key(entry.word)) <= 1

    def in_a_column(e: _Entry) -> bool:
        if any(abs(e.box[0] - x) < COLUMN_EDGE * h for x in starts):
            return True
        mates = [o for o in plain if o is not e and abs(e.box[0] - o.box[0]) < COLUMN_EDGE * h
                 and abs(e.box[1] + e.box[3] - o.box[1] - o.box[3]) / 2 <= wordspot.COLUMN_LINES * h]
        return len(mates) >= LIST_LEAST - 1

    return [i for i in keep if i in marked or vouched(i) or in_a_column(entries[i])]


def _unshadowed(words: Callable[[], tuple[str, ...]],
                judged: list[tuple[WordEntry, str]]) -> Callable[[], tuple[str, ...]]:
    """``words`` (the grid's words, asked for only when needed) but those the grid spells only as part of a word
    an entry is vouched for as (see _confirmed) and the grid holds, to guess from: OWING and WING, of ROWING, were
    guessed from a tiny list's misread DIVING and SKIING."""
    vouched = {grid_key(v[0].word) for v in judged if _confirmed(v) and v[1] != "near"}

    @functools.cache
    def free() -> tuple[str, ...]:
        return tuple(w for w in words() if not any(w != k and w in k for k in vouched))
    return free


def _guess(e: _Entry, judged: tuple[WordEntry, str], words: Callable[[], tuple[str, ...]], soft: bool) -> str | None:
    """The grid word (of ``words()``) an entry the grid does not vouch for as read is taken for (``guess``), if it
    is worth guessing (``_guessable``)."""
    entry, status = judged
    if not _guessable(judged, e.conf, soft):
        return None
    # The grid string an entry was corrected to may be a fragment (KNEE to KEE, not KNIFE): then the entry as read
    # is the better clue.
    rest = _after_mark(e.text)  # a misread number before the word (OH, wurling for 5. surfing)
    found = guess(grid_key(entry.word if status == "corrected" else e.text), words()) or (
        guess(grid_key(e.text), words()) if status == "corrected" else None) or (
        guess(grid_key(rest), words()) if rest else None)
    key = grid_key(entry.word)
    if status == "near" and key == grid_key(e.text) and found is not None and edit_distance(key, found) > \
            edit_budget(key):  # a word kept as read, the grid string it is near nearer than the guess
        return None  # (a hand-lettered BOXING near the grid's misread BOXINC is no ROWING)
    return found


def _guessable(judged: tuple[WordEntry, str], conf: float, soft: bool) -> bool:
    """Whether an entry read with confidence ``conf`` is worth matching to the grid's words loosely: the grid does
    not hold it as read, or holds it only as a string that is not a word (ELLYFISH), or only nearly and the entry
    was not read surely (WATERING CAM), or corrected to a word too short for the grid to vouch for. A dictionary
    word read surely is kept as read (the grid may be misread
    or the puzzle misprinted: OYSTER is not LOBSTER), except on soft print, whose small letters Tesseract reads
    as other words (SHEET for SLEET, BLOCK HOLE)."""
    entry, status = judged
    if status == "exact":  # a short string any grid may hold by chance, unsurely read (CNEL, of CAMEL, at 50)
        return len(grid_key(entry.word)) < 5 and conf < WORDLIKE_CONF and not _words(entry.word)
    if status not in ("absent", "ambiguous", "near", "corrected"):
        return False
    if all(_is_word(t) for t in entry.word.split()):
        if status == "corrected":  # unless to a string too short to vouch for it (KNEE to KEE)
            return not _confirmed(judged)
        return soft or conf < WORDLIKE_CONF
    return True


def _reading_order(indices: list[int], entries: list[_Entry]) -> list[int]:
    """The entries column by column, top to bottom in each: the order a list printed in columns is numbered in."""
    return [i for column in _columns(indices, entries) for i in column]


def _columns(indices: list[int], entries: list[_Entry]) -> list[list[int]]:
    """The entries in columns (runs of overlapping x ranges), left to right, each top to bottom."""
    columns: list[tuple[float, list[int]]] = []
    for i in sorted(indices, key=lambda i: entries[i].box[0]):
        x0, x1 = entries[i].box[0], entries[i].box[2]
        if columns and x0 < columns[-1][0]:
            columns[-1] = (max(columns[-1][0], x1), columns[-1][1] + [i])
        else:
            columns.append((x1, [i]))
    return [sorted(column, key=lambda i: entries[i].box[1]) for _, column in columns]


def _slots(entries: list[_Entry], chosen: list[int], judged: list,
           partial: frozenset[int] = frozenset()) -> list[tuple[float, float, float, float]]:
    """Boxes (x0, y0, x1, y1) of a list printed in columns where an entry is worth reading again on its own: where
    a column has no entry on one of the list's lines (a line another column has an entry on, a whole number of
    line pitches between two entries of the column: Tesseract drops lines of small print, or END_LINES before
    its first or after its last), where the grid does not
    hold its entry as read (a word it holds only nearly stands: the grid was misread, and a less sure reading of it
    would be guessed into another word: OYSTER into LOBSTER), and where its entry is one of ``partial`` (read short
    of its ink)."""
    columns = _columns(chosen, entries)
    h = float(np.median([entries[i].height for i in chosen]))
    centre = {i: (entries[i].box[1] + entries[i].box[3]) / 2 for i in chosen}
    steps = [centre[b] - centre[a] for column in columns for a, b in zip(column, column[1:])
             if centre[b] - centre[a] > 0.5 * h]
    if not steps:
        return []
    pitch = float(np.median(steps))
    pitch = float(np.median([d / max(1, round(d / pitch)) for d in steps]))  # gaps of whole lines count too
    ys = sorted(centre.values())
    for column in columns:
        for a, b in zip(column, column[1:]):
            n = round((centre[b] - centre[a]) / pitch)
            ys += [centre[a] + k * (centre[b] - centre[a]) / n for k in range(1, n)]
        ys += [centre[column[0]] - k * pitch for k in range(1, END_LINES + 1)]
        ys += [centre[column[-1]] + k * pitch for k in range(1, END_LINES + 1)]
    lines: list[list[float]] = []
    for y in sorted(ys):
        if lines and y - lines[-1][-1] < 0.4 * pitch:
            lines[-1].append(y)
        else:
            lines.append([y])
    half = min(0.5 * pitch, 0.8 * h)
    start = {i: next((b.left for b in entries[i].boxes if sum(ch.isalpha() for ch in b.text) >= 2),
                     entries[i].box[0]) for i in chosen}  # where the word itself starts, after a bullet or number
    out = []
    for k, column in enumerate(columns):
        left = float(np.median([start[i] for i in column]))
        flush = sum(abs(start[i] - left) < 0.3 * h for i in column) >= 0.5 * len(column)  # left-aligned column
        x0 = (left if flush else min(start[i] for i in column)) - 0.3 * h  # a bullet is left out: read as a letter
        x1 = max(entries[i].box[2] for i in column) + 0.5 * h
        if k + 1 < len(columns):
            x1 = min(x1, min(entries[i].box[0] for i in columns[k + 1]) - 0.3 * h)
        for line in lines:
            y = float(np.mean(line))
            here = [i for i in column if abs(centre[i] - y) < 0.4 * pitch]
            if not here or any(judged[i][1] not in ("exact", "near") or not _words(judged[i][0].word)
                               or (flush and start[i] - left > 0.5 * h) or i in partial for i in here):
                out.append((x0, y - half, x1, y + half))
    return out


def _aligned(e: _Entry, others: list[_Entry]) -> bool:
    """Whether ``e`` starts, ends or is centred where one of ``others`` is (same list column)."""
    for o in others:
        tol = 0.6 * min(e.height, o.height)
        left, right = abs(e.box[0] - o.box[0]), abs(e.box[2] - o.box[2])
        centre = abs(e.box[0] + e.box[2] - o.box[0] - o.box[2]) / 2
        if o is not e and min(left, right, centre) < tol:
            return True
    return False


def _wordlike(e: _Entry, entry: WordEntry, conf: float = WORDLIKE_CONF) -> bool:
    """Whether an entry reads as a printed list word on its own: confident, short, dictionary words."""
    tokens = entry.word.split()
    return e.conf >= conf and len(tokens) <= 2 and all(_is_word(t) for t in tokens)


def _is_word(token: str) -> bool:
    """A dictionary word, allowing the inflections the dictionary (Webster's 2nd) leaves out (CIGARS, BOXES),
    words joined by hyphens (SPACE-TIME) and the list vocabulary's words it lacks (BACKPACK)."""
    words, listed = _english(), _vocabulary_set()
    return all(t in words or t.upper() in listed
               or any(t.endswith(end) and t[:-len(end)] in words for end in ("s", "es", "ed", "ing"))
               for t in token.lower().split("-"))


def _confirmed(judged: tuple[WordEntry, str]) -> bool:
    """Whether the grid vouches for an entry (short strings occur in any grid by chance, so they do not count)."""
    entry, status = judged
    n = len(grid_key(entry.word))
    return (status == "exact" and n >= 4) or (status in ("corrected", "near") and n >= 5)


def _judge(boxes: list, letters: list[str]) -> tuple[list[_Entry], list]:
    """Word boxes -> (candidate entries, their verdicts against the grid rows ``letters``)."""
    entries = _candidates(boxes)
    judged = correct_entries([(e.raw, e.text) for e in entries], letters, [e.conf for e in entries])
    entries, judged = _split_unmatched(entries, judged, letters)
    return _join_split(entries, judged, letters)


def _choose(entries: list[_Entry], judged: list, letters: list[str], soft: bool) -> tuple:
    """(entries, their verdicts, indices of the list's entries, grid trusted?); ``soft``: the print is soft (see
    _select)."""
    chosen, judged, trusted = _select(entries, judged, functools.partial(_guess_words, tuple(letters)), soft)
    if not trusted:  # a grid that vouches for no entry cannot be trusted to correct them either
        judged = [(WordEntry(read=e.raw, word=e.text), "absent") for e in entries]
    return entries, judged, chosen, trusted


def _merge(a: tuple[list[_Entry], list], b: tuple[list[_Entry], list], words: Callable[[], tuple[str, ...]],
           soft: bool) -> tuple[list[_Entry], list]:
    """The entries of two readings of one page: where both read an entry (boxes overlapping by half the smaller),
    the one the grid backs better (words the grid holds, then one that guesses a grid word (``_guess``: ECUPSE
    for ECLIPSE, not KURSE)), else the one whose text height is nearer the entries the grid vouches for (a box can
    take in a rule or a tick box and be twice as tall, and a reading the grid only knows as a non-word is no
    better than one it does not know: MANET read as LANET, PLAREY), then the one the grid vouches for as read,
    then corrected, then nearly (``BACKING``), then of those the one that reads as words (space-time, not
    spOce-time), then one the grid spells as read (a night photo's "Mug" at 81, not "bata A" at 42), then
    the longer (Tesseract drops end letters: PLANE for PLANET), then the surer (MUG spotted in a night photo's
    "Mug", not MUG corrected from NUG read at 0). An entry overlapping several of
    the other reading's (a word and a speck beside it) replaces them when it ranks above each. Whatever their rank,
    a reading does not replace one whose word holds its own (RAIN of TRAIN), and does replace one whose word is
    part of its own (TELE of TELESCOPE, read in a box that took in a rule)."""
    heights = [e.height for e, v in zip(*a) if _confirmed(v)] or [e.height for e in a[0] + b[0]]
    med = float(np.median(heights)) if heights else 1.0
    words = _unshadowed(words, a[1] + b[1])

    def held(verdict: tuple[WordEntry, str]) -> bool:
        """Whether the grid vouches for a reading of words: read as several words only when it holds them (a
        reading it knows only nearly is one word the grid misread, FLUTE for FLUIE, not several words read into
        its string, RELY BEAR for GRIZZLYBEAR)."""
        word = verdict[0].word
        return _confirmed(verdict) and (_is_word(grid_key(word)) if verdict[1] == "near" else _words(word))

    def rank(entry: _Entry, verdict: tuple[WordEntry, str]) -> tuple:
        off = abs(np.log(max(entry.height, 1.0) / med))
        vouched = _confirmed(verdict)
        return (held(verdict), _guess(entry, verdict, words, soft) is not None, off < 0.3,
                vouched and BACKING.index(verdict[1]), vouched and _words(entry.text), verdict[1] == "exact",
                len(grid_key(verdict[0].word)), -off, entry.conf)

    def fragment(verdict: tuple[WordEntry, str], other: _Entry, its: tuple[WordEntry, str]) -> bool:
        """Whether a reading's word is part of the word another reading guesses or the grid holds as words for it
        (RAIN of TRAIN; not STAR of ESTAR, a string the grid holds by chance, nor RAINBOW of a guessed RAINBOWS:
        a placed word and a chance S after it)."""
        key, guess = grid_key(verdict[0].word), _guess(other, its, words, soft)
        whole = (guess if guess and not inflected(guess, key) else "") or (grid_key(its[0].word) if held(its) else "")
        return key != whole and key in whole

    entries, judged = list(a[0]), list(a[1])
    for e, v in zip(*b):
        same = [i for i, f in enumerate(entries) if _overlap(e.box, f.box)]
        if not same:
            entries.append(e)
            judged.append(v)
        elif all((rank(e, v) > rank(entries[i], judged[i]) or fragment(judged[i], e, v))
                 and not fragment(v, entries[i], judged[i]) for i in same):
            entries[same[0]], judged[same[0]] = e, v
            for i in reversed(same[1:]):
                del entries[i], judged[i]
    return entries, judged


def _listed_letters(reading: tuple) -> int:
    """The letters of the entries a reading (see _choose) lists."""
    return sum(len(grid_key(reading[1][i][0].word)) for i in reading[2])


def _overlap(p: tuple, q: tuple) -> bool:
    """Whether boxes (x0, y0, x1, y1) overlap by half the smaller's area."""
    w = min(p[2], q[2]) - max(p[0], q[0])
    h = min(p[3], q[3]) - max(p[1], q[1])
    smaller = min((p[2] - p[0]) * (p[3] - p[1]), (q[2] - q[0]) * (q[3] - q[1]))
    return w > 0 and h > 0 and w * h > 0.5 * smaller


def _words(text: str) -> bool:
    """Whether each of the text's space-separated tokens is a dictionary word (``_is_word``)."""
    return all(_is_word(t) for t in text.split())


def _unlisted(entries: list[_Entry], chosen: list[int]) -> list[int]:
    """Entries of the list's blocks (see _clusters) left out of the list, at about the list's text height."""
    h = float(np.median([entries[i].height for i in chosen]))
    listed = set(chosen)
    return [i for g in _clusters(entries) if listed & set(g) for i in g
            if i not in listed and LIST_HEIGHTS[0] < entries[i].height / h < LIST_HEIGHTS[1]]


def _unread(flat: np.ndarray, entries: list[_Entry], judged: list,
            chosen: list[int]) -> list[tuple[tuple[float, float, float, float], float]]:
    """(box (x0, y0, x1, y1), text height) of the places of ``flat`` worth reading again alone: the entries of the
    list's blocks left out of it (``_unlisted``), then the places of the list's columns that lack an entry, or hold
    one the grid does not hold as read or that was read short of its ink (``_slots``), where there is ink and no
    entry left out."""
    h = float(np.median([entries[i].height for i in chosen]))
    places = [((e.box[0] - m, e.box[1] - m, e.box[2] + m, e.box[3] + m), e.height)
              for e in (entries[i] for i in _unlisted(entries, chosen)) for m in [0.4 * e.height]]
    partial = frozenset(i for i in chosen if _runs_on(flat, entries[i]))
    return places + [(s, h) for s in _slots(entries, chosen, judged, partial)
                     if _inked(flat, s, h) and not any(_overlap(s, b) for b, _ in places)]


def _read_alone(flat: np.ndarray, place: tuple[tuple[float, float, float, float], float], engine, psm: int,
                seconds: float | None, letters: list[str],
                scale: float = 1.0) -> list[tuple[_Entry, tuple[WordEntry, str]]]:
    """[(the entry, its verdict)] read from a place (box, text height) of ``flat`` alone (page segmentation mode
    ``psm``, resized by ``scale``), no taller than the place's text (a word read alone gets the line's height,
    ascenders, descenders and all); none when it reads as anything but one entry."""
    box, h = place
    entries, judged = _judge(_crop_boxes(flat, box[:2], box[2:], engine, psm, seconds, scale), letters)
    return [(replace(e, height=min(e.height, h)), v) for e, v in zip(entries, judged)] if len(entries) == 1 else []


def _worth(entry: _Entry, verdict: tuple[WordEntry, str], words: Callable[[], tuple[str, ...]], soft: bool) -> bool:
    """Whether an entry read alone is worth merging in: the grid vouches for it and it reads as words as read or
    as corrected (Tesseract reads a word it cannot make out as a fragment the grid holds by chance: MOP,
    INERARY), or it guesses a grid word of 5+ letters (``_guess``: a guess of a doubtful place read alone is no
    evidence for the short words any grid holds by chance: SONG), or it is a common word of three letters read
    surely as the grid holds it (PIG, DOG and CAT at the ends of a night photo's column: the place read is a line
    of the list, which a chance string of the grid is not)."""
    return (_confirmed(verdict) and (_words(entry.text) or _is_word(grid_key(verdict[0].word)))
            or len(_guess(entry, verdict, words, soft) or "") >= 5 or _common_three(entry, verdict))


def _common_three(entry: _Entry, verdict: tuple[WordEntry, str]) -> bool:
    """Whether an entry is a common word of three letters (see _common) read at WORDLIKE_CONF or more as
    the grid holds it."""
    key = grid_key(verdict[0].word)
    return verdict[1] == "exact" and len(key) == 3 and entry.conf >= WORDLIKE_CONF and _common(key)


def _common(key: str) -> bool:
    """Whether a grid key is a word of RARE_THREE_ZIPF or more (Zipf): the bar for words of three letters."""
    from wordfreq import zipf_frequency

    return zipf_frequency(key.lower(), "en") >= RARE_THREE_ZIPF


def _runs_on(flat: np.ndarray, e: _Entry) -> bool:
    """Whether the ink of ``e``'s line runs on past either end of its box, closer than a word space: Tesseract
    left the first or last letters out (PLANE for PLANET, TELE for TELESCOPE)."""
    x0, y0, x1, y1 = (int(v) for v in e.box)
    gap = max(2, int(0.25 * e.height))
    y0, y1 = max(0, y0 + (y1 - y0) // 4), y1 - (y1 - y0) // 4  # the letters' middle: not a neighbour's descender
    sides = (flat[y0:y1, max(0, x0 - gap):max(0, x0 - 1)], flat[y0:y1, x1 + 1:x1 + gap])
    return any(side.size and np.count_nonzero(side < 128) >= 0.1 * e.height for side in sides)


def _inked(flat: np.ndarray, box: tuple[float, float, float, float], h: float) -> bool:
    """Whether a box of ``flat`` holds ink enough for a word of text height ``h`` (about two letters' strokes)."""
    x0, y0, x1, y1 = (max(0, int(v)) for v in box)
    return np.count_nonzero(flat[y0:y1, x0:x1] < 128) >= 0.3 * h * h


def _tighten(flat: np.ndarray, boxes: list) -> list:
    """Word boxes cut down to the run of rows that holds most of their ink in ``flat`` where that run is much
    shorter than the box: Tesseract's box can take in faint marks (show-through, a shaded band above the list)
    and be twice the text's height, and the list's entries are told from titles and captions by their height.
    Boxes that fit their ink are kept as they are (the thresholds on text height are set on them)."""
    out = []
    for b in boxes:
        run = _ink_run(flat[b.top:b.top + b.height, b.left:b.left + b.width])
        if run is not None and run[1] - run[0] < INFLATED * b.height:
            b = replace(b, top=b.top + run[0], height=run[1] - run[0])
        out.append(b)
    return out


def _ink_run(crop: np.ndarray) -> tuple[int, int] | None:
    """(first, last + 1) of the run of rows of ``crop`` that holds most of its ink (darker than halfway from its
    darkest pixel to its paper), gaps of a few rows bridged (thin strokes break up); None when it holds none."""
    if crop.size == 0:
        return None
    rows = np.count_nonzero(crop < (float(crop.min()) + float(np.percentile(crop, 90))) / 2, axis=1)
    edges = np.flatnonzero(np.diff(np.r_[0, rows > 0, 0]))
    if edges.size == 0:
        return None
    starts, ends = edges[::2], edges[1::2]
    apart = starts[1:] - ends[:-1] > max(2.0, 0.15 * len(rows))
    starts, ends = starts[np.r_[True, apart]], ends[np.r_[apart, True]]
    k = int(np.argmax([rows[s:e].sum() for s, e in zip(starts, ends)]))
    return int(starts[k]), int(ends[k])


def _crop_boxes(flat: np.ndarray, lo, hi, engine, psm: int, seconds: float | None, scale: float = 1.0) -> list:
    """Tesseract's word boxes (page segmentation mode ``psm``, for at most ``seconds``: none read when that is
    under Tesseract's millisecond) on the part of ``flat`` between corners ``lo`` and ``hi`` (x, y), resized by
    ``scale`` for reading, cut to their ink (``_tighten``), in ``flat``'s pixels."""
    x0, y0 = np.maximum(np.asarray(lo, np.float64), 0).astype(int)
    x1, y1 = np.minimum(np.asarray(hi, np.float64), flat.shape[::-1]).astype(int)
    if x1 - x0 < 8 or y1 - y0 < 8 or (seconds is not None and seconds < 0.001):
        return []
    crop = flat[y0:y1, x0:x1]
    if np.count_nonzero(crop < INK_LEVEL) < MIN_INK_PX:  # bare paper: Tesseract would threshold its grain to junk
        return []
    if scale != 1.0:
        crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    boxes = [replace(b, left=round(b.left / scale) + x0, top=round(b.top / scale) + y0,
                     width=round(b.width / scale), height=round(b.height / scale))
             for b in engine.read_text(np.ascontiguousarray(crop), psm, seconds)]
    return _tighten(flat, boxes)


def _floored(left: Callable[[], float | None], seconds: float) -> Callable[[], float | None]:
    """Tesseract's time left as ``left`` tells it (None: no limit), but no less than what remains of ``seconds``
    from now."""
    end = time.monotonic() + seconds
    return lambda: None if (t := left()) is None else max(t, end - time.monotonic())


def _along_grid(lo: np.ndarray, hi: np.ndarray, grid_box: tuple[np.ndarray, np.ndarray] | None,
                overlap: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """The parts of the page along the grid beyond a block of list entries (corners ``lo``, ``hi``; x, y), each
    overlapping the block by ``overlap`` px: a list is set out along its grid, below or above it across the
    grid's width, beside it down the grid's height, and columns of it that the page's reading missed
    (show-through or texture round them) lie there. Read on their own, not as one wider block: a wider block
    reads every entry worse."""
    if grid_box is None:
        return []
    g_lo, g_hi = grid_box
    strips = []
    for along, across in ((0, 1), (1, 0)):  # below or above the grid: strips along x; beside it: along y
        middle = (lo[across] + hi[across]) / 2  # the block's margin may reach into the grid: its middle does not
        if g_lo[across] < middle < g_hi[across]:
            continue
        for start, end in ((g_lo[along], lo[along] + overlap), (hi[along] - overlap, g_hi[along])):
            if end - start > 2 * overlap:
                s_lo, s_hi = lo.copy(), hi.copy()
                s_lo[along], s_hi[along] = start, end
                strips.append((s_lo, s_hi))
    return strips


def _run_on(lo: np.ndarray, hi: np.ndarray, e_lo: np.ndarray, e_hi: np.ndarray, h: float,
            size: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The strips of the page (corners lo, hi; x, y) beyond each edge of the part read (``lo``, ``hi``) that the
    list's entries (``e_lo``, ``e_hi``; text ``h`` px high) come within BLOCK_LINES / 2 lines of: each overlaps the
    part read by that much and reaches 2 * BLOCK_LINES lines past it, within the page (``size``). Read on their own,
    as _along_grid's are: the part read and the strip as one block would read every entry worse."""
    near, far = 0.5 * BLOCK_LINES * h, 2 * BLOCK_LINES * h
    strips = []
    for axis in (0, 1):
        if e_hi[axis] > hi[axis] - near and hi[axis] < size[axis] - 1:
            s_lo, s_hi = lo.copy(), hi.copy()
            s_lo[axis], s_hi[axis] = hi[axis] - near, min(hi[axis] + far, size[axis])
            strips.append((s_lo, s_hi))
        if e_lo[axis] < lo[axis] + near and lo[axis] > 1:
            s_lo, s_hi = lo.copy(), hi.copy()
            s_lo[axis], s_hi[axis] = max(lo[axis] - far, 0.0), lo[axis] + near
            strips.append((s_lo, s_hi))
    return strips


def _block(entries: list[_Entry], chosen: list[int], lines: float = 0.0) -> tuple[np.ndarray, np.ndarray, float]:
    """(lo, hi: the corners (x, y) of the box round the ``chosen`` entries, grown by ``lines`` times their median
    text height; that height)."""
    h = float(np.median([entries[i].height for i in chosen]))
    box = np.array([entries[i].box for i in chosen], np.float64)
    return box[:, :2].min(axis=0) - lines * h, box[:, 2:].max(axis=0) + lines * h, h


def _spotted(flat: np.ndarray, reading: tuple, letters: list[str], unsure: tuple,
             grid_box: tuple[np.ndarray, np.ndarray], clear: list[tuple[int, int, int, int]],
             allowance: _Allowance, reach: float = REACH) -> tuple[list[_Entry], list]:
    """(entries, verdicts) of the words wordspot finds on ``flat`` that the list ``reading`` (see _choose) lacks,
    nor holds as part of a word, within SPOT_REACH times ``reach`` grid sizes of the grid (``grid_box``: its lo,
    hi; ``reach``: the reading's, see _read_list: a small photo's long list, read again twice as far round the
    grid, lost its last two words to the spotter's nearer bound), wherever Tesseract's entries are: a night
    photo's column of eleven words, of which Tesseract read one, had its last five beyond the block round that
    one. No word is spotted where Tesseract read words of two letters or more surely (``clear``: their boxes):
    a guess from the grid's words does not overrule print read at 96, such as a sentence of instructions and a
    page number on a page printed without a list (COTIDAL in "Search", CELLO in "Page"); nor in a title or a
    sentence, however unsurely read (see read_word_list). With no entry read, the list's print is the commonest
    on the page, or where no word is spotted in that, the commonest larger one (see _larger_print). The
    spotting takes its work from the list's ``allowance``."""
    entries, judged, chosen = reading[:3]
    h = _block(entries, chosen)[2] if chosen else TARGET_INK_PX  # the list's text height, not its column mates'
    reach = SPOT_REACH * reach * float(max(grid_box[1] - grid_box[0]))
    lo, hi = grid_box[0] - reach, grid_box[1] + reach
    x0, y0 = np.maximum(np.floor(lo), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(hi), flat.shape[::-1]).astype(int)
    crop = flat[y0:y1, x0:x1]
    if crop.size == 0:
        return [], []
    text_h = h  # the list's text height as Tesseract's boxes measure it, the scale _select compares entries on
    # an entry corrected to a string too short for the grid to vouch for is open to a word spotted in its print,
    # however surely it was read (a hand-lettered "train" read "team" at 96, listed as TAM); one read as the grid
    # holds it is not (FLOW fitted the print of "fox"), nor a guess (PULL fitted that of a guessed PIANO)
    def here(b: tuple) -> tuple:
        """A box of ``flat`` in the crop's pixels."""
        return b[0] - x0, b[1] - y0, b[2] - x0, b[3] - y0

    # and so is an unsure reading kept as read where the grid spells a word near it (a night photo's "camera" read
    # Caner at 37, a word, beside the grid's CAMER.. string)
    short = [i for i in chosen if judged[i][1] in ("corrected", "guessed") and not _confirmed(judged[i])
             or judged[i][1] == "near" and entries[i].conf < TRUSTED_CONF]
    reopened = [here(entries[i].box) for i in short]
    taken = [here(entries[i].box) for i in chosen if i not in short]
    read = [b for b in map(here, clear) if not any(_overlap(b, o) for o in reopened)]
    # a list read in lower case holds words no taller than its x-height ("venus" beside "galaxy"); in capitals, a
    # blob that low is part of a word or a speck (the pieces of a thin serif face at night)
    lower = 2 * sum(any(ch.islower() for ch in entries[i].raw) and not any(ch.isupper() for ch in entries[i].raw)
                    for i in chosen) > len(chosen)
    boxes = wordspot.word_boxes(crop, h, lower)
    read += _sentences(boxes, h)
    if chosen:
        # the places of the list's columns that lack an entry, thresholded on their own
        slots = [tuple(int(round(v)) for v in here(b)) for b, _ in _unread(flat, entries, judged, chosen)]
        boxes += [b for b in wordspot.slot_boxes(crop, slots, h) if not any(wordspot.touch(b, c) for c in boxes)]
    if not boxes:
        return [], []
    heights = wordspot.letter_heights(crop, boxes)
    known = [k for k, b in enumerate(boxes) if any(_overlap(b, t) for t in taken)]
    # the print of the list's own words, or with none read the commonest print: a title or a heading is not it
    if known:
        h = float(np.median(heights[known]))
    else:
        h = _print_height(boxes, heights)
        if h > RECUT * text_h:  # blobs cut at the guessed size: cut again at the print's own
            boxes = wordspot.word_boxes(crop, h) or boxes
            heights = wordspot.letter_heights(crop, boxes)
            h = _print_height(boxes, heights)
    found = boxes

    # the sides of the crop that are the page's own edge: print cut there is no whole word, or is the ground round
    # the sheet (a photo's blotchy ground at its edge fitted ROPES)
    edges = (x0 == 0, y0 == 0, x1 == flat.shape[1], y1 == flat.shape[0])

    def of_size(h: float) -> list[tuple[int, int, int, int]]:
        """The boxes found whose print is about ``h`` high, but those of entries read, of print read surely and
        of print the page's edge cuts."""
        return [b for k, b in enumerate(found) if k not in known and SPOT_HEIGHTS[0] <= heights[k] / h
                <= SPOT_HEIGHTS[1] and not any(_overlap(c, b) for c in read) and not _cut(b, crop.shape, edges)]

    boxes = of_size(h)
    if not boxes and known:
        return [], []
    # an entry open to the spotter keeps its own word among those that may take its print: a night photo's "Choir",
    # read unsurely and a cell off the grid's line, lost its blob to CHAIR, which fits no better
    listed = _listed(reading) - {grid_key(judged[i][0].word) for i in short}
    whole, near = _grid_words(tuple(letters)), _near_grid_words(tuple(letters))
    # words the grid spells but for a cell, whole or with an unsure cell read as one of its alternatives, at what
    # that costs (not one it spells whole, nor the plural or past form of one: CLAM and a cell after it make a
    # near CLAMS, which took the blob of a night photo's "clam"; nor a word of instructions, which the grid
    # vouches for only as read: FIND took the first word of a night photo's "Find the words below")
    spelt = _vocabulary_hits(tuple(letters))
    odds = {w: wordspot.DOUBT_COST for w in near + _stems_of(near, whole)}  # MERMAIDS, where MERMAID's line runs on
    for w, o in _unsure_words(tuple(letters), unsure).items():
        odds[w] = min(max(o, UNSURE_LEAST), odds.get(w, wordspot.DOUBT_COST))
    doubtful = {w: o for w, o in odds.items() if w not in spelt and not any(s in spelt for s in uninflected(w))
                and not any(w in word or word in w for word in listed) and w.lower() not in INSTRUCTION_WORDS}
    # a plural's word too, which the grid spells with it (LAWN, too rare a 4-letter word to be a candidate of its
    # own, beside a chance LAWNS): wordspot.match takes the plural only where it fits clearly better
    stems = tuple(w for w in _stems_of(whole, whole) if w not in doubtful)
    whole += stems
    words = [w for w in whole if not any(w in word for word in listed)] + list(doubtful)  # not JELLY of JELLYFISH
    printed = _grid_spellings(tuple(letters))
    # down the list's columns, where words are matched more freely: one word each, nor one holding a listed word
    # (RAISINS beside RAISIN), nor two words end to end (ROUGH TEAR: two common words meet by chance in a grid),
    # nor a word the grid spells but for a cell (LABORER took the blob of a night photo's BEAVER); there only, the
    # grid's rarer 4-letter words (KELP, TUBA: elsewhere chance blobs fit them), none inside one of its words (HALE
    # of WHALE), and its common 3-letter words (MAP, FOX: any grid spells dozens by chance)
    single = [w for w in words if " " not in printed.get(w, w) and not any(word in w for word in listed)
              and (w in printed or w in stems)]
    rare = [w for w in _rare_fours(tuple(letters)) if not any(w in v for v in whole)
            and not any(w in word or word in w for word in listed)]
    threes = [w for w in _common_threes(tuple(letters)) if not any(w in word for word in listed)]
    columns = frozenset(rare + threes)
    words, single = words + rare + threes, single + rare + threes
    ink = wordspot.page_ink(crop)
    until = allowance.steps
    spotted = wordspot.spot(crop, boxes, h, words, taken, single, until, ink, columns, doubtful)
    if not spotted and not known and (larger := _larger_print(found, heights, h)) is not None:
        # nothing fits the commonest print, which is then often a line of small print (a night photo's instructions
        # at 17 px beside its list at 24 px, measured as one print of 17 px): the list may be the larger print
        h, boxes = larger, of_size(larger)
        spotted = wordspot.spot(crop, boxes, h, words, taken, single, until, ink, columns, doubtful)
    if not known and not _columned([_Entry(raw=w, text=w, box=b, height=h, conf=0.0) for b, w, _ in spotted]):
        # too few to make a list, nor any larger: the list may be print so much smaller than guessed that most of
        # its blobs, cut at the guessed size, were dropped as specks (a hand-lettered list in a thin pen under a
        # bold title, of which three blobs of 21 were spotted): cut again smaller, and keep what spots more
        found = wordspot.word_boxes(crop, SMALLER_CUT * text_h)
        heights = wordspot.letter_heights(crop, found)
        smaller = _print_height(found, heights) if found else h
        again = wordspot.spot(crop, of_size(smaller), smaller, words, taken, single, until, ink, columns,
                              doubtful)
        if len(again) > len(spotted):
            spotted, h = again, smaller
    # a word taken only down a column does not overrule an entry read, however short (PROD took the print of a
    # sideways photo's "map"), but may bear it out (MUG in the print of a night photo's "Mug", read NUG at 0); nor
    # does a part of the entry's own word (the HIGH of a night photo's "HIGH Jump", read at 58 and kept near, the
    # grid spelling HIGHJUMP but for a cell, fitted its first blob at 1.0)
    spotted = [(b, w, sure) for b, w, sure in spotted if not any(
        _overlap(b, here(entries[i].box)) and w != (key := grid_key(judged[i][0].word)) and (w in columns or w in key)
        for i in short)]
    spotted += _read_in_columns(ink, boxes, taken + [b for b, *_ in spotted], h, words, found)
    spotted = _printed_alike(crop, spotted, [here(entries[i].box) for i in chosen])
    allowance.spend(ink.steps)
    out = [(_Entry(raw=w, text=w, box=(b[0] + x0, b[1] + y0, b[2] + x0, b[3] + y0), height=text_h if chosen else h,
                   conf=100 * sure), (WordEntry(read=w, word=w), "exact"))
           for b, w, sure in ((b, printed.get(w, w), sure) for b, w, sure in spotted)]
    return [e for e, _ in out], [v for _, v in out]


def _printed_alike(flat: np.ndarray, spotted: list[tuple], read: list[tuple[int, int, int, int]]) -> list[tuple]:
    """The ``spotted`` words (box, word, how sure) whose print is at least FAINT_ENTRY as dark against the paper
    (wordspot.contrast) as the median of the list's, read and spotted (``read``: the boxes of the entries read):
    a list is printed in one ink, where the grain of a night photo's paper, flattened, makes faint blobs that
    fit grid words (CASTE and REGAL beside lists of planets and kitchen things, at 0.25 and 0.37 of their
    lists' contrast; the listed words spotted on 48 night photos stood at 0.63 and more)."""
    if not spotted:
        return spotted
    each = [wordspot.contrast(flat, b) for b, *_ in spotted]
    level = float(np.median([wordspot.contrast(flat, b) for b in read] + each))
    return [s for s, c in zip(spotted, each) if c >= FAINT_ENTRY * level]


def _cut(box: tuple[int, int, int, int], shape: tuple[int, ...], edges: tuple[bool, bool, bool, bool]) -> bool:
    """Whether ``box`` touches a side of an image of ``shape`` that ``edges`` (left, top, right, bottom) marks."""
    return any(e and touching for e, touching in zip(edges, (box[0] <= 0, box[1] <= 0, box[2] >= shape[1],
                                                             box[3] >= shape[0])))


def _read_in_columns(ink: wordspot.PageInk, boxes: list[tuple[int, int, int, int]], placed: list[tuple], h: float,
                     words: list[str], found: list[tuple[int, int, int, int]]) -> list[tuple[tuple, str, float]]:
    """[(box, word, how sure)] for the ``boxes`` down a column of the list from one ``placed`` (see
    wordspot.spot), each taking the next one down, that the word reader read (on ``ink``) as a word of the
    vocabulary of READ_IN_COLUMN[0]+ letters, read at READ_IN_COLUMN[1] a letter or better, though the grid does
    not spell it (not one of ``words``): a clear list beside a misread grid, from which repair then mends it. A
    box with another of the page's blobs (``found``, of any size) after it on its line is not read alone: it may be
    the first word of an entry (WATERING of "watering can")."""
    least_letters, least_fit = READ_IN_COLUMN
    vocabulary = _vocabulary_set()
    read_as = {}  # the boxes read alone as such a word, top first, and their words
    for b in sorted(boxes, key=lambda b: b[1]):
        if b in ink.reads and not wordspot.next_on_line([b, *found], wordspot.SPACE * h, of=[0]):
            read, fit = wordread.read(ink.reads[b])
            text = "".join(ch for ch in read if ch.isalpha())
            if (len(text) >= least_letters and text in vocabulary and text not in words
                    and fit >= least_fit * len(text)):
                read_as[b] = text
    placed, out = list(placed), []
    while (b := next((b for b, text in read_as.items() if text not in (w for _, w, _ in out)
                      and not any(wordspot.touch(b, c) for c in placed)
                      and wordspot.in_column(b, placed, h)), None)) is not None:
        out.append((b, read_as[b], READ_SURE))
        placed.append(b)
    return out


def _print_height(boxes: list[tuple[int, int, int, int]], heights: np.ndarray) -> float:
    """The letter height of the commonest print among ``boxes`` (see _commonest_print), measured again on the
    boxes as wide as a word at that size, not a number or a bullet."""
    h = _commonest_print(heights, np.ones(len(boxes), bool))[0]
    wide = np.array([b[2] - b[0] >= MEASURED_WIDTH * h for b in boxes])
    return _commonest_print(heights, wide if wide.any() else np.ones(len(boxes), bool))[0]


def _commonest_print(heights: np.ndarray, of: np.ndarray) -> tuple[float, int]:
    """(the median height, the count) of the commonest print among the boxes ``of`` (bool, per box of
    ``heights``): the boxes of about one box's height (SPOT_HEIGHTS), that box the one with the most such."""
    ratio = heights[None, :] / np.maximum(heights[:, None], 1.0)
    like = (ratio >= SPOT_HEIGHTS[0]) & (ratio <= SPOT_HEIGHTS[1])  # [k]: the boxes of about box k's height
    group = like[np.argmax((like & of).sum(axis=1))] & of
    return float(np.median(heights[group])), int(group.sum())


def _larger_print(boxes: list[tuple[int, int, int, int]], heights: np.ndarray, h: float) -> float | None:
    """The median height of the commonest print larger than LARGER_PRINT times ``h`` among ``boxes`` (their
    ``heights``), in at least LARGER_BOXES boxes as wide as words at that size; None if there is none."""
    big = np.flatnonzero(heights > LARGER_PRINT * h)
    big = big[[boxes[k][2] - boxes[k][0] >= MEASURED_WIDTH * heights[k] for k in big]]
    if len(big) < LARGER_BOXES:
        return None
    size, count = _commonest_print(heights[big], np.ones(len(big), bool))
    return size if count >= LARGER_BOXES else None


def _stems_of(forms: tuple[str, ...], whole: tuple[str, ...]) -> tuple[str, ...]:
    """The vocabulary words (see _vocabulary) of which some of ``forms`` are the plural or past form, not among
    ``whole``: a misread cell in a night photo's ORCHID and a chance S after it made the grid's near word ORCHIDS,
    which took the blob of "Orchid" while ORCHID was no candidate (wordspot.match takes a form over its word only
    where it fits clearly better)."""
    stems = {s for w in forms for s in uninflected(w)}
    return tuple(sorted((stems & _vocabulary_set()) - set(whole)))


def _lengthened(flat: np.ndarray, reading: tuple, letters: list[str], unsure: tuple) -> tuple:
    """``reading`` (see _choose) with each listed entry whose letters, in order, a word one or two letters longer
    than what was read that the grid spells holds (whole, among the words entries are guessed among, see
    _guess_words, or but for a misread cell: see _near_grid_words; three
    longer where the entry's box is WIDE for what was read in it; "tours", corrected to TOUR, may be TOURIST),
    not listed, taken as that word where the entry's print fits it better by LONGER (see wordspot.word_fits):
    Tesseract drops a blurred letter, and what it leaves is in the grid too, inside the listed word (LUTE of FLUTE
    at 39, RABBI of RABBIT at 30, TAR of a hand-lettered GUITAR at 60) or by chance (SOW of SNOW); a reading that
    is no word need only fit about as well as the word. An entry read surely (WORDLIKE_CONF) only for a word
    SURE_LONGER_ZIPF commoner than what was read (HARMON of HARMONY at 87). Not its plural or past form: lists
    are mostly singular, and a misread cell after a word makes one (DOLPHINS beside DOLPHIN, ECLIPSED). Nor a
    word few people know (PRECIPE round RECIPE, which web2 lists and wordfreq has never seen). An entry the grid
    spells only as part of one such word, not two words, and commoner than the entry or in a box WIDE for the
    entry and not for that word, however surely read, is that word where its print fits it at most INSIDE_FIT
    worse (RABBI and AILING of night photos' RABBIT and SAILING, BUTTER spotted in the box of "Butterfly": a
    reader's fits are per letter, and a word's letters it cannot see cost it more than a shorter word's spaces;
    not CRUISE, which a chance R after it makes CRUISER, nor POLAR BEAR, POLAR BEARD). And any entry,
    however surely read, whose box is WIDE for what was read in it, that is one word of the one two-word entry
    the grid spells with it (see _grid_spellings), not listed, is taken as that entry where its print fits the
    entry better by LONGER: Tesseract read "watering" in the box of "watering can" (and "museum" in a box that a
    chance MUSEUM ITS fits worse); in a box not wide, that entry where the box joined to the print beside it
    (see _beside) fits it better by LONGER and at least BESIDE_FIT (HIGH JUMP read as JUMP alone); an entry of
    the other word listed there is then part of it (a night photo's BEAR, read "Beas", took in the print of
    "Polar" beside it, which was listed too, guessed from "olay")."""
    from wordfreq import zipf_frequency

    entries, judged, chosen, trusted = reading
    listed, per_letter, listing = _listing(reading)
    rows = tuple(letters)
    spelt = _grid_words(rows)
    # a reading to go by: the rarer 4-letter words too, as entries are guessed among (JUDO of a night photo's "UDO")
    words = _guess_words(rows) + _near_grid_words(rows) + tuple(_unsure_words(rows, unsure))
    printed = _grid_spellings(tuple(letters))
    ink = wordspot.page_ink(flat)  # an entry's box is weighed against more than one set of words
    judged, halves = list(judged), set()  # halves: entries another entry took in as its other word
    for i, e, entry, _, key, box in listing:
        if i in halves:
            continue
        wide = _per_letter(e) > WIDE * per_letter
        pairs = [w for w, p in printed.items() if " " in p and w not in listed
                 and key in (grid_key(part) for part in p.split())]
        at = None
        if len(pairs) == 1:  # the entry's other word read into its box (wide), or beside it and not read at all
            at = box if wide else _beside(flat, box, printed[pairs[0]], key, per_letter, e.height)
        if at is not None:
            fit = wordspot.word_fits(flat, at, [key, pairs[0]], ink)
            if fit[1] >= fit[0] + LONGER and (wide or fit[1] >= BESIDE_FIT):
                judged[i] = (WordEntry(read=entry.read, word=printed[pairs[0]], corrected=True), "corrected")
                listed.add(pairs[0])
                other = {grid_key(part) for part in printed[pairs[0]].split()} - {key}
                halves |= {k for k in chosen if k != i and _overlap(entries[k].box, at)
                           and grid_key(judged[k][0].word) in other}
                continue
        least = LONGER_ZIPF if e.conf < WORDLIKE_CONF else zipf_frequency(key.lower(), "en") + SURE_LONGER_ZIPF
        # a number read as letters is no part of what was read ("te. FENCING", 12. misread, is not nine
        # letters: a chance FENCING POLO fitted the box, number and all, better than FENCING)
        read = max(len(key), len(grid_key(_after_mark(entry.read) or entry.read)))
        common = {w: zipf_frequency(printed.get(w, w).lower(), "en") for w in words if _within(key, w)
                  and len(w) > len(key) and len(w) - read <= (3 if wide else 2) and w not in listed
                  and not inflected(w, key)}
        above = max(LONGER_ZIPF, zipf_frequency(key.lower(), "en"))
        inside = [w for w in common if key in w and " " not in printed.get(w, w)
                  and _only_inside(tuple(letters), key, w)]
        # the letters the box lacks may lie beside it, faint letters cut off with their gap (ASTER spotted in a
        # small photo's hand-lettered "toaster", both near words of a misread cell): the word fits the box widened,
        # clear of other entries' print, where what was read fits it worse
        around = inside or [w for w in dict.fromkeys(words) if key in w and w != key and " " not in printed.get(w, w)
                            and len(w) - len(key) <= AROUND and w not in listed and not inflected(w, key)
                            and key not in spelt]
        if len(around) == 1 and (at := _around(box, key, around[0], flat.shape)) != box and not any(
                _overlap(at, o.box) and not _overlap(o.box, box) for k, o in enumerate(entries) if k != i):
            as_read = wordspot.word_fits(flat, box, [key], ink)[0]
            there, short = wordspot.word_fits(flat, at, around + [key], ink)
            if there >= max(as_read - INSIDE_FIT, short + LONGER):
                judged[i] = (WordEntry(read=entry.read, word=printed.get(around[0], around[0]), corrected=True),
                             "corrected")
                listed.add(around[0])
                continue
        holding = [w for w in inside if common[w] > above or wide and (e.box[2] - e.box[0]) / len(w)
                   <= WIDE * per_letter]
        longer = [w for w, z in common.items() if z >= least or w in holding]
        if not longer:
            continue
        fits = wordspot.word_fits(flat, box, [key] + longer, ink)
        as_read, fit = fits[0], dict(zip(longer, fits[1:]))
        best = max((w for w in longer if common[w] >= least), key=fit.get, default=None)
        # a reading that is no word is a fragment: the word need only fit about as well (ANJO of BANJO, 0.35 to 0.36);
        # of words that hold one another (PLAN read in the box of "planet", which the grid spells as PLANE and
        # PLANET: one placement read shorter or longer), the one the box is as wide as
        nested = all(a in b or b in a for a in holding for b in holding)
        held = min(holding, key=lambda w: abs((e.box[2] - e.box[0]) / per_letter - len(w))) if holding else None
        if nested and held is not None and fit[held] >= as_read - INSIDE_FIT:
            best = held
        elif best is None or fit[best] < as_read + (LONGER if _words(entry.word) else -LONGER):
            continue
        judged[i] = (WordEntry(read=entry.read, word=printed.get(best, best), corrected=True), "corrected")
        listed.add(best)
    return entries, judged, [k for k in chosen if k not in halves], trusted


@functools.lru_cache(maxsize=256)
def _only_inside(letters: tuple[str, ...], key: str, word: str) -> bool:
    """Whether the grid spells ``key`` and spells it only as part of ``word``: every straight run of its letters
    lies within a run of the word's."""
    from solver import solve

    runs = {r.word: [frozenset(map(tuple, o.cells)) for o in r.occurrences]
            for r in solve(list(letters), [key, word])}
    return bool(runs.get(key)) and all(any(k <= w for w in runs.get(word, ())) for k in runs[key])


def _listed(reading: tuple) -> set[str]:
    """The grid keys of the entries ``reading`` (see _choose) lists, but guesses: a guessed entry's word stays free
    for another entry's print to take (see _spotted)."""
    _, judged, chosen = reading[:3]
    return {grid_key(judged[i][0].word) for i in chosen if judged[i][1] != "guessed"}


def _listing(reading: tuple) -> tuple[set[str], float, list[tuple]]:
    """(the grid keys of the listed entries of ``reading`` (see _choose), the list's median width per character
    read, and for each listed entry with letters: (its index, the entry, its WordEntry, its status, its grid key,
    the box of its words, see _word_box))."""
    entries, judged, chosen = reading[:3]
    listed = _listed(reading)
    per_letter = float(np.median([_per_letter(entries[i]) for i in chosen]))
    listing = [(i, entries[i], *judged[i], grid_key(judged[i][0].word),
                tuple(int(round(v)) for v in _word_box(entries[i]))) for i in chosen]
    return listed, per_letter, [item for item in listing if item[4]]


def _reprinted(flat: np.ndarray, reading: tuple, letters: list[str]) -> tuple:
    """``reading`` (see _choose) with each listed entry that the grid holds nowhere as read or corrected, or holds
    as read, four letters or fewer (any grid spells such words by chance; a hand-lettered SUITCASE read at 67 is
    the grid's word, though its print fitted LUGGAGE better in outline), but read under REPRINT_CONF, taken as
    the grid word (see _grid_words, or a long one the grid spells but for a misread cell, _near_grid_words: the
    print of a night photo's "Jupiter", read `per`), not listed nor part of a listed one, of about as many letters
    (REPRINT_LONG of those the entry's box holds at the list's median width per character), whose print fits
    it best (see wordspot.word_fits), where it fits at least REPRINT_FIT and by REPRINT_MARGIN better than what
    was read and than any other such word; the grid's common 3-letter words inside what was read are such words
    too (a night photo's "bus" read `BUST` at 27, a chance word of the grid that holds BUS). A night photo's blurred
    "Planet" read `Pace` at 0 and "Orbit" `Ove` at 61, chance words of the grid, and "Gravity" `Cealty`, near
    the grid's SALTY: their print fits PLANET, ORBIT and GRAVITY. Entries the grid's judge corrected or guessed
    are left to it: a hand-lettered "concert" read `covert`, corrected to CONCERT, fitted a chance NATAL in
    outline, as hand lettering does any word."""
    entries, judged, chosen, trusted = reading
    listed, per_letter, listing = _listing(reading)
    printed = _grid_spellings(tuple(letters))
    words = _grid_words(tuple(letters)) + _near_grid_words(tuple(letters))
    judged = list(judged)
    for i, e, entry, status, key, box in listing:
        if status in ("corrected", "guessed") or (status == "exact" and (e.conf >= REPRINT_CONF or len(key) > 4)):
            continue
        held = (box[2] - box[0]) / per_letter
        others = listed - {key}
        inside = [w for w in _common_threes(tuple(letters)) if w in key and w != key]
        free = [w for w in words + tuple(inside) if w not in listed and not any(w in v or v in w for v in others)
                and held / REPRINT_LONG <= len(w) <= held * REPRINT_LONG]
        if not free:
            continue
        read = grid_key(_after_mark(entry.read) or entry.read) or key
        fit = wordspot.word_fits(flat, box, [key, read] + free)
        best = int(np.argmax(fit[2:])) + 2
        if fit[best] >= REPRINT_FIT and fit[best] >= np.delete(fit, best).max() + REPRINT_MARGIN:
            word = free[best - 2]
            judged[i] = (WordEntry(read=entry.read, word=printed.get(word, word), corrected=True), "corrected")
            listed = (listed - {key}) | {word}
    return entries, judged, chosen, trusted


def _beside(flat: np.ndarray, box: tuple[int, ...], entry: str, key: str, per_letter: float,
            height: float) -> tuple | None:
    """``box``, of the word ``key`` of a two-word ``entry``, joined to the word of print beside it on the side the
    entry prints its other word (a small photo's HIGH JUMP read as JUMP alone): within a word gap (ENTRY_GAP
    text ``height``s), on the same line, about as wide as that word at ``per_letter`` (0.6 to 1.5 times); None
    where there is no such print (the next column beside OCTOPUS, which the grid runs on into a chance TRY, is a
    column gap away)."""
    first, second = entry.split()
    after = grid_key(first) == key
    width = len(second if after else first) * per_letter
    x0, y0, x1, y1 = box
    gap = ENTRY_GAP * height
    left = max(int(x0 - gap - 1.5 * width), 0) if not after else x1
    right = min(int(x1 + gap + 1.5 * width), flat.shape[1]) if after else x0
    top, bottom = max(int(y0 - height), 0), min(int(y1 + height), flat.shape[0])
    if right - left < 2 or bottom - top < 2:
        return None
    for bx0, by0, bx1, by1 in wordspot.word_boxes(flat[top:bottom, left:right], height):
        bx0, bx1, by0, by1 = bx0 + left, bx1 + left, by0 + top, by1 + top
        apart = bx0 - x1 if after else x0 - bx1
        level = min(y1, by1) - max(y0, by0) >= 0.5 * (y1 - y0)
        if 0 <= apart <= gap and level and 0.6 * width <= bx1 - bx0 <= 1.5 * width:
            return min(x0, bx0), min(y0, by0), max(x1, bx1), max(y1, by1)
    return None


def _around(box: tuple[int, ...], key: str, word: str, shape: tuple[int, ...]) -> tuple[int, ...]:
    """``box``, of the print of ``key``, widened (within an image of ``shape``) by room for the letters ``word``
    holds before and after it, at the box's own width per letter."""
    per_letter = (box[2] - box[0]) / max(len(key), 1)
    before = word.find(key)
    after = len(word) - before - len(key)
    return (max(0, int(round(box[0] - before * per_letter))), box[1],
            min(shape[1], int(round(box[2] + after * per_letter))), box[3])


def _within(key: str, word: str) -> bool:
    """Whether ``word`` holds the letters of ``key`` in order (SOW in SNOW, LUTE in FLUTE)."""
    letters = iter(word)
    return all(ch in letters for ch in key)


def _word_box(e: _Entry) -> tuple[float, float, float, float]:
    """The box of an entry's words: its box less the boxes read before them that hold no letter (an entry's
    number, a bullet), whose print would pass for more letters ("15, Otter" fitted PLOTTER better than OTTER)."""
    words = [b for b in e.boxes if any(ch.isalpha() for ch in b.text)]
    if not words or len(words) == len(e.boxes):
        return e.box
    return (min(b.left for b in words), e.box[1], max(b.left + b.width for b in words), e.box[3])


def _per_letter(e: _Entry) -> float:
    """The width of an entry's box for each character read in it (numbering included)."""
    return (e.box[2] - e.box[0]) / max(len(e.raw), 1)


def _columned(entries: list[_Entry]) -> bool:
    """Whether LIST_LEAST different words of ``entries`` each start at the left edge of another, within
    COLUMN_EDGE text heights, on another line at most COLUMN_LINES lines off: they stand in a list's columns, not
    along one line (a title) nor strewn over a photo's texture (a no-list page on a cloth: nine grid words fitted
    specks all over it, two of them one over the other). A night photo's list of six in two rows of three: PANTRY
    starts 1.4 text heights left of APRON above it, its box holding the blur of its bullet. A word level with one
    of those (their centres within ROW_LEVEL[0] text heights), further along the line and at most ROW_LEVEL[1]
    text heights from it, counts too: a list set in columns has rows (a night photo's list of birds, of which only
    FLAMINGO, SWAN, EAGLE and PEACOCK were spotted: SWAN over EAGLE, FLAMINGO level with SWAN two columns to its
    left, 24 text heights off). Specks on a no-list page's cloth that fitted grid words stand further apart:
    COMPASS, under SOUVENIR, and STAGE level with it 62 text heights away."""
    def mated(e: _Entry) -> bool:
        return any(abs(o.box[0] - e.box[0]) < COLUMN_EDGE * e.height and e.height <= abs(o.box[1] + o.box[3] - e.box[1]
                   - e.box[3]) / 2 <= wordspot.COLUMN_LINES * e.height for o in entries)

    def level(e: _Entry, o: _Entry) -> bool:
        centres = abs(o.box[1] + o.box[3] - e.box[1] - e.box[3]) / 2
        gap = max(o.box[0] - e.box[2], e.box[0] - o.box[2])
        return centres < ROW_LEVEL[0] * e.height and 0 < gap <= ROW_LEVEL[1] * e.height

    column = [e for e in entries if mated(e)]
    row = [e for e in entries if any(level(e, o) for o in column)]
    return len({e.text for e in column + row}) >= LIST_LEAST


def _sides(lo: np.ndarray, hi: np.ndarray, reach: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """The strips of the page (corners lo, hi; x, y) ``reach`` deep below, above, right and left of a grid with
    corners ``lo``, ``hi``, each as long as the grid's side and a little more (words level with the grid's edge
    are clear of the strip's): clear of the shadow and background beside the sheet."""
    margin, strips = 0.1 * reach, []
    for axis in (1, 0):
        for end in (1, 0):
            s_lo, s_hi = lo - margin, hi + margin
            s_lo[axis], s_hi[axis] = (hi[axis], hi[axis] + reach) if end else (lo[axis] - reach, lo[axis])
            strips.append((s_lo, s_hi))
    return strips


def read_word_list(image: np.ndarray, loc, letters: list[str], *, source: str, engine=None,
                   other_grids=(), seconds: float | None = None, unsure: tuple = (), alternatives: tuple = (),
                   busy: float = 1.0) -> WordList:
    """Read the word list printed around the grid ``loc`` (a scanner.detect.GridLocation) in a BGR image.

    ``loc=None`` reads the whole image as the list (``--words-image``; any grid found on it is masked out).
    ``letters``: the grid's rows as read, the judge for corrections. ``other_grids``: further GridLocations on
    the page, masked out like ``loc``. ``seconds``: Tesseract's time for the whole list, after which it keeps
    what it has read (a page of fabric or noise is read as thousands of specks). A list that runs on to the edge
    of the part of the page read (REACH grid sizes round the grid) is read again from WIDE_REACH round it, and the
    longer reading kept. ``unsure``: (row, column, letter, odds) of what cells read under UNSURE_BELOW may be
    instead (see ocr.GridReading.unsure, _unsure_words); ``alternatives``: the same of every cell (see
    _kept_as_read). ``busy``: how much slower than its CPU time the machine runs (see pipeline.BUSY); the follow-up
    reads' own time, LOOK_SECONDS, is stretched by it. Raises NoWordsError when no list is found or what is found
    is neither vouched for by the grid nor reads as a list of words.
    """
    deadline = None if seconds is None else time.monotonic() + seconds

    def left() -> float | None:
        return None if deadline is None else max(0.0, deadline - time.monotonic())

    if engine is None:
        from scanner.engine import get_engine

        engine = get_engine()
    if loc is None and not other_grids:
        from scanner.detect import find_grids

        other_grids = find_grids(image)  # a picture of the whole page: its grid's rows are not list entries
    grids = [g.corners for g in ([loc] if loc is not None else []) + list(other_grids)]
    spotting = _Allowance(SPOT_STEPS)
    look = LOOK_SECONDS * busy
    first = _read_list(image, grids, loc, letters, unsure, engine, left, spotting, REACH, look=look)
    if not first[2]:  # no list at the page's letter size: its small print, if any, read at its own
        first = _read_list(image, grids, loc, letters, unsure, engine, left, spotting, REACH, small=True,
                           look=look) or first
    entries, judged, chosen, T, at_edge, _, blur = first
    if at_edge:  # the list may run on past the part of the page read: read a wider part, keep the longer list
        wider = _read_list(image, grids, loc, letters, unsure, engine, left, spotting, WIDE_REACH, look=look)
        # longer in entries, or in letters: words cut at the edge (a small photo's ARCHER|Y, BADMIN|TON)
        if (len(wider[2]), _listed_letters(wider)) > (len(chosen), _listed_letters(first)):
            entries, judged, chosen, T = _with_first(wider, first, letters)
            blur = wider[6]
    chosen = _in_marked_columns(chosen, entries, judged)
    judged = _kept_as_read(entries, judged, chosen, letters, alternatives)
    if not chosen or _chance(entries, judged, chosen):
        raise NoWordsError(NO_LIST.format(source=source))
    (x0, y0), (x1, y1), _ = _block(entries, chosen, 0.5)  # a frame clear of the letters
    quad = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64)
    region = cv2.perspectiveTransform(quad, np.linalg.inv(T))[0]
    # the read page's px per image px where the list is (a photo in perspective shrinks the far side of the page)
    scale = float(np.sqrt((x1 - x0) * (y1 - y0) / max(cv2.contourArea(region.astype(np.float32)), 1.0)))
    return WordList(entries=[judged[i][0] for i in chosen], region=region.tolist(), source="image",
                    print_px=float(np.median([entries[i].height for i in chosen])) / scale, blur_px=blur / scale)


def _kept_as_read(entries: list[_Entry], judged: list, chosen: list[int], letters: list[str],
                  alternatives: tuple) -> list:
    """``judged`` with each ``chosen`` entry corrected to a grid word kept as read ("near", for the pipeline's
    repair to mend the cell) where the grid spells what was read too, with one of its cells read as one of its
    ``alternatives`` (see _unsure_words) at odds of at most KEEP_ODDS, however sure of the cell the grid's reader
    was: a night photo's "VENUS", read at 71, was corrected to the grid's VENUE, whose E the reader took, at 0.85,
    for an S at 0.7 too (odds 0.19). Not at longer odds (a blurred "wave" read "Have" at 68, where the grid's
    W might be an H at 2.46), nor what was read of the word it was corrected to (SPORT of PASSPORT)."""
    alternative = _unsure_words(tuple(letters), alternatives)
    out = list(judged)
    for i in chosen:
        (entry, status), key = judged[i], grid_key(entries[i].text)
        word = grid_key(entry.word)
        if status == "corrected" and key not in word and word not in key and \
                alternative.get(key, KEEP_ODDS + 1) <= KEEP_ODDS:
            out[i] = (WordEntry(read=entry.read, word=entries[i].text), "near")
    return out


def _chance(entries: list[_Entry], judged: list, chosen: list[int]) -> bool:
    """Whether the list ``chosen`` is fewer than LIST_LEAST short words all read unsurely (CHANCE: most letters
    and least confidence): a grid spells dozens of 4-letter words, and the texture round a puzzle printed without
    a list reads as some (SAME at 0 and CERT at 19 in the grain of a photo's background), which as a list kept its
    hidden words from being looked for."""
    return len(chosen) < LIST_LEAST and all(len(grid_key(judged[i][0].word)) <= CHANCE[0]
                                            and entries[i].conf < CHANCE[1] for i in chosen)


def _with_first(wider: tuple, first: tuple, letters: list[str]) -> tuple[list[_Entry], list, list[int], np.ndarray]:
    """(entries, verdicts, the chosen ones, map) of the ``wider`` reading of a list (see _read_list) with the list
    entries of the ``first``, narrower one merged in where they are better read: each reading's layout analysis
    loses lines the other keeps (the first lines of a night photo's list, read only from the narrower page)."""
    entries, judged, chosen, T, _, soft, _ = wider
    M = T @ np.linalg.inv(first[3])  # the first reading's page px -> the wider one's
    scale = float(np.sqrt(abs(np.linalg.det(M[:2, :2]))))
    moved = []
    for i in first[2]:
        e = first[0][i]
        x0, y0, x1, y1 = e.box
        q = cv2.perspectiveTransform(np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64), M)[0]
        moved.append(replace(e, box=(*q.min(axis=0), *q.max(axis=0)), height=e.height * scale, boxes=[]))
    words = functools.partial(_guess_words, tuple(letters))
    both = _merge((entries, judged), (moved, [first[1][i] for i in first[2]]), words, soft)
    merged = _choose(*both, letters, soft)
    return merged[:3] + (T,) if len(merged[2]) >= len(chosen) else (entries, judged, chosen, T)


def _read_list(image: np.ndarray, grids: list[np.ndarray], loc, letters: list[str], unsure: tuple, engine,
               left: Callable[[], float | None], spotting: _Allowance, reach: float,
               small: bool = False, look: float = LOOK_SECONDS
               ) -> tuple[list[_Entry], list, list[int], np.ndarray, bool, bool, float] | None:
    """(entries, verdicts, the chosen ones, 3x3 map image px -> the read page's px, whether the list comes within
    EDGE_LINES lines of an edge where the read page was cut, whether its print is soft, how many of the read
    page's px its print's edges take from paper to ink: imaging.edge_width over the list) of the list read from the
    page cut to ``reach`` grid sizes round ``loc`` (see read_word_list; ``left``: Tesseract's time left;
    ``spotting``: the word spotter's; ``look``: each follow-up read's own time, see _floored)."""
    pitch = None
    if loc is not None:
        c = np.asarray(loc.corners, np.float64)
        pitch = float(np.linalg.norm(c[1] - c[0]) / max(loc.cols, 1))
    prepared = _prepare(image, grids, None if loc is None else loc.corners, pitch, reach, small)
    if prepared is None:
        return None
    flat, T, soft = prepared
    size = np.array(flat.shape[::-1], np.float64)  # the read page's (width, height)
    words = functools.partial(_guess_words, tuple(letters))

    def merge(read: tuple, reading: tuple, other: tuple) -> tuple[tuple, tuple]:
        """(entries and verdicts, chosen reading) of ``read`` with ``other`` merged in, unless the list then has
        fewer entries and fewer letters (a block read worse can lose the backing the first reading gave it; a
        strip of a night page read as one block turned a list of 19 into 1 of its lines; "Heat Wave" read alone
        as one entry takes the place of two, "Heal" and "Wave")."""
        both = _merge(read, other, words, soft)
        merged = _choose(*both, letters, soft)
        kept = merged[2] and (len(merged[2]) >= len(reading[2])
                              or _listed_letters(merged) >= _listed_letters(reading))
        return (both, merged) if kept else (read, reading)

    def merge_block(read: tuple, reading: tuple, lo: np.ndarray, hi: np.ndarray,
                    budget: Callable[[], float | None]) -> tuple[tuple, tuple]:
        """merge of the part of the page from ``lo`` to ``hi`` (x, y) read as one block of text, in the time
        ``budget`` leaves."""
        return merge(read, reading, _judge(_crop_boxes(flat, lo, hi, engine, 6, budget()), letters))

    page = _tighten(flat, engine.read_text(flat, 11, left()))
    read = _judge(page, letters)
    reading = _choose(*read, letters, soft)
    grid_box = None
    if loc is not None:
        q = cv2.perspectiveTransform(np.asarray(loc.corners, np.float64)[None], T)[0]
        grid_box = (q.min(axis=0), q.max(axis=0))
    if len(reading[2]) < LIST_LEAST and loc is not None:
        # Little or nothing found: Tesseract's layout analysis can lose a list among photo background texture,
        # shadow or show-through; look again at the page close to the grid only, then at each side of the grid
        # alone as a block of text (the sparse layout can miss most of a plain list: a sideways page read 2 of 20
        # words), keeping the longer list. Each look gets its own time (a page photographed on a light, blotchy
        # ground was read for 4 s as 800 scraps of it, never reaching the list; a night photo's JPEG grain, read
        # as 350 scraps, took the list's time and left the page near the grid, which held three words, unread).
        near = 0.5 * float(max(q.max(axis=0) - q.min(axis=0)))
        for psm, places in ((11, [(q.min(axis=0) - near, q.max(axis=0) + near)]), (6, _sides(*grid_box, near))):
            if len(reading[2]) < LIST_LEAST:
                budget = _floored(left, look)
                again = _judge([b for lo, hi in places for b in _crop_boxes(flat, lo, hi, engine, psm, budget())],
                               letters)
                found = _choose(*again, letters, soft)
                if len(found[2]) > len(reading[2]):
                    read, reading = again, found
    if reading[2]:
        # Second look at the list alone, as one block of text: the sparse page layout skips lines of a big page
        # (boxed lists, first or last rows) and words with descenders (Poppy) that a block read finds; each entry
        # keeps the better of its two readings.
        lo, hi, h = _block(reading[0], reading[2], BLOCK_LINES)
        budget = _floored(left, look)  # the block and the page round it get their own time
        read, reading = merge_block(read, reading, lo, hi, budget)
        read_lo, read_hi = np.maximum(lo, 0), np.minimum(hi, size)
        for _ in range(RUN_ON_READS):
            strips = _run_on(read_lo, read_hi, *_block(reading[0], reading[2]), size)
            for strip_lo, strip_hi in strips:
                read, reading = merge_block(read, reading, strip_lo, strip_hi, budget)
                read_lo, read_hi = np.minimum(read_lo, strip_lo), np.maximum(read_hi, strip_hi)
            if not strips:
                break
        for strip_lo, strip_hi in _along_grid(lo, hi, grid_box, 3 * h):
            read, reading = merge_block(read, reading, strip_lo, strip_hi, budget)
        # Last look, alone, at each entry of the list's block that did not make the list and at each line of the
        # list's columns that lacks an entry or holds one the grid does not hold as read: the layout of a block of
        # small or hand-lettered print misleads Tesseract's reading of its words. Only readings the grid backs as
        # words or that guess a grid word are taken; when the time is up the rest stay as first read.
        for psm, scale in READS_ALONE:
            alone = [r for place in _unread(flat, *reading[:3]) for r in
                     _read_alone(flat, place, engine, psm, budget(), letters, scale) if _worth(*r, words, soft)]
            if alone:
                read, reading = merge(read, reading, ([e for e, _ in alone], [v for _, v in alone]))
    if loc is not None:
        # Words Tesseract could not make out (dim, blurred, tiny or hand-lettered print) matched against the words
        # the grid spells round the grid; not in print it read surely, nor in a title or a sentence, however
        # unsurely read (a night photo's instructions fitted ROUSE)
        prose = {id(b) for b in _prose(page)}
        clear = [(b.left, b.top, b.left + b.width, b.top + b.height) for b in page
                 if b.conf >= TRUSTED_CONF and sum(ch.isalpha() for ch in b.text) >= 2 or id(b) in prose]
        spotted = _spotted(flat, reading, letters, unsure, grid_box, clear, spotting, reach)
        if reading[2] and spotted[0]:
            read, reading = merge(read, reading, spotted)
        elif _columned(spotted[0]):  # a grid word or two by chance are no list, nor chance words strewn about
            read, reading = spotted, _choose(*spotted, letters, soft)
    if reading[2]:
        reading = _rejoined(_reprinted(flat, _lengthened(flat, reading, letters, unsure), letters), letters)
    entries, judged, chosen, _ = reading
    at_edge, blur = False, 0.0
    if chosen:
        (x0, y0), (x1, y1) = np.clip(_block(entries, chosen, 0.5)[:2], 0, size).astype(int)
        blur = imaging.edge_width(flat[y0:y1, x0:x1])
    if chosen and loc is not None:
        lo, hi, h = _block(entries, chosen)
        ih, iw = image.shape[:2]
        page = cv2.perspectiveTransform(np.array([[[0, 0], [iw, 0], [iw, ih], [0, ih]]], np.float64), T)[0]
        # only where the page was cut: a list that ends at the picture's own edge has nothing more to read
        at_edge = bool(np.any((lo < EDGE_LINES * h) & (page.min(axis=0) < -1)) or
                       np.any((hi > size - EDGE_LINES * h) & (page.max(axis=0) > size + 1)))
    return entries, judged, chosen, T, at_edge, soft, blur
