"""ULTIMADE (Lutz Essers, 2002): Ultimate as a board game, 9 x 18 fields, four a side."""
