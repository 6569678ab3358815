"""The HTML report: self-contained, and read by a real headless Chromium.

The page must load with no console error and show the readiness in a
screenshot. Chromium comes from Debian's packages (``.ci/run`` installs it);
where it cannot be found the browser tests are skipped, saying so.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFilter

from agentic_evals.reports.html import render_html
from agentic_evals.reports.model import Report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (.ci/run installs Debian's package)"
)
TESSERACT = shutil.which("tesseract")
needs_ocr = pytest.mark.skipif(
    TESSERACT is None,
    reason="tesseract is not installed (.ci/run installs Debian's tesseract-ocr package)",
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


def ink(shot: Path) -> Image.Image:
    """The screenshot as black text on white, badge text included.

    OCR reads dark text on a light ground; a verdict badge draws light text on
    its colour. Coloured pixels become ground, and the light holes inside a
    badge (its letters: what closing the coloured area fills in) become ink.
    """
    with Image.open(shot) as image:
        _, saturation, value = image.convert("RGB").convert("HSV").split()
    badge = saturation.point(lambda s: 255 if s > 60 else 0)
    closed = badge.filter(ImageFilter.MaxFilter(9)).filter(ImageFilter.MinFilter(9))
    letters_in_badges = ImageChops.subtract(closed, badge)
    dark_text = ImageChops.subtract(value.point(lambda v: 255 if v < 140 else 0), badge)
    return ImageChops.invert(ImageChops.lighter(letters_in_badges, dark_text))


def read_text(shot: Path, tmp_path: Path) -> str:
    assert TESSERACT is not None
    prepared = tmp_path / f"{shot.stem}-ink.png"
    ink(shot).save(prepared)
    done = subprocess.run(
        [TESSERACT, str(prepared), "stdout"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def colour_rows(shot: Path, colour: tuple[int, int, int]) -> list[int]:
    with Image.open(shot) as opened:
        image = opened.convert("RGB")
    width, height = image.size
    data = image.load()
    assert data is not None
    return [y for y in range(height) if any(data[x, y] == colour for x in range(width))]


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
@needs_chromium
def test_the_console_check_does_see_errors(tmp_path: Path) -> None:
    page = tmp_path / "broken.html"
    page.write_text("<!DOCTYPE html><p>x</p><script>console.error('boom-marker')</script>")
    done = chromium(page, tmp_path, "--dump-dom")
    assert any("boom-marker" in line for line in console_messages(done.stderr)), done.stderr[-2000:]


def screenshot(report: Report, tmp_path: Path) -> Path:
    page = tmp_path / f"{report.skill}.html"
    page.write_text(render_html(report), encoding="utf-8")
    shot = tmp_path / f"{report.skill}.png"
    done = chromium(page, tmp_path, f"--screenshot={shot}")
    assert done.returncode == 0 and shot.is_file(), done.stderr[-2000:]
    with Image.open(shot) as image:
        assert image.size == (1200, 900)
    return shot


@needs_chromium
def test_the_readiness_badge_is_drawn_in_its_colour_near_the_top(
    mixed_report: Report, ready_report: Report, tmp_path: Path
) -> None:
    for report, colour in ((ready_report, READY_GREEN), (mixed_report, GAPS_ORANGE)):
        found = colour_rows(screenshot(report, tmp_path), colour)
        assert found and min(found) < 200, (report.readiness, found[:5])


@needs_chromium
@needs_ocr
def test_the_readiness_text_is_read_from_a_screenshot(
    mixed_report: Report, ready_report: Report, tmp_path: Path
) -> None:
    for report in (ready_report, mixed_report):
        text = read_text(screenshot(report, tmp_path), tmp_path)
        line = next((line for line in text.splitlines() if "Readiness" in line), "")
        # OCR may read an underscore as a space or drop it; the letters must all be there.
        assert re.sub(r"[^A-Z]", "", line.split(":")[-1]) == report.readiness.replace("_", ""), (
            report.readiness,
            text[:400],
        )


@needs_chromium
@needs_ocr
def test_the_text_reader_does_not_see_a_readiness_that_is_not_drawn(
    ready_report: Report, tmp_path: Path
) -> None:
    # The same page with its badge hidden: the check must not find READY there.
    page = tmp_path / "hidden.html"
    page.write_text(
        render_html(ready_report).replace(
            "</head>", "<style>strong.v{visibility:hidden}</style></head>"
        ),
        encoding="utf-8",
    )
    shot = tmp_path / "hidden.png"
    assert chromium(page, tmp_path, f"--screenshot={shot}").returncode == 0
    line = next(
        (line for line in read_text(shot, tmp_path).splitlines() if "Readiness" in line), ""
    )
    assert "READY" not in line, line
