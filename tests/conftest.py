"""Hypothesis runs the same examples on every CI run (a failure there is one anybody can rerun); on a
developer's machine it keeps exploring new ones."""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
