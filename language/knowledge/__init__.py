"""Knowledge about Puppet itself that is data, not code: generated from the installed Puppet by
the tools under ``tools/`` and read through one loader per kind of knowledge."""
