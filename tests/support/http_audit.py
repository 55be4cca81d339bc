"""graphql-http's audit of the GraphQL-over-HTTP spec, pinned and installed like GraphiQL's assets.

Only the package's self-contained UMD build of the audits is extracted (it needs neither `graphql`
nor any other package at run time), into `share/sibyl-http-audit` in the Python environment (the
venv), outside git. `make install` / `make test` run `python -m tests.support.http_audit install`;
`tests/schema/test_http_audit.py` runs it against the live server with `node`
(`http_audit.cjs`), and skips when either is missing.

    python -m tests.support.http_audit install [--dir DIR] [--registry URL]
    python -m tests.support.http_audit check [--dir DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

from app.web import npm
from app.web.npm import NpmPackage

GRAPHQL_HTTP = NpmPackage(
    "graphql-http",
    "1.23.1",
    "sha512-h6AcykL7+xp22QvOnK0fu1eHk9AZG1ngF71rk0ZGuGupnjm1yqXRFrZ/eMv4Q1FTCWILJ5o6hVAxzt3S8/wPHQ==",
    ("umd/graphql-http-audits.js",),
)
PACKAGES = (GRAPHQL_HTTP,)
#: The runner `node` executes: `node http_audit.cjs <audits.js> <url>`, extra headers in AUDIT_HEADERS.
RUNNER = Path(__file__).with_name("http_audit.cjs")


def audit_dir() -> Path:
    return Path(sys.prefix) / "share" / "sibyl-http-audit"


def audits_script(target: Path | None = None) -> Path | None:
    """The installed audits bundle, or None when `install` has not run (or ran for other pins)."""
    folder = target or audit_dir()
    if not npm.installed(folder, PACKAGES):
        return None
    return folder / GRAPHQL_HTTP.folder / GRAPHQL_HTTP.files[0]


def main(argv: list[str] | None = None) -> int:
    return npm.command_line(
        argv,
        prog="python -m tests.support.http_audit",
        what="the GraphQL-over-HTTP audit (graphql-http)",
        packages=PACKAGES,
        default_dir=audit_dir,
    )


if __name__ == "__main__":
    raise SystemExit(main())
