"""Channels: the places besides mail where a seat, or a whole table, hears of its game. Each kind is
one module behind the small interface of `kinds.py` (a chat or phone app by Apprise URL, a signed JSON
webhook, a browser's Web Push subscription); its notices are outbox rows that name their channel,
written in the move's transaction next to its mails and delivered by service/mail/delivery.py with
the same lease, retries and backoff."""
