"""Shared fixtures."""
import pytest

from reference_pool import open_pool


@pytest.fixture(scope="session")
def reference_pool():
    """Two worker processes for the plain-Python references of the differential tests."""
    with open_pool() as pool:
        yield pool
