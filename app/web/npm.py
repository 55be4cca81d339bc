"""Pinned npm packages, installed from the registry at setup and kept outside git.

Each package tarball is downloaded once, checked against the `dist.integrity` (SHA-512) pinned in
code, and only the files we use are extracted into a folder with a manifest of the pins it holds.
A tarball whose hash differs is refused and nothing of it is written. GraphiQL's page
(`app.web.assets`) and the GraphQL-over-HTTP audit of the tests (`tests.support.http_audit`) each
pin their own set; `command_line` is the `install` / `check` command both offer.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import sys
import tarfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import httpx

REGISTRY = "https://registry.npmjs.org"
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class NpmPackage:
    """One pinned package: where its tarball is, its SHA-512 integrity, and the files we use."""

    name: str
    version: str
    integrity: str
    files: tuple[str, ...]

    @property
    def folder(self) -> str:
        """Where its files go under the install folder (for GraphiQL also the URL path that serves
        them): the version is part of it, so browsers may cache the files for good."""
        return f"{self.name.replace('@', '').replace('/', '-')}-{self.version}"

    def tarball_url(self, registry: str) -> str:
        basename = self.name.rpartition("/")[2]
        return f"{registry.rstrip('/')}/{self.name}/-/{basename}-{self.version}.tgz"


class IntegrityError(Exception):
    """A downloaded tarball does not match its pinned SHA-512."""


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


def installed(target: Path, packages: Sequence[NpmPackage]) -> bool:
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
    packages: Sequence[NpmPackage] = (),
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


def command_line(
    argv: list[str] | None,
    *,
    prog: str,
    what: str,
    packages: Sequence[NpmPackage],
    default_dir: Callable[[], Path],
) -> int:
    """`prog install|check [--dir DIR] [--registry URL]` for one set of pins (`what` names it in
    messages); `check` exits 1 unless every file is in place."""
    parser = argparse.ArgumentParser(prog=prog, description=f"Install {what} from the npm registry.")
    parser.add_argument("command", choices=["install", "check"])
    parser.add_argument("--dir", type=Path, help="install folder (default: in the Python environment)")
    parser.add_argument("--registry", default=REGISTRY, help=f"npm registry (default {REGISTRY})")
    args = parser.parse_args(argv)
    target = args.dir or default_dir()
    if args.command == "check":
        ok = installed(target, packages)
        print(f"{what} {'in place' if ok else 'missing'} in {target}")
        return 0 if ok else 1
    try:
        done = install(target, args.registry, packages=packages)
    except (httpx.HTTPError, IntegrityError, FileNotFoundError) as exc:
        print(f"could not install {what}: {exc}", file=sys.stderr)
        return 1
    print(f"{what} {'installed' if done else 'already in place'} in {target}")
    return 0
