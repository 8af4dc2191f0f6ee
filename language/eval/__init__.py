"""puppet_ls.language.eval: the sandboxed, bounded evaluator and its runtime values."""
