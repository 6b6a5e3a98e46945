# The part of py_vapid this project uses, typed (the package ships without type information).
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ec import EllipticCurvePrivateKey, EllipticCurvePublicKey

class Vapid02:
    private_key: EllipticCurvePrivateKey
    @property
    def public_key(self) -> EllipticCurvePublicKey: ...
    def generate_keys(self) -> None: ...
    @classmethod
    def from_string(cls, private_key: str) -> Vapid02: ...
    def sign(self, claims: dict[str, Any], crypto_key: str | None = ...) -> dict[str, str]: ...

Vapid = Vapid02
