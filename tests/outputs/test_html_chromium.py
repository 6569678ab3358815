"""The HTML report: self-contained, and read by a real headless Chromium.

The page must load with no console error and show the readiness in a
screenshot. Chromium comes from Debian's packages (``.ci/run`` installs it);
where it cannot be found the browser tests are skipped, saying so.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from agentic_evals.reports.html import render_html
from agentic_evals.reports.model import Report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (.ci/run installs Debian's package)"
)
READY_GREEN = (0x2E, 0x7D, 0x32)
GAPS_ORANGE = (0xEF, 0x6C, 0x00)


def chromium(page: Path, tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    args = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr", "--v=0",
        "--window-size=1200,900", *extra, page.as_uri(),
    ]  # fmt: skip
    return subprocess.run(args, capture_output=True, text=True, timeout=120, check=False)


def console_messages(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "CONSOLE" in line]


def pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and RGB rows of an 8-bit RGB(A) PNG, decoded with the standard library."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, data, width, height, channels = 8, b"", 0, 0, 3
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, body = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            data += body
        at += 12 + length
    raw, stride, rows, previous = (
        zlib.decompress(data),
        width * channels,
        [],
        bytearray(width * channels),
    )
    for y in range(height):
        filtering, line = (
            raw[y * (stride + 1)],
            bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]),
        )
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up, corner = previous[x], previous[x - channels] if x >= channels else 0
            if filtering == 1:
                line[x] = (line[x] + left) & 255
            elif filtering == 2:
                line[x] = (line[x] + up) & 255
            elif filtering == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif filtering == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (
                    line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)
                ) & 255
        rows.append(bytes(b for i in range(0, stride, channels) for b in line[i : i + 3]))
        previous = line
    return width, height, rows


def colour_rows(rows: list[bytes], colour: tuple[int, int, int]) -> list[int]:
    wanted = bytes(colour)
    return [
        y
        for y, row in enumerate(rows)
        if any(row[i : i + 3] == wanted for i in range(0, len(row), 3))
    ]


def test_the_page_is_self_contained(mixed_report: Report) -> None:
    page = render_html(mixed_report)
    assert "<script" not in page
    assert not re.search(r"""(src|href)=["'](?!data:|#)""", page)
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert page.count("<svg") == 2
    assert "hunter2" not in page and "token=[REDACTED]" in page


@needs_chromium
def test_chromium_loads_the_page_without_console_errors(
    mixed_report: Report, ready_report: Report, tmp_path: Path
) -> None:
    for report in (mixed_report, ready_report):
        page = tmp_path / f"{report.skill}.html"
        page.write_text(render_html(report), encoding="utf-8")
        done = chromium(page, tmp_path, "--dump-dom")
        assert done.returncode == 0, done.stderr[-2000:]
        assert console_messages(done.stderr) == []
        assert (
            f'Readiness: <strong class="v {report.readiness}">{report.readiness}</strong>'
            in done.stdout
        )


@needs_chromium
def test_the_console_check_does_see_errors(tmp_path: Path) -> None:
    page = tmp_path / "broken.html"
    page.write_text("<!DOCTYPE html><p>x</p><script>console.error('boom-marker')</script>")
    done = chromium(page, tmp_path, "--dump-dom")
    assert any("boom-marker" in line for line in console_messages(done.stderr)), done.stderr[-2000:]


@needs_chromium
def test_the_readiness_is_visible_in_a_screenshot(
    mixed_report: Report, ready_report: Report, tmp_path: Path
) -> None:
    for report, colour in ((ready_report, READY_GREEN), (mixed_report, GAPS_ORANGE)):
        page = tmp_path / f"{report.skill}.html"
        page.write_text(render_html(report), encoding="utf-8")
        shot = tmp_path / f"{report.skill}.png"
        done = chromium(page, tmp_path, f"--screenshot={shot}")
        assert done.returncode == 0 and shot.is_file(), done.stderr[-2000:]
        width, height, rows = pixels(shot.read_bytes())
        assert (width, height) == (1200, 900)
        # The readiness word is drawn on its verdict's colour near the top of the page.
        found = colour_rows(rows, colour)
        assert found and min(found) < 200, (report.readiness, found[:5])
