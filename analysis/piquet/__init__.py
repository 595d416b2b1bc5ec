"""Piquet: rules, reference, kernel, policies, studies and records (docs/piquet-engine.md)."""
