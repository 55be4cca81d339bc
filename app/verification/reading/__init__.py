"""Reading one source against one claim: what the source says of it, and whether it states the same fact."""
