"""The rite's end in the "outside the rite" message is cut, not rounded: every time the message
allows is inside (鄉飲酒禮 ends at 7229.972 s: the message said 7230.0, and --at 7229.99 was refused)."""
from types import SimpleNamespace

import pytest

from viz.query.state import QueryError, resolve_moment, rite_end


@pytest.mark.parametrize("duration, shown", [(7229.972, "7229.97"), (10.0, "10.00"),
                                             (0.999, "0.99"), (21621.455, "21621.45")])
def test_the_end_is_cut_not_rounded(duration, shown):
    assert rite_end(duration) == shown
    assert float(shown) <= duration


def test_the_message_names_an_end_inside_the_rite():
    timeline = SimpleNamespace(duration=7229.972)
    with pytest.raises(QueryError) as e:
        resolve_moment(timeline, None, at=7229.98)
    assert "(0 to 7229.97 s)" in str(e.value)
    end = float(str(e.value).split("0 to ")[1].split(" s)")[0])
    assert resolve_moment(timeline, None, at=end).t == end
