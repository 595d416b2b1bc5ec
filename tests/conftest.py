"""Shared fixtures, the run's live-sample seed, and the order in which test files start."""
import os
import time

import pytest

from reference_pool import open_pool


def pytest_configure(config):
    """One seed per run for the golden vectors' live sample, shared with the xdist workers (they
    inherit the environment) and printed in the header so that a failing sample can be repeated."""
    if not hasattr(config, "workerinput") and not os.environ.get("SALON_VECTOR_SEED"):
        os.environ["SALON_VECTOR_SEED"] = str(int(time.time()) % 1_000_000)


def pytest_report_header(config):
    return (f"golden vectors: live reference sample seed {os.environ.get('SALON_VECTOR_SEED')} "
            "(SALON_VECTOR_SEED=N repeats it)")


@pytest.fixture(scope="session")
def reference_pool():
    """Worker processes for the plain-Python references, one per core the test workers leave free
    (only for deal counts that have no golden vectors)."""
    with open_pool() as pool:
        yield pool


@pytest.fixture(autouse=True)
def no_result_store(monkeypatch, request):
    """Tests compute their numbers: the result store is off unless a test turns it on."""
    if "uses_store" not in request.keywords:
        monkeypatch.setenv("SALON_RESULTS", "off")
