-- Headless Neovim (0.7 and later): rename and a quick fix against puppet-ls, applied by Neovim
-- itself.  Renames the variable at RENAME_POS to RENAME_TO with vim.lsp.buf.rename (0.8 and
-- later ask prepareRename first), then asks for the quick fixes at QUICKFIX_POS and applies the
-- first one's edit with vim.lsp.util.apply_workspace_edit (what the code-action menu does once
-- an action is picked), and writes the buffer after each step as JSON.
-- Usage: nvim --headless --clean -n -S refactor.lua FILE.pp
-- Env: LSP_CMD (JSON list), LSP_OUT, RENAME_POS and QUICKFIX_POS ("line:col", 0-based), RENAME_TO.
local H = dofile(debug.getinfo(1, 'S').source:match('^@(.*[/\\])') .. 'harness.lua')
local result, timeout, pos = H.result, H.timeout, H.pos

H.run(function()
  local bufnr = vim.api.nvim_get_current_buf()
  local client_id, client = H.attach(bufnr)
  local caps = client.server_capabilities or client.resolved_capabilities or {}
  result.rename_provider = (caps.renameProvider or caps.rename) and true or false
  local function text() return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') end
  local before = text()

  -- rename, as `:lua vim.lsp.buf.rename('name')` does it from the cursor
  local rp = pos('RENAME_POS')
  vim.api.nvim_win_set_cursor(0, { rp.line + 1, rp.character })
  vim.lsp.buf.rename(os.getenv('RENAME_TO'))
  result.renamed = vim.wait(timeout, function() return text() ~= before end, 20)
  result.after_rename = text()

  -- the quick fixes at QUICKFIX_POS; Neovim applies the picked one's edit
  local qp = pos('QUICKFIX_POS')
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, range = { start = qp, ['end'] = qp },
                   context = { diagnostics = {}, only = { 'quickfix' } } }
  result.quickfix_titles = {}
  local chosen
  for _, r in pairs(vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, timeout) or {}) do
    for _, a in ipairs(r.result or {}) do
      table.insert(result.quickfix_titles, a.title)
      if chosen == nil and a.edit then chosen = a end
    end
    if r.err then result.quickfix_error = r.err.message end
  end
  if chosen then
    vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding or 'utf-16')
  end
  result.after_fix = text()

  H.stop(client_id)
end)
