;;; save-and-report.el --- does format-on-save format with puppet-ls?  -*- lexical-binding: t -*-
;; Usage: LSP_OUT=out.json emacs --batch -q -l INIT.el -l FORMAT-ON-SAVE.el -l save-and-report.el FILE.pp
;; Visits FILE, waits for Eglot to manage it and for its diagnostics, saves it (before-save-hook
;; formats it) and records the file's text on disk.
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
        (run-hooks 'post-command-hook)        ; eglot-ensure connects on post-command-hook
        (let ((deadline (+ (float-time) 15)))
          (while (and (not (and (fboundp 'eglot-managed-p) (eglot-managed-p))) (< (float-time) deadline))
            (accept-process-output nil 0.05)))
        (push (cons 'managed (and (fboundp 'eglot-managed-p) (eglot-managed-p) t)) result)
        (let ((deadline (+ (float-time) 15)))
          (while (and (null (flymake-diagnostics)) (< (float-time) deadline))
            (flymake-start)
            (accept-process-output nil 0.05)))
        (set-buffer-modified-p t)             ; save-buffer saves only a modified buffer
        (save-buffer)
        (push (cons 'saved (with-temp-buffer (insert-file-contents file) (buffer-string))) result)
        (when (eglot-current-server)
          (eglot-shutdown (eglot-current-server))))
    (error (setq rc 3) (push (cons 'error (error-message-string err)) result)))
  (with-temp-file out (insert (json-encode result)))
  (kill-emacs rc))
