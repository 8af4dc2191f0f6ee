"""puppet_ls.language.ide: editor features (symbols, hover, completion, …) returning plain data."""
