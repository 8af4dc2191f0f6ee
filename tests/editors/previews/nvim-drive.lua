-- Sourced once the user's init (init-0.11.lua and the documented nvim-previews.lua) has run and
-- FILE.pp (a class whose code depends on facts) is loaded: reads the code lenses, switches the
-- fact set with :PuppetFacts, and runs the "Preview catalog" lens the way <leader>cl does (the
-- server opens the catalog with window/showDocument).  Writes {attached, lenses_before,
-- lenses_after, catalog_name, catalog} as JSON to $LSP_OUT, then quits.
local r = {}
local ok, err = pcall(function()
  local b = vim.api.nvim_get_current_buf()
  r.attached = vim.wait(15000, function() return #vim.lsp.get_clients({ bufnr = b, name = 'puppet_ls' }) > 0 end, 20)
  local function titles()
    return vim.tbl_map(function(l) return { l.range.start.line, l.command and l.command.title } end,
      vim.lsp.codelens.get(b))
  end
  -- what the documented autocommand does when the user enters the buffer
  local function lenses_with(text)
    return vim.wait(30000, function()
      vim.api.nvim_exec_autocmds('BufEnter', { buffer = b })
      vim.wait(300)
      for _, t in ipairs(titles()) do
        if t[2] and t[2]:find(text, 1, true) then return true end
      end
      return false
    end, 50)
  end
  lenses_with('Preview catalog')
  r.lenses_before = titles()
  vim.cmd('PuppetFacts rhel9')
  lenses_with('(rhel9)')
  r.lenses_after = titles()
  vim.api.nvim_win_set_cursor(0, { r.lenses_after[1][1] + 1, 0 })
  vim.lsp.codelens.run()
  vim.wait(30000, function() return vim.api.nvim_buf_get_name(0):find('catalog%.txt$') ~= nil end, 50)
  r.catalog_name = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(0), ':t')
  r.catalog = vim.api.nvim_buf_get_lines(0, 0, -1, false)
end)
if not ok then r.error = tostring(err) end
local f = io.open(os.getenv('LSP_OUT'), 'w')
f:write(vim.fn.json_encode(r))
f:close()
vim.cmd(ok and 'qall!' or 'cquit 3')
