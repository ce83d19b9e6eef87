"""Showing a frame: display-list primitives, the scene builder, the camera, the pygame back end."""
