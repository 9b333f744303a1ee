"""Whether a rendered image is blank: the check behind tools/check_image.py.

The background is the most common colour of the image; a pixel counts as
foreground when some channel (colour or alpha) differs from it by more than
a tolerance on a 0-1 scale. Needs numpy and matplotlib (to read PNG).
"""

import os

import numpy as np

DEFAULT_MIN_FRACTION = 0.005
DEFAULT_TOLERANCE = 0.1


class ImageError(ValueError):
    """The image is missing or cannot be read."""


def read_pixels(path):
    """The image as a float array [height, width, channels] scaled to 0-1."""
    if not os.path.isfile(path):
        raise ImageError(f"{path}: no such file")
    import matplotlib.image
    try:
        image = matplotlib.image.imread(path)
    except Exception as error:  # PIL and matplotlib raise various types
        raise ImageError(f"{path}: cannot read as an image ({error})") from None
    image = np.asarray(image)
    if image.dtype.kind in "ui":
        image = image / np.iinfo(image.dtype).max
    if image.ndim == 2:
        image = image[:, :, np.newaxis]
    if image.ndim != 3 or image.size == 0:
        raise ImageError(f"{path}: unexpected image shape {image.shape}")
    return image.astype(np.float32)


def background_colour(pixels):
    """The most common colour (channels quantised to 8 bits)."""
    channels = pixels.shape[2]
    flat = np.round(pixels.reshape(-1, channels) * 255).astype(np.uint64)
    packed = np.zeros(len(flat), dtype=np.uint64)  # one integer per colour
    for c in range(channels):
        packed = (packed << np.uint64(8)) | flat[:, c]
    values, counts = np.unique(packed, return_counts=True)
    mode = int(values[np.argmax(counts)])
    colour = [(mode >> (8 * (channels - 1 - c))) & 0xFF for c in range(channels)]
    return np.array(colour, dtype=np.float32) / 255


def foreground_fraction(pixels, background, tolerance=DEFAULT_TOLERANCE):
    """Fraction of pixels with some channel farther than `tolerance` from the background."""
    differs = (np.abs(pixels - background) > tolerance).any(axis=2)
    return float(differs.mean())


def image_foreground(path, tolerance=DEFAULT_TOLERANCE):
    """(fraction of foreground pixels, background colour) of an image file."""
    pixels = read_pixels(path)
    background = background_colour(pixels)
    return foreground_fraction(pixels, background, tolerance), background


def is_blank(path, min_fraction=DEFAULT_MIN_FRACTION, tolerance=DEFAULT_TOLERANCE):
    """Whether fewer than `min_fraction` of the pixels differ from the background."""
    return image_foreground(path, tolerance)[0] < min_fraction
