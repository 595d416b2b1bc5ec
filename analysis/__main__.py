"""``python -m analysis``: the same as ``salon``."""
from analysis.cli import main

main()
