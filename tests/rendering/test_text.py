"""Text on the pictures: drawn word by word from inked words kept for reuse, it must
give exactly the pixels Pillow gives drawing the whole line on the felt, whatever the
names and numbers in it, and measure exactly as wide (a picture's width is worked out
from its lines' lengths)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from rendering.palette import BACKGROUND, INKS, PALETTE, canvas, font, length, write

LETTERS = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    "áéíóúñüçãõâêôàÁÉÑÇÃÕßöäÖÄЖжλΩ·,.:;!?'\"()-_/|&%#@…—"
)
"""Letters of English, Spanish and Portuguese names and messages, a few of other
scripts, and the punctuation the wording uses."""

words = st.text(alphabet=LETTERS, min_size=0, max_size=10)
lines = st.lists(words, min_size=1, max_size=9).map(" ".join)
"""Lines of words, some empty: two spaces in a row, or a space at an end."""

SIZES = (14, 16, 18, 20)


def drawn_by_pillow(
    size: tuple[int, int], xy: tuple[int, int], text: str, points: int, ink: tuple[int, int, int]
) -> bytes:
    """The line drawn whole by ``ImageDraw.text`` on the felt, mapped onto the palette."""
    felt = Image.new("RGB", size, BACKGROUND)
    ImageDraw.Draw(felt).text(xy, text, fill=ink, font=font(points))
    return felt.quantize(palette=PALETTE, dither=Image.Dither.NONE).tobytes()


@settings(max_examples=300, deadline=None)
@given(lines, st.sampled_from(SIZES), st.sampled_from(INKS), st.integers(0, 40))
def test_a_line_drawn_word_by_word_has_the_pixels_of_the_whole_line(
    line: str, points: int, ink: tuple[int, int, int], x: int
) -> None:
    size = (int(font(points).getlength(line)) + x + 40, 3 * points)
    image = canvas(size)
    write(image, (x, 4), line, points, ink)
    assert image.tobytes() == drawn_by_pillow(size, (x, 4), line, points, ink)


@settings(max_examples=300, deadline=None)
@given(lines, st.sampled_from(SIZES))
def test_a_line_is_as_long_as_its_words_and_spaces(line: str, points: int) -> None:
    assert length(line, points) == font(points).getlength(line)


def test_a_word_met_again_at_another_fraction_of_a_pixel_is_drawn_there() -> None:
    """The same word after pens of different lengths: each time where the whole line
    would put it, not where it was first inked."""
    for before in ("i", "ii", "m", "mm", "W.", "Zoë"):
        line = f"{before} Scores: Ann 12 · Bob 7"
        size = (400, 40)
        image = canvas(size)
        write(image, (10, 6), line, 18, INKS[1])
        assert image.tobytes() == drawn_by_pillow(size, (10, 6), line, 18, INKS[1])


def contrast(first: tuple[int, int, int], second: tuple[int, int, int]) -> float:
    """WCAG 2.1's contrast ratio of two sRGB colours (1 to 21)."""

    def luminance(colour: tuple[int, int, int]) -> float:
        linear = [c / 255 / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4
                  for c in colour]  # fmt: skip
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_every_ink_reads_on_the_felt_at_the_contrast_text_needs() -> None:
    """WCAG 2.1's 1.4.3 holds pictures of text to 4.5:1: every colour text is written
    in, the smallest labels too (a dead arm's mark, a player who withdrew), against the
    felt it is always written on. The red of those marks was 3.1:1."""
    for ink in INKS:
        assert contrast(ink, BACKGROUND) >= 4.5, ink
