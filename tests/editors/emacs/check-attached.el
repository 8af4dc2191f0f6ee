;;; check-attached.el --- does a user's init start puppet-ls by itself?  -*- lexical-binding: t -*-
;; Usage: LSP_OUT=out.json emacs --batch -q -l INIT.el -l check-attached.el FILE.pp
;; Visits FILE (puppet-mode runs the user's hooks), lets one command loop turn pass (eglot-ensure
;; connects on post-command-hook), then records whether Eglot manages the buffer and Flymake's
;; diagnostics (and, with HOVER_AT, a hover).
(require 'package)
(package-initialize)
(require 'json)
(require 'flymake)
(let ((out (getenv "LSP_OUT"))
      (file (car (last command-line-args)))
      (result nil)
      (rc 0))
  (setq command-line-args-left nil)
  (condition-case err
      (progn
        (switch-to-buffer (find-file-noselect file))
        (push (cons 'major-mode (symbol-name major-mode)) result)
        (run-hooks 'post-command-hook)        ; what the command loop does after each command
        (let ((deadline (+ (float-time) 15)))
          (while (and (not (and (fboundp 'eglot-managed-p) (eglot-managed-p))) (< (float-time) deadline))
            (accept-process-output nil 0.05)))
        (push (cons 'managed (and (fboundp 'eglot-managed-p) (eglot-managed-p) t)) result)
        (let ((deadline (+ (float-time) 15)))
          (while (and (null (flymake-diagnostics)) (< (float-time) deadline))
            (flymake-start)
            (accept-process-output nil 0.05)))
        (push (cons 'diagnostics (vconcat (mapcar #'flymake-diagnostic-text (flymake-diagnostics)))) result)
        ;; HOVER_AT=line:col (0-based): the hover there once it mentions HOVER_EXPECT (the
        ;; workspace index is built after the server starts)
        (let ((at (getenv "HOVER_AT")) (expect (or (getenv "HOVER_EXPECT") "")) (hover nil))
          (when (and at (eglot-current-server))
            (let* ((lc (mapcar #'string-to-number (split-string at ":")))
                   (deadline (+ (float-time) 30)))
              (goto-char (point-min))
              (forward-line (nth 0 lc))
              (forward-char (nth 1 lc))
              (while (and (not (and hover (string-match-p (regexp-quote expect) hover)))
                          (< (float-time) deadline))
                (let* ((answer (jsonrpc-request (eglot-current-server) :textDocument/hover
                                                (eglot--TextDocumentPositionParams)))
                       (contents (and answer (plist-get answer :contents))))
                  (setq hover (cond ((stringp contents) contents)
                                    ((plist-get contents :value))
                                    (t nil))))
                (unless (and hover (string-match-p (regexp-quote expect) hover))
                  (accept-process-output nil 0.5))))
            (push (cons 'hover hover) result)))
        (when (eglot-current-server)
          (push (cons 'command (vconcat (process-command (jsonrpc--process (eglot-current-server))))) result)
          (eglot-shutdown (eglot-current-server))))
    (error (setq rc 3) (push (cons 'error (error-message-string err)) result)))
  (with-temp-file out (insert (json-encode result)))
  (kill-emacs rc))
