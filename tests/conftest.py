"""Shared fixtures."""
import pytest

from reference_pool import open_pool


@pytest.fixture(scope="session")
def reference_pool():
    """Two worker processes for the plain-Python references of the differential tests."""
    with open_pool() as pool:
        yield pool


@pytest.fixture(autouse=True)
def no_result_store(monkeypatch, request):
    """Tests compute their numbers: the result store is off unless a test turns it on."""
    if "uses_store" not in request.keywords:
        monkeypatch.setenv("SALON_RESULTS", "off")
