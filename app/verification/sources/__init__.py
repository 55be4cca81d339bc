"""What a source is worth: the rules every reader of sources applies, each in one place."""
