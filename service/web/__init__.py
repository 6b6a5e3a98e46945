"""The web edge: blueprints for the public pages, the player's and host's pages, replays, the outbox and
the JSON API, with link access, forms and error pages."""
