"""Files made from the rite: shot (PNG), plates, video, cue sheets, the atlas. Imports the back ends and below."""
