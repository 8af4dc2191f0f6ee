"""Hiera 5 for puppet-ls: hiera.yaml configurations, data files, interpolation, merges and
lookups with their explain trail.  Pure: the caller reads the files (``Hiera`` is given a
reader and a directory lister)."""
from .config import HieraConfig, Level, default_config, read_config
from .interpolate import HieraError, Interpolator, scope_for, split_key
from .lookup import Hiera, Layer, LookupResult, Step, module_of
from .yamldata import DataFile, Encrypted, read_data

__all__ = ["HieraConfig", "Level", "default_config", "read_config", "HieraError", "Interpolator",
           "scope_for", "split_key", "Hiera", "Layer", "LookupResult", "Step", "module_of",
           "DataFile", "Encrypted", "read_data"]
