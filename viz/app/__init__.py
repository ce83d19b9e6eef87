"""The window: App, its input, readings, drum. Imports the back ends and below."""
