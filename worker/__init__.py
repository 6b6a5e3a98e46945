"""The Celery side: the app built by the Flask app factory, and thin tasks over service functions."""
