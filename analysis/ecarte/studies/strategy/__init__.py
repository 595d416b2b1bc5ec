"""The Écarté strategy tables and their kernels."""
