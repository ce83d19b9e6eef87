"""The back ends that draw display layers: pygame (window, PNG) and SVG, and the bundled font. Imports viz.draw and below."""
