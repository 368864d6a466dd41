"""Word spotting: list words matched against the grid's words, weighed by the word reader."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from conftest import list_score, truth_location
from scanner import wordspot
from tools import synth
from scanner.pipeline import solve_image
from scanner.wordlist import grid_key, read_word_list


def test_a_list_names_each_word_once():
    """Fits made by hand, as the classifier gives them to blurred print. The blob of "surfing" fits SAILING a
    little better than SURFING, the blob of "sailing" fits SAILING better still: each takes its own word. The blob
    of "squid" fits SAND nearly as well as SQUID, too near to tell at first; but the blob of "sand" took SAND
    with a better fit, so SAND is no rival there. A blob that fits nothing well takes nothing. The two blobs of
    "high jump" fit HIGH and JUMP, and both together HIGHJUMP: one entry."""
    words = ["SAILING", "SURFING", "SQUID", "SAND", "HIGH", "JUMP", "HIGHJUMP"]

    def tried(*at: int, **fits: float) -> tuple:
        fit = np.array([fits.get(w.lower(), -3.0) for w in words])
        return fit.max() + (wordspot.TWO_WORDS if len(at) == 2 else 0.0), at, (at[0], 0, at[-1] + 1, 1), fit

    tries = [tried(0, sailing=-0.06, surfing=-0.09), tried(1, sailing=-0.03), tried(2, squid=-0.0, sand=-0.12),
             tried(3, sand=-0.01), tried(4, squid=-1.5, sand=-1.6), tried(5, high=-0.12), tried(6, jump=-0.0),
             tried(5, 6, highjump=-0.06)]
    assert [(i, w) for i, _, w, _ in wordspot.match(tries, words)] == [
        (0, "SURFING"), (1, "SAILING"), (2, "SQUID"), (3, "SAND"), (5, "HIGHJUMP")]
    assert wordspot.match(tries[2:3], words) == []  # SAND alone is a rival to SQUID: too near


def test_a_list_names_a_word_once_in_one_form():
    """Fits made by hand: the blob of "ballad" fits BALLAD best, and another blob of the list, hand-lettered,
    fits BALLADS best of the words left (BALLAD being taken). A list does not name a word and its plural, so
    that blob takes nothing; a word holding another (STARFISH beside STAR) is still free."""
    words = ["BALLAD", "BALLADS", "STAR", "STARFISH"]

    def tried(at: int, **fits: float) -> tuple:
        fit = np.array([fits.get(w.lower(), -3.0) for w in words])
        return fit.max(), (at,), (at, 0, at + 1, 1), fit

    tries = [tried(0, ballad=-0.05, ballads=-0.2), tried(1, ballad=-0.1, ballads=-0.3), tried(2, star=-0.1),
             tried(3, starfish=-0.1, star=-0.5)]
    assert [(i, w) for i, _, w, _ in wordspot.match(tries, words)] == [(0, "BALLAD"), (2, "STAR"), (3, "STARFISH")]


def test_a_plural_is_taken_only_where_it_fits_clearly_better_than_its_word():
    """Fits made by hand: a night photo's "Drought" fitted DROUGHTS (a misread cell after the placed DROUGHT spelt
    it) a little better than DROUGHT, and was listed as the plural. Lists are mostly singular: the word itself is
    taken unless its plural fits by the margin better, as a printed "Showers" does."""
    words = ["DROUGHT", "DROUGHTS", "SHOWER", "SHOWERS"]

    def tried(at: int, **fits: float) -> tuple:
        fit = np.array([fits.get(w.lower(), -3.0) for w in words])
        return fit.max(), (at,), (at, 0, at + 1, 1), fit

    tries = [tried(0, drought=-0.3, droughts=-0.25), tried(1, shower=-0.9, showers=-0.2)]
    assert [(i, w) for i, _, w, _ in wordspot.match(tries, words)] == [(0, "DROUGHT"), (1, "SHOWERS")]


@pytest.mark.parametrize("mark", ["bullet", "number", "two-digit number", None])
def test_a_word_is_spotted_with_the_mark_blurred_into_its_blob(mark):
    """A bullet or an entry number blurred into its word (as on a soft photo): the blob holds both, and the reader
    reads the mark as a mark, so the blob is spotted as its word, not as a word that fits mark and word (BRAT,
    ZEAL)."""
    page = np.full((80, 380), 255, np.uint8)
    if mark == "bullet":
        cv2.circle(page, (22, 40), 6, 0, -1)
    elif mark:
        cv2.putText(page, "13." if mark.startswith("two") else "1.", (6, 52), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)
    cv2.putText(page, "ZEBRA", (56 if mark else 20, 52), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)
    page = cv2.GaussianBlur(page, (0, 0), 2.0)
    (box,) = wordspot.word_boxes(page, 22.0)
    assert wordspot.spot(page, [box], 22.0, ["ZEBRA", "BRAT", "ZEAL"]) == [(box, "ZEBRA", pytest.approx(1, abs=0.5))]


def test_the_words_of_a_blurred_numbered_list_are_spotted_with_their_numbers():
    """A list numbered 9 to 13, each number blurred into its word: each blob is its word, not a longer word that
    fits number and word (a night photo's "13. ARCHERY" fitted BADMINTON best when blobs were read letter by
    letter)."""
    listed = ["ARCHERY", "SOCCER", "KARATE", "TENNIS", "HOCKEY"]
    words = listed + ["BADMINTON", "SAILING", "CRICKET", "ROWING", "JUDO"]
    page = np.full((60 * len(listed) + 20, 420), 255, np.uint8)
    for k, word in enumerate(listed):
        cv2.putText(page, f"{9 + k}. {word}", (10, 50 + 60 * k), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)
    page = cv2.GaussianBlur(page, (0, 0), 2.5)
    boxes = wordspot.word_boxes(page, 22.0)
    found = sorted(w for _, w, _ in wordspot.spot(page, boxes, 22.0, words))
    assert found == sorted(listed), found


def test_spotting_stops_at_its_allowance_and_reuses_what_it_read():
    """The blurred numbered list again: with no work left to it the spotter tries no blob; given the page's ink
    from a call that read every blob, a second call reads nothing anew and finds the same words."""
    listed = ["ARCHERY", "SOCCER", "KARATE", "TENNIS"]
    page = np.full((60 * len(listed) + 20, 420), 255, np.uint8)
    for k, word in enumerate(listed):
        cv2.putText(page, f"{k + 1}. {word}", (10, 50 + 60 * k), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)
    page = cv2.GaussianBlur(page, (0, 0), 2.5)
    boxes = wordspot.word_boxes(page, 22.0)
    assert wordspot.spot(page, boxes, 22.0, listed, until=0) == []
    ink = wordspot.page_ink(page)
    first = wordspot.spot(page, boxes, 22.0, listed, ink=ink)
    read = dict(ink.reads)
    assert sorted(w for _, w, _ in first) == sorted(listed) and read
    steps = ink.steps
    assert wordspot.spot(page, boxes, 22.0, listed, ink=ink) == first and ink.reads.keys() == read.keys()
    assert ink.steps == steps > 0


@pytest.mark.parametrize("case", [str.upper, str.lower, str.title])
def test_print_too_small_for_its_letters_is_read_as_its_word(case):
    """Words printed in OpenCV's own font 7 px high, blurred and scaled back up as the list reader sees them:
    each blob fits its own word best of twelve."""
    words = ["WHALE", "SHARK", "CORAL", "OCTOPUS", "LOBSTER", "SEAHORSE", "OYSTER", "SHRIMP", "STARFISH",
             "JELLYFISH", "SALMON", "ANCHOR"]
    for word in words:
        page = np.full((60, 400), 255, np.uint8)
        cv2.putText(page, case(word), (10, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)
        small = cv2.GaussianBlur(cv2.resize(page, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA), (0, 0), 0.7)
        seen = cv2.resize(small, None, fx=4, fy=4, interpolation=cv2.INTER_CUBIC)
        (box,) = wordspot.word_boxes(seen, 22.0)
        fit = wordspot.word_fits(seen, box, words)
        assert words[int(np.argmax(fit))] == word, dict(zip(words, fit.round(2)))


@pytest.mark.parametrize("condition, seed, least, before", [("dim", 49, 5, 0), ("small", 68, 9, 0),
                                                             ("handwritten", 69, 7, 3), ("handwritten", 48, 4, 0),
                                                             ("handwritten", 65, 8, 0), ("handwritten", 104, 6, 0),
                                                             ("handwritten", 108, 13, 10), ("lowercase", 241, 5, 0),
                                                             ("small", 257, 5, 0), ("dim", 242, 14, 5),
                                                             ("newsprint", 249, 12, 11), ("lowercase", 413, 7, 6),
                                                             ("dim", 4319, 9, 0)])
def test_words_tesseract_cannot_read_are_spotted(condition, seed, least, before):
    """Real Tesseract and the real classifier on generated pages whose list Tesseract reads as junk: a night
    photo's list at JPEG quality 31 with motion blur (dim 49: none of 12 words read before spotting, 6 after), a
    640x480 photo's list of 5 px letters (small 68: none of 14, 10 after), a hand-lettered list (handwritten 69:
    3 of 11, 8 after), a faint hand-lettered list below a bold title, which one threshold for the page puts on
    the paper's side (handwritten 48: none of 9 before faint words were looked for, 5 after), a hand-lettered
    column of 18 words running on below the grid, of which Tesseract reads none (handwritten 65: none while the
    spotter looked within half a grid size of the grid, 10 within one), a blurred hand-lettered list in lower
    case (handwritten 104: none of 8 when the classifier had seen lower case in print only, 7 since it learned
    hand-lettered lower case too), a hand-lettered list of 18 short words (handwritten 108: 10 when a word a
    better blob took still counted as a rival, 14 since), lists of 4-5 px letters compared in outline where no
    word fitted them letter by letter (lowercase 241: none of 20, 6 after; small 257: none of 9, 6 after; dim
    242: 5 of 20, 9 after, 12 since blobs down the list's column are matched more freely, 14 since the search goes
    on down the column from each blob so matched, up to five letter heights below it), a column of lower-case
    serif words on newsprint (newsprint 249: 11 of 20 before that, 13 after), a 4-letter word down a blurred
    lower-case column, fitting best by 0.2 in outline but at 0.55 (lowercase 413: CRAB, 7 of 10 since 4-letter
    words down a column are taken at 0.45), a night photo's list in a thin serif face whose faint letters broke
    its words into pieces, none a whole word (dim 4319: no list found, 9 of 14 since the pieces are joined). At
    least ``least`` words recovered, at most one spurious entry."""
    image, truth = synth.condition_case(condition, seed)
    wl = read_word_list(image, truth_location(truth), truth["grid"], source=f"{condition} {seed}")
    recovered, spurious = list_score(wl.words, truth["words"])
    assert recovered >= least > before and spurious <= 1, wl.words


def test_the_pieces_of_a_word_broken_by_faint_letters_are_joined():
    """Boxes (x0, y0, x1, y1, px) of one line whose ink met on no row (a blurred serif "blender" was three, two of
    them overlapping) are one word box; boxes further apart, on another line, or taller than a line are not
    joined, nor is a lower mark beside a word that makes it half as tall again, and the boxes keep their order."""
    h = 24.0
    boxes = [(127, 1046, 194, 1070, 613), (176, 1046, 225, 1069, 381), (228, 1047, 279, 1070, 552),  # "blender"
             (351, 1046, 417, 1071, 1101),  # "mug", 72 px (3 letter heights) further on
             (128, 1088, 212, 1112, 700),  # the next line
             (300, 1000, 310, 1120, 900)]  # a frame's side, five lines tall
    assert wordspot._mended(boxes, h) == [(127, 1046, 279, 1070, 1546), boxes[3], boxes[4], boxes[5]]
    assert wordspot._mended(boxes[3:], h) == boxes[3:]
    rugby = [(136, 1130, 163, 1160, 193), (155, 1124, 219, 1149, 1093)]  # a lower mark beside a word: 36 px together
    assert wordspot._mended(rugby, h) == rugby


def test_a_title_in_bigger_print_is_not_spotted():
    """The title "Music Word Search" above a list read in full (random 1001): its words are bold and bigger than
    the list's, and their boxes are not matched to the grid's words (the classifier fitted HARM to "Music" at
    -0.1 before boxes were held to the list's letter height). Every listed word is read, and one chance word at
    most: the word reader fits FLORES to the grainy edge of the photo's sheet at -1.71 a letter."""
    image, truth = synth.random_case(1001)
    wl = read_word_list(image, truth_location(truth), truth["grid"], source="random 1001")
    keys = {grid_key(w) for w in wl.words}
    assert not {"MUSIC", "HARM", "WORD", "SEARCH"} & keys, wl.words
    assert list_score(wl.words, truth["words"]) in {(len(truth["words"]), 0), (len(truth["words"]), 1)}, wl.words


def test_part_of_a_listed_word_is_not_spotted():
    """A 640x480 photo of a lower-case list (synth small 1) through the pipeline: Tesseract reads "pilyfish", which
    the grid corrects to JELLYFISH, and the spotter fitted JELLY to a blob beside it; a word that is part of a
    listed word is not looked for."""
    from scanner.pipeline import solve_image

    image, truth = synth.condition_case("small", 1)
    puzzle = solve_image(image, source="small 1", words=None)[0]
    words = [grid_key(w) for w in puzzle.word_list.words]
    assert "JELLYFISH" in words and "JELLY" not in words, words


@pytest.mark.parametrize("seed", [2, 40, 49])
def test_chance_words_spotted_in_other_print_are_no_list(seed):
    """Puzzles printed with no list: the spotter fits grid words to blobs of other print, LIGHTNING and NINTH to
    the title "Weather Word Search" (synth nolist 2), ORCHID to two blobs (nolist 49). It takes three different
    spotted words to make a list, so the hidden dictionary words are searched for (with two words taken for a
    list, 1 of the 7 and 1 of the 8 placed words of 5+ letters were found; 6 and 7 without), and they must
    stand on more than one line: THUNDER, LIGHTNING and HUMID fitted the three words of another page's title
    (nolist 40: 3 of 17 placed words found while they made a list, 15 since)."""
    from scanner.pipeline import solve_image

    image, _ = synth.condition_case("nolist", seed)
    puzzle = solve_image(image, source=f"nolist {seed}", words=None)[0]
    assert puzzle.words_source == "none" and puzzle.word_list is None


def test_a_list_column_read_as_junk_is_spotted_down_its_length():
    """A sideways photo's boxed list of 20 lower-case words in one column (synth rotated 243, through the
    pipeline): Tesseract reads BEACH and junk for most other lines, with lines missing between them. The spotter
    looks down the whole column the junk stands in (it looked round BEACH alone: 5 of 20 recovered, then 17)."""
    from scanner.pipeline import solve_image

    image, truth = synth.condition_case("rotated", 243)
    puzzle = solve_image(image, source="rotated 243", words=None)[0]
    recovered, spurious = list_score(puzzle.word_list.words, truth["words"])
    assert recovered >= 15 and spurious <= 1, puzzle.word_list.words


@pytest.mark.parametrize("seed, before, least", [(243, 5, 7), (252, 4, 6)])
def test_words_spotted_beside_words_read_stay_in_the_list(seed, before, least):
    """Hand-lettered lists Tesseract reads in part (synth handwritten 243: 5 of 10 words; 252: 4 of 6), through
    the pipeline. The words spotted beside them (SOUVENIR, ITINERARY; KNIFE, NAPKIN) are list entries of the
    list's text height: they were measured by their letters' ink, smaller than Tesseract's boxes, and dropped as
    too small for the list. (KNIFE touches its frame's side, under the top rule: cut off, see wordspot._rule_rows.)"""
    from scanner.pipeline import solve_image

    image, truth = synth.condition_case("handwritten", seed)
    puzzle = solve_image(image, source=f"handwritten {seed}", words=None)[0]
    recovered, spurious = list_score(puzzle.word_list.words, truth["words"])
    assert recovered >= least > before and spurious <= 1, puzzle.word_list.words


@pytest.mark.parametrize("condition, seed, entry", [("small", 258, "WATERINGCAN"), ("tiny", 414, "GRIZZLYBEAR")])
def test_a_long_word_and_a_short_one_are_spotted_as_one_entry(condition, seed, entry):
    """Lists print WATERING CAN and GRIZZLY BEAR, a long word and a short one, each in two blobs. The grid spells
    each end to end; with only two common 4-5 letter words taken as one entry, the spotter took WATERING (a
    640x480 photo, synth small 258) or nothing (a grid of tiny letters, tiny 414) there."""
    from scanner.pipeline import solve_image

    image, truth = synth.condition_case(condition, seed)
    puzzle = solve_image(image, source=f"{condition} {seed}", words=None)[0]
    words = [grid_key(w) for w in puzzle.word_list.words]
    assert entry in words and entry[:-3] not in words and entry[:-4] not in words, words


def test_a_word_touching_the_entry_above_it_is_still_spotted():
    """A hand-lettered list (handwritten 941): the ascenders of `luggage` reach the descenders of `passport`,
    read and listed above it, so its blob touches that entry's box and was left out as part of it. A blob is
    an entry's when their boxes overlap by half: LUGGAGE is spotted, with at most one spurious entry."""
    image, truth = synth.condition_case("handwritten", 941)
    wl = read_word_list(image, truth_location(truth), truth["grid"], source="handwritten 941")
    assert "LUGGAGE" in {grid_key(w) for w in wl.words}
    assert list_score(wl.words, truth["words"])[1] <= 1, wl.words


def test_lines_of_print_joined_by_a_descender_are_cut_apart():
    """Two words printed a line apart, a stroke hanging from the first into the second (as a hand-lettered
    "luggage" hangs its g's into "hotel"): one blob of ink, cut at its faintest row into two word boxes. A word
    with a descender of its own ("journey" is drawn as a word with one long stroke below it) stays one box."""
    flat = np.full((200, 400), 255, np.uint8)
    cv2.putText(flat, "luggage", (40, 60), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)
    cv2.putText(flat, "hotel", (40, 95), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)
    cv2.line(flat, (60, 60), (62, 80), 0, 2)  # the joining stroke
    cv2.putText(flat, "journey", (40, 160), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)
    boxes = sorted(wordspot.word_boxes(flat, 22.0), key=lambda b: b[1])
    assert len(boxes) == 3, boxes
    assert boxes[0][3] <= 75 and boxes[1][1] >= 60 and boxes[2][1] > 120, boxes


def test_a_lower_case_word_with_no_ascender_or_descender_is_a_word_blob():
    """A lower-case list's line height, as Tesseract measures it on words such as "galaxy", is twice the height of
    "venus", whose letters all stand between the base line and the x-height: in a list read in lower case that
    blob is still a word, its box grown to the line's height about its middle (the reader sees words so), and
    spotted as VENUS. A stroke as short and narrower than a word is none."""
    page = np.full((140, 300), 255, np.uint8)
    cv2.putText(page, "galaxy", (30, 50), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)
    cv2.putText(page, "venus", (30, 110), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)
    cv2.rectangle(page, (220, 92), (230, 110), 0, -1)  # a stroke as high as "venus", narrower than a word
    page = cv2.GaussianBlur(page, (0, 0), 1.0)
    line = 34.0  # "galaxy" from its l's top to its y's tail, as Tesseract's box holds it
    assert len(wordspot.word_boxes(page, line)) == 1  # in capitals, a blob that low is no word
    boxes = sorted(wordspot.word_boxes(page, line, lower=True), key=lambda b: b[1])
    assert len(boxes) == 2, boxes
    venus = boxes[1]
    assert venus[0] < 40 and venus[2] < 150 and abs((venus[3] - venus[1]) - line) <= 2, venus
    assert [w for _, w, _ in wordspot.spot(page, [venus], line, ["VENUS", "SEVEN", "NEWS"])] == ["VENUS"]


def test_the_words_of_a_hand_lettered_list_whose_lines_touch_are_spotted():
    """A hand-lettered list (handwritten 1506) whose lines touch where letters hang below them: read as blobs two
    lines high, BASEBALL and SURFING were never spotted. Both are now, with at most one spurious entry."""
    image, truth = synth.condition_case("handwritten", 1506)
    wl = read_word_list(image, truth_location(truth), truth["grid"], source="handwritten 1506")
    assert {"BASEBALL", "SURFING"} <= {grid_key(w) for w in wl.words}, wl.words
    assert list_score(wl.words, truth["words"])[1] <= 1, wl.words


def test_a_word_read_as_a_short_chance_string_is_spotted_in_its_print():
    """A hand-lettered list in lower case (handwritten 1516): Tesseract read "train" surely as "team", which the
    grid holds only as TAM, too short for the grid to vouch for; its blob, 62 px wide by a line 34 px high, was
    narrower than a word blob had to be. The blob is spotted as TRAIN, and "hotel", hung with the g's of
    "luggage" above it, as HOTEL; TAM is no entry."""
    image, truth = synth.condition_case("handwritten", 1516)
    wl = read_word_list(image, truth_location(truth), truth["grid"], source="handwritten 1516")
    keys = {grid_key(w) for w in wl.words}
    assert {"TRAIN", "HOTEL"} <= keys and "TAM" not in keys, wl.words
    assert list_score(wl.words, truth["words"])[1] <= 2, wl.words


def test_a_night_list_s_words_are_not_taken_for_shorter_words():
    """A night photo's numbered list in three columns (tools.synth dim seed 1303): the blob of "kettle" was taken
    in outline for DEBT, and a night photo's "shower" (dim 1310) for SHOW, when blobs no word fitted letter by
    letter were compared in outline. Read whole, KETTLE is found, DEBT and SHOW are not."""
    from scanner.pipeline import solve_image

    for seed, found, not_found in ((1303, "KETTLE", "DEBT"), (1310, None, "SHOW")):
        image, truth = synth.condition_case("dim", seed)
        words = [grid_key(w) for w in solve_image(image, source=f"dim {seed}", words=None)[0].word_list.words]
        assert not_found not in words and (found is None or found in words), (seed, words)


@pytest.mark.parametrize("condition, seed, wanted, unwanted", [("handwritten", 2507, "SUITCASE", "CAME"),
                                                               ("small", 1318, "LILY", None)])
def test_a_word_is_spotted_whole_not_as_a_short_word_after_a_dip_in_its_ink(condition, seed, wanted, unwanted):
    """A hand-lettered list (handwritten 2507): the blob of "suitcase" dips after "suit" as a blurred two-digit entry
    number dips before its word, and CAME fitted the print after the dip better than SUITCASE fitted the whole
    blob when blobs were cut at such dips. SUITCASE is spotted, CAME is no entry; a small photo's bulleted "lily"
    (small 1318), whose whole blob TULIP fitted, is LILY."""
    image, _ = synth.condition_case(condition, seed)
    words = solve_image(image, source=f"{condition} {seed}", words=None)[0].word_list.words
    keys = {grid_key(w) for w in words}
    assert wanted in keys and unwanted not in keys, words


@pytest.mark.parametrize("condition, seed, entry, parts", [("dim", 12009, "POLARBEAR", ("POLAR", "BEAR")),
                                                            ("handwritten", 12002, "POLARBEAR", ("POLAR",))])
def test_a_two_word_entry_is_spotted_as_one(condition, seed, entry, parts):
    """Two-word entries of lists Tesseract reads none of. A night photo in FreeMono (dim 12009): the space in
    "POLAR BEAR" is a full letter's advance, 1.6 letter heights of its blurred print, and the two words, tried
    only as two, were listed as two. A hand-lettered "polar bear" (handwritten 12002): both words together fit
    POLARBEAR at -1.84 a letter, its first word alone fits POLAR at -1.08, and POLAR took the first blob. The
    entry is one word of the grid, neither part is listed."""
    image, truth = synth.condition_case(condition, seed)
    words = read_word_list(image, truth_location(truth), truth["grid"], source=f"{condition} {seed}").words
    keys = {grid_key(w) for w in words}
    assert entry in keys and not keys & set(parts), words


def test_an_unsure_reading_kept_as_read_is_open_to_the_word_its_print_fits():
    """A night photo's serif list (tools.synth dim 13010): Tesseract read "camera" as Caner, a word, at 37, and
    kept it as read beside a string the grid spells a letter from it. Read so unsurely, its print is open to the
    spotter, which fits CAMERA there."""
    image, truth = synth.condition_case("dim", 13010)
    words = read_word_list(image, truth_location(truth), truth["grid"], source="dim 13010").words
    keys = {grid_key(w) for w in words}
    assert "CAMERA" in keys and "CANER" not in keys, words


def test_an_entry_open_to_the_spotter_keeps_its_own_word_among_the_candidates():
    """A night photo's numbered list (tools.synth dim 11001), through the whole pipeline: the grid as read spells
    CHOIR and CHAIR each but for a cell, and Tesseract read "Choir" unsurely, so its print was open to the
    spotter, which was offered CHAIR but not CHOIR (a listed word) and took CHAIR, though CHOIR fits as well."""
    image, truth = synth.condition_case("dim", 11001)
    puzzle = solve_image(image, source="dim 11001")[0]
    keys = {grid_key(e.word) for e in puzzle.word_list.entries}
    assert "CHOIR" in keys and "CHAIR" not in keys, keys


def test_a_short_word_no_other_word_comes_near_is_spotted():
    """A hand-lettered list (tools.synth handwritten 12007), through the whole pipeline: "worm" fits WORM at -1.42
    a letter, short of what a 4-letter word is taken at, but no other word the grid spells comes within 1.9 of it:
    WORM is listed."""
    image, truth = synth.condition_case("handwritten", 12007)
    puzzle = solve_image(image, source="handwritten 12007")[0]
    assert "WORM" in {grid_key(e.word) for e in puzzle.word_list.entries}


def test_the_words_of_a_boxed_list_touching_its_frame_are_spotted():
    """A boxed list whose words touch the frame's side: the frame and its words are one blob of ink, mostly the
    frame's sides, so no row between two words was fainter than the sides' usual row, and the blob was cut into
    no lines. The rules along its top and bottom are cut off, and its lines cut apart over the side's width
    (through the pipeline, a hand-lettered "knife" under the top rule: see the test of hand-lettered lists
    read in part)."""
    page = np.full((220, 300), 255, np.uint8)
    cv2.rectangle(page, (30, 20), (200, 196), 0, 2)
    for k, word in enumerate(["knife", "toaster", "spatula"]):
        cv2.putText(page, word, (33, 52 + 60 * k), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)
    page = cv2.GaussianBlur(page, (0, 0), 1.5)
    boxes = wordspot.word_boxes(page, 22.0)
    assert sorted(w for _, w, _ in wordspot.spot(page, boxes, 22.0, ["KNIFE", "TOASTER", "SPATULA", "KITE"])) \
        == ["KNIFE", "SPATULA", "TOASTER"]


def test_no_word_is_taken_in_a_blob_far_wider_than_it():
    """The reader spreads a word's letters over any width, and grid words fitted specks of a cloth round a no-list
    page in blobs 20-27 letter heights long (ASS, TETRA). A blob wider than WIDE allows for a word takes nothing;
    the same print in its own box takes its word."""
    page = np.full((80, 900), 255, np.uint8)
    cv2.putText(page, "ZEBRA", (20, 52), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)
    page = cv2.GaussianBlur(page, (0, 0), 1.5)
    (box,) = wordspot.word_boxes(page, 22.0)
    wide = (box[0], box[1], box[0] + int(wordspot.WIDE[0] * 8 * 22.0) + 10, box[3])
    assert [w for _, w, _ in wordspot.spot(page, [box], 22.0, ["ZEBRA", "ZERO"])] == ["ZEBRA"]
    assert wordspot.spot(page, [wide], 22.0, ["ZEBRA", "ZERO"]) == []


def test_a_word_the_grid_spells_but_for_a_cell_is_spotted_at_a_cost():
    """A listed word whose grid cell was misread is a candidate only as a word the grid spells but for a cell
    (doubtful): blurred "trumpet" is still spotted as TRUMPET when doubtful, its sureness the nats it is doubted
    by lower over its 7 letters (DOUBT_COST at most: a cost of 10 counts as 3), and CRUMPET, which a cell from
    the grid's TRUMPET would spell, does not take it."""
    page = np.full((80, 380), 255, np.uint8)
    cv2.putText(page, "trumpet", (20, 52), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)
    page = cv2.GaussianBlur(page, (0, 0), 3.0)
    (box,) = wordspot.word_boxes(page, 22.0)
    words = ["TRUMPET", "CRUMPET"]
    ((_, plain, sure),) = wordspot.spot(page, [box], 22.0, words, doubtful={"CRUMPET": wordspot.DOUBT_COST})
    for nats, cost in ((wordspot.DOUBT_COST, wordspot.DOUBT_COST), (0.5, 0.5), (10.0, wordspot.DOUBT_COST)):
        ((_, doubted, less),) = wordspot.spot(page, [box], 22.0, words, doubtful={"TRUMPET": nats})
        assert plain == doubted == "TRUMPET"
        assert less == pytest.approx(min(1.0, sure * np.exp(-cost / 7)), rel=0.05)


def test_a_night_list_s_words_are_spotted_against_rivals_of_their_own_length_and_down_its_column():
    """A night photo's list in bold (dim 4301) that Tesseract reads nothing of: the blob of `ticket` fits DOOR,
    each letter drawn wide, about as well as TICKET, and `map` is a word of three letters, which any grid spells
    by chance. Matched again with rivals of about the letters the blob holds, TICKET is spotted; a common word of
    three letters in a line down the list's column, MAP. And `bus`, read BUST at 27 (the grid spells both), is
    BUS, which its print fits better. At most one spurious entry."""
    image, truth = synth.condition_case("dim", 4301)
    wl = read_word_list(image, truth_location(truth), truth["grid"], source="dim 4301")
    assert {"TICKET", "MAP", "BUS"} <= {grid_key(w) for w in wl.words}, wl.words
    assert list_score(wl.words, truth["words"])[1] <= 1, wl.words


def test_a_faint_word_in_a_list_column_is_thresholded_on_its_own():
    """A list column's place that lacks an entry is thresholded alone (wordspot.slot_boxes): a thin grey word
    there is one box, tight to its ink; a place of paper grain alone, and the solid dark band of a sheet's edge,
    give none."""
    rng = np.random.default_rng(1)
    page = np.full((260, 700), 235, np.uint8)
    page[230:] = 40  # the table beyond the sheet's edge
    cv2.putText(page, "WORD SEARCH", (40, 90), cv2.FONT_HERSHEY_DUPLEX, 1.6, 0, 5)  # a bold black title
    cv2.putText(page, "Otter", (60, 170), cv2.FONT_HERSHEY_SIMPLEX, 0.9, 150, 1, cv2.LINE_AA)  # thin grey print
    page = cv2.GaussianBlur(np.clip(page + rng.normal(0, 12, page.shape), 0, 255).astype(np.uint8), (0, 0), 1.5)
    (box,) = wordspot.slot_boxes(page, [(50, 140, 200, 180)], 20.0)
    assert abs(box[0] - 60) <= 3 and 50 <= box[2] - box[0] <= 75 and 15 <= box[3] - box[1] <= 30, box
    assert wordspot.slot_boxes(page, [(400, 140, 550, 180)], 20.0) == []  # grain
    assert wordspot.slot_boxes(page, [(400, 215, 550, 255)], 20.0) == []  # the sheet's edge


def test_a_thin_list_face_beside_a_bold_title_is_spotted_in_its_columns():
    """A night photo's list in a thin grey typewriter face (dim 7004, grid's true corners): Tesseract read six of its
    eight entries, and the page's one threshold, set between the bold title's and the table's black and the
    paper, put "Giraffe" and "Otter" on the paper's side; thresholded alone, their places in the list's columns
    hold their words. "Beas", lengthened to POLAR BEAR with the print of "Polar" beside it, takes in the entry
    POLAR guessed there."""
    image, truth = synth.condition_case("dim", 7004)
    words = read_word_list(image, truth_location(truth), truth["grid"], source="dim 7004").words
    keys = [grid_key(w) for w in words]
    assert {"GIRAFFE", "OTTER", "POLARBEAR"} <= set(keys) and "POLAR" not in keys, keys


def test_a_word_holding_its_ink_in_its_bars_measures_its_whole_height():
    """A word's letter height is the span of its rows of ink, not their count: a thin serif face holds its ink in
    its bars and serifs, the rows of its thin stems between them under half the peak. Drawn so (bars 3 px thick,
    stems 1 px, 24 px high), the word measures its height, not its bars' 6 px."""
    page = np.full((60, 200), 255, np.uint8)
    for x in range(20, 180, 20):  # eight letters, each a bar top and bottom joined by a thin stem
        page[18:21, x:x + 14] = 0
        page[39:42, x:x + 14] = 0
        page[18:42, x + 6] = 0
    (height,) = wordspot.letter_heights(page, [(15, 10, 185, 50)])
    assert 22 <= height <= 26, height


def test_a_night_list_in_a_thin_typewriter_face_is_spotted():
    """A night photo's list of six in a thin typewriter face (dim 22006, FreeMono): Tesseract read none of it, and
    the spotter, measuring GUITAR and MELODY 8-10 px high by their serifs where VIOLIN measured 16, left them out
    as smaller print, keeping two words, too few to be a list. Four of the six at least are read now, none
    spurious."""
    image, truth = synth.condition_case("dim", 22006)
    words = read_word_list(image, truth_location(truth), truth["grid"], source="dim 22006").words
    recovered, spurious = list_score(words, truth["words"])
    assert recovered >= 4 and spurious == 0, (recovered, spurious, words)
