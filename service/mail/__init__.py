"""Mail: drafting each kind for its reader, delivery by SMTP, the daily digest and unsubscribing."""
