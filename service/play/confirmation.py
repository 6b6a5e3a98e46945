"""Games asked for on the web start only once their host confirmed their own address.

The create page stores the request and mails the host a signed link (`confirmation_mail`): nothing
else is sent before the host opens it and presses the button. Confirming creates the game and sends
the invitations, once, however often it is pressed. A deployment may let some hosts skip this: the
addresses or @domains of HOST_ALLOWLIST, or whoever types INVITE_CODE. `pbem new` (the operator)
creates games directly. A host address that the confirmation mail did not reach (it bounced, or
the relay refused it) is refused by the create form for that week, with nothing sent.
"""

from __future__ import annotations

import hmac
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

from rules.messages import N_
from rules.table import KEEPER
from service.eventlog.models import BounceKind, BounceRecord, GameRequest, OutboxMail, TimeoutPolicy
from service.links import CONFIRM_MAX_AGE_SECONDS
from service.mail.drafting import confirmation_mail
from service.mail.kinds import MailKind
from service.play.hosting import GameSetup, Player, SetupRefused, start_game
from service.play.time_control import TimeControl
from service.runtime import Runtime

CONFIRMATION_BOUNCED = N_(
    "Mail to %(email)s did not arrive when we asked it to confirm a game this week: check the address "
    "for a typo, or give another."
)


def allowlisted(settings: dict[str, Any], address: str) -> bool:
    """Whether HOST_ALLOWLIST names this address, or its domain as "@domain"."""
    address = address.strip().lower()
    entries = {entry.strip().lower() for entry in settings["HOST_ALLOWLIST"].split(",") if entry.strip()}
    return address in entries or "@" + address.rpartition("@")[2] in entries


def invite_code_valid(settings: dict[str, Any], code: str) -> bool:
    """Whether `code` is the deployment's INVITE_CODE (never when none is set)."""
    expected = settings["INVITE_CODE"]
    return bool(expected) and hmac.compare_digest(code.strip().encode(), expected.encode())


def skips_confirmation(settings: dict[str, Any], address: str, code: str) -> bool:
    """Whether a host may create a game at once: an allow-listed address or the invite code."""
    return allowlisted(settings, address) or invite_code_valid(settings, code)


def ask_for_game(rt: Runtime, setup: GameSetup) -> int:
    """Store the game asked for and mail its host the link to confirm it (the only mail until
    then); the request's id. SetupRefused, with nothing stored, when the game could not start."""
    setup.check()
    with Session(rt.engine, expire_on_commit=False) as session:
        if confirmation_bounced(session, setup.host.email, rt.clock.now()):
            raise SetupRefused(setup.game, CONFIRMATION_BOUNCED, email=setup.host.email)
        request = GameRequest(
            game=setup.game,
            players=[
                {"name": p.name, "email": p.email, "bot": p.bot, "level": p.level} for p in setup.players
            ],
            host_name=setup.host.name,
            host_email=setup.host.email,
            options=setup.options,
            seed=setup.seed,
            control=setup.control.columns(),
            language=setup.language,
            created_at=rt.clock.now(),
        )
        session.add(request)
        session.flush()
        mail = confirmation_mail(rt, request)
        session.add(mail)
        session.commit()
        assert request.id is not None and mail.id is not None
    rt.dispatch.send_mails([mail.id])
    return request.id


def confirmation_bounced(session: Session, address: str, now: datetime) -> bool:
    """Whether a mail asking this address to confirm a game failed for good (a permanent bounce, or
    a refusal at send time) within the week its link would have worked: then no other is sent (no
    mail storm to a dead mailbox), and the create form asks for the address again."""
    failed = session.exec(
        select(BounceRecord.id)
        .join(OutboxMail, col(OutboxMail.id) == col(BounceRecord.mail_id))
        .where(
            col(BounceRecord.email) == address.strip().lower(),
            col(BounceRecord.kind) == BounceKind.PERMANENT,
            col(BounceRecord.received_at) >= now - timedelta(seconds=CONFIRM_MAX_AGE_SECONDS),
            col(OutboxMail.kind) == MailKind.CONFIRM_GAME,
        )
        .limit(1)
    ).first()
    return failed is not None


def game_request(rt: Runtime, request_id: int) -> GameRequest:
    """A game asked for (LookupError if there is none)."""
    with Session(rt.engine) as session:
        request = session.get(GameRequest, request_id)
    if request is None:
        raise LookupError(f"no game request {request_id}")
    return request


def confirm_game(rt: Runtime, request_id: int) -> tuple[str, bool]:
    """Create the game asked for and send its invitations, in one transaction: its id, and whether
    this call created it (a second confirmation changes nothing and returns the same game)."""
    with Session(rt.engine, expire_on_commit=False) as session:
        query = select(GameRequest).where(GameRequest.id == request_id).with_for_update()
        request = session.exec(query).first()
        if request is None:
            raise LookupError(f"no game request {request_id}")
        if request.game_id is not None:
            return request.game_id, False
        game_id, mails = start_game(rt, session, setup_of(request))
        request.game_id, request.confirmed_at = game_id, rt.clock.now()
        session.add(request)
        rt.commit_and_send(session, game_id, mails)
    return game_id, True


def setup_of(request: GameRequest) -> GameSetup:
    """The game a request asks for."""
    control = request.control
    return GameSetup(
        request.game,
        tuple(Player(p["name"], p["email"], p["bot"], p.get("level", KEEPER)) for p in request.players),
        Player(request.host_name, request.host_email),
        dict(request.options),
        request.seed,
        TimeControl(**{**control, "timeout": TimeoutPolicy(control["timeout"])}),
        request.language,
    )
