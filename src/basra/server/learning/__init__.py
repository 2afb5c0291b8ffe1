"""Learning (issue 29): puzzles as a player meets them (:mod:`.puzzles`)."""
