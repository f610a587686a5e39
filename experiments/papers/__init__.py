"""One subpackage per seed paper: its study definition, verdicts, report and figure specs, and
the ``reproduce_<paper>`` function behind ``mctslab reproduce <paper>``. They use the machinery
of ``experiments`` (``curves``, ``studies``, ``tournaments``, ``runtime``); nothing in the
machinery imports them but the CLI."""
