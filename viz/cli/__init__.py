"""The command line: main builds the parser from the subcommand modules; options is shared by them and imports none. Nothing imports viz.cli."""
