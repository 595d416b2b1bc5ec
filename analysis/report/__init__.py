"""The strategy report: tables, plots and verdicts rendered to HTML and Markdown (Jinja2)."""
