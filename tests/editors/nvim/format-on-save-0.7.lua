-- Neovim 0.7: format Puppet files with puppet-ls when saving (after the puppet_ls set-up)
vim.cmd([[autocmd BufWritePre *.pp,*.epp lua vim.lsp.buf.formatting_sync(nil, 5000)]])
