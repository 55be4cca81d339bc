"""Which machine code in a shipped library needs more than an x86-64-v3 processor, by disassembly.

A library compiled for its build machine's processor (`-march=native` on a server with AVX-512)
runs there and crashes with SIGILL on the many machines without AVX-512 — and a test suite run on
an AVX-512 machine never notices. So the embedded servers' binaries are disassembled (`objdump`),
and every instruction beyond x86-64-v3 is found:

- AVX-512: any EVEX-encoded instruction (in 64-bit mode an instruction whose opcode byte, after
  its legacy prefixes, is 0x62), a 512-bit register (`%zmm`) or a mask register (`%k0`–`%k7`,
  which AVX-512's VEX-encoded `kmov`/`kand`… use);
- AMX: a tile register (`%tmm`);
- AVX-VNNI: the VEX-encoded dot products (`{vex} vpdpbusd` …).

Such code is fine only inside functions that run after checking the processor (pgvector's
`…Avx512Popcount`, PostgreSQL's `pg_popcount_avx512`): callers name those, and everything else is
reported.

    python -m app.supervision.embedded.instructions [FILE_OR_FOLDER ...]   # default: the embedded servers
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ELF_MAGIC = b"\x7fELF"
#: Legacy and REX prefixes objdump prints before an instruction's opcode.
PREFIXES = frozenset({"66", "67", "f2", "f3", "f0", "2e", "36", "3e", "26", "64", "65"})
FUNCTION = re.compile(r"^[0-9a-f]+ <(?P<name>[^>]+)>:$")
INSTRUCTION = re.compile(r"^\s*[0-9a-f]+:\t(?P<bytes>(?:[0-9a-f]{2} )+)\s*\t(?P<text>.*)$")
BEYOND_V3_OPERANDS = re.compile(r"%zmm\d|%k[0-7]\b|%tmm\d|%[xy]mm(?:1[6-9]|2\d|3[01])\b|\{vex\} vpdp")


@dataclass(frozen=True)
class Finding:
    """An instruction beyond x86-64-v3 outside the allowed functions."""

    path: Path
    function: str
    instruction: str

    def __str__(self) -> str:
        return f"{self.path}: {self.function}: {self.instruction}"


def objdump() -> str | None:
    """The disassembler, when binutils is installed."""
    return shutil.which("objdump")


def elf_files(roots: Iterable[Path]) -> Iterator[Path]:
    """The ELF programs and libraries under `roots` (files or folders), in a stable order."""
    for root in roots:
        candidates = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for path in candidates:
            if not path.is_symlink() and _is_elf(path):
                yield path


def _is_elf(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            return file.read(4) == ELF_MAGIC
    except OSError:
        return False


def beyond_v3(path: Path, allowed_functions: frozenset[str] = frozenset()) -> list[Finding]:
    """Every function of `path` (but the allowed ones) with an instruction beyond x86-64-v3: the
    first such instruction of each."""
    disassembler = objdump()
    if disassembler is None:
        raise RuntimeError("objdump is not installed (Debian: binutils)")
    listing = subprocess.run(
        [disassembler, "-d", "-w", str(path)], capture_output=True, text=True, check=True
    ).stdout
    findings: dict[str, Finding] = {}
    function = "?"
    for line in listing.splitlines():
        header = FUNCTION.match(line)
        if header:
            function = header["name"]
            continue
        if function in findings or _allowed(function, allowed_functions):
            continue
        instruction = INSTRUCTION.match(line)
        if instruction and _is_beyond_v3(instruction["bytes"].split(), instruction["text"]):
            findings[function] = Finding(path, function, " ".join(instruction["text"].split()))
    return list(findings.values())


def _allowed(function: str, allowed_functions: frozenset[str]) -> bool:
    """Whether `function` (or its local clone, `name.cold`, `name.part.0`…) is allowed."""
    return function.split("@")[0].split(".")[0] in allowed_functions


def _is_beyond_v3(raw: list[str], text: str) -> bool:
    opcode = next((byte for byte in raw if byte not in PREFIXES), "")
    return opcode == "62" or BEYOND_V3_OPERANDS.search(text) is not None


def main(argv: list[str]) -> int:
    from app.supervision.embedded.postgres import RUNTIME_DISPATCHED, install_dir

    roots = [Path(arg) for arg in argv] or [install_dir()]
    findings = [f for path in elf_files(roots) for f in beyond_v3(path, RUNTIME_DISPATCHED)]
    for finding in findings:
        print(finding)
    print(f"{len(findings)} function(s) need more than x86-64-v3 outside run-time dispatch")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
