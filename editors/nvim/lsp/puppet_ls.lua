-- puppet-ls for Neovim 0.11+, in nvim-lspconfig's layout: put the folder holding this `lsp/`
-- folder on your 'runtimepath' (or copy this file to ~/.config/nvim/lsp/puppet_ls.lua), then
-- call vim.lsp.enable('puppet_ls') in init.lua.
--
-- Root markers are tried in this order (Neovim gives the first marker that is found priority):
-- a control repo's environment.conf and Puppetfile come before metadata.json, so a file under
-- site/profile/ is served from the control repo's top, where the server finds environment.conf
-- and modules/, not from the profile module's own folder.
return {
  cmd = { 'puppet-ls', '--stdio' },
  filetypes = { 'puppet', 'epuppet' },
  root_markers = { 'environment.conf', 'Puppetfile', '.git', 'metadata.json' },
}
