"""Shared setup for the type-system tests: make the helper modules beside this file importable."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
