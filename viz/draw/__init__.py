"""The pure composer: a moment of the model → layers of display primitives (scene, hud, camera, labels, trails, ghosts, plate layout). Imports the model and the queries; never pygame."""
