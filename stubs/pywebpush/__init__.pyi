# The part of pywebpush this project uses, typed (the package ships without type information).
from collections.abc import Mapping
from typing import Any

class WebPusher:
    def __init__(self, subscription_info: Mapping[str, Any], **kwargs: Any) -> None: ...
    def encode(self, data: bytes, content_encoding: str = ...) -> dict[str, bytes]: ...
