;; format Puppet files with puppet-ls when saving (after the Eglot set-up above)
(add-hook 'puppet-mode-hook
          (lambda () (add-hook 'before-save-hook #'eglot-format-buffer nil t)))
