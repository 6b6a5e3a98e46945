"""Jinja2 templates: pages, game partials and mail bodies (a package so they install with the project)."""
