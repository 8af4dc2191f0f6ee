-- Sourced after a user's init.lua has run and FILE.pp is loaded: checks that the config started
-- puppet-ls for the buffer by itself (no test code starts it) and that diagnostics arrive.
-- Writes {attached, client_name, diagnostics} as JSON to $LSP_OUT, then quits.
local r = {}
local ok, err = pcall(function()
  local b = vim.api.nvim_get_current_buf()
  local function clients()   -- get_clients is 0.10+, buf_get_clients is 0.7-0.9
    if vim.lsp.get_clients then return vim.lsp.get_clients({ bufnr = b }) end
    return vim.tbl_values(vim.lsp.buf_get_clients(b))
  end
  r.attached = vim.wait(15000, function() return #clients() > 0 end, 20)
  r.client_name = r.attached and clients()[1].name or nil
  r.root_dir = r.attached and clients()[1].config.root_dir or nil
  vim.wait(15000, function() return #vim.diagnostic.get(b) > 0 end, 20)
  r.diagnostics = vim.tbl_map(function(d) return { lnum = d.lnum, col = d.col, message = d.message } end,
    vim.diagnostic.get(b))
end)
if not ok then r.error = tostring(err) end
local f = io.open(os.getenv('LSP_OUT'), 'w')
f:write(vim.fn.json_encode(r))
f:close()
vim.cmd(ok and 'qall!' or 'cquit 3')
