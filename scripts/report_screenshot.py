#!/usr/bin/env python3
"""A screenshot of the strategy guide's landing page (docs/report-landing.png), taken in headless
Chromium with Playwright, as the browser test opens the report. Beside it, the sha256 of the page it
shows (docs/report-landing.sha256): the suite fails when the committed guide changes and the
screenshot was not taken again.
Usage: .venv/bin/python scripts/report_screenshot.py [REPORT_DIR] [PNG] [--width 1400] [--height 1000]"""
from __future__ import annotations

import argparse
import hashlib
import pathlib
import shutil

BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report", nargs="?", default="reports")
    ap.add_argument("png", nargs="?", default="docs/report-landing.png")
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--height", type=int, default=1000)
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    exe = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=BROWSER_ARGS)
        page = browser.new_page(viewport={"width": a.width, "height": a.height})
        page.goto((pathlib.Path(a.report) / "index.html").resolve().as_uri())
        page.screenshot(path=a.png)
        browser.close()
    page_hash = hashlib.sha256((pathlib.Path(a.report) / "index.html").read_bytes()).hexdigest()
    pathlib.Path(a.png).with_suffix(".sha256").write_text(page_hash + "\n")
    print(a.png)


if __name__ == "__main__":
    main()
