"""The investigators: the five specialists, the search loop they share and how their findings are written."""
