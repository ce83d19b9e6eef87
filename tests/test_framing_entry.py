"""The default camera never opens a step on empty ground: when everyone who acts in a step comes
in during it (獻大夫: 大夫若有遵者則入門左), the step's frame (Model.step_bounds, which the
window and the page both use) is not their place of entry alone while others stand elsewhere
in the school; the stage is framed, the people there with the ground the newcomers enter on."""
from __future__ import annotations

import numpy as np
import pytest

from viz.draw.compose import Model


def _inside(xy, b) -> np.ndarray:
    return ((xy >= b[:2]) & (xy <= b[2:])).all(axis=1)


@pytest.mark.slow  # every step of the whole rite
def test_no_step_opens_on_empty_ground_while_people_stand_in_the_school(bundled):
    m = Model(bundled.layout, bundled.timeline, bundled.corpus)
    tl = bundled.timeline
    checked = []
    for k, st in enumerate(tl.steps):
        f0, f1 = tl.sample(st.t0), tl.sample(st.t1, True)
        if not ((~f0.present) & f1.present).any():
            continue  # nobody comes in: the frame follows people already there
        b = m.step_bounds(k)
        checked.append((k, b))
        if b is None:
            continue
        here = f0.xy[f0.present]
        here = here[m._in_main(here)]  # noqa: SLF001
        assert not len(here) or _inside(here, np.asarray(b)).any(), (k, st.cite, b)
    assert len(checked) >= 5
    k = next(k for k, st in enumerate(tl.steps) if st.cite == "大夫若有遵者則入門左")
    assert tl.stages[tl.steps[k].stage].name == "獻大夫" and k == tl.stages[tl.steps[k].stage].first_step
    assert m.step_bounds(k) is None  # the stage: the hall's people, and the gate
    # a scene that begins away from the school keeps its own framing: 速賔's return to the gate
    back = next(k for k, st in enumerate(tl.steps) if st.cite == "賔及衆賔遂從之")
    assert m.step_bounds(back) is not None
