"""鄉射禮 visualiser: model (layout, script, timeline) apart from the things that show it."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
LAYOUTS = ROOT / "layouts"
DEFAULT_LAYOUT = LAYOUTS / "xu.yaml"
DEFAULT_SCRIPT = ASSETS / "rites" / "xiangshe"
