-- Headless Neovim (0.7 and later) end to end against puppet-ls: attaches the server to the
-- current buffer, waits for diagnostics, opens the hover float the way `K` does, asks for
-- completion, and writes what the editor got as JSON.
-- Usage: nvim --headless --clean -n -S e2e.lua FILE.pp
-- Env: LSP_CMD (JSON list), LSP_OUT (result file), HOVER_POS and COMPLETION_POS ("line:col",
--      0-based), LSP_TIMEOUT_MS (default 15000).
-- harness.lua runs the steps under pcall and always ends in qall!/cquit: an uncaught error in a
-- -S script would leave headless nvim waiting forever.
local H = dofile(debug.getinfo(1, 'S').source:match('^@(.*[/\\])') .. 'harness.lua')
local result, timeout, pos = H.result, H.timeout, H.pos

local function markup_text(contents)   -- MarkupContent | MarkedString | MarkedString[]
  if type(contents) == 'string' then return contents end
  if contents.value then return contents.value end
  local parts = {}
  for _, c in ipairs(contents) do table.insert(parts, type(c) == 'string' and c or c.value) end
  return table.concat(parts, '\n')
end

H.run(function()
  local bufnr = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[bufnr].filetype
  local client_id, client = H.attach(bufnr)

  -- diagnostics: what vim.diagnostic shows as signs / virtual text
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(result.diagnostics, { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      message = d.message, severity = d.severity, source = d.source,
      code = d.user_data and d.user_data.lsp and d.user_data.lsp.code or d.code })
  end

  local caps = client.server_capabilities or client.resolved_capabilities or {}
  result.hover_provider = (caps.hoverProvider or caps.hover) and true or false
  result.completion_provider = (caps.completionProvider or caps.completion) and true or false

  -- hover: put the cursor on HOVER_POS and do what `K` does; read the floating window.
  -- (Requests for a method the server does not offer are never sent, and waiting for their
  -- answer would take the whole timeout: ask only when the capability is there.)
  local hp = pos('HOVER_POS')
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = hp }
  if result.hover_provider then
  vim.api.nvim_win_set_cursor(0, { hp.line + 1, hp.character })
  local function floats()
    local found = {}
    for _, w in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(w).relative ~= '' then table.insert(found, w) end
    end
    return found
  end
    vim.lsp.buf.hover()
    vim.wait(timeout, function() return #floats() > 0 end, 20)
    local win = floats()[1]
    if win then
      result.hover_float = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false), '\n')
      vim.api.nvim_win_close(win, true)
    end
    -- the same hover as a request, for the raw markup
    for _, r in pairs(vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', params, timeout) or {}) do
      if r.result and r.result.contents then result.hover = markup_text(r.result.contents) end
      if r.err then result.hover_error = r.err.message end
    end
  end

  -- completion at COMPLETION_POS
  params.position = pos('COMPLETION_POS')
  result.completion = {}
  if result.completion_provider then
    for _, r in pairs(vim.lsp.buf_request_sync(bufnr, 'textDocument/completion', params, timeout) or {}) do
      local items = r.result and (r.result.items or r.result) or {}
      for _, it in ipairs(items) do table.insert(result.completion, it.label) end
      if r.err then result.completion_error = r.err.message end
    end
  end

  H.stop(client_id)
end)
