;;; e2e.el --- headless Emacs + Eglot end to end against puppet-ls  -*- lexical-binding: t -*-
;; Opens FILE in puppet-mode, connects Eglot, and records what Emacs shows: Flymake's
;; diagnostics, the hover text Eglot gives ElDoc, and the candidates of completion-at-point.
;; Usage: LSP_CMD='["puppet-ls","--stdio"]' LSP_OUT=out.json HOVER_POS=8:17 COMPLETION_POS=8:16 \
;;          emacs --batch -q -l e2e.el FILE.pp      (positions 0-based line:column)
;; -q, not -Q: -Q also skips Debian's site-start, and then elpa-eglot is not found.
(require 'package)
(package-initialize)
(require 'json)
(require 'eglot)
(require 'flymake)
(unless (require 'puppet-mode nil t)   ; Debian: elpa-puppet-mode; without it, a bare mode
  (define-derived-mode puppet-mode prog-mode "Puppet"))
(add-to-list 'auto-mode-alist '("\\.pp\\'" . puppet-mode))

(defun e2e--goto (var)
  "Move point to the 0-based \"line:col\" in environment variable VAR."
  (let ((spec (split-string (getenv var) ":")))
    (goto-char (point-min))
    (forward-line (string-to-number (car spec)))
    (forward-char (string-to-number (cadr spec)))))

(defun e2e--wait (pred seconds)
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (funcall pred)))

(let* ((cmd (append (json-read-from-string (getenv "LSP_CMD")) nil))
       (out (getenv "LSP_OUT"))
       (file (car (last command-line-args)))
       (result (list (cons 'emacs emacs-version)
                     (cons 'eglot (or (ignore-errors (package-desc-version (cadr (assq 'eglot package-alist)))) "built-in"))))
       (rc 0))
  (setq command-line-args-left nil)     ; batch mode must not visit FILE again
  (add-to-list 'eglot-server-programs (cons 'puppet-mode cmd))
  (setq eglot-sync-connect t)
  (condition-case err
      (let ((buf (find-file-noselect file)))
        (switch-to-buffer buf)            ; Eglot answers ElDoc only for a displayed buffer
        (push (cons 'major-mode (symbol-name major-mode)) result)
        (apply #'eglot (eglot--guess-contact))
        (push (cons 'managed (and (eglot-managed-p) t)) result)
        ;; Flymake never starts by itself in batch mode (it waits for post-command-hook)
        (e2e--wait (lambda () (flymake-start) (flymake-diagnostics)) 15)
        (push (cons 'diagnostics
                    (vconcat (mapcar (lambda (d)
                                       (save-excursion
                                         (goto-char (flymake-diagnostic-beg d))
                                         (list (cons 'line (1- (line-number-at-pos)))
                                               (cons 'column (current-column))
                                               (cons 'type (format "%s" (flymake-diagnostic-type d)))
                                               (cons 'text (flymake-diagnostic-text d)))))
                                     (flymake-diagnostics))))
              result)
        (push (cons 'hover_provider (and (eglot--server-capable :hoverProvider) t)) result)
        (push (cons 'completion_provider (and (eglot--server-capable :completionProvider) t)) result)
        ;; hover: what Eglot hands to ElDoc at point
        (e2e--goto "HOVER_POS")
        (let ((hover 'pending))
          (when (eglot-hover-eldoc-function (lambda (info &rest _) (setq hover info)))
            (e2e--wait (lambda () (not (eq hover 'pending))) 15))
          (push (cons 'hover (if (stringp hover) (substring-no-properties hover) nil)) result))
        ;; completion: the candidates completion-at-point would offer at point
        (e2e--goto "COMPLETION_POS")
        (let ((capf (eglot-completion-at-point)))
          (push (cons 'completion
                      (vconcat (and capf (mapcar #'substring-no-properties (all-completions "" (nth 2 capf))))))
                result))
        (eglot-shutdown (eglot-current-server)))
    (error (setq rc 3) (push (cons 'error (error-message-string err)) result)))
  (with-temp-file out (insert (json-encode result)))
  (kill-emacs rc))
