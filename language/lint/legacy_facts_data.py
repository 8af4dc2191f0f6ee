"""The legacy (flat) Facter facts the ``legacy_facts`` check looks for, as that check reads
them: names and regular expressions, taken from the one catalogue of facts
(language/knowledge/facts.py, generated from Facter's schema: its entries marked hidden)."""
from __future__ import annotations

from ..knowledge.facts import legacy_fact_names, legacy_fact_patterns

LEGACY_FACTS = legacy_fact_names()
LEGACY_FACT_PATTERNS = tuple(p.pattern for p in legacy_fact_patterns())
