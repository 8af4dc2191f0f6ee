"""puppet_ls.language.check: static checks over the syntax tree (no execution)."""
