-- Neovim 0.8-0.10: ~/.config/nvim/init.lua
vim.api.nvim_create_autocmd('FileType', {
  pattern = 'puppet',
  callback = function(args)
    local markers = { 'metadata.json', 'Puppetfile', 'environment.conf', '.git' }
    local found = vim.fs.find(markers, { upward = true, path = vim.api.nvim_buf_get_name(args.buf) })[1]
    vim.lsp.start({
      name = 'puppet_ls',
      cmd = { 'puppet-ls', '--stdio' },
      root_dir = found and vim.fs.dirname(found) or vim.fn.getcwd(),
    })
  end,
})
