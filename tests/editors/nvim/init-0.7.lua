-- Neovim 0.7 (Debian 12): ~/.config/nvim/init.lua (0.7 has no vim.lsp.start or vim.fs yet)
local puppet_ls_id
vim.api.nvim_create_autocmd('FileType', {
  pattern = 'puppet',
  callback = function(args)
    if not (puppet_ls_id and vim.lsp.get_client_by_id(puppet_ls_id)) then
      local git = vim.fn.finddir('.git', vim.fn.expand('%:p:h') .. ';')
      puppet_ls_id = vim.lsp.start_client({
        name = 'puppet_ls',
        cmd = { 'puppet-ls', '--stdio' },
        root_dir = git ~= '' and vim.fn.fnamemodify(git, ':p:h:h') or vim.fn.getcwd(),
      })
    end
    if puppet_ls_id then vim.lsp.buf_attach_client(args.buf, puppet_ls_id) end
  end,
})
