"""Below everything: located errors, the YAML reader, the parse cache, atomic writes. Imports
the standard library and third-party packages only.

The modules, one a line:
    errors    located errors: file, line and column of every problem in user input
    yamlsrc   YAML loading that remembers where each key, value and item came from, with limits
    cache     parsed and checked files kept on disk, keyed by their bytes and the program
    fileio    atomic writes, never over a user's file unless asked
    lang      the reader's language (zh, en) for what the program itself writes
    fontchoice  the font a rite names (manifest font:, fallback:), chosen at the command line
"""
