"""Test-wide settings: Hypothesis runs derandomized (the same examples on every run, so CI is
reproducible); HYPOTHESIS_PROFILE=explore runs fresh random examples when hunting bugs."""
import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
