"""GraphiQL's browser assets, installed from the npm registry at setup instead of a CDN at runtime.

Strawberry's own GraphiQL page loads React, GraphiQL and the explorer plugin from unpkg.com, so it
never finishes loading on a machine without internet. `make run` / `make test` run
`python -m app.web.assets install`: each package pinned here is fetched and checked by
`app.web.npm` (its tarball must match the pinned `dist.integrity`, SHA-512), and only the files the
page needs are extracted into the assets folder (outside git; nothing third-party is committed).

    python -m app.web.assets install [--dir DIR] [--registry URL]
    python -m app.web.assets check [--dir DIR]      # exit 1 unless every file is in place
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import httpx

from app.config import Settings, get_settings
from app.web import npm
from app.web.npm import REGISTRY, IntegrityError, NpmPackage, integrity_of

__all__ = ["PACKAGES", "IntegrityError", "NpmPackage", "assets_dir", "install", "installed", "integrity_of"]

PACKAGES = (
    NpmPackage(
        "react",
        "18.2.0",
        "sha512-/3IjMdb2L9QbBdWiW5e3P2/npwMBaU9mHCSCUzNln0ZCYbcfTsGbTJrU/kGemdH2IWmB2ioZ+zkxtmq6g09fGQ==",
        ("umd/react.production.min.js",),
    ),
    NpmPackage(
        "react-dom",
        "18.2.0",
        "sha512-6IMTriUmvsjHUjNtEDudZfuDQUoWXVxKHhlEGSk81n4YFS+r/Kl99wXiwlVXtPBtJenozv2P+hxDsw9eA7Xo6g==",
        ("umd/react-dom.production.min.js",),
    ),
    NpmPackage(
        "graphiql",
        "3.8.3",
        "sha512-cuPDYtXVKV86Pu5PHBX642Odi/uVEE2y1Jxq5rGO/Qy1G2lRp7ZZ7a/T30RzxhuLSWo9zUbzq0P3U49//H0Ugw==",
        ("graphiql.min.js", "graphiql.min.css"),
    ),
    NpmPackage(
        "@graphiql/plugin-explorer",
        "1.0.2",
        "sha512-9j+kg2UjtLZD5EBmGjeWHkoVVxtbShYg2DzbUVebibnZYZM/iMBEF4vaccXJIAm5KaomIPLx0aoNs4LbODyc3Q==",
        ("dist/index.umd.js", "dist/style.css"),
    ),
)


def assets_dir(settings: Settings) -> Path:
    """`WEB_ASSETS_DIR`, or `share/sibyl-web-assets` in the running Python environment (the venv)."""
    return settings.web_assets_dir or Path(sys.prefix) / "share" / "sibyl-web-assets"


def installed(target: Path, packages: Sequence[NpmPackage] = PACKAGES) -> bool:
    """Whether `target` holds every GraphiQL file (or `packages`' files), as installed from these pins."""
    return npm.installed(target, packages)


def install(
    target: Path,
    registry: str = REGISTRY,
    client: httpx.Client | None = None,
    packages: Sequence[NpmPackage] = PACKAGES,
) -> bool:
    """`app.web.npm.install` of GraphiQL's pins (or `packages`); True if anything was done."""
    return npm.install(target, registry, client, packages)


def main(argv: list[str] | None = None) -> int:
    return npm.command_line(
        argv,
        prog="python -m app.web.assets",
        what="GraphiQL assets",
        packages=PACKAGES,
        default_dir=lambda: assets_dir(get_settings()),
    )


if __name__ == "__main__":
    raise SystemExit(main())
