"""Words that say nothing of what a claim is about: left out of a claim's search terms and of the
terms a source must share with the claim before its figures are compared."""

from __future__ import annotations

STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had has
    have having he her here hers him his how i if in into is it its itself just me more most my no nor
    not of off on once only or other our ours ourselves out over own same she should so some such than
    that the their theirs them then there these they this those through to too under until up very was
    we were what when where which while who whom why will with would you your yours year years per
    company group including include includes included across compared approximately around currently
    continue continued continues remain remains remained well within since new total overall""".split()
)
