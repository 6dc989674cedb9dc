//! (being written) runtime index and incremental matching of a rulebase over a board.
