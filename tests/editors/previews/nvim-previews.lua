-- Neovim 0.11: code lenses and a :PuppetFacts command (after the puppet_ls set-up)
vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'BufWritePost' }, {
  pattern = { '*.pp' },
  callback = function(args) vim.lsp.codelens.refresh({ bufnr = args.buf }) end,
})
vim.keymap.set('n', '<leader>cl', vim.lsp.codelens.run, { desc = 'run the code lens of this line' })
vim.api.nvim_create_user_command('PuppetFacts', function(opts)
  for _, client in ipairs(vim.lsp.get_clients({ name = 'puppet_ls' })) do
    client.settings = vim.tbl_deep_extend('force', client.settings or {},
      { puppet = { previews = { facts = opts.args } } })
    client:notify('workspace/didChangeConfiguration', { settings = client.settings })
  end
end, { nargs = '?', complete = function() return { 'debian12', 'ubuntu2404', 'rhel9', 'windows2022' } end })
