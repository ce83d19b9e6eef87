"""The command line: main builds the parser from the subcommand modules; options holds what they
share and imports no other module of viz.cli. It may import every layer below. Nothing else in
viz/ imports viz.cli; main.py, tools/identity.py, bench/ (first_frame, run, export) and the
tests do.

The modules, one a line, with the subcommands each holds:
    main      the entry: the parser, built from the modules below, and main()
    options   what the subcommands share: the rite's options (--rite, --set …), loading it
    rite      play (the window), shot, state, check, score
    coverage  coverage
    text      text, find
    live      diff, and check --watch
    plate     plate
    export    video, sheet, atlas
    web       web
    new       new: a rite package drafted from one chapter of the text
    grid      check --strict over every rite × reading × scenario (python -m viz.cli.grid)
    words     the command line's own words in the reader's language (--help, argparse's)
"""
