"""Files made from the rite: shot (PNG), plates, video, cue sheets, the atlas, the web page.
Imports the back ends and below.

The modules, one a line:
    shot      one composed frame (plan, text panel, timeline bar) as a PNG
    plate     one moment as a printed 禮圖 plate, PNG and SVG
    video     the rite as an MP4, frames piped raw to ffmpeg
    sheets    a role's cue sheet (md, csv, html)
    atlas     a plate per stage beside its text, an offline HTML folder
    web       the rite as one self-contained HTML page
    common    what the exports share: progress, papers, the font beside a page, write_all
"""
