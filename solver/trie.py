"""A compact trie for dictionary search: two flat lists instead of one dict per node.

Node ``n`` has ``mask[n]``: bit 0 set when a word ends there, bit ``i + 1`` set when it has a child for
``alphabet[i]``. Its children are stored consecutively from ``base[n]`` in alphabet order, so the child for
letter ``i`` is ``base[n] + popcount(mask[n] & bits 1..i)``. Two lists of ints load in milliseconds from a pickle,
where 500,000 dict nodes would take a second.
"""
from __future__ import annotations

from array import array
from dataclasses import dataclass

import numpy as np

ROOT = 0


@dataclass
class Trie:
    alphabet: str
    mask: list[int]
    base: list[int]

    @classmethod
    def build(cls, words: list[str]) -> Trie:
        """Trie of ``words`` (any strings; usually upper-case letters)."""
        alphabet = "".join(sorted({ch for w in words for ch in w}))
        nested: dict = {}
        for word in words:
            node = nested
            for ch in word:
                node = node.setdefault(ch, {})
            node[""] = True
        mask, base, queue = [], [], [nested]
        for node in queue:  # breadth first: children get consecutive numbers
            base.append(len(queue))
            bits = 1 if "" in node else 0
            for i, ch in enumerate(alphabet):
                if ch in node:
                    bits |= 2 << i
                    queue.append(node[ch])
            mask.append(bits)
        return cls(alphabet, mask, base)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``mask`` as a (nodes, words) uint64 array (bit b of a mask in word b // 64: one word up to 63 letters)
        and ``base`` as uint32, for the compiled Boggle walk; made once."""
        if getattr(self, "_arrays", None) is None:
            words = len(self.alphabet) // 64 + 1
            mask = np.frombuffer(b"".join(m.to_bytes(8 * words, "little") for m in self.mask), dtype="<u8")
            self._arrays = (mask.astype(np.uint64, copy=False).reshape(len(self.mask), words),
                            np.array(self.base, dtype=np.uint32))
        return self._arrays

    def letter_index(self) -> dict[str, int]:
        return {ch: i for i, ch in enumerate(self.alphabet)}

    def step(self, node: int, letter: int) -> int:
        """Child of ``node`` for alphabet index ``letter``, or -1."""
        m = self.mask[node]
        bit = 2 << letter
        return self.base[node] + (m & (bit - 2)).bit_count() if m & bit else -1

    def __contains__(self, word: str) -> bool:
        index, node = self.letter_index(), ROOT
        for ch in word:
            node = self.step(node, index[ch]) if ch in index else -1
            if node < 0:
                return False
        return bool(self.mask[node] & 1)

    def __getstate__(self):
        wide = any(m >= 1 << 63 for m in self.mask)
        return self.alphabet, (self.mask if wide else array("Q", self.mask)), array("I", self.base)

    def __setstate__(self, state):
        self.alphabet, mask, base = state
        self.mask, self.base = list(mask), list(base)
        if isinstance(mask, array):  # the arrays come cheaply from the pickled buffers (a list would take 25 ms)
            mask, base = (np.frombuffer(a, dtype=f"u{a.itemsize}") for a in (mask, base))
            self._arrays = mask.astype(np.uint64, copy=False).reshape(-1, 1), base.astype(np.uint32, copy=False)
