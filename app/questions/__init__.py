"""Question answering over one analysed report (`askReport`): classify the question, search the
report's passage index (pgvector + full text), answer with citations (LLM or extractive), and cache
answers in Redis until the report changes."""

from app.questions.cache import forget_answers
from app.questions.service import ask_report
from app.questions.types import Answer, AskProblem, AskRefused, Citation, Confidence, QueryType

__all__ = [
    "Answer",
    "AskProblem",
    "AskRefused",
    "Citation",
    "Confidence",
    "QueryType",
    "ask_report",
    "forget_answers",
]
