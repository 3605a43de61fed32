"""Print the latest 6-digit code mailed to an address, from a MailSink spool folder.

Used by the browser test as MAIL_CODE_COMMAND: `python tests/support/mail_code.py SPOOL EMAIL`.
"""

from __future__ import annotations

import email
import re
import sys
from pathlib import Path


def main() -> None:
    spool, address = Path(sys.argv[1]), sys.argv[2].lower()
    for path in sorted(spool.glob("*.eml"), reverse=True):
        message = email.message_from_bytes(path.read_bytes())
        if str(message["To"]).lower() == address:
            found = re.search(r"\b(\d{6})\b", str(message["Subject"]))
            if found:
                print(found.group(1))
                return
    sys.exit(f"no code mailed to {address}")


if __name__ == "__main__":
    main()
