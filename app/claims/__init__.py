"""Claims extraction: finding the verifiable claims in a report's pages.

The rule-based extractor needs no LLM, so it runs anywhere, at once, and is useful on its own:
`sentences` rebuilds PDF page text into sentences (undoing line wraps and hyphenation, keeping
headings, bullets and table rows apart), `worthiness` scores whether a sentence states something a
verifier could check, `classify` gives it a claim type, priority and reason, and `rules` puts them
together. The claims agent's other modules build on it (or on an LLM) for the full pipeline.
"""
