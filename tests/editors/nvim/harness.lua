-- What the headless scripts that drive puppet-ls themselves (e2e.lua, refactor.lua) share: the
-- result table written as JSON to $LSP_OUT, "line:col" positions from the environment, starting
-- and attaching the server ($LSP_CMD) and waiting for its first diagnostics, stopping it, and
-- ending every run in qall!/cquit (an uncaught error in a -S script would leave headless nvim
-- waiting forever, so the steps run under pcall).
-- Load it with: dofile(debug.getinfo(1, 'S').source:match('^@(.*[/\\])') .. 'harness.lua')
local M = {}

local out_path = assert(os.getenv('LSP_OUT'), 'LSP_OUT not set')
M.timeout = tonumber(os.getenv('LSP_TIMEOUT_MS') or '15000')
local v = vim.version()
M.result = { nvim_version = string.format('%d.%d.%d', v.major, v.minor, v.patch) }

-- the 0-based position in the environment variable NAME ("line:col")
function M.pos(name)
  local l, c = os.getenv(name):match('^(%d+):(%d+)$')
  return { line = tonumber(l), character = tonumber(c) }
end

-- starts puppet-ls for bufnr, attaches it and waits for its first diagnostics; returns the
-- client's id and the client
function M.attach(bufnr)
  local client_id = vim.lsp.start_client({
    name = 'puppet_ls',
    cmd = vim.fn.json_decode(os.getenv('LSP_CMD')),
    root_dir = vim.fn.getcwd(),
    on_exit = function(code, signal) M.result.server_exit = { code = code, signal = signal } end,
  })
  assert(client_id, 'start_client failed')
  assert(vim.lsp.buf_attach_client(bufnr, client_id), 'buf_attach_client failed')
  M.result.diagnostics_arrived = vim.wait(M.timeout, function() return #vim.diagnostic.get(bufnr) > 0 end, 20)
  return client_id, vim.lsp.get_client_by_id(client_id)
end

function M.stop(client_id)
  vim.lsp.stop_client(client_id)
  vim.wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20)
end

-- runs steps() under pcall, writes the result (with the error, if any) and quits
function M.run(steps)
  local ok, err = pcall(steps)
  if not ok then M.result.error = tostring(err) end
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.fn.json_encode(M.result))
  f:close()
  vim.cmd(ok and 'qall!' or 'cquit 3')
end

return M
