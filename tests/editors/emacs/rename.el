;;; rename.el --- headless Emacs + Eglot: rename through puppet-ls  -*- lexical-binding: t -*-
;; Opens FILE in puppet-mode, connects Eglot, runs `eglot-rename' at RENAME_POS (0-based
;; "line:col") to NEW_NAME, and records the buffer's text after the edit.
;; Usage: LSP_CMD='["puppet-ls","--stdio"]' LSP_OUT=out.json RENAME_POS=8:17 NEW_NAME=x \
;;          emacs --batch -q -l rename.el FILE.pp
(require 'package)
(package-initialize)
(require 'json)
(require 'eglot)
(unless (require 'puppet-mode nil t)
  (define-derived-mode puppet-mode prog-mode "Puppet"))
(add-to-list 'auto-mode-alist '("\\.pp\\'" . puppet-mode))

(let* ((cmd (append (json-read-from-string (getenv "LSP_CMD")) nil))
       (out (getenv "LSP_OUT"))
       (file (car (last command-line-args)))
       (result nil)
       (rc 0))
  (setq command-line-args-left nil)
  (add-to-list 'eglot-server-programs (cons 'puppet-mode cmd))
  (setq eglot-sync-connect t)
  (condition-case err
      (let ((buf (find-file-noselect file)))
        (switch-to-buffer buf)
        (apply #'eglot (eglot--guess-contact))
        (push (cons 'rename_provider (and (eglot--server-capable :renameProvider) t)) result)
        (let ((spec (split-string (getenv "RENAME_POS") ":")))
          (goto-char (point-min))
          (forward-line (string-to-number (car spec)))
          (forward-char (string-to-number (cadr spec))))
        (eglot-rename (getenv "NEW_NAME"))
        (push (cons 'text (buffer-substring-no-properties (point-min) (point-max))) result)
        (eglot-shutdown (eglot-current-server)))
    (error (setq rc 3) (push (cons 'error (error-message-string err)) result)))
  (with-temp-file out (insert (json-encode result)))
  (kill-emacs rc))
