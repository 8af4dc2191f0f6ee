-- Headless Neovim (0.7 and later): rename through puppet-ls the way `:lua vim.lsp.buf.rename()`
-- does, and write the buffer's text after the edit as JSON.
-- Usage: nvim --headless --clean -n -S rename.lua FILE.pp
-- Env: LSP_CMD (JSON list), LSP_OUT (result file), RENAME_POS ("line:col", 0-based), NEW_NAME,
--      LSP_TIMEOUT_MS (default 15000).
-- As in e2e.lua, every step runs under pcall and the script always ends in qall!/cquit.
local out_path = assert(os.getenv('LSP_OUT'), 'LSP_OUT not set')
local timeout = tonumber(os.getenv('LSP_TIMEOUT_MS') or '15000')
local v = vim.version()
local result = { nvim_version = string.format('%d.%d.%d', v.major, v.minor, v.patch) }

local function finish(code)
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd(code == 0 and 'qall!' or ('cquit ' .. code))
end

local ok, err = pcall(function()
  local cmd = vim.fn.json_decode(os.getenv('LSP_CMD'))
  local bufnr = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({ name = 'puppet_ls', cmd = cmd, root_dir = vim.fn.getcwd() })
  assert(client_id, 'start_client failed')
  assert(vim.lsp.buf_attach_client(bufnr, client_id), 'buf_attach_client failed')
  -- the server is ready once it has published the buffer's diagnostics
  vim.wait(timeout, function() return #vim.diagnostic.get(bufnr) > 0 end, 20)
  local client = vim.lsp.get_client_by_id(client_id)
  local caps = client.server_capabilities or client.resolved_capabilities or {}
  result.rename_provider = (caps.renameProvider or caps.rename) and true or false

  local l, c = os.getenv('RENAME_POS'):match('^(%d+):(%d+)$')
  vim.api.nvim_win_set_cursor(0, { tonumber(l) + 1, tonumber(c) })
  local before = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
  vim.lsp.buf.rename(os.getenv('NEW_NAME'))
  result.changed = vim.wait(timeout, function()
    return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') ~= before
  end, 20)
  result.text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')

  vim.lsp.stop_client(client_id)
  vim.wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20)
end)
if not ok then result.error = tostring(err) end
finish(ok and 0 or 3)
