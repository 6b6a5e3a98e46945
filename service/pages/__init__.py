"""Blueprints: public pages, the player's page, the host's page, the outbox and the JSON API."""
