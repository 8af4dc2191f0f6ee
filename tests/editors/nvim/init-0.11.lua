-- Neovim 0.11+: ~/.config/nvim/init.lua (or put the table in ~/.config/nvim/lsp/puppet_ls.lua)
vim.lsp.config('puppet_ls', {
  cmd = { 'puppet-ls', '--stdio' },
  filetypes = { 'puppet' },
  root_markers = { 'metadata.json', 'Puppetfile', 'environment.conf', '.git' },
})
vim.lsp.enable('puppet_ls')
