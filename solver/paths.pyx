# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The compiled depth-first walk behind ``solver.boggle.find_paths``.

A path step is a tile *reading*: a plain tile has one (its letter, or ``QU``'s two letters), an either/or tile
``U/M`` two, a prefix tile ``SUB-`` one that may only start a word and a suffix tile ``-ER`` one that may only end
it. From each tile the walk tries its neighbours in reading order and each neighbour's readings in order, so paths
come in lexicographic order and the first path to reach a trie node is the word's smallest; later ones only count.
"""
cimport cython
from cpython cimport array
from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memcpy, memset

cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long) nogil

cdef enum:
    ANY, FIRST, LAST  # where a reading may stand in a word

cdef array.array INTS = array.array("i"), LONGS = array.array("q"), ULONGS = array.array("Q")  # for array.clone


def find_words(const uint64_t[:, ::1] mask, const uint32_t[::1] base, dict index, list tiles, list cells,
               Py_ssize_t cols, Py_ssize_t min_length) -> dict:
    """Every trie word of ``min_length`` letters or more spelled by a path: word -> [first path, its tiles, paths].

    ``mask``, ``base``: the trie's arrays (``Trie.arrays``); ``index``: letter -> alphabet index; ``tiles``: the
    board's tiles in reading order, ``cols`` to a row; ``cells``: (row, col) of each cell.
    """
    board = Board(tiles, index, cols, mask.shape[1])
    found = Found()
    walk(board, &mask[0, 0], mask.shape[1], &base[0], min_length, found)
    return found.words(board, tiles, cells)


cdef class Board:
    """The tiles' readings and the steps between them, as C arrays.

    Reading r belongs to cell ``cell[r]``, may stand at ``where[r]`` and spells ``letters[lo[r]:lo[r + 1]]``
    (alphabet indices); cell c's readings are ``first[c]`` up to ``first[c + 1]``. The steps out of cell c,
    ``steps[step_lo[c]:step_lo[c + 1]]``, are its neighbours' readings that may follow a tile, in reading order, and
    ``near[c * words:(c + 1) * words]`` has the trie mask bits of the letters they begin with.
    """
    cdef list texts
    cdef Py_ssize_t n, n_readings
    cdef array.array cell, where, lo, letters, first, step_lo, steps, near

    def __init__(self, list tiles, dict index, Py_ssize_t cols, Py_ssize_t words):
        cdef list cell = [], where = [], lo = [0], letters = [], first = [0]
        cdef dict seen = {}
        self.texts = []
        for c, tile in enumerate(tiles):
            options = seen.get(tile)
            if options is None:
                options = seen[tile] = readings(tile, index)
            for text, at, spelled in options:
                self.texts.append(text)
                cell.append(c)
                where.append(at)
                letters += spelled
                lo.append(len(letters))
            first.append(len(self.texts))
        self.n, self.n_readings = len(tiles), len(self.texts)
        self.cell, self.where, self.lo = array.array("i", cell), array.array("i", where), array.array("i", lo)
        self.letters, self.first = array.array("i", letters), array.array("i", first)
        self._link(cols, words)

    cdef _link(self, Py_ssize_t cols, Py_ssize_t words):
        """``step_lo``, ``steps`` and ``near`` from the readings."""
        cdef Py_ssize_t rows = self.n // cols, c, r, nr, nc, b, k = 0
        self.step_lo = array.clone(INTS, self.n + 1, zero=False)
        self.steps = array.clone(INTS, 8 * self.n_readings + 1, zero=False)
        self.near = array.clone(ULONGS, self.n * words, zero=True)
        cdef int *step_lo = self.step_lo.data.as_ints
        cdef int *steps = self.steps.data.as_ints
        cdef uint64_t *near = <uint64_t *>self.near.data.as_ulonglongs
        cdef int *first = self.first.data.as_ints
        cdef int *where = self.where.data.as_ints
        cdef int *lo = self.lo.data.as_ints
        cdef int *letters = self.letters.data.as_ints
        for c in range(self.n):
            step_lo[c] = k
            for nr in range(max(c // cols - 1, 0), min(c // cols + 2, rows)):
                for nc in range(max(c % cols - 1, 0), min(c % cols + 2, cols)):
                    if nr * cols + nc != c:
                        for r in range(first[nr * cols + nc], first[nr * cols + nc + 1]):
                            if where[r] != FIRST:
                                steps[k] = r
                                k += 1
                                b = letters[lo[r]] + 1
                                near[c * words + (b >> 6)] |= (<uint64_t>1) << (b & 63)
        step_lo[self.n] = k


@cython.wraparound(True)
cdef list readings(str tile, dict index):
    """(text, where, alphabet indices) per reading of a tile, leaving out readings with letters the trie lacks."""
    if tile.endswith("-"):
        options = [(tile[:-1], FIRST)]
    elif tile.startswith("-"):
        options = [(tile[1:], LAST)]
    else:
        options = [(text, ANY) for text in tile.split("/")]
    return [(text, at, [index[ch] for ch in text]) for text, at in options if all(ch in index for ch in text)]


cdef class Found:
    """The words found so far: per word its trie node, its number of paths and its first path (readings).

    Words are looked up by node in an open-addressing table sized to the words found, not to the trie, so a small
    board costs no pass over a per-node array.
    """
    cdef array.array table, nodes, counts, path_lo, paths
    cdef Py_ssize_t n, capacity
    cdef int shift  # 64 - log2(capacity): a node's hash is the top bits of its product with 2**64 / golden ratio

    def __init__(self):
        self.capacity, self.shift = 256, 56
        self.table = array.clone(INTS, self.capacity, zero=False)  # -1, or the number of a word
        memset(self.table.data.as_ints, -1, self.capacity * sizeof(int))
        self.nodes, self.counts = array.array("q"), array.array("q")
        self.path_lo, self.paths = array.array("i", [0]), array.array("i")
        self.n = 0

    cdef inline Py_ssize_t _where(self, Py_ssize_t node) noexcept:
        """The table slot of ``node``: where it is, or the empty slot where it goes."""
        cdef int *table = self.table.data.as_ints
        cdef long long *nodes = self.nodes.data.as_longlongs
        cdef Py_ssize_t i = <Py_ssize_t>((<uint64_t>node * 0x9E3779B97F4A7C15ULL) >> self.shift)
        while table[i] >= 0 and nodes[table[i]] != node:
            i = (i + 1) & (self.capacity - 1)
        return i

    cdef int add(self, Py_ssize_t node, const int *path, Py_ssize_t length) except -1:
        """Count a path that ends on a word's node; the first one to get there is kept."""
        cdef Py_ssize_t i = self._where(node), at, w
        if self.table.data.as_ints[i] >= 0:
            self.counts.data.as_longlongs[self.table.data.as_ints[i]] += 1
            return 0
        at = len(self.paths)
        self.table.data.as_ints[i] = self.n
        array.resize_smart(self.nodes, self.n + 1)
        array.resize_smart(self.counts, self.n + 1)
        array.resize_smart(self.path_lo, self.n + 2)
        array.resize_smart(self.paths, at + length)
        self.nodes.data.as_longlongs[self.n] = node
        self.counts.data.as_longlongs[self.n] = 1
        self.path_lo.data.as_ints[self.n + 1] = at + length
        memcpy(self.paths.data.as_ints + at, path, length * sizeof(int))
        self.n += 1
        if 2 * self.n > self.capacity:  # keep the table at most half full
            self.capacity, self.shift = 2 * self.capacity, self.shift - 1
            array.resize(self.table, self.capacity)
            memset(self.table.data.as_ints, -1, self.capacity * sizeof(int))
            for w in range(self.n):
                self.table.data.as_ints[self._where(self.nodes.data.as_longlongs[w])] = w
        return 0

    cdef dict words(self, Board board, list tiles, list cells):
        """word -> [first path's cells, its tiles, paths]."""
        cdef dict out = {}
        cdef list texts = board.texts, spelled, path, on
        cdef Py_ssize_t s, k
        cdef int r, c
        cdef int *paths = self.paths.data.as_ints
        cdef int *path_lo = self.path_lo.data.as_ints
        cdef int *cell = board.cell.data.as_ints
        for s in range(self.n):
            spelled, path, on = [], [], []
            for k in range(path_lo[s], path_lo[s + 1]):
                r = paths[k]
                c = cell[r]
                spelled.append(texts[r])
                path.append(cells[c])
                on.append(tiles[c])
            out["".join(spelled)] = [path, on, self.counts.data.as_longlongs[s]]
        return out


cdef inline Py_ssize_t child(const uint64_t *mask, Py_ssize_t words, const uint32_t *base, Py_ssize_t node,
                             const int *letters, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """The trie node reached from ``node`` by ``letters[lo:hi]``, or -1.

    A node's mask is ``words`` 64-bit words: bit 0 marks a word end, bit 1 + i a child for letter i. The children
    are numbered consecutively from ``base[node]`` in letter order, so a child's number is base + its rank.
    """
    cdef const uint64_t *row
    cdef uint64_t bit, m
    cdef Py_ssize_t k
    cdef int b, i
    for k in range(lo, hi):
        row = mask + node * words
        b = letters[k] + 1
        bit, m = (<uint64_t>1) << (b & 63), row[b >> 6]
        if not m & bit:
            return -1
        node = base[node] + popcount(m & (bit - 1)) - <Py_ssize_t>(row[0] & 1)
        for i in range(b >> 6):
            node += popcount(row[i])
    return node


cdef inline bint grows(const uint64_t *row, const uint64_t *near, Py_ssize_t words) noexcept nogil:
    """Whether a node (its mask ``row``) has a child for a letter that a tile's neighbours (``near``) begin with."""
    cdef Py_ssize_t i
    for i in range(words):
        if row[i] & near[i]:
            return True
    return False


cdef int walk(Board board, const uint64_t *mask, Py_ssize_t words, const uint32_t *base, Py_ssize_t min_length,
              Found found) except -1:
    """Depth first from every reading that may start a word, with an explicit stack of one level per tile."""
    cdef Py_ssize_t n = board.n, r, s, node, nxt
    cdef int d, spelled
    cdef int *cell = board.cell.data.as_ints
    cdef int *where = board.where.data.as_ints
    cdef int *lo = board.lo.data.as_ints
    cdef int *letters = board.letters.data.as_ints
    cdef int *step_lo = board.step_lo.data.as_ints
    cdef int *steps = board.steps.data.as_ints
    cdef const uint64_t *near = <uint64_t *>board.near.data.as_ulonglongs
    # a path holds each cell once, so it has n levels at most
    cdef array.array path_a = array.clone(INTS, n, zero=False), next_a = array.clone(INTS, n, zero=False)
    cdef array.array spelled_a = array.clone(INTS, n, zero=False), used_a = array.clone(INTS, n, zero=True)
    cdef array.array node_a = array.clone(LONGS, n, zero=False)
    cdef int *path = path_a.data.as_ints  # the readings of the path so far
    cdef int *next_step = next_a.data.as_ints  # per level, the next step to try
    cdef int *spelled_at = spelled_a.data.as_ints  # per level, the letters spelled so far
    cdef int *used = used_a.data.as_ints  # per cell, whether the path holds it
    cdef long long *node_at = node_a.data.as_longlongs
    for r in range(board.n_readings):
        if where[r] == LAST:
            continue
        node = child(mask, words, base, 0, letters, lo[r], lo[r + 1])
        if node < 0:
            continue
        path[0], node_at[0], spelled_at[0], next_step[0] = r, node, lo[r + 1] - lo[r], step_lo[cell[r]]
        if where[r] == ANY and mask[node * words] & 1 and spelled_at[0] >= min_length:
            found.add(node, path, 1)
        if not grows(mask + node * words, near + cell[r] * words, words):
            continue
        used[cell[r]] = 1
        d = 0
        while d >= 0:
            s = next_step[d]
            if s == step_lo[cell[path[d]] + 1]:  # every step from this level tried: back up
                used[cell[path[d]]] = 0
                d -= 1
                continue
            next_step[d] = s + 1
            r = steps[s]
            if used[cell[r]]:
                continue
            nxt = child(mask, words, base, node_at[d], letters, lo[r], lo[r + 1])
            if nxt < 0:
                continue
            spelled = spelled_at[d] + lo[r + 1] - lo[r]
            path[d + 1] = r
            if mask[nxt * words] & 1 and spelled >= min_length:
                found.add(nxt, path, d + 2)
            if where[r] != LAST and grows(mask + nxt * words, near + cell[r] * words, words):
                d += 1
                node_at[d], spelled_at[d], next_step[d] = nxt, spelled, step_lo[cell[r]]
                used[cell[r]] = 1
    return 0
