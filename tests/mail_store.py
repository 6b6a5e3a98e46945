"""Dovecot's IMAP server of the test's own (Debian's `dovecot-imapd`): a temporary configuration and
Maildir, a spare 127.0.0.1 port, one mailbox that takes every recipient's mail, and Dovecot's own
local delivery agent to put mail into it, as a mail server's pipe to `dovecot-lda` does."""

from __future__ import annotations

import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from tests.smtp_sink import free_port

DOVECOT = Path("/usr/sbin/dovecot")
LDA = Path("/usr/lib/dovecot/dovecot-lda")
USER, PASSWORD = "pbem", "imap-secret"

CONFIG = """\
base_dir = {dir}/run
state_dir = {dir}/state
log_path = {dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain
default_login_user = dovenull
default_internal_user = dovecot
first_valid_uid = {uid}
mail_location = maildir:{dir}/mail
passdb {{
  driver = static
  args = password={password}
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={dir}/home allow_all_users=yes
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
"""


class OwnDovecot:
    """A Dovecot IMAP server on a spare port, started and stopped by the test."""

    def __init__(self) -> None:
        if not DOVECOT.exists() or not LDA.exists():
            raise RuntimeError("Dovecot is not installed (apt-get install dovecot-imapd)")
        account = pwd.getpwnam("dovecot")
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="pbem-imap-"))
        self.dir.chmod(0o755)  # the mail is read and written as the dovecot user
        for folder in ("mail", "home"):
            (self.dir / folder).mkdir()
            shutil.chown(self.dir / folder, account.pw_uid, account.pw_gid)
        self.config = self.dir / "dovecot.conf"
        self.config.write_text(
            CONFIG.format(
                dir=self.dir, uid=account.pw_uid, gid=account.pw_gid, port=self.port, password=PASSWORD
            )
        )
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [str(DOVECOT), "-F", "-c", str(self.config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.1)
        log = self.dir / "dovecot.log"
        raise RuntimeError(f"Dovecot did not start: {log.read_text() if log.exists() else 'no log'}")

    def deliver(self, recipient: str, message: bytes) -> None:
        """Deliver a mail to the mailbox, with the headers a mail server's local delivery writes
        (the envelope sender of a report is the null sender)."""
        head = f"Return-Path: <>\r\nDelivered-To: {recipient}\r\n".encode()
        subprocess.run(
            [str(LDA), "-c", str(self.config), "-d", USER, "-f", "", "-a", recipient],
            input=head + message,
            check=True,
            capture_output=True,
            timeout=30,
        )

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=30)
        shutil.rmtree(self.dir, ignore_errors=True)
