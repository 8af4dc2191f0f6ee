-- Sourced after a user's init.lua and format-on-save set-up, with FILE.pp loaded: waits for
-- puppet-ls to attach, saves the buffer (:write runs the BufWritePre formatting), and writes
-- {attached, saved} (the file's text on disk after saving) as JSON to $LSP_OUT, then quits.
local r = {}
local ok, err = pcall(function()
  local b = vim.api.nvim_get_current_buf()
  local function clients()   -- get_clients is 0.10+, buf_get_clients is 0.7-0.9
    if vim.lsp.get_clients then return vim.lsp.get_clients({ bufnr = b }) end
    return vim.tbl_values(vim.lsp.buf_get_clients(b))
  end
  r.attached = vim.wait(15000, function() return #clients() > 0 end, 20)
  -- the server has read the document once its diagnostics arrive
  vim.wait(15000, function() return #vim.diagnostic.get(b) > 0 end, 20)
  vim.cmd('write')
  local f = io.open(vim.api.nvim_buf_get_name(b), 'r')
  r.saved = f:read('*a')
  f:close()
end)
if not ok then r.error = tostring(err) end
local f = io.open(os.getenv('LSP_OUT'), 'w')
f:write(vim.fn.json_encode(r))
f:close()
vim.cmd(ok and 'qall!' or 'cquit 3')
