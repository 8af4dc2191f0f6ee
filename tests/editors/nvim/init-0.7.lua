-- Neovim 0.7 (Debian 12): ~/.config/nvim/init.lua (0.7 has no vim.lsp.start or vim.fs yet)
local function puppet_root()
  -- the first marker found wins: a control repo's top before a module's own metadata.json
  local from = vim.fn.expand('%:p:h') .. ';'
  for _, marker in ipairs({ 'environment.conf', 'Puppetfile', '.git', 'metadata.json' }) do
    local dir = marker == '.git'
    local found = dir and vim.fn.finddir(marker, from) or vim.fn.findfile(marker, from)
    if found ~= '' then return vim.fn.fnamemodify(found, dir and ':p:h:h' or ':p:h') end
  end
  return vim.fn.getcwd()
end
local puppet_ls_id
vim.api.nvim_create_autocmd('FileType', {
  pattern = { 'puppet', 'epuppet' },
  callback = function(args)
    if not (puppet_ls_id and vim.lsp.get_client_by_id(puppet_ls_id)) then
      puppet_ls_id = vim.lsp.start_client({
        name = 'puppet_ls',
        cmd = { 'puppet-ls', '--stdio' },
        root_dir = puppet_root(),
      })
    end
    if puppet_ls_id then vim.lsp.buf_attach_client(args.buf, puppet_ls_id) end
  end,
})
