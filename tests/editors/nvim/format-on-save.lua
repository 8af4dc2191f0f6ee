-- Neovim 0.8+: format Puppet files with puppet-ls when saving (after the puppet_ls set-up)
vim.api.nvim_create_autocmd('BufWritePre', {
  pattern = { '*.pp', '*.epp' },
  callback = function(args)
    vim.lsp.buf.format({ bufnr = args.buf, name = 'puppet_ls', timeout_ms = 5000 })
  end,
})
