"""Rules replaced by bitboards, kept cell by cell as oracles: the differential tests play the
same games through both and compare the move lists at every ply."""
