"""Text side of the word-search solver: find words in a letter grid (straight lines or Boggle paths)."""
