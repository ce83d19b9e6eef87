"""Below everything: located errors, the YAML reader, the parse cache, atomic writes. Imports the standard library and third-party packages only."""
