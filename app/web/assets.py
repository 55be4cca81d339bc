"""GraphiQL's browser assets, installed from the npm registry at setup instead of a CDN at runtime.

Strawberry's own GraphiQL page loads React, GraphiQL and the explorer plugin from unpkg.com, so it
never finishes loading on a machine without internet. `make run` / `make test` run
`python -m app.web.assets install`: each pinned package tarball is downloaded once, checked against
the `dist.integrity` (SHA-512) pinned here, and only the files the page needs are extracted into
the assets folder (outside git; nothing third-party is committed). A tarball whose hash differs is
refused and nothing of it is written.

    python -m app.web.assets install [--dir DIR] [--registry URL]
    python -m app.web.assets check [--dir DIR]      # exit 1 unless every file is in place
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import sys
import tarfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import httpx

from app.config import Settings, get_settings

REGISTRY = "https://registry.npmjs.org"
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class NpmPackage:
    """One pinned package: where its tarball is, its SHA-512 integrity, and the files we serve."""

    name: str
    version: str
    integrity: str
    files: tuple[str, ...]

    @property
    def folder(self) -> str:
        """Where its files go under the assets folder, and the URL path that serves them: the
        version is part of it, so browsers may cache the files for good."""
        return f"{self.name.replace('@', '').replace('/', '-')}-{self.version}"

    def tarball_url(self, registry: str) -> str:
        basename = self.name.rpartition("/")[2]
        return f"{registry.rstrip('/')}/{self.name}/-/{basename}-{self.version}.tgz"


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


class IntegrityError(Exception):
    """A downloaded tarball does not match its pinned SHA-512."""


def assets_dir(settings: Settings) -> Path:
    """`WEB_ASSETS_DIR`, or `share/sibyl-web-assets` in the running Python environment (the venv)."""
    return settings.web_assets_dir or Path(sys.prefix) / "share" / "sibyl-web-assets"


def integrity_of(data: bytes) -> str:
    """The npm `dist.integrity` string of `data` (Subresource Integrity format, SHA-512)."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def verify(package: NpmPackage, data: bytes) -> None:
    """Raises `IntegrityError` unless `data` is exactly the pinned tarball."""
    actual = integrity_of(data)
    if actual != package.integrity:
        raise IntegrityError(
            f"{package.name}@{package.version}: tarball integrity {actual} != pinned {package.integrity}"
        )


def extract(package: NpmPackage, tarball: bytes, target: Path) -> None:
    """Write the package's needed files (and nothing else) under `target/<folder>/`."""
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
        for relative in package.files:
            member = archive.extractfile(f"package/{relative}")
            if member is None:
                raise FileNotFoundError(f"{package.name}@{package.version} has no {relative}")
            destination = target / package.folder / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(member.read())


def installed(target: Path, packages: Sequence[NpmPackage] = PACKAGES) -> bool:
    """Whether `target` holds every pinned package's files, as installed from these pins."""
    try:
        manifest = json.loads((target / MANIFEST).read_text())
    except (OSError, ValueError):
        return False
    expected = {package.name: package.integrity for package in packages}
    return manifest == expected and all(
        (target / package.folder / relative).is_file() for package in packages for relative in package.files
    )


def install(
    target: Path,
    registry: str = REGISTRY,
    client: httpx.Client | None = None,
    packages: Sequence[NpmPackage] = PACKAGES,
) -> bool:
    """Download, verify and extract every package unless already in place; True if anything was done.

    Every tarball is verified before any file is written, so a bad download leaves no files.
    """
    if installed(target, packages):
        return False
    owned = client is None
    http = client or httpx.Client(timeout=60.0, follow_redirects=True)
    try:
        tarballs: dict[NpmPackage, bytes] = {}
        for package in packages:
            response = http.get(package.tarball_url(registry))
            response.raise_for_status()
            verify(package, response.content)
            tarballs[package] = response.content
    finally:
        if owned:
            http.close()
    for package, tarball in tarballs.items():
        extract(package, tarball, target)
    manifest = {package.name: package.integrity for package in packages}
    (target / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.web.assets", description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["install", "check"])
    parser.add_argument("--dir", type=Path, help="assets folder (default: WEB_ASSETS_DIR or the venv's)")
    parser.add_argument("--registry", default=REGISTRY, help=f"npm registry (default {REGISTRY})")
    args = parser.parse_args(argv)
    target = args.dir or assets_dir(get_settings())
    if args.command == "check":
        ok = installed(target)
        print(f"GraphiQL assets {'in place' if ok else 'missing'} in {target}")
        return 0 if ok else 1
    try:
        done = install(target, args.registry)
    except (httpx.HTTPError, IntegrityError, FileNotFoundError) as exc:
        print(f"could not install GraphiQL assets: {exc}", file=sys.stderr)
        return 1
    print(f"GraphiQL assets {'installed' if done else 'already in place'} in {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
