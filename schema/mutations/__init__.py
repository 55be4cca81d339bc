"""One module per mutation: its input, success and error types and result union."""
