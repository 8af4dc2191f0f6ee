;;; eglot-drive.el --- the documented previews commands in Emacs + Eglot  -*- lexical-binding: t -*-
;; Usage: LSP_OUT=out.json emacs --batch -q -l init-eglot.el -l eglot-previews.el -l eglot-drive.el FILE.pp
;; Visits FILE (a class whose code depends on facts), waits for Eglot, switches the fact set with
;; `puppet-ls-select-fact-set', waits until the server uses it (puppet-ls.factSets), then runs
;; `puppet-ls-preview-catalog' and records the catalog buffer's text.
(require 'package)
(package-initialize)
(require 'json)
(let ((out (getenv "LSP_OUT"))
      (file (car (last command-line-args)))
      (result nil)
      (rc 0))
  (setq command-line-args-left nil)
  (condition-case err
      (progn
        (switch-to-buffer (find-file-noselect file))
        (run-hooks 'post-command-hook)        ; what the command loop does after each command
        (let ((deadline (+ (float-time) 15)))
          (while (and (not (and (fboundp 'eglot-managed-p) (eglot-managed-p))) (< (float-time) deadline))
            (accept-process-output nil 0.05)))
        (push (cons 'managed (and (fboundp 'eglot-managed-p) (eglot-managed-p) t)) result)
        (puppet-ls-select-fact-set "rhel9")
        (let ((deadline (+ (float-time) 15)) (current nil))
          (while (and (not (equal current "rhel9")) (< (float-time) deadline))
            (setq current (plist-get (eglot-execute-command (eglot-current-server) "puppet-ls.factSets" [])
                                     :current))
            (unless (equal current "rhel9") (accept-process-output nil 0.1)))
          (push (cons 'facts current) result))
        (puppet-ls-preview-catalog "lensdemo")
        (push (cons 'catalog (with-current-buffer "*catalog lensdemo*"
                               (list (buffer-string) (symbol-name major-mode) buffer-read-only)))
              result)
        (eglot-shutdown (eglot-current-server)))
    (error (setq rc 3) (push (cons 'error (error-message-string err)) result)))
  (with-temp-file out (insert (json-encode result)))
  (kill-emacs rc))
