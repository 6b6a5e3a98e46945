"""The create-game form, built per game from its seat counts and boolean options, the player's
vacation form, the small forms of the player's and the host's buttons, and the host's form giving a
seat to a new player."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import lazy_ngettext as _nl
from flask_wtf import FlaskForm
from wtforms import BooleanField, DateField, FieldList, FormField, IntegerField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import (
    AnyOf,
    DataRequired,
    Email,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    StopValidation,
    ValidationError,
)

from rules import get_game
from service.catalog import GameEntry, entry
from service.eventlog.models import TimeoutPolicy
from service.i18n import LANGUAGES, reader_language, say
from service.play.confirmation import invite_code_valid
from service.play.hosting import SEED_MAX, GameSetup, Player, SetupRefused, seat_keeper
from service.play.names import name_refusal
from service.play.time_control import MOVE_DAYS, NO_LIMIT, TimeControl
from service.play.timeouts import HostDecision
from service.play.vacations import PLAN_AHEAD_DAYS
from service.runtime import runtime
from service.zones import is_zone

MOVE_DAY_CHOICES = [
    SelectChoice(str(NO_LIMIT), _l("No time limit")),
    *(SelectChoice(str(n), _nl("%(num)s day per move", "%(num)s days per move", n)) for n in MOVE_DAYS),
]
# A bot seat's level, weakest first (the words are rules.table.BOT_LEVELS', capitalised for a list).
LEVEL_CHOICES = [
    SelectChoice("keeper", _l("Seat-keeper: holds the seat")),
    SelectChoice("steady", _l("Steady: a fair opponent")),
    SelectChoice("strong", _l("Strong: plays to win")),
]
REMINDER_CHOICES = [
    SelectChoice("", _l("24 hours before the deadline (half the time for 1-day moves)")),
    SelectChoice("6", _l("6 hours before the deadline")),
    SelectChoice("12", _l("12 hours before the deadline")),
    SelectChoice("48", _l("48 hours before the deadline")),
    SelectChoice("0", _l("No reminder")),
]
TIMEOUT_CHOICES = [
    SelectChoice(TimeoutPolicy.BOT, _l("The seat-keeper plays for them until they return")),
    SelectChoice(TimeoutPolicy.FORFEIT, _l("They forfeit and the game ends")),
    SelectChoice(TimeoutPolicy.HOST, _l("Ask me, the host")),
]
VACATION_CHOICES = [SelectChoice(n, str(n)) for n in (0, 7, 14, 21, 30)]


def check_name(form: FlaskForm, field: StringField) -> None:
    refusal = name_refusal((field.data or "").strip())
    if refusal is not None:
        raise ValidationError(say(refusal))


def check_mailable(form: FlaskForm, field: StringField) -> None:
    """An address beyond ASCII (`pelé@example.org`) only when the mail relay is known to take one
    (SMTP_UTF8), or when no relay is set and mail is kept: otherwise its mail could never be sent."""
    settings = runtime().settings
    address = (field.data or "").strip()
    if not address.isascii() and settings["SMTP_HOST"] and not settings["SMTP_UTF8"]:
        raise ValidationError(
            _("This service cannot send mail to an address with letters beyond A to Z. Give another address.")
        )


class PlayerForm(FlaskForm):
    """One seat: a name and an email (both empty = seat not used), or the seat-keeper bot."""

    class Meta:
        csrf = False  # the enclosing form carries the token

    name = StringField(_l("Name"), validators=[Optional(), check_name])
    email = StringField(_l("Email"), validators=[Optional(), Email(), Length(max=254), check_mailable])
    bot = BooleanField(_l("Seat-keeper bot"))
    level = SelectField(_l("Bot level"), choices=LEVEL_CHOICES, default="keeper")


def check_zone(form: FlaskForm, field: StringField) -> None:
    if not is_zone((field.data or "").strip()):
        raise ValidationError(_l("Give a time zone like Europe/Paris or America/New_York."))


def check_seed(form: FlaskForm, field: IntegerField) -> None:
    """A seed the database can keep, refused before `NumberRange`, which turns a number into a float
    (an OverflowError past 10^308)."""
    if field.data is not None and not 0 <= field.data <= SEED_MAX:
        raise StopValidation(_("A seed is a whole number from 0 to %(most)s.", most=SEED_MAX))


class NewGameForm(FlaskForm):
    """Host, players and options of a new game (boolean options are added per game)."""

    host_name = StringField(_l("Your name"), validators=[InputRequired(_l("Give your name.")), check_name])
    host_email = StringField(
        _l("Your email"),
        validators=[InputRequired(_l("Give your email.")), Email(), Length(max=254), check_mailable],
    )
    players = FieldList(FormField(PlayerForm))
    seed = IntegerField(
        _l("Seed (optional, for a reproducible deal)"), validators=[Optional(), check_seed, NumberRange(0)]
    )
    move_days = SelectField(_l("Time per move"), choices=MOVE_DAY_CHOICES, default=str(NO_LIMIT))
    weekend_pause = BooleanField(_l("Clocks stop on Saturdays and Sundays"))
    timezone = StringField(
        _l("The game's time zone"), default="UTC", validators=[DataRequired(), Length(max=64), check_zone]
    )
    remind_hours = SelectField(_l("Reminder"), choices=REMINDER_CHOICES, default="")
    timeout = SelectField(
        _l("When a player runs out of time"), choices=TIMEOUT_CHOICES, default=TimeoutPolicy.BOT.value
    )
    vacation_days = SelectField(
        _l("Vacation days per player and year"), choices=VACATION_CHOICES, default=14, coerce=int
    )
    language = SelectField(
        _l("The table's language (each player can choose their own)"),
        choices=[SelectChoice(code, name) for code, name in LANGUAGES.items()],
        default=reader_language,
    )
    host_plays = BooleanField(_l("I play too (in the first empty row of players)"))

    def missing(self) -> list[str]:
        """What a form sent incomplete lacks, in words, for the line above it ("your name, your
        email, the players' emails"); empty when nothing is."""
        gaps = []
        if not (self.host_name.data or "").strip():
            gaps.append(_("your name"))
        if not (self.host_email.data or "").strip():
            gaps.append(_("your email"))
        if not self.host_plays.data and not any(
            (row.form.email.data or "").strip() or row.form.bot.data for row in self.players
        ):
            gaps.append(_("the players' emails"))
        return gaps

    def validate_host_plays(self, field: BooleanField) -> None:
        """A host who plays too needs a row left empty for their seat."""
        if field.data and self.host_row() is None:
            raise ValidationError(_("Leave a row of players empty for yourself."))

    def host_row(self) -> int | None:
        """The row a host who plays takes: the first with no name, email or seat-keeper (None: none)."""
        for index, row in enumerate(self.players):
            typed = (row.form.name.data or "").strip() or (row.form.email.data or "").strip()
            if not (typed or row.form.bot.data):
                return index
        return None

    def chosen_players(self) -> list[Player]:
        """The filled-in seats, in order (a seat-keeper seat needs no email; unnamed ones are
        numbered when there are several)."""
        bots = sum(bool(row.form.bot.data) for row in self.players)
        host_row = self.host_row() if self.host_plays.data else None
        players: list[Player] = []
        for index, row in enumerate(self.players):
            name, email = (row.form.name.data or "").strip(), (row.form.email.data or "").strip()
            if index == host_row:  # the host typed their name and address once, above
                players.append(Player(self.host_name.data.strip(), self.host_email.data.strip()))
            elif row.form.bot.data:
                level = row.form.level.data or "keeper"
                players.append(seat_keeper(name, sum(p.bot for p in players) + 1, bots, level))
            elif email:
                players.append(Player(name or email.split("@")[0], email))
        return players

    def chosen_setup(self, game_entry: GameEntry) -> GameSetup:
        """The game as the form sets it up."""
        return GameSetup(
            game_entry.name,
            tuple(self.chosen_players()),
            Player(self.host_name.data.strip(), self.host_email.data.strip()),
            self.chosen_options(game_entry),
            self.seed.data,
            self.chosen_control(),
            self.language.data,
        )

    def invite_code_given(self) -> str:
        """The invite code typed ("" when none was, or the deployment has none)."""
        field = getattr(self, "invite_code", None)
        return (field.data or "").strip() if field is not None else ""

    def chosen_control(self) -> TimeControl:
        """The time control and the rules for absent players."""
        return TimeControl(
            move_days=int(self.move_days.data),
            weekend_pause=bool(self.weekend_pause.data),
            timezone=self.timezone.data.strip(),
            remind_hours=int(self.remind_hours.data) if self.remind_hours.data else None,
            timeout=TimeoutPolicy(self.timeout.data),
            vacation_days=self.vacation_days.data,
        )

    def chosen_options(self, game_entry: GameEntry) -> dict[str, Any]:
        """The options as the rules expect them."""
        options: dict[str, Any] = {key: getattr(self, f"opt_{key}").data for key in game_entry.option_labels}
        leader = getattr(self, "first_leader", None)
        if leader is not None and leader.data != "":
            options["first_leader"] = int(leader.data)
        return options


def check_invite_code(form: FlaskForm, field: StringField) -> None:
    code = (field.data or "").strip()
    if code and not invite_code_valid(runtime().settings, code):
        raise ValidationError(_l("That invite code is not right. Leave it empty to confirm by mail instead."))


def new_game_form(game_entry: GameEntry, formdata: Any = None, invite_code: bool = False) -> NewGameForm:
    """The form for one game: a row per possible seat and its boolean options (and the invite code
    field when the deployment has one)."""
    rules = get_game(game_entry.name)

    class GameForm(NewGameForm):
        pass

    if invite_code:
        GameForm.invite_code = StringField(
            _l("Invite code (optional: with it, no confirmation by mail)"),
            validators=[Optional(), Length(max=200), check_invite_code],
        )

    for key, label in game_entry.option_labels.items():
        setattr(GameForm, f"opt_{key}", BooleanField(label, default=bool(rules.default_options.get(key))))
    if "first_leader" in rules.default_options:
        choices = [SelectChoice("", _l("Drawn at random"))] + [
            SelectChoice(str(n), _l("Player %(n)s", n=n + 1)) for n in range(max(rules.seat_counts))
        ]
        GameForm.first_leader = SelectField(_l("First leader"), choices=choices, default="")
    form = GameForm(formdata=formdata)
    while len(form.players) < max(rules.seat_counts):
        form.players.append_entry()
    return form


class VacationForm(FlaskForm):
    """Days away: the first day (in the game's time zone) and how many."""

    start = DateField(_l("First day away"), validators=[InputRequired()])
    days = IntegerField(
        _l("Number of days"), default=1, validators=[InputRequired(), NumberRange(1, PLAN_AHEAD_DAYS)]
    )


DAMAGED = _l("This form is incomplete or damaged. Reload the page and choose again.")


class ButtonForm(FlaskForm):
    """A form whose buttons post fixed values (CSRF is checked for every form by CSRFProtect)."""

    class Meta:
        csrf = False

    def refusal(self) -> str:
        """Why the form was refused: its first error."""
        return str(next(iter(self.errors.values()))[0])


class AutoPlayForm(ButtonForm):
    auto_play = StringField(validators=[AnyOf(("on", "off"), message=DAMAGED)])


class HostNoticesForm(ButtonForm):
    host_notify = StringField(
        validators=[AnyOf(("on", "off"), message=_l("Choose whether host notices should come by mail."))]
    )


class PublicReplayForm(ButtonForm):
    public = StringField(validators=[AnyOf(("yes", "no"), message=DAMAGED)])


class HostDecisionForm(ButtonForm):
    """The host's decision for a player out of time, with the days of a fresh clock."""

    decision = StringField(validators=[AnyOf(tuple(HostDecision), message=DAMAGED)])
    days = StringField()

    def validate_days(self, field: StringField) -> None:
        if self.decision.data == HostDecision.MORE_TIME and self.granted_days() not in MOVE_DAYS:
            raise ValidationError(_l("Choose how many more days to give."))

    def granted_days(self) -> int:
        """The days of a fresh clock (0 when the decision gives none)."""
        return next((n for n in MOVE_DAYS if str(n) == self.days.data), 0)


def refusal_text(refusal: SetupRefused) -> str:
    """Why a game cannot be created, in the reader's language, the game named by its title."""
    spelled = {
        key: _(" or ").join(map(str, value)) if isinstance(value, tuple) else value
        for key, value in refusal.params.items()
    }
    return say((refusal.msgid, {**spelled, "title": entry(refusal.game).title}))


class AddressForm(FlaskForm):
    """A seat's corrected email address (the host's, or the player's own when mail does not arrive)."""

    email = StringField(_l("Email address"), validators=[InputRequired(), Email(), Length(max=254)])

    def address(self) -> str:
        return (self.email.data or "").strip()


class ReplacePlayerForm(FlaskForm):
    """The host gives a seat to a new player: their name and email."""

    name = StringField(_l("New player's name"), validators=[InputRequired(), Length(min=1, max=100)])
    email = StringField(
        _l("Their email"), validators=[InputRequired(), Email(), Length(max=254), check_mailable]
    )

    def player(self) -> Player:
        """The new player as entered."""
        return Player((self.name.data or "").strip(), (self.email.data or "").strip())
