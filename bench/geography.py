"""Geography agent's offline cost on real reports: the gazetteer's one-time build (seconds and the
process's peak memory growth) and place extraction per report page (time, distinct places, and
how many are towns the imagery comparison could sample).

    python -m bench.geography [--report siemens] [--all]
"""

from __future__ import annotations

import resource
import time
from collections import Counter

from app.geo.extract import extract_places
from app.geo.gazetteer import load_gazetteer
from bench.common import print_summary, print_table, shared_reports_from_arguments
from tests.support.reports import report_pages


def main() -> None:
    paths = shared_reports_from_arguments(__doc__ or "")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    gazetteer = load_gazetteer()
    load_seconds = time.perf_counter() - started
    peak_growth_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    rows = []
    for path in paths:
        pages = report_pages(path)
        started = time.perf_counter()
        kinds: Counter[str] = Counter()
        names: set[tuple[str, str]] = set()
        for _, text in pages:
            for place in extract_places(text, gazetteer=gazetteer):
                if (place.name, place.country_code) not in names:
                    names.add((place.name, place.country_code))
                    kinds[place.kind] += 1
        elapsed = time.perf_counter() - started
        rows.append([path.stem, len(pages), f"{1000 * elapsed / len(pages):.2f}", len(names), kinds["city"]])
    print_table(
        f"Gazetteer built in {load_seconds:.2f} s (peak memory +{peak_growth_mb:.0f} MB; {gazetteer.size()})",
        ["report", "pages", "ms/page", "places", "towns"],
        rows,
    )
    print_summary(
        {
            "gazetteer_load_s": round(load_seconds, 2),
            "gazetteer_peak_mb": round(peak_growth_mb),
            "reports": len(rows),
            "places": sum(int(row[3]) for row in rows),
        }
    )


if __name__ == "__main__":
    main()
