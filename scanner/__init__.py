"""Image side of the word-search solver: load -> detect -> read -> solve -> annotate."""
