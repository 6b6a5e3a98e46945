"""Entry point for `celery -A worker.main worker` and `celery -A worker.main beat`."""

from service import create_app

flask_app = create_app()
celery = flask_app.extensions["celery"]
