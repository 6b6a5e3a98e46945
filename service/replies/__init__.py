"""Mail that arrives: the listener (SMTP, LMTP or IMAP), what a received mail must pass, a reply read
and answered (its move, its words, its plays chosen ahead), and the delivery reports at return paths."""
