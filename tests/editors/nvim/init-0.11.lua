-- Neovim 0.11+: ~/.config/nvim/init.lua (or put the table in ~/.config/nvim/lsp/puppet_ls.lua)
vim.lsp.config('puppet_ls', {
  cmd = { 'puppet-ls', '--stdio' },
  filetypes = { 'puppet', 'epuppet' },
  -- the first marker found wins: a control repo's top before a module's own metadata.json
  root_markers = { 'environment.conf', 'Puppetfile', '.git', 'metadata.json' },
})
vim.lsp.enable('puppet_ls')
