"""The Celery app (built by the app factory) and its thin tasks over the service's plain functions."""
