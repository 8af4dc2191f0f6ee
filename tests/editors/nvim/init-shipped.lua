-- The shipped editors/nvim/lsp/puppet_ls.lua on the runtimepath, as a user would put it there
-- ($PUPPET_LS_NVIM_RTP is the repository's editors/nvim folder); only vim.lsp.enable is left.
vim.opt.runtimepath:prepend(os.getenv('PUPPET_LS_NVIM_RTP'))
vim.lsp.enable('puppet_ls')
