-- Sourced after a user's init.lua has run and FILE.pp is loaded: checks that the config started
-- puppet-ls for the buffer by itself (no test code starts it) and that diagnostics arrive.
-- Writes {attached, client_name, root_dir, diagnostics, hover} as JSON to $LSP_OUT, then quits.
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
  -- HOVER_AT=line:col (0-based): the hover there once it mentions HOVER_EXPECT (the workspace
  -- index is built after the server starts, so early answers may not know module code yet)
  local at = os.getenv('HOVER_AT')
  if at and r.attached then
    local line, col = at:match('(%d+):(%d+)')
    local params = { textDocument = { uri = vim.uri_from_bufnr(b) },
                     position = { line = tonumber(line), character = tonumber(col) } }
    local expect = os.getenv('HOVER_EXPECT') or ''
    vim.wait(30000, function()
      local answers = vim.lsp.buf_request_sync(b, 'textDocument/hover', params, 5000) or {}
      for _, a in pairs(answers) do
        local c = a.result and a.result.contents
        if c then
          r.hover = type(c) == 'table' and (c.value or vim.fn.json_encode(c)) or c
          if r.hover:find(expect, 1, true) then return true end
        end
      end
      return false
    end, 500)
  end
end)
if not ok then r.error = tostring(err) end
local f = io.open(os.getenv('LSP_OUT'), 'w')
f:write(vim.fn.json_encode(r))
f:close()
vim.cmd(ok and 'qall!' or 'cquit 3')
