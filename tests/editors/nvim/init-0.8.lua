-- Neovim 0.8-0.10: ~/.config/nvim/init.lua
vim.api.nvim_create_autocmd('FileType', {
  pattern = { 'puppet', 'epuppet' },
  callback = function(args)
    -- the first marker found wins: a control repo's top before a module's own metadata.json
    local dir = vim.fs.dirname(vim.api.nvim_buf_get_name(args.buf))
    local root
    for _, marker in ipairs({ 'environment.conf', 'Puppetfile', '.git', 'metadata.json' }) do
      local found = vim.fs.find(marker, { upward = true, path = dir })[1]
      if found then root = vim.fs.dirname(found) break end
    end
    vim.lsp.start({
      name = 'puppet_ls',
      cmd = { 'puppet-ls', '--stdio' },
      root_dir = root or vim.fn.getcwd(),
    })
  end,
})
