"""The Celery entry point named by the Procfile (`celery -A worker.main`); the tasks live in
service/tasks."""
