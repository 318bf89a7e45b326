"""The data folder, made when first needed, for this user only, or a clear error."""

from __future__ import annotations

import stat

import pytest
from django.core.exceptions import ImproperlyConfigured

from tournament.common.folders import make_folder


def test_a_missing_folder_is_made_with_its_parents_for_this_user_only(tmp_path):
    folder = tmp_path / "a" / "b"
    assert make_folder(folder) == folder
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert make_folder(folder) == folder  # already there: nothing to do


def test_a_folder_that_cannot_be_made_says_which_and_what_to_do(tmp_path):
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("")
    with pytest.raises(ImproperlyConfigured) as refused:
        make_folder(in_the_way / "var")
    assert str(refused.value).startswith(f"Cannot make the data folder {in_the_way / 'var'} (")
    assert "Set FIVETRICKS_DATA_DIR" in str(refused.value)
