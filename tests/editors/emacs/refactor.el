;;; refactor.el --- headless Emacs + Eglot: rename and a quick fix against puppet-ls  -*- lexical-binding: t -*-
;; Opens FILE in puppet-mode, connects Eglot, renames the symbol at RENAME_POS to RENAME_TO with
;; `eglot-rename', then asks for the quick fixes at QUICKFIX_POS with `eglot-code-actions' and
;; applies the first one's edit as Eglot does once an action is picked; records the buffer after
;; each step.  (Picking from the menu needs a user: the choice is made here, Eglot applies it.)
;; Usage: LSP_CMD='["puppet-ls","--stdio"]' LSP_OUT=out.json RENAME_POS=2:3 RENAME_TO=welcome \
;;          QUICKFIX_POS=4:16 emacs --batch -q -l refactor.el FILE.pp      (0-based line:column)
(require 'package)
(package-initialize)
(require 'json)
(require 'eglot)
(unless (require 'puppet-mode nil t)
  (define-derived-mode puppet-mode prog-mode "Puppet"))
(add-to-list 'auto-mode-alist '("\\.pp\\'" . puppet-mode))

(defun refactor--goto (var)
  "Move point to the 0-based \"line:col\" in environment variable VAR."
  (let ((spec (split-string (getenv var) ":")))
    (goto-char (point-min))
    (forward-line (string-to-number (car spec)))
    (forward-char (string-to-number (cadr spec)))))

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
        (refactor--goto "RENAME_POS")
        (eglot-rename (getenv "RENAME_TO"))
        (push (cons 'after_rename (buffer-substring-no-properties (point-min) (point-max))) result)
        (refactor--goto "QUICKFIX_POS")
        (let* ((actions (eglot-code-actions (point) (point) "quickfix"))
               (chosen (seq-find (lambda (a) (plist-get a :edit)) actions)))
          (push (cons 'quickfix_titles (vconcat (mapcar (lambda (a) (plist-get a :title)) actions))) result)
          (when chosen (eglot--apply-workspace-edit (plist-get chosen :edit))))
        (push (cons 'after_fix (buffer-substring-no-properties (point-min) (point-max))) result)
        (eglot-shutdown (eglot-current-server)))
    (error (setq rc 3) (push (cons 'error (error-message-string err)) result)))
  (with-temp-file out (insert (json-encode result)))
  (kill-emacs rc))
