;; Emacs 29+ (Eglot built in) or Emacs 28 with Eglot (Debian: elpa-eglot): in ~/.emacs.d/init.el
;; puppet-mode comes from MELPA or Debian's elpa-puppet-mode.
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(puppet-mode . ("puppet-ls" "--stdio"))))
(add-hook 'puppet-mode-hook #'eglot-ensure)
