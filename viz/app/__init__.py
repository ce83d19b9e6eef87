"""The window: App, its input, readings, drum. Imports the back ends and below.

The modules, one a line:
    window     the App: keys and mouse change a View; a frame is compose + the pygame back end
    bindings   the keys as data: (key, modifier) → an action and its arguments
    pointer    the mouse: the bar scrubs, a clause jumps there, the map picks a person
    modes      the stage list (L, Tab) and the search box (/)
    classroom  what a teacher uses in front of a class: presenter steps, scale
    readings   R, V and Shift+R switch and compare readings; a saved file reloads
    speeds     the speeds the window plays at
    drum       the third round's drum, heard (D)
    nodisplay  is there a display to open a window on? asked before anything loads
"""
