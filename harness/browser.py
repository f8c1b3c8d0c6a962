"""The Chromium the browser tests and the first-paint benchmark drive."""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def chromium_path() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None
