"""Driving the suite's headless browser (Debian's Chromium through Playwright): the guide's and
the review page's checks share it."""
import os
import shutil

import pytest

BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync"]
"""Chromium's flags on a closed network (../.library/env: without them it keeps trying Google's hosts)."""


def browser_or_skip():
    """Playwright and a Chromium to drive, or a skip that says which is missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("no browser check: playwright is not installed (it is in the dev extras)")
    exe = shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(exe):
        pytest.skip("no browser check: no Chromium (scripts/test installs Debian's chromium where it can)")
    return sync_playwright, exe


JS_BROKEN_IMAGES = "[...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)"
JS_DEAD_LINKS = ("[...document.querySelectorAll('a[href^=\"#\"]')].map(a => a.getAttribute('href').slice(1))"
                 ".filter(id => !document.getElementById(id))")
JS_OUTSIDE = ("[...document.querySelectorAll('[src],[href]')].map(e => e.getAttribute('src') || e.getAttribute('href'))"
              ".filter(u => /^[a-z]+:/i.test(u))")
