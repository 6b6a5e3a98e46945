"""The create-game form, built per game from its seat counts and boolean options."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, FieldList, FormField, IntegerField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Email, InputRequired, Length, NumberRange, Optional

from rules import get_game
from service.catalog import GameEntry
from service.games import Player


class PlayerForm(FlaskForm):
    """One seat: a name and an email (both empty = seat not used)."""

    class Meta:
        csrf = False  # the enclosing form carries the token

    name = StringField(_l("Name"), validators=[Optional(), Length(max=100)])
    email = StringField(_l("Email"), validators=[Optional(), Email(), Length(max=254)])


class NewGameForm(FlaskForm):
    """Host, players and options of a new game (boolean options are added per game)."""

    host_name = StringField(_l("Your name"), validators=[InputRequired(), Length(max=100)])
    host_email = StringField(_l("Your email"), validators=[InputRequired(), Email(), Length(max=254)])
    players = FieldList(FormField(PlayerForm))
    seed = IntegerField(
        _l("Seed (optional, for a reproducible deal)"), validators=[Optional(), NumberRange(0)]
    )

    def chosen_players(self) -> list[Player]:
        """The filled-in seats, in order."""
        rows = [(row.form.name.data or "", row.form.email.data or "") for row in self.players]
        return [Player(name.strip() or email.split("@")[0], email.strip()) for name, email in rows if email]

    def chosen_options(self, game_entry: GameEntry) -> dict[str, Any]:
        """The options as the rules expect them."""
        options: dict[str, Any] = {key: getattr(self, f"opt_{key}").data for key in game_entry.option_labels}
        leader = getattr(self, "first_leader", None)
        if leader is not None and leader.data != "":
            options["first_leader"] = int(leader.data)
        return options


def new_game_form(game_entry: GameEntry, formdata: Any = None) -> NewGameForm:
    """The form for one game: a row per possible seat and its boolean options."""
    rules = get_game(game_entry.name)

    class GameForm(NewGameForm):
        pass

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
