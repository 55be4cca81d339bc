"""A module that takes two seconds to import: a document process that preloads it starts slowly, as
one does on a loaded machine."""

from __future__ import annotations

import time

time.sleep(2.0)
