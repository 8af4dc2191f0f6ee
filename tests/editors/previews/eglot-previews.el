;; M-x puppet-ls-select-fact-set: the fact set previews use (a built-in set or a facts file)
(defun puppet-ls-select-fact-set (facts)
  (interactive (list (completing-read "Fact set or facts file (empty: none): "
                                      '("debian12" "ubuntu2404" "rhel9" "windows2022"))))
  (let* ((conf (copy-tree (default-value 'eglot-workspace-configuration)))
         (puppet (plist-get conf :puppet))
         (previews (plist-put (copy-tree (plist-get puppet :previews)) :facts facts)))
    (setq-default eglot-workspace-configuration
                  (plist-put conf :puppet (plist-put puppet :previews previews))))
  (eglot-signal-didChangeConfiguration (eglot--current-server-or-lose)))

;; M-x puppet-ls-preview-catalog: the catalog of a class of this (saved) file, in a buffer
(defun puppet-ls-preview-catalog (class)
  (interactive (list (read-string "Class: " (save-excursion
                                              (goto-char (point-min))
                                              (and (re-search-forward "^class +\\([a-z0-9_:]+\\)" nil t)
                                                   (match-string 1))))))
  (let ((answer (eglot-execute-command
                 (eglot--current-server-or-lose) "puppet-ls.previewCatalog"
                 (vector (list :uri (eglot--path-to-uri (buffer-file-name)) :class class :show "client")))))
    (with-current-buffer (get-buffer-create (format "*catalog %s*" class))
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (or (plist-get answer :text) (plist-get answer :error) "")))
      (special-mode)
      (display-buffer (current-buffer)))))
