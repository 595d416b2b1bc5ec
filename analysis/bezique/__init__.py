"""Bezique: rules, reference, policies and records (docs/bezique-engine.md); no kernel yet."""
