"""The text basics that claims, source reading, checks and questions share, read one way everywhere.

- `page_text` and `sentences`: a PDF page rebuilt as one string and cut into sentences, and the
  coarser cuts of text without layout (`statements`, `rough_sentences`); `footnotes`: footnote
  markers fused with a year.
- `figures` and `years`: a number with its unit and rounding, and the years and fiscal years a
  text names.
- `company_names`: the legal forms, and a company's name as searched for and as matched.
- `intentions`: what a text says will or should happen rather than what it reports.

This is the bottom layer: it imports nothing else of Sibyl's (a contract in `pyproject.toml`).
"""
