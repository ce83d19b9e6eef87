"""What a frame, a plate or a sheet shows, as layers of display primitives (viz.draw.display),
from a moment of the model. Imports viz.model, viz.query and below; never pygame. The functions give the same
primitives for the same inputs, but several remember the last frames to look up what did not
change (viewmemo, person's columns, formations' and tags' memos), and tags.last_drawn reports
the names the last frame drew; a caller sees those caches only through their answers.

The modules, one a line:
    compose       the entry point: one moment of the rite as the window's layers (plan, people, insets, HUD)
    extent        where the action is: the site's, the range's, each stage's and step's extents
    marks         what the view's choices add: the selected person's trail, ghosts, a second reading
    overlays      the legend and the scale bar kept off people and names: stay, move, shrink or fold
    camera        尺 ↔ pixels: north up, fit, zoom, pan, the range's breaks
    display       the primitives (Circle, Line, Polygon, Text, Rect, Sprite) and Layer
    scene         the plan's index: the people's tokens with their tags (actors), and the names below
    options       what a view asks of the plan (SceneOptions), its inks and level of detail
    hall          the buildings and furniture, the 侯 laid flat, the names of features and places
    range_marks   the line of flight, the range's breaks, the 乏's distances
    person        a person's token and nose, what he holds as glyphs, a frame's per-person columns
    formations    people of one body standing together: dots and one name
    props         props as small objects, set down as objects and as tags
    tags          the placed tags: bows, what is held, speech, props set down, with leader lines
    bounds        the ground each view frames: the school, the range, the whole, elsewhere
    scalebar      the scale bar and north arrow
    viewmemo      what each view remembers of its last frame
    clusters      single-linkage clusters (union-find): formations, heaps of arrows
    dress         what a person wears on his token, a bow strung or unstrung
    things        which of the layout's things are set out at a moment
    trails        where people walked, and their moves as a drill chart draws them
    ghosts        a person's trail, a step ago, a second reading over the first
    inset         the range inset's arrows (hits and misses) and the 乏's name
    labels        label placement clear of tokens and of one another
    labels_paper  labels placed for paper (plates, sheets), clear of leaders; a room's things in it
    leaders       whether a leader line runs through boxes (a binary search over its points)
    hud           the screen's panels: the text panel, the legend, the HUD's parts
    hudbase       the HUD's colours, type, the UI scale and where the map, panel and bar go
    timebar       the timeline bar: the stages as bands, the play line
    scorepanel    the score panel: the round under way, the 算 laid each side
    overmap       what opens over the map: the stage list, the search box, help, reload errors
    plate         a moment as a printed 禮圖 plate (or as the window draws it): plate_layers
    plate_parts   a stage's plates (Part), cut between phases of the text
    plate_page    a plate's paper and ink, where its parts go, what ground it frames
    plate_people  the people on a plate by name, the props and arrows lying about, the moves
    plate_side    the column beside the plan: the text cited and the numbered moves
    plate_legend  a plate's scale bar, north arrow and legend
"""
