"""One server per room (tournament.serving.one_server): the data folder's lock and the
address it records, and the port probe that granian's SO_REUSEPORT makes necessary."""

from __future__ import annotations

import socket

from tournament.serving import one_server


def test_a_held_data_folder_refuses_a_second_holder_and_tells_where_its_server_is(tmp_path):
    held = one_server.hold_data_folder(tmp_path / "data")
    assert held is not None
    try:
        one_server.record_server(tmp_path / "data", host="0.0.0.0", port=8123)
        assert one_server.hold_data_folder(tmp_path / "data") is None
        running = one_server.running_server(tmp_path / "data")
        assert running is not None
        assert (running["port"], running["url"]) == (8123, "http://127.0.0.1:8123")
    finally:
        held.close()
    # Let go (as when its process ends, killed or not): what it wrote no longer counts.
    assert one_server.running_server(tmp_path / "data") is None
    again = one_server.hold_data_folder(tmp_path / "data")
    assert again is not None
    again.close()


def test_a_folder_no_server_ever_used_has_no_running_server(tmp_path):
    assert one_server.running_server(tmp_path) is None
    assert not (tmp_path / one_server.LOCK_NAME).exists()  # asking made nothing


def test_a_port_someone_listens_on_is_in_use_even_with_so_reuseport():
    with socket.socket() as listening:
        if hasattr(socket, "SO_REUSEPORT"):  # as granian binds
            listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        listening.bind(("0.0.0.0", 0))
        listening.listen()
        port = listening.getsockname()[1]
        assert one_server.port_in_use("0.0.0.0", port)
        assert one_server.port_in_use("127.0.0.1", port)
    assert not one_server.port_in_use("0.0.0.0", port)
