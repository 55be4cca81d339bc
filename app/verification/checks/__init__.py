"""The report checked against itself: arithmetic, totals, targets and the same metric across pages."""
