"""The tree image from Python against kdop pack: the same bytes, decoded to the same fields."""
import numpy as np
import pytest

import kdopcd


@pytest.mark.parametrize("bits,vertex_bits,bus_width", [(18, 24, 64), (12, 30, 256)])
def test_image_bytes_equal_kdop_pack(kdop, cow_path, cow_tree, tmp_path, bits, vertex_bits, bus_width):
    kdop("pack", cow_path, "--out", tmp_path / "cow.img", "--bits", bits, "--vertex-bits", vertex_bits,
         "--bus-width", bus_width)
    packed = (tmp_path / "cow.img").read_bytes()
    image = kdopcd.make_tree_image(cow_tree, b=bits, v=vertex_bits, bus_width=bus_width)
    assert image.encode() == packed
    assert image == kdopcd.read_tree_image(str(tmp_path / "cow.img"))
    assert image.total_bytes == len(packed)
    # The decoded fields are the tree's: its structure, and coefficients that bound the DOPs.
    np.testing.assert_array_equal(image.nodes, cow_tree.nodes)
    np.testing.assert_array_equal(image.centre, cow_tree.centre)
    assert image.coefficients.shape == (cow_tree.node_count, 24)
    assert np.abs(image.coefficients).max() <= 2**bits
    assert image.triangles.shape == (cow_tree.mesh.triangle_count, 9)


def test_corrupt_image_raises(cow_tree, tmp_path):
    data = bytearray(kdopcd.make_tree_image(cow_tree).encode())
    data[200] ^= 1
    with pytest.raises(ValueError, match="^cow image: .*checksum"):
        kdopcd.decode_tree_image(bytes(data), "cow image")
    with pytest.raises(ValueError, match="^short: "):
        kdopcd.decode_tree_image(bytes(data[:50]), "short")
    with pytest.raises(ValueError):
        kdopcd.make_tree_image(cow_tree, bus_width=48)
    kdopcd.write_tree_image(str(tmp_path / "x.img"), kdopcd.make_tree_image(cow_tree))
    assert kdopcd.read_tree_image(str(tmp_path / "x.img")) == kdopcd.make_tree_image(cow_tree)
