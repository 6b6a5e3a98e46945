"""gunicorn's settings for the web process: the Procfile's and the systemd unit's
`gunicorn -c python:service.gunicorn_conf 'service:create_app()'`.

It listens on the loopback interface unless WEB_BIND says otherwise: the web process belongs behind a
reverse proxy on the same machine, and one reachable directly would let any client claim any address
in X-Forwarded-For once PROXY_COUNT trusts it (every rate limit counts per client). Its access log has
the tokens cut out of every path (`service/redact.py`).
"""

from __future__ import annotations

import os
from typing import Any

from gunicorn.glogging import Logger

from service.redact import redact_logs

bind = os.environ.get("WEB_BIND") or f"127.0.0.1:{os.environ.get('PORT') or 8000}"
workers = int(os.environ.get("WEB_CONCURRENCY") or 2)
threads = int(os.environ.get("WEB_THREADS") or 4)
accesslog = "-"
logger_class = "service.gunicorn_conf.RedactingLogger"


class RedactingLogger(Logger):
    """gunicorn's logger, with every record of the process (its access log's too) redacted."""

    def setup(self, cfg: Any) -> None:
        redact_logs()
        super().setup(cfg)
