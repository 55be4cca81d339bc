"""The page sentence splitter, under the name the investigators import it by.

Sentences are a text basic: `app.language.sentences` splits them for claims, source reading,
checks and questions alike.
"""

from __future__ import annotations

from app.language.sentences import split_sentences as split_sentences
