"""Project tooling that does not ship with the package: the generators of synthetic puzzles and boards with exact
truth (used by tests, benchmarks and samples/) and the letter classifier's trainer."""
