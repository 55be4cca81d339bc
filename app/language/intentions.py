"""What a text says will or should happen, as opposed to what it reports: one vocabulary.

Readers ask this at different strengths, so the words come in families written once here, and each
pattern a reader uses is built from them and named for the question it answers. From narrowest:

- `INTENTION_TO`: the speaker states an intention to act: "will", or a verb of intending with its
  "to" ("aims to", "plans to", "hopes to").
- `FUTURE_ACTION`: that, a commitment to act ("committed to", "pledged to") or an expectation of
  it ("expects to", "is to be", "on track to", "going to").
- `FUTURE_COMMITMENT`: that, a target named ("our ambition", "goal", "the aim is") or a deadline
  ("by"): the words a dated environmental commitment is made with.
- `INTENTION`: any wording of what will or should happen, as verb or noun, conditional included
  ("our goal", "would", "promised", "working towards", "in order to"), or things ordered and not yet
  had ("an order for 3,500 vans"): a figure after one in its clause is no reported outcome.

Beside them, for questions of their own:

- `TARGET`: a target being set, the check-worthiness signal. Narrower than `FUTURE_ACTION` in its
  verbs ("seeks to", "hopes to" and "will" alone set no target) and wider in its nouns
  ("targeted", "pledge", "commitment to").
- `FORECAST`: a forecast or guidance rather than a commitment ("expected", "outlook").
- `FUTURE_LEVEL` and `FORWARD_LOOKING`: a sentence about a figure still to come. `FUTURE_LEVEL`
  drops a sentence from the index of reported levels; `FORWARD_LOOKING` makes a sentence about a
  reduction a target rather than an achievement. The second adds the words of progress towards a
  target ("on track", "pathway", "trajectory"): "we are on track to cut 50% by 2030" is a target,
  while "Scope 1 emissions were 2.1 Mt in 2023, on our pathway to net zero" still reports a level.
"""

from __future__ import annotations

import re


def _words(*alternatives: str) -> re.Pattern[str]:
    """Any of `alternatives` as whole words, in any case."""
    return re.compile(r"\b(?:" + "|".join(alternatives) + r")\b", re.IGNORECASE)


_WILL = "will"
#: Verbs of intending, each with its "to".
_INTEND_TO = ("aims? to", "wants? to", "plans? to", "intends? to", "seeks? to", "strives? to", "hopes? to")
#: A promise to act.
_COMMIT_TO = ("commit(?:s|ted)? to", "pledged? to")
#: An action expected or scheduled rather than promised.
_EXPECT_TO = ("expects? to", "(?:is|are) to be", "on track to", "going to")
#: A target named as such.
_TARGET_NAMED = ("aim is", "targets?", "ambition", "goal")
#: Intention as a noun, a conditional or a purpose, in any inflection.
_ANY_INTENTION = (
    r"commit\w*", r"pledg\w*", "aim(?:s|ed|ing)?", "plan(?:s|ned|ning)? to", r"intend\w*", r"intention\w*",
    r"target\w*", "goals?", r"ambitio\w*", r"aspir\w*", "seek(?:s|ing)? to", r"striv\w*", "shall", "would",
    r"expect\w* to", r"promis\w*", r"vow\w*", r"work(?:s|ing)? (?:to|toward\w*)", "hop(?:e|es|ing) to",
    "set to", "in order to", "orders? for", "ordered", "on order",
)  # fmt: skip
#: Words of a figure still to come.
_FUTURE_LEVEL = (
    r"target\w*", "aims?", "goal", r"commit\w*", "plans?", "will", "ambition", "forecast", "expected",
)  # fmt: skip
#: Words of progress towards a target, and of intending in any inflection.
_TOWARDS_TARGET = (
    r"aim\w*", "plan(?:s|ned|ning)?", "shall", r"ambition\w*", r"pledge\w*", r"intend\w*", r"seek\w*",
    r"strive\w*", r"expect\w*", r"forecast\w*", "on track", "pathway", "trajectory",
)  # fmt: skip

INTENTION_TO = _words(_WILL, *_INTEND_TO)
FUTURE_ACTION = _words(_WILL, *_INTEND_TO, *_COMMIT_TO, *_EXPECT_TO)
FUTURE_COMMITMENT = _words(_WILL, *_INTEND_TO, *_COMMIT_TO, *_EXPECT_TO, *_TARGET_NAMED, "by")
INTENTION = _words(_WILL, *_INTEND_TO, *_COMMIT_TO, *_EXPECT_TO, *_ANY_INTENTION)
TARGET = _words(
    "targets?", "targeted", "targeting", "goals?", "aims? to", "aim is", "ambition",
    "commit(?:s|ted|ment)? to", "pledged?", "plans? to", "intends? to", "wants? to", "(?:is|are) to be",
    "strives? to", "striving to",
    "will (?:reduce|cut|reach|achieve|invest|source|phase|eliminate|halve|become|be)",
)  # fmt: skip
FORECAST = _words(
    r"expect\w*", r"forecast\w*", r"anticipat\w*", "projected", "projections?", "outlook", "guidance"
)
FUTURE_LEVEL = _words(*_FUTURE_LEVEL)
FORWARD_LOOKING = _words(*_FUTURE_LEVEL, *_TOWARDS_TARGET)
