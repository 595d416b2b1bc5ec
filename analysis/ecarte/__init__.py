"""Écarté: rules, reference, kernel, policies, studies and records."""
